"""The game of one room: an action in, stored, told, and the table moved on.

    play = Play(room, host, clock)      # room: the Stage it plays on (server.rooms.room.Room)
    play.accept(seat, action, seq, listener, req_id)
    play.advance()                      # deal, prompt the seat to move, a bot's turn, the end

:meth:`Play.commit` is the one way an action enters a game: apply it to the engine, store
it, then tell every seat and spectator from its own view (``Outcome.for_viewer``).
:meth:`Play.advance` drives the game until a seat must act: the entropy step before each
hand (protocol 1.1), the next seat's prompt and turn timer, a bot's move, the end of the
game. Bots (and stand-ins for dropped or slow humans) think in the bot runner after
``bot_delay``; their move is applied only if the state has not moved meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Protocol

from engine import (
    Action,
    Commit,
    Deal,
    GameState,
    PlayerAction,
    Shuffle,
    game_record,
    parse_action,
)
from protocol import convert
from protocol import messages as m
from protocol.codec import encode
from server.accounts.rating import GameEnd
from server.logs import event
from server.rooms.ending import game_end, game_over_message
from server.rooms.entropy import HandEntropy
from server.rooms.frames import Frame, ack_frame, events_frame, your_turn_frame
from server.rooms.ports import Clock, Listener, RoomHost
from server.rooms.table import Level, Table
from server.store import StoreError

__all__ = ["Play", "Stage"]

log = logging.getLogger("server")


class Stage(Protocol):
    """What the game needs of its room: the table, who hears, and the store write."""

    table: Table
    humans_gone_at: float | None
    address: str | None  # whose bot work this is (one decision at a time per address)
    # a game given up by a seat: (its player id, the record id and the record's JSON
    # when nobody had acted: that record is not stored)
    forfeited: Callable[[str | None, str, str | None], None]
    ended: Callable[[GameEnd], object]  # the game's end, in its turn (the rating update)

    @property
    def code(self) -> str: ...

    def now(self) -> float: ...

    def listener_at(self, index: int) -> Listener | None: ...

    def audience(self) -> list[tuple[int | None, Listener]]: ...

    def save(self) -> None: ...

    def send_update(self, skip: Listener | None = None) -> None: ...

    def broadcast(self, frame: Frame) -> None: ...


class Play:
    """The game loop of one room (see the module)."""

    def __init__(self, room: Stage, host: RoomHost, clock: Clock) -> None:
        self.room = room
        self.host = host
        self.clock = clock
        self.state = GameState(room.table.rules)
        self.paused = False  # stand-ins stopped for absent humans (see _nobody_there)
        self.turn_deadline: float | None = None
        self.bot_seat: int | None = None  # the seat the running "bot" task moves for
        # the seats' entropy for the committed hand (protocol 1.1; 1.3 commit-reveal)
        self.hand = HandEntropy("", [], committing=False)
        # hand_result.entropy_commitments of the hands of this game with a commit step
        self.hand_commitments: dict[int, tuple[str, ...]] = {}

    @property
    def code(self) -> str:
        return self.room.code

    @property
    def table(self) -> Table:
        return self.room.table

    @property
    def status(self) -> str:
        return self.room.table.status

    @property
    def game_no(self) -> int:
        return self.room.table.game_no

    def replay(self) -> None:
        """Rebuild the game of ``game_no`` from the stored actions (raises what a damaged
        action raises: ``EngineError``, ``ValueError``...)."""
        table = self.room.table
        self.state = GameState(table.rules)
        for seat in table.seats:
            seat.seqs = {}
        for row in self.host.store.load_actions(table.code, table.game_no):
            self.state.apply(row.seat, parse_action(row.action))
            if row.seq is not None and row.seat is not None:
                table.seats[row.seat].seqs[row.seq] = row.index
        if self.state.awaiting_shuffle and self.hand.commitment != self.state.commitment:
            self.start_entropy()  # a game loaded between its commitment and its shuffle

    def stop_timers(self) -> None:
        """End the game's timers (its bot, turn and entropy; holds are the room's)."""
        for name in ("bot", "turn", "entropy"):
            self.clock.cancel(name)
        self.turn_deadline = None

    def new_game(self) -> None:
        """After a rematch: the next game, seats and settings unchanged."""
        self.table.game_no += 1
        self.table.record_id = None
        for seat in self.table.seats:
            seat.rematch = False
            seat.seqs = {}
        self.state = GameState(self.table.rules)
        self.hand_commitments = {}
        for seat in self.table.seats:
            seat.withheld_reveals = 0
        self.table.status = "playing"

    def commit(
        self,
        seat: int | None,
        action: Action,
        seq: int | None = None,
        listener: Listener | None = None,
        req_id: int | None = None,
        withheld: tuple[bool, bool] = (False, False),
    ) -> None:
        """Apply, store, then tell everyone: the one way an action enters a game.

        Raises ``IllegalActionError`` (nothing changed). The messages are built before the
        action is stored: if one cannot be built (a value past the protocol's range), the
        game is rebuilt from the store as it was and the error propagates; nothing was
        stored or sent.
        """
        state = self.state
        code = self.code
        outcome = state.apply(seat, action)
        self.host.touched(code)
        audience = self.room.audience()
        # once per viewer kind (seat 0, 1, spectators) and protocol minor version; each
        # frame's JSON form is made once too, on its first JSON socket
        encoded: dict[tuple[int | None, int], Frame | None] = {}
        results: list[m.HandResult] = []
        try:
            for viewer, other in audience:
                key = (viewer, other.minor)
                if key not in encoded:
                    events = outcome.for_viewer(viewer)
                    version = outcome.version
                    encoded[key] = events_frame(code, version, events, other.minor, withheld)
            for happened in outcome.scored():
                number = happened.result.hand_number
                result = convert.hand_result_message(happened.result, code)
                if number in self.hand_commitments:
                    commitments = self.hand_commitments[number]
                    result = result.model_copy(update={"entropy_commitments": commitments})
                results.append(result)
                log.info("table %s: hand %d scored", code, number)
            self.host.store.append_action(code, self.game_no, state.version, seat, str(action), seq)
        except StoreError as error:  # the commit that follows restores every table
            log.error("table %s: cannot store this action: %s", self.code, error)
            self.replay()
            raise
        except Exception:
            log.exception("table %s: cannot record this action; reloading the game", self.code)
            self.replay()
            raise
        if seat is not None and seq is not None:
            self.table.seats[seat].seqs[seq] = state.version
        actor = "dealer" if seat is None else "human" if listener is not None else "bot"
        self.host.metrics.action(actor, from_request=listener is not None)
        if listener is not None and seq is not None:
            acked = ack_frame(code, seq, state.version, req_id, listener.minor)
            if acked is not None:
                listener.send_frame(acked)
        if isinstance(action, Deal | Commit):
            log.info("table %s: hand %d dealt", code, state.hand_number)
        for viewer, other in audience:
            frame = encoded[(viewer, other.minor)]
            if frame is not None:
                other.send_frame(frame)
        for result in results:
            by_minor: dict[int, Frame | None] = {}
            for _, other in audience:
                if other.minor not in by_minor:
                    by_minor[other.minor] = Frame.of(result, other.minor)
                frame = by_minor[other.minor]
                if frame is not None:
                    other.send_frame(frame)

    def accept(
        self,
        seat: int,
        action: PlayerAction | Action,
        seq: int | None,
        listener: Listener | None,
        req_id: int | None,
    ) -> None:
        """A seat's move: :meth:`commit`, end its turn timer, :meth:`advance`."""
        self.commit(seat, action, seq, listener, req_id)
        if self.clock.running("turn") or self.turn_deadline is not None:
            self.clock.cancel("turn")
            self.turn_deadline = None
        self.advance()

    def advance(self) -> None:
        """Drive the game until a seat must act: deal, finish, or ask the seat to move."""
        while self.status == "playing":
            state = self.state
            if state.is_over:
                self.finish("score", state.winner)
                return
            if state.awaiting_shuffle:
                if self.entropy_ready():
                    self.shuffle()
                    continue
                if not self.clock.running("entropy"):
                    late = functools.partial(self._entropy_late, self.game_no, state.version)
                    self.clock.later("entropy", self.host.config.entropy_seconds, late)
                return
            if not state.is_chance_node:
                break
            self.commit(None, Commit(secrets.token_bytes(32)))
            self.start_entropy()
        if self.status != "playing":
            return
        index = self.state.current_player
        assert index is not None
        seat = self.table.seats[index]
        if seat.kind == "bot" or seat.bot_standing_in:
            level: Level = seat.bot_level or self.host.config.standin_level
            self.schedule_bot(index, level, self.host.config.bot_delay, forced=False)
        else:
            self.prompt(index)

    def prompt(self, index: int) -> None:
        """Tell a human seat it is its turn; start the turn timer if the table has one."""
        state = self.state
        seconds = self.table.turn_seconds
        if seconds is not None and not self.clock.running("turn"):
            self.turn_deadline = self.room.now() + seconds
            version = state.version
            self.clock.later("turn", seconds, lambda: self._turn_ran_out(index, version))
        listener = self.room.listener_at(index)
        if listener is None:
            return
        deadline = self.turn_deadline
        left = None if deadline is None else round(max(0.0, deadline - self.room.now()), 1)
        frame = your_turn_frame(state, index, self.code, left, listener.minor)
        if frame is not None:
            listener.send_frame(frame)
        # the budget gives back what an honest answer costs (the action: clients fold
        # events, so no snapshot is fetched), capped per second by the session
        listener.credit(1)

    def _turn_ran_out(self, index: int, version: int) -> None:
        self.turn_deadline = None
        if self.status == "playing" and self.state.version == version:
            log.info("table %s: seat %d ran out of time; the bot moves", self.code, index)
            self.schedule_bot(index, self.host.config.standin_level, 0.0, forced=True)

    # ---- entropy (protocol 1.1: the seats help shuffle) -----------------------------

    def entropy_expected(self) -> list[int]:
        """Seats whose entropy the shuffle waits for: humans online on a 1.1 connection
        or newer (none when ``entropy_seconds`` is 0: the step is off)."""
        if self.host.config.entropy_seconds <= 0:
            return []
        out: list[int] = []
        for index, seat in enumerate(self.table.seats):
            listener = self.room.listener_at(index)
            if listener is not None and listener.minor >= 1 and not seat.bot_standing_in:
                out.append(index)
        return out

    def start_entropy(self) -> None:
        """The hand's seed is committed: open its entropy step. It commits first and
        reveals after (1.3) when a seat it waits for speaks 1.3."""
        expected = self.entropy_expected()
        minors = {index: self._minor_at(index) for index in expected}
        committing = any(minor >= 3 for minor in minors.values())
        self.hand = HandEntropy(
            self.state.commitment or "", expected, committing, self.state.hand_number
        )
        for asked in expected:
            listener = self.room.listener_at(asked)
            if listener is not None:
                listener.credit(1, per_hand=True)  # the value (1.3: the commitment) asked for

    def _minor_at(self, index: int) -> int:
        listener = self.room.listener_at(index)
        return 0 if listener is None else listener.minor

    def entropy_ready(self) -> bool:
        """Move the entropy step on as far as it goes (relay the commitments once every
        one is in); True when the stock may be drawn."""
        hand = self.hand
        if hand.stage == "commit" and not hand.waiting():
            self.relay()
        return not hand.waiting()

    def relay(self) -> None:
        """End the commit stage: everyone at the table gets the commitments (1.3)."""
        self.clock.cancel("entropy")
        self.hand.relay()
        message = self.hand.message(self.code, self.host.config.entropy_seconds)
        for _, listener in self.room.audience():
            listener.send(message)
        for index in (0, 1):
            if self.hand.commits[index] is not None and self.hand.values[index] is None:
                asked = self.room.listener_at(index)
                if asked is not None:
                    asked.credit(1, per_hand=True)  # the reveal it is now asked for
        late = functools.partial(self._entropy_late, self.game_no, self.state.version)
        self.clock.later("entropy", self.host.config.entropy_seconds, late)  # the reveals'

    def remind_commitments(self, listener: Listener) -> None:
        """A seat's snapshot between the relay and the shuffle (a resume, a resync): send
        the relayed commitments again, so that it can still reveal."""
        if self.state.awaiting_shuffle and self.hand.stage == "reveal":
            listener.send(self.hand.message(self.code, self.host.config.entropy_seconds))

    def shuffle(self) -> None:
        """Draw the committed hand's stock with whatever entropy came (b"" for none); a
        withheld reveal is counted for its seat and shown to the table."""
        self.clock.cancel("entropy")
        hand = self.hand
        values, withheld = hand.outcome()
        if hand.recorded_commitments():  # kept in memory: a restart loses them (see docs)
            self.hand_commitments[self.state.hand_number] = hand.recorded_commitments()
        self.hand = HandEntropy("", [], committing=False)
        for index, missing in enumerate(withheld):
            if missing:
                self.table.seats[index].withheld_reveals += 1
                log.info("table %s: seat %d withheld its reveal", self.code, index)
        self.commit(None, Shuffle(values), withheld=withheld)
        if any(withheld):
            self.room.send_update()

    def _entropy_late(self, game_no: int, version: int) -> None:
        state = self.state
        if (
            self.host.is_live(self.code, self.room)
            and self.status == "playing"
            and self.game_no == game_no
            and state.version == version
            and state.awaiting_shuffle
        ):
            if self.hand.stage == "commit":
                log.info("table %s: relaying without the missing commitments", self.code)
                self.relay()
            else:
                log.info("table %s: shuffling without the missing entropy", self.code)
                self.shuffle()
            self.advance()

    # ---- bots -----------------------------------------------------------------------

    def schedule_bot(self, index: int, level: Level, delay: float, forced: bool) -> None:
        """The bot (or a stand-in) moves for seat ``index`` after ``delay`` seconds."""
        self.bot_seat = index
        game_no, version = self.game_no, self.state.version

        def think() -> None:
            self.clock.task("bot", self._bot_turn(index, game_no, version, level, forced))

        if delay > 0:
            self.clock.later("bot", delay, think)
        else:
            think()

    def _bot_may_act(self, index: int, game_no: int, version: int, forced: bool) -> bool:
        seat = self.table.seats[index]
        return (
            self.host.is_live(self.code, self.room)
            and self.status == "playing"
            and self.game_no == game_no
            and self.state.version == version
            and self.state.current_player == index
            and (forced or seat.kind == "bot" or seat.bot_standing_in)
            and not (seat.kind == "human" and self._nobody_there())
        )

    def _nobody_there(self) -> bool:
        """No human here has been connected for ``standin_idle_seconds``: bots stop
        moving for absent humans (playing nobody would only burn the CPU)."""
        gone = self.room.humans_gone_at
        if gone is None or self.room.now() - gone <= self.host.config.standin_idle_seconds:
            return False
        if not self.paused:
            self.paused = True
            log.info("table %s: nobody here; stand-ins wait", self.code)
        return True

    async def _bot_turn(
        self, index: int, game_no: int, version: int, level: Level, forced: bool
    ) -> None:
        """The clock's task: a decision in the bot runner, applied only if the game has
        not moved meanwhile (the one place a room awaits)."""
        if not self._bot_may_act(index, game_no, version, forced):
            return
        # one decision at a time per address: whoever fills tables with bots waits for
        # their own, and everyone else's bots keep the rest of the worker pool
        async with self.host.bot_slot(self.room.address or ""):
            if not self._bot_may_act(index, game_no, version, forced):
                return
            view = self.state.view_for(index)
            started = time.perf_counter()
            try:
                share = self.room.address or ""
                action = await self.host.bots.decide(view, level, secrets.randbits(63), share)
                self.host.metrics.bot_decided(level, time.perf_counter() - started)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: the bot failed; it plays a random legal action", self.code)
                action = random.choice(view.legal_actions())
        if not self._bot_may_act(index, game_no, version, forced):
            return
        self.accept(index, action, None, None, None)

    # ---- the end --------------------------------------------------------------------

    def finish(self, reason: str, winner: int | None) -> None:
        state = self.state
        table = self.table
        table.status = "finished"
        record_id = secrets.token_urlsafe(12)
        # a game given up before any player acted (no action with a seq) is kept no
        # longer than its table, in memory only: create-and-leave in a loop would
        # otherwise store a record per cycle, kept for a year
        record = game_record(state)  # a forfeited game's record is simply unfinished
        unplayed = reason == "forfeit" and not any(seat.seqs for seat in table.seats)
        if not unplayed:
            self.host.store.save_record(record_id, table.code, table.game_no, record)
            self.room.ended(game_end(table, state, record_id, reason, winner))
        if reason == "forfeit" and winner is not None:
            loser = table.seats[1 - winner].player_id
            self.room.forfeited(loser, record_id, json.dumps(record) if unplayed else None)
        table.record_id = record_id
        for seat in table.seats:
            seat.rematch = seat.kind == "bot"
        self.stop_timers()
        self.room.save()
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
        self.room.broadcast(
            Frame(encode(game_over_message(table, state, record_id, reason, winner)))
        )
        self.room.send_update()
