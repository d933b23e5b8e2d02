"""The registry of rooms: create, find, load and replay, and the one routine that removes
a table from memory.

    rooms = Rooms(config, store, bots, metrics, players, directory, touched=work.touched)
    room = rooms.create(table, address)          # a new table's room, not yet registered
    rooms.register(room)
    found = rooms.find("K7QX2M9A")               # a Room, or Elsewhere (cluster), or raises
    rooms.load_all()                             # at start: every table not closed
    rooms.remove(code)                           # dispose, tell its audience ``left``

``Rooms`` is also each room's :class:`~server.rooms.ports.RoomHost`: who is connected,
which players sit where (kept in step with the directory), and "this table wrote"
(the unit of work's ``touched``). Loading rebuilds a game from its stored actions; a
table whose stored data cannot be read or replayed is left out and logged by code.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from protocol import messages as m
from server.accounts.rating import GameEnd
from server.bots import BotRunner
from server.config import ServerConfig
from server.errors import RequestError
from server.lobby.churn import Churn
from server.lobby.players import Players
from server.rooms.clock import LoopClock
from server.rooms.ports import Clock, Listener, RoomMetrics
from server.rooms.room import Room
from server.rooms.table import CODE_ALPHABET, Table
from server.store import Storage, StoreError, TableRow

__all__ = ["Elsewhere", "Rooms", "RoomsDirectory"]

log = logging.getLogger("server")


@dataclass(frozen=True)
class Elsewhere:
    """A table this node does not run (in a cluster, another node may): a value the
    gateway routes, never an exception."""

    code: str


class RoomsDirectory(Protocol):
    """What the registry tells the directory (:class:`server.cluster.directory.Directory`)."""

    @property
    def spans_nodes(self) -> bool:
        """Whether a table missing here may be run by another node."""
        ...

    def seated(self, player_id: str, code: str) -> None: ...

    def unseated(self, player_id: str, code: str) -> None: ...

    def forgotten(self, code: str) -> None:
        """Table ``code`` is closed: no node runs it any more."""
        ...


class Rooms:
    """Every live room of this server (see the module)."""

    def __init__(
        self,
        config: ServerConfig,
        store: Storage,
        bots: BotRunner,
        metrics: RoomMetrics,
        players: Players,
        directory: RoomsDirectory,
        touched: Callable[[str], None],
        clock: Callable[[], Clock] = LoopClock,
    ) -> None:
        self.config = config
        self.store = store
        self.bots = bots
        self.metrics = metrics
        self.players = players
        self.directory = directory
        self._touched = touched
        self._clock = clock
        self.rooms: dict[str, Room] = {}
        self.closing = False
        self._bot_slots: dict[str, asyncio.Semaphore] = {}
        self.churn = Churn(config)  # creations and forfeits, per address and player
        self._unkept: dict[str, str] = {}  # record id -> record JSON (unplayed, in memory)
        self._unkept_of: dict[str, str] = {}  # table code -> its unkept record's id
        self.game_ended: Callable[[GameEnd], object] = lambda end: None  # server/accounts

    def __len__(self) -> int:
        return len(self.rooms)

    def __iter__(self) -> Iterator[Room]:
        return iter(list(self.rooms.values()))

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code)

    # ---- RoomHost ---------------------------------------------------------------------

    def listener_of(self, player_id: str) -> Listener | None:
        player = self.players.get(player_id)
        return None if player is None else player.conn

    def touched(self, code: str) -> None:
        self._touched(code)

    def seated(self, player_id: str, code: str) -> None:
        if code not in self.rooms:  # creating a table: not after many games given up
            self.churn.check_player(player_id, time.monotonic())
        player = self.players.get(player_id)
        if player is not None:
            self.players.keep(player)
        self.players.seat(player_id, code)
        if code in self.rooms:  # a new table's seats go to the directory with its claim
            self.directory.seated(player_id, code)

    def unseated(self, player_id: str, code: str) -> None:
        self.players.unseat(player_id, code)
        self.directory.unseated(player_id, code)

    def closed(self, code: str) -> None:
        self.remove(code)

    def is_live(self, code: str, room: object) -> bool:
        return self.rooms.get(code) is room

    def bot_slot(self, address: str) -> asyncio.Semaphore:
        slot = self._bot_slots.get(address)
        if slot is None:
            slot = self._bot_slots[address] = asyncio.Semaphore(
                self.config.bot_decisions_per_address
            )
        return slot

    # ---- finding and making -----------------------------------------------------------

    def find(self, code: str) -> Room | Elsewhere:
        """The room of ``code`` (any case); :class:`Elsewhere` when a cluster may run it
        on another node; raises ``unknown_table`` on a server on its own."""
        room = self.rooms.get(code.upper())
        if room is not None:
            return room
        if self.directory.spans_nodes:
            return Elsewhere(code.upper())
        raise RequestError("unknown_table", f"there is no table {code!r}")

    def tables_of(self, player_id: str) -> list[Room]:
        """The rooms where ``player_id`` sits (an index, not a scan of every table)."""

        def sits_at(code: str) -> bool:
            room = self.rooms.get(code)
            return room is not None and room.seat_of(player_id) is not None

        return [self.rooms[code] for code in self.players.tables_of(player_id, sits_at)]

    def new_code(self) -> str:
        """A code no table has, in memory or in the store (a finished or closed table's
        rows stay there: reusing its code would mix two tables' action logs)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
            if code not in self.rooms and self.store.load_table(code) is None:
                return code

    def create(self, table: Table, address: str | None) -> Room:
        """A room for ``table``; ``address`` (a share) created it (``None``: loaded from
        the store, which kept the creator's share with the table).

        Raises ``rate_limited`` when ``address`` created too many tables lately or gave
        up too many games (:mod:`server.lobby.churn`)."""
        if address is not None:
            self.churn.check_create(address, time.monotonic())
        room = Room(table, self, self._clock())
        if address is not None:
            room.address = address
        room.forfeited = functools.partial(self._forfeited, room)
        room.ended = lambda end: self.game_ended(end)
        return room

    def _forfeited(self, room: Room, loser: str | None, record_id: str, unkept: str | None) -> None:
        """A game at ``room`` was given up by ``loser``: counted (against the creator's
        address too at a bot table); a record nobody played (``unkept``) is kept in
        memory until the table leaves it, never stored."""
        bot_table = any(seat.kind == "bot" for seat in room.seats)
        self.churn.forfeited(loser, room.address if bot_table else None, time.monotonic())
        if unkept is not None:
            self._forget_unkept(room.code)
            self._unkept_of[room.code] = record_id
            self._unkept[record_id] = unkept

    def _forget_unkept(self, code: str) -> None:
        record_id = self._unkept_of.pop(code, None)
        if record_id is not None:
            self._unkept.pop(record_id, None)

    def unkept_record(self, record_id: str) -> str | None:
        """The record of a live table's game given up unplayed (JSON), or ``None``."""
        return self._unkept.get(record_id)

    def register(self, room: Room) -> None:
        self.rooms[room.code] = room

    # ---- the one way out of memory ----------------------------------------------------

    def remove(self, code: str, say_left: bool = True) -> list[Listener]:
        """Forget table ``code`` in memory: its timers end, its audience hears ``left``
        (unless ``say_left`` is false: they are about to be sent elsewhere) and stops
        watching. Returns that audience. A closed table leaves the directory too."""
        room = self.rooms.pop(code, None)
        if room is None:
            return []
        self._forget_unkept(code)
        room.dispose()
        audience = [listener for _, listener in room.audience()]
        for listener in audience:
            listener.watching.discard(code)
            if say_left:
                listener.send(m.Left(table=code))
        for listener in list(room.spectators):
            room.remove_spectator(listener)
        if room.status == "closed":
            self.directory.forgotten(code)
        return audience

    def dispose_all(self) -> None:
        """Every room's timers end (the server is closing; memory goes with it)."""
        for room in self.rooms.values():
            room.dispose()

    # ---- loading ----------------------------------------------------------------------

    def load_all(self) -> None:
        """Load every table that is not closed and rebuild its game from its actions; a
        table whose stored data cannot be read or replayed is left out (logged by code)."""
        bad: list[str] = []
        for row in self.store.load_tables():
            room = self.load_row(row)
            if room is None:
                bad.append(row.code)
                continue
            self.rooms[room.code] = room
            log.info(
                "table %s: loaded (%s, game %d, version %d)",
                room.code,
                room.status,
                room.game_no,
                room.state.version,
            )
        if bad:
            log.error("%d stored tables could not be loaded: %s", len(bad), ", ".join(bad))
        for room in list(self.rooms.values()):
            room.resume()

    def load_row(self, row: TableRow) -> Room | None:
        """The room of a stored row with its game replayed, or ``None`` (logged) if the
        row is damaged: bad JSON, missing fields, bad rules, actions that do not replay."""
        try:
            room = self.create(Table.from_data(row.code, row.data, row.status, row.game_no), None)
            room.replay()
            room.info(None, 0.0)  # its messages can be built
        except Exception as error:
            # the error's kind only: its text may name a card of the stored game
            log.error(
                "table %s: stored data is damaged, not loaded: %s", row.code, type(error).__name__
            )
            return None
        for seat in room.seats:
            if seat.kind == "human" and seat.player_id is not None:
                self.players.known(seat.player_id, seat.name or "?")
                self.players.seat(seat.player_id, row.code)
        return room

    # ---- after a lost commit ----------------------------------------------------------

    def restore_or_drop(self, code: str) -> None:
        """Bring table ``code`` back to what the store has; while the store cannot even be
        read (a database server that is down), the table leaves memory instead, since
        memory may hold actions the store lost, and is loaded again once it answers."""
        try:
            self._restore(code)
        except StoreError as error:
            log.error("table %s: the store cannot give it back yet: %s", code, error)
            self.remove(code)
            if not self.closing:
                asyncio.get_running_loop().call_later(
                    self.config.store_retry_seconds, self._reload, code
                )

    def _reload(self, code: str) -> None:
        if code not in self.rooms and not self.closing:
            self.restore_or_drop(code)

    def _restore(self, code: str) -> None:
        """Restore the room, tell its audience, and let the game go on a little later (so
        a store that keeps failing is not retried in a loop)."""
        room = self.rooms.get(code)
        row = self.store.load_table(code)
        if room is None:
            if row is None or row.status == "closed":
                return
            room = self.load_row(row)
            if room is None:
                return
            self.rooms[code] = room
        elif row is None or row.status == "closed":
            self.remove(code)
            return
        else:
            stored = Table.from_data(row.code, row.data, row.status, row.game_no)
            for old, new in zip(room.seats, stored.seats, strict=True):
                if old.kind == new.kind == "human" and old.player_id == new.player_id:
                    new.hold_deadline, new.bot_standing_in = old.hold_deadline, old.bot_standing_in
            table = room.table
            table.seats, table.status = stored.seats, stored.status
            table.game_no, table.record_id = stored.game_no, stored.record_id
            room.replay()
        for index, seat in enumerate(room.seats):
            if seat.kind == "human" and seat.player_id is not None:
                self.players.seat(seat.player_id, code)
                room.start_hold(index)
        room.play.stop_timers()
        for viewer, listener in room.audience():
            listener.send(room.snapshot(viewer, None))
        asyncio.get_running_loop().call_later(self.config.store_retry_seconds, self._resume, code)

    def _resume(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is not None and room.status == "playing" and not room.clock.running("bot"):
            try:
                room.advance()
            except Exception as error:  # the store still fails: the next flush restores
                log.error("table %s: cannot go on yet: %s", code, error)
