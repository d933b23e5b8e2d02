"""The lobby: table codes, the table list, and sitting down at or getting up from a table.

:class:`Lobby` is a layer of :class:`server.app.Hub` (``class Hub(Lobby)``), built on
:class:`server.room.TableRoom` (a table that fills up starts its game there, one that
empties finishes it there). The hub's dispatch calls its request handlers with a
welcomed connection, its player and the request: ``_list_tables``, ``_create_table``,
``_join_table``, ``_watch_table``, ``_add_bot``, ``_leave``. They raise
:class:`server.connection.RequestError` to refuse, before anything has changed.
"""

from __future__ import annotations

import logging
import secrets

from engine import EngineError, RuleSet
from protocol import messages as m
from server.connection import Conn, RequestError
from server.limits import AddressLimits, LimitError
from server.logs import event
from server.room import TableRoom
from server.rulebounds import check_score_range
from server.tables import CODE_ALPHABET, Player, Seat, Table

__all__ = ["LIST_PAGE_SIZE", "Lobby"]

log = logging.getLogger("server")

LIST_PAGE_SIZE = 50
"""Tables in one ``table_list`` page (``list_tables`` asks for the next with ``offset``)."""


class Lobby(TableRoom):
    """Codes, listing, create/join/watch/add_bot/leave (a base class of :class:`server.app.Hub`)."""

    # what the lobby uses from the hub besides the room's (set in Hub.__init__)
    limits: AddressLimits
    seated: dict[str, set[str]]  # player id -> codes of tables they sat at
    unstored: dict[str, Player]
    _new_players: list[tuple[Player, str]]
    _list_cache: tuple[float | None, tuple[m.TableSummary, ...]]

    def _tables_of(self, player_id: str) -> list[Table]:
        """The tables where ``player_id`` sits (an index, not a scan of every table)."""
        codes = self.seated.get(player_id)
        if not codes:
            return []
        out = []
        for code in list(codes):
            table = self.tables.get(code)
            if table is None or table.seat_of(player_id) is None:
                codes.discard(code)  # seats are only ever added to the index: prune here
            else:
                out.append(table)
        return out

    def _sit(self, table: Table, index: int, player: Player) -> None:
        hashed = player.unstored_token_hash
        if hashed is not None:
            self.store.add_player_hashed(player.id, player.name, hashed)
            player.unstored_token_hash = None
            del self.unstored[hashed]
            self._new_players.append((player, hashed))
        table.seats[index] = Seat(kind="human", player_id=player.id, name=player.name)
        self.seated.setdefault(player.id, set()).add(table.code)

    def _table(self, code: str) -> Table:
        table = self.tables.get(code.upper())
        if table is None:
            raise RequestError("unknown_table", f"there is no table {code!r}")
        return table

    def _new_code(self) -> str:
        """A code no table has, in memory or in the store (a finished or closed table's
        rows stay there: reusing its code would mix two tables' action logs)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
            if code not in self.tables and self.store.load_table(code) is None:
                return code

    def _list_tables(self, conn: Conn, player: Player, message: m.ListTables) -> None:
        # built at most once per list_cache_seconds, whoever asks: listing every public
        # table for every request would let a few clients fill a core
        now = self.now
        built_at, summaries = self._list_cache
        if built_at is None or now - built_at >= self.config.list_cache_seconds:
            public = (t for t in self.tables.values() if not t.private and t.status != "closed")
            summaries = tuple(table.summary(self.players, now) for table in public)
            self._list_cache = (now, summaries)
        page = summaries[message.offset : message.offset + LIST_PAGE_SIZE]
        conn.send(m.TableList(tables=page, id=message.id))

    def _create_table(self, conn: Conn, player: Player, message: m.CreateTable) -> None:
        if len(self.tables) >= self.config.max_tables:  # finished tables hold memory too
            raise RequestError("server_full", "the server has as many tables as it can hold")
        try:
            self.limits.check_new_table(conn.address, self.tables.values(), message.bot is not None)
        except LimitError as error:
            raise RequestError("server_full", str(error)) from None
        mine = [t for t in self._tables_of(player.id) if t.status != "finished"]
        if len(mine) >= self.config.max_tables_per_player:
            raise RequestError("server_full", "you sit at as many tables as one player may")
        try:
            rules = RuleSet.preset(message.preset, **message.overrides)
            check_score_range(rules)
        except (EngineError, TypeError, ValueError) as error:
            raise RequestError("bad_rules", str(error)) from None
        table = Table(
            code=self._new_code(),
            private=message.private,
            preset=rules.preset_name(),
            rules=rules,
            on_hold_expiry=message.on_hold_expiry,
            hold_seconds=(
                message.hold_seconds
                if message.hold_seconds is not None
                else self.config.hold_seconds
            ),
            turn_seconds=message.turn_seconds,
        )
        table.address = conn.address
        index = message.seat if message.seat is not None else 0
        self._sit(table, index, player)
        if message.bot is not None:
            self.bots.warm()
            table.seats[1 - index] = Seat(
                kind="bot", name=f"bot ({message.bot})", bot_level=message.bot
            )
        # built before the table exists anywhere: a table whose messages cannot be built
        # fails here, loudly, never after an action
        created = self._snapshot(table, index, message.id)
        self.tables[table.code] = table
        self._save(table)
        log.info(
            "table %s: created (%s, %s)",
            table.code,
            table.preset or "custom rules",
            "private" if table.private else "open",
            extra=event("table.create", table=table.code, preset=table.preset, conn=conn.id),
        )
        conn.send(created)
        if not table.empty_seats():
            self._start_game(table)

    @staticmethod
    def _free_seat(table: Table, wanted: int | None) -> int:
        """The seat to fill: ``wanted`` if it is empty, else the first empty one.

        Raises ``seat_taken`` or ``table_full`` as a RequestError.
        """
        if wanted is not None:
            if table.seats[wanted].kind != "empty":
                raise RequestError("seat_taken", f"seat {wanted} is taken")
            return wanted
        empty = table.empty_seats()
        if not empty:
            raise RequestError("table_full", "both seats are taken")
        return empty[0]

    def _join_table(self, conn: Conn, player: Player, message: m.JoinTable) -> None:
        table = self._table(message.code)
        mine = table.seat_of(player.id)
        if mine is not None:
            conn.send(self._snapshot(table, mine, message.id))
            return
        index = self._free_seat(table, message.seat)
        self._sit(table, index, player)
        table.spectators.discard(conn)
        conn.watching.discard(table.code)
        if table.status == "finished":
            table.seats[index].rematch = False
        self._save(table)
        log.info("table %s: seat %d taken", table.code, index)
        conn.send(self._snapshot(table, index, message.id))
        self._send_update(table, skip=conn)
        if table.status == "waiting" and not table.empty_seats():
            self._start_game(table)

    def _watch_table(self, conn: Conn, player: Player, message: m.WatchTable) -> None:
        table = self._table(message.code)
        mine = table.seat_of(player.id)
        if mine is not None:
            conn.send(self._snapshot(table, mine, message.id))
            return
        table.spectators.add(conn)
        conn.watching.add(table.code)
        conn.send(self._snapshot(table, None, message.id))

    def _add_bot(self, conn: Conn, player: Player, message: m.AddBot) -> None:
        table = self._table(message.code)
        if table.seat_of(player.id) is None:
            raise RequestError("not_seated", "only a player seated at the table may add the bot")
        index = self._free_seat(table, message.seat)
        try:
            self.limits.check_bot(conn.address, self.tables.values())
        except LimitError as error:
            raise RequestError("server_full", str(error)) from None
        if table.address is None:
            table.address = conn.address  # the bot's work counts for who brought it
        self.bots.warm()
        table.seats[index] = Seat(
            kind="bot", name=f"bot ({message.level})", bot_level=message.level, rematch=True
        )
        self._save(table)
        log.info("table %s: bot (%s) in seat %d", table.code, message.level, index)
        mine = table.seat_of(player.id)
        conn.send(self._snapshot(table, mine, message.id))
        self._send_update(table, skip=conn)
        if table.status == "waiting":
            self._start_game(table)

    def _leave(self, conn: Conn, player: Player, message: m.Leave) -> None:
        table = self._table(message.code)
        if conn in table.spectators:
            table.spectators.discard(conn)
            conn.watching.discard(table.code)
            conn.send(m.Left(table=table.code, id=message.id))
            return
        index = table.seat_of(player.id)
        if index is None:
            raise RequestError("not_at_table", "you are not at this table")
        if table.status == "playing":
            self._finish(table, "forfeit", 1 - index)
        self._vacate(table, index)
        conn.send(m.Left(table=table.code, id=message.id))

    def _vacate(self, table: Table, index: int) -> None:
        task = table.hold_tasks.pop(index, None)
        if task is not None:
            task.cancel()
        table.seats[index] = Seat()
        log.info("table %s: seat %d left", table.code, index)
        if table.has_humans():
            self._save(table)
            self._send_update(table)
            return
        table.status = "closed"
        self._save(table)
        self._stop_tasks(table)
        for spectator in table.spectators:
            spectator.watching.discard(table.code)
            spectator.send(m.Left(table=table.code))
        table.spectators.clear()
        del self.tables[table.code]
        log.info("table %s: closed", table.code, extra=event("table.close", table=table.code))
