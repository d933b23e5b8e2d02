"""One table's room: its game loop, from a request that changes the game to the messages.

Where to look for "what happens when a card is played": :meth:`TableRoom._act` checks the
request, :meth:`TableRoom._commit` applies it to the engine, stores it and tells every
seat and spectator (each from its own view), and :meth:`TableRoom._advance` moves the
table on: the entropy step before each hand, the next seat's prompt (and turn timer),
a bot's move, the end of the game. Holds for dropped seats, rematches and the entropy
exchange live here too.

:class:`TableRoom` is the innermost layer of :class:`server.app.Hub`
(``Hub(Lobby(TableRoom))``): it is called by the hub's dispatch with a welcomed connection
and a request, and its timers and bots run as hub tasks (``spawn``). What it uses from
the rest of the hub is declared at the top of the class: the store, the tables and
players, the bot runner, the clock, the task spawner, and the lobby's
``_table``/``_vacate``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from engine import (
    Action,
    Commit,
    Deal,
    HandScored,
    IllegalActionError,
    PlayerAction,
    Shuffle,
    game_record,
)
from protocol import convert
from protocol import messages as m
from protocol.codec import encode, encode_for
from protocol.errors import ConversionError
from server.bots import BotRunner
from server.config import ServerConfig
from server.connection import Conn, RequestError
from server.logs import event
from server.metrics import Metrics
from server.store import Storage, StoreError
from server.tables import Level, Player, Seat, Table

__all__ = ["TableRoom"]

log = logging.getLogger("server")


class TableRoom:
    """The game loop of every table of a hub (a base class of :class:`server.app.Hub`)."""

    # what the room uses from the hub (set in Hub.__init__)
    config: ServerConfig
    store: Storage
    bots: BotRunner
    metrics: Metrics
    tables: dict[str, Table]
    players: dict[str, Player]
    _touched: set[str]
    _bot_slots: dict[str, asyncio.Semaphore]

    if TYPE_CHECKING:

        @property
        def now(self) -> float: ...

        def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]: ...

        def _table(self, code: str) -> Table: ...

        def _vacate(self, table: Table, index: int) -> None: ...

        def _replay(self, table: Table) -> None: ...

    def _conn_of(self, seat: Seat) -> Conn | None:
        if seat.kind != "human" or seat.player_id is None:
            return None
        player = self.players.get(seat.player_id)
        return None if player is None else player.conn

    def _audience(self, table: Table) -> list[tuple[int | None, Conn]]:
        """Everyone who hears about ``table``: seated humans online, then spectators."""
        out: list[tuple[int | None, Conn]] = []
        for index, seat in enumerate(table.seats):
            conn = self._conn_of(seat)
            if conn is not None:
                out.append((index, conn))
        out.extend((None, conn) for conn in table.spectators)
        return out

    def _save(self, table: Table) -> None:
        self._touched.add(table.code)
        self.store.save_table(table.code, table.to_data(), table.status, table.game_no)

    def _send_update(self, table: Table, skip: Conn | None = None) -> None:
        now = self.now
        for seat, conn in self._audience(table):
            if conn is not skip:
                conn.send(m.TableUpdate(table=table.info(seat, self.players, now)))

    def _snapshot(self, table: Table, seat: int | None, req_id: int | None) -> m.Snapshot:
        return table.snapshot(seat, self.players, self.now, req_id)

    def _act(self, conn: Conn, player: Player, message: m.Act) -> None:
        table = self._table(message.code)
        index = table.seat_of(player.id)
        if index is None:
            raise RequestError("not_seated", "you do not sit at this table")
        seat = table.seats[index]
        if table.status == "waiting":
            raise RequestError("game_not_started", "the game has not started")
        if table.status != "playing":
            raise RequestError("game_over", "the game is over")
        done = seat.seqs.get(message.seq)
        if done is not None:
            conn.send(m.Ack(table=table.code, seq=message.seq, version=done, id=message.id))
            return
        state = table.state
        if state.current_player != index:
            raise RequestError("not_your_turn", "it is not your turn")
        if message.version != state.version:
            raise RequestError(
                "stale_version", m.stale_version_message(state.version, message.version)
            )
        try:
            action = convert.action_from_message(message.action)
        except ConversionError as error:
            raise RequestError("bad_message", str(error)) from None
        try:
            self._accept(table, index, action, message.seq, conn, message.id)
        except IllegalActionError as error:
            raise RequestError("illegal_action", str(error)) from None

    def _rematch(self, conn: Conn, player: Player, message: m.Rematch) -> None:
        table = self._table(message.code)
        index = table.seat_of(player.id)
        if index is None:
            raise RequestError("not_seated", "you do not sit at this table")
        if table.status == "waiting":
            raise RequestError("game_not_started", "the game has not started")
        if table.status != "finished":
            raise RequestError("illegal_action", "a rematch can only be asked for after game over")
        table.seats[index].rematch = True
        for seat in table.seats:
            if seat.kind == "bot":
                seat.rematch = True
        self._save(table)
        if not all(seat.kind != "empty" and seat.rematch for seat in table.seats):
            conn.send(self._snapshot(table, index, message.id))
            self._send_update(table, skip=conn)
            return
        log.info("table %s: rematch", table.code)
        table.game_no += 1
        table.record_id = None
        for seat in table.seats:
            seat.rematch = False
            seat.seqs = {}
        table.state = type(table.state)(table.rules)
        table.status = "playing"
        # everyone at the table gets the new game's snapshot (version 0) before its first
        # events, so nobody sees a gap; the asker's carries the request's id
        for viewer, other in self._audience(table):
            other.send(self._snapshot(table, viewer, message.id if other is conn else None))
        self._start_game(table)

    def _entropy(self, conn: Conn, player: Player, message: m.Entropy) -> None:
        if conn.minor < 1:  # its answer would be a message a 1.0 connection never gets
            raise RequestError(
                "bad_message", "entropy is a protocol 1.1 message: say protocol_minor 1 in hello"
            )
        table = self._table(message.code)
        index = table.seat_of(player.id)
        if index is None:
            raise RequestError("not_seated", "you do not sit at this table")
        if table.status == "waiting":
            raise RequestError("game_not_started", "the game has not started")
        if table.status != "playing":
            raise RequestError("game_over", "the game is over")
        state = table.state
        if not state.awaiting_shuffle or message.hand_number != state.hand_number:
            raise RequestError(
                "illegal_action",
                f"entropy for hand {message.hand_number} is not wanted now: it is taken "
                "between that hand's hand_started and its shuffled event",
            )
        if table.entropy[index] is not None:
            raise RequestError("illegal_action", "your entropy for this hand is already in")
        if len(message.value) % 2:
            raise RequestError("bad_message", "value: whole bytes in hex, an even length")
        table.entropy[index] = bytes.fromhex(message.value)
        conn.send(m.EntropyAccepted(table=table.code, hand_number=state.hand_number, id=message.id))
        if self._entropy_complete(table):
            self._shuffle(table)
            self._advance(table)

    def _entropy_expected(self, table: Table) -> list[int]:
        """Seats whose entropy the shuffle waits for: humans online on a 1.1 connection
        (none when ``entropy_seconds`` is 0: the step is off)."""
        out: list[int] = []
        if self.config.entropy_seconds <= 0:
            return out
        for index, seat in enumerate(table.seats):
            conn = self._conn_of(seat)
            if conn is not None and conn.minor >= 1 and not seat.bot_standing_in:
                out.append(index)
        return out

    def _entropy_complete(self, table: Table) -> bool:
        return all(table.entropy[index] is not None for index in self._entropy_expected(table))

    def _shuffle(self, table: Table) -> None:
        """Draw the committed hand's stock with whatever entropy came (b"" for none)."""
        if table.entropy_task is not None:
            table.entropy_task.cancel()
            table.entropy_task = None
        first, second = (value or b"" for value in table.entropy)
        table.entropy = [None, None]
        self._commit(table, None, Shuffle((first, second)))

    async def _entropy_timer(self, table: Table, game_no: int, version: int) -> None:
        await asyncio.sleep(self.config.entropy_seconds)
        if table.entropy_task is asyncio.current_task():
            table.entropy_task = None
        if (
            self.tables.get(table.code) is table
            and table.status == "playing"
            and table.game_no == game_no
            and table.state.version == version
            and table.state.awaiting_shuffle
        ):
            log.info("table %s: shuffling without the missing entropy", table.code)
            self._shuffle(table)
            self._advance(table)

    def _start_game(self, table: Table) -> None:
        table.status = "playing"
        self._save(table)
        log.info(
            "table %s: game %d starts",
            table.code,
            table.game_no,
            extra=event(
                "table.start",
                table=table.code,
                game=table.game_no,
                seats=[
                    seat.kind if seat.kind != "bot" else f"bot:{seat.bot_level}"
                    for seat in table.seats
                ],
            ),
        )
        self._send_update(table)
        self._advance(table)

    def _commit(
        self,
        table: Table,
        seat: int | None,
        action: Action,
        seq: int | None = None,
        conn: Conn | None = None,
        req_id: int | None = None,
    ) -> None:
        """Apply, store, then tell everyone: the one way an action enters a game.

        The messages are built before the action is stored: if one cannot be built (a
        value past the protocol's range), the game is rebuilt from the store as it was
        and the error propagates; nothing was stored or sent.
        """
        state = table.state
        outcome = state.apply(seat, action)  # IllegalActionError: nothing changed
        self._touched.add(table.code)
        audience = self._audience(table)
        # once per viewer kind (seat 0, 1, spectators) and protocol minor version
        encoded: dict[tuple[int | None, int], bytes | None] = {}
        results: list[bytes] = []
        try:
            for viewer, other in audience:
                key = (viewer, other.minor)
                if key not in encoded:
                    events = convert.event_messages(outcome.for_viewer(viewer))
                    message = m.Events(table=table.code, version=outcome.version, events=events)
                    encoded[key] = encode_for(message, other.minor)
            for event in outcome.for_viewer(None):
                if isinstance(event, HandScored):
                    results.append(encode(convert.hand_result_message(event.result, table.code)))
                    log.info("table %s: hand %d scored", table.code, event.result.hand_number)
            self.store.append_action(
                table.code, table.game_no, state.version, seat, str(action), seq
            )
        except StoreError as error:  # the flush that follows restores every table
            log.error("table %s: cannot store this action: %s", table.code, error)
            self._replay(table)
            raise
        except Exception:
            log.exception("table %s: cannot record this action; reloading the game", table.code)
            self._replay(table)
            raise
        if seat is not None and seq is not None:
            table.seats[seat].seqs[seq] = state.version
        actor = "dealer" if seat is None else "human" if conn is not None else "bot"
        self.metrics.action(actor, from_request=conn is not None)
        if conn is not None and seq is not None:
            conn.send(m.Ack(table=table.code, seq=seq, version=state.version, id=req_id))
        if isinstance(action, Deal | Commit):
            log.info("table %s: hand %d dealt", table.code, state.hand_number)
        for viewer, other in audience:
            data = encoded[(viewer, other.minor)]
            if data is not None:
                other.send_bytes(data)
        for result in results:
            for _, other in audience:
                other.send_bytes(result)

    def _accept(
        self,
        table: Table,
        seat: int,
        action: PlayerAction | Action,
        seq: int | None,
        conn: Conn | None,
        req_id: int | None,
    ) -> None:
        self._commit(table, seat, action, seq, conn, req_id)
        if table.turn_task is not None:
            table.turn_task.cancel()
            table.turn_task = None
            table.turn_deadline = None
        self._advance(table)

    def _advance(self, table: Table) -> None:
        """Drive the game until a seat must act: deal, finish, or ask the seat to move."""
        while table.status == "playing":
            state = table.state
            if state.is_over:
                self._finish(table, "score", state.winner)
                return
            if state.awaiting_shuffle:
                if self._entropy_complete(table):
                    self._shuffle(table)
                    continue
                if table.entropy_task is None:
                    table.entropy_task = self.spawn(
                        self._entropy_timer(table, table.game_no, state.version)
                    )
                return
            if not state.is_chance_node:
                break
            table.entropy = [None, None]
            self._commit(table, None, Commit(secrets.token_bytes(32)))
            for asked in self._entropy_expected(table):
                conn = self._conn_of(table.seats[asked])
                if conn is not None:
                    conn.rate.credit(1)  # the entropy it is now asked for
        if table.status != "playing":
            return
        index = table.state.current_player
        assert index is not None
        seat = table.seats[index]
        if seat.kind == "bot" or seat.bot_standing_in:
            level: Level = seat.bot_level or self.config.standin_level
            self._schedule_bot(table, index, level, self.config.bot_delay, forced=False)
        else:
            self._prompt(table, index)

    def _prompt(self, table: Table, index: int) -> None:
        """Tell a human seat it is its turn; start the turn timer if the table has one."""
        state = table.state
        if table.turn_seconds is not None and table.turn_task is None:
            table.turn_deadline = self.now + table.turn_seconds
            table.turn_task = self.spawn(
                self._turn_timer(table, index, state.version, table.turn_seconds)
            )
        conn = self._conn_of(table.seats[index])
        if conn is None:
            return
        left = (
            None
            if table.turn_deadline is None
            else round(max(0.0, table.turn_deadline - self.now), 1)
        )
        conn.send(convert.your_turn_message(state.view_for(index), table.code, left))
        # the budget gives back what an honest answer costs (a snapshot fetch and the
        # action), so a client answering at once at full speed is never refused
        conn.rate.credit(2)

    async def _turn_timer(self, table: Table, index: int, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if table.turn_task is asyncio.current_task():
            table.turn_task = None
            table.turn_deadline = None
        if table.status == "playing" and table.state.version == version:
            log.info("table %s: seat %d ran out of time; the bot moves", table.code, index)
            self._schedule_bot(table, index, self.config.standin_level, 0.0, forced=True)

    def _schedule_bot(
        self, table: Table, index: int, level: Level, delay: float, forced: bool
    ) -> None:
        if table.bot_task is not None:
            table.bot_task.cancel()
        table.bot_seat = index
        table.bot_task = self.spawn(
            self._bot_turn(table, index, table.game_no, table.state.version, level, delay, forced)
        )

    def _bot_may_act(
        self, table: Table, index: int, game_no: int, version: int, forced: bool
    ) -> bool:
        seat = table.seats[index]
        return (
            self.tables.get(table.code) is table
            and table.status == "playing"
            and table.game_no == game_no
            and table.state.version == version
            and table.state.current_player == index
            and (forced or seat.kind == "bot" or seat.bot_standing_in)
            and not (seat.kind == "human" and self._nobody_there(table))
        )

    def _nobody_there(self, table: Table) -> bool:
        """No human at ``table`` has been connected for ``standin_idle_seconds``: bots stop
        moving for absent humans (playing nobody would only burn the CPU)."""
        gone = table.humans_gone_at
        if gone is None or self.now - gone <= self.config.standin_idle_seconds:
            return False
        if not table.paused:
            table.paused = True
            log.info("table %s: nobody here; stand-ins wait", table.code)
        return True

    async def _bot_turn(
        self,
        table: Table,
        index: int,
        game_no: int,
        version: int,
        level: Level,
        delay: float,
        forced: bool,
    ) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if not self._bot_may_act(table, index, game_no, version, forced):
            return
        # one decision at a time per address: whoever fills tables with bots waits for
        # their own, and everyone else's bots keep the rest of the worker pool
        slot = self._bot_slots.get(table.address or "")
        if slot is None:
            slot = asyncio.Semaphore(self.config.bot_decisions_per_address)
            self._bot_slots[table.address or ""] = slot
        async with slot:
            if not self._bot_may_act(table, index, game_no, version, forced):
                return
            view = table.state.view_for(index)
            started = time.perf_counter()
            try:
                action = await self.bots.decide(view, level, secrets.randbits(63))
                self.metrics.bot_decided(level, time.perf_counter() - started)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "table %s: the bot failed; it plays a random legal action", table.code
                )
                action = random.choice(view.legal_actions())
        if not self._bot_may_act(table, index, game_no, version, forced):
            return
        if table.bot_task is asyncio.current_task():
            table.bot_task = None
        self._accept(table, index, action, None, None, None)

    def _finish(self, table: Table, reason: str, winner: int | None) -> None:
        state = table.state
        table.status = "finished"
        record_id = secrets.token_urlsafe(12)
        record = game_record(state)  # a forfeited game's record is simply unfinished
        self.store.save_record(record_id, table.code, table.game_no, record)
        table.record_id = record_id
        for seat in table.seats:
            seat.rematch = seat.kind == "bot"
        self._stop_tasks(table, holds=False)
        self._save(table)
        log.info(
            "table %s: game %d over (%s)",
            table.code,
            table.game_no,
            reason,
            extra=event(
                "table.end",
                table=table.code,
                game=table.game_no,
                reason=reason,
                winner=winner,
                scores=list(state.scores),
                record=record_id,
            ),
        )
        lines = tuple(
            m.ScoreLine(seat=i, name=table.seats[i].name, score=state.scores[i], bags=state.bags[i])
            for i in (0, 1)
        )
        over = m.GameOver(
            table=table.code,
            winner=winner,
            reason="forfeit" if reason == "forfeit" else "score",
            scores=(lines[0], lines[1]),
            record_id=record_id,
        )
        data = encode(over)
        for _, conn in self._audience(table):
            conn.send_bytes(data)
        self._send_update(table)

    def _stop_tasks(self, table: Table, holds: bool = True) -> None:
        for task in (table.bot_task, table.turn_task, table.entropy_task):
            if task is not None:
                task.cancel()
        table.bot_task = table.turn_task = table.entropy_task = None
        table.turn_deadline = None
        if holds:
            for task in table.hold_tasks.values():
                task.cancel()
            table.hold_tasks.clear()

    def _start_hold(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        if seat.kind != "human" or self._conn_of(seat) is not None or index in table.hold_tasks:
            return
        seconds = table.hold_seconds
        if table.status != "playing":  # nothing to come back to yet (or any more)
            seconds = min(seconds, self.config.idle_table_hold_seconds)
        seat.hold_deadline = self.now + seconds
        table.hold_tasks[index] = self.spawn(self._hold(table, index, seconds))

    async def _hold(self, table: Table, index: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if table.hold_tasks.get(index) is asyncio.current_task():
            del table.hold_tasks[index]
        seat = table.seats[index]
        if self.tables.get(table.code) is not table or seat.kind != "human":
            return
        if self._conn_of(seat) is not None:
            return
        seat.hold_deadline = None
        if table.status != "playing":
            log.info("table %s: hold of seat %d ran out; seat freed", table.code, index)
            self._vacate(table, index)
            return
        log.info("table %s: hold of seat %d ran out (%s)", table.code, index, table.on_hold_expiry)
        if table.on_hold_expiry == "forfeit":
            self._finish(table, "forfeit", 1 - index)
            self._start_hold(table, index)  # frees the seat if they stay away
            return
        if table.on_hold_expiry == "bot":
            seat.bot_standing_in = True
            self._send_update(table)
            if table.state.current_player == index:
                self._advance(table)
            return
        self._send_update(table)
