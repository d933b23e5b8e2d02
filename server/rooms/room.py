"""One live table: its game, seats, spectators and timers, and what happens on a move.

    room = Room(table, host, LoopClock())      # host: server.rooms.ports.RoomHost
    room.replay()                              # the game from the stored actions
    room.accept(seat, action, seq, listener, req_id)   # apply, store, tell, move on
    room.dispose()                             # its timers die with it

A room is driven synchronously by method calls (the checks of a request are in
:mod:`server.rooms.requests`); only its :class:`~server.rooms.ports.Clock` touches the
event loop. Where to look for "what happens when a card is played": the room's
:class:`~server.rooms.play.Play` (``room.play``): ``commit`` applies the action to the
engine, stores it and tells every seat and spectator (each from its own view), and
``advance`` moves the table on: the entropy step before each hand, the next seat's
prompt (and turn timer), a bot's move, the end of the game. Holds of dropped seats are
the room's. The room is the one owner of its membership: :meth:`Room.sit`, :meth:`Room.vacate`,
:meth:`Room.add_spectator` and :meth:`Room.remove_spectator` keep the seats, the
spectators and each connection's ``watching`` in step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine import Action, GameState, PlayerAction, RuleSet
from protocol import messages as m
from server.accounts.rating import GameEnd
from server.errors import RequestError
from server.logs import event
from server.rooms import views
from server.rooms.frames import Frame
from server.rooms.play import Play
from server.rooms.ports import Clock, Listener, RoomHost
from server.rooms.table import Expiry, Seat, Status, Table

__all__ = ["Room"]

log = logging.getLogger("server")


class Room:
    """One live table (see the module). Tests read ``state``, ``seats``, ``status``."""

    def __init__(self, table: Table, host: RoomHost, clock: Clock) -> None:
        self.table = table
        self.host = host
        self.clock = clock
        self.spectators: set[Listener] = set()
        # told of a game given up (the loser's player id, the record id, and the record
        # when nobody had acted: kept in memory only): the registry counts it and keeps
        # such a record while the table lives (server/lobby/churn.py)
        self.forfeited: Callable[[str | None, str, str | None], None] = lambda *given: None
        self.humans_gone_at: float | None = None  # since when no human here is connected
        self.ended: Callable[[GameEnd], object] = lambda end: None  # rated in its turn
        self.play = Play(self, host, clock)

    @property
    def address(self) -> str | None:
        """The share of the network address that created the table (stored with it)."""
        return self.table.address

    @address.setter
    def address(self, address: str | None) -> None:
        self.table.address = address

    @property
    def state(self) -> GameState:
        return self.play.state

    @property
    def paused(self) -> bool:
        return self.play.paused

    # ---- the stored table's fields --------------------------------------------------

    @property
    def code(self) -> str:
        return self.table.code

    @property
    def seats(self) -> list[Seat]:
        return self.table.seats

    @property
    def status(self) -> Status:
        return self.table.status

    @property
    def game_no(self) -> int:
        return self.table.game_no

    @property
    def rules(self) -> RuleSet:
        return self.table.rules

    @property
    def private(self) -> bool:
        return self.table.private

    @property
    def on_hold_expiry(self) -> Expiry:
        return self.table.on_hold_expiry

    def seat_of(self, player_id: str) -> int | None:
        return self.table.seat_of(player_id)

    def now(self) -> float:
        return self.clock.now()

    # ---- who hears ------------------------------------------------------------------

    def listener_at(self, index: int) -> Listener | None:
        seat = self.table.seats[index]
        if seat.kind != "human" or seat.player_id is None:
            return None
        return self.host.listener_of(seat.player_id)

    def online(self) -> tuple[bool, bool]:
        return (self.listener_at(0) is not None, self.listener_at(1) is not None)

    def humans_connected(self) -> bool:
        return any(self.online())

    def audience(self) -> list[tuple[int | None, Listener]]:
        """Everyone who hears about this table: seated humans online, then spectators."""
        out: list[tuple[int | None, Listener]] = []
        for index in (0, 1):
            listener = self.listener_at(index)
            if listener is not None:
                out.append((index, listener))
        out.extend((None, listener) for listener in self.spectators)
        return out

    def add_spectator(self, listener: Listener) -> None:
        self.spectators.add(listener)
        listener.watching.add(self.code)

    def remove_spectator(self, listener: Listener) -> None:
        self.spectators.discard(listener)
        listener.watching.discard(self.code)

    def broadcast(self, frame: Frame) -> None:
        """The same message to every seat and spectator (each in its wire format)."""
        for _, listener in self.audience():
            listener.send_frame(frame)

    # ---- messages -------------------------------------------------------------------

    def snapshot(self, seat: int | None, req_id: int | None) -> m.Snapshot:
        play = self.play
        return views.snapshot(
            self.table,
            play.state,
            seat,
            self.online(),
            self.now(),
            play.turn_deadline,
            req_id,
            play.hand_commitments,
        )

    def info(self, seat: int | None, now: float | None = None) -> m.TableInfo:
        return views.table_info(self.table, seat, self.online(), self.now() if now is None else now)

    def summary(self, now: float) -> m.TableSummary:
        return views.summary(self.table, self.online(), now, len(self.spectators))

    def send_update(self, skip: Listener | None = None) -> None:
        now = self.now()
        # once per viewer kind and minor version, however many spectators
        frames: dict[tuple[int | None, int], Frame | None] = {}
        for seat, listener in self.audience():
            if listener is not skip:
                key = (seat, listener.minor)
                if key not in frames:
                    frames[key] = Frame.of(m.TableUpdate(table=self.info(seat, now)), key[1])
                frame = frames[key]
                if frame is not None:
                    listener.send_frame(frame)

    # ---- the store ------------------------------------------------------------------

    def save(self) -> None:
        self.host.touched(self.code)
        table = self.table
        self.host.store.save_table(table.code, table.to_data(), table.status, table.game_no)

    def replay(self) -> None:
        """Rebuild the game from the stored actions (see :meth:`Play.replay`)."""
        self.play.replay()

    # ---- seats ----------------------------------------------------------------------

    def free_seat(self, wanted: int | None) -> int:
        """The seat to fill: ``wanted`` if it is empty, else the first empty one.

        Raises ``seat_taken`` or ``table_full`` as a :class:`RequestError`."""
        if wanted is not None:
            if self.table.seats[wanted].kind != "empty":
                raise RequestError("seat_taken", f"seat {wanted} is taken")
            return wanted
        empty = self.table.empty_seats()
        if not empty:
            raise RequestError("table_full", "both seats are taken")
        return empty[0]

    def sit(self, index: int, player_id: str, name: str) -> None:
        self.host.seated(player_id, self.code)  # stores a player kept in memory so far
        self.table.seats[index] = Seat(kind="human", player_id=player_id, name=name)

    def vacate(self, index: int) -> None:
        """Free seat ``index``; a table with no human left closes (and leaves memory)."""
        self.clock.cancel(f"hold{index}")
        seat = self.table.seats[index]
        self.table.seats[index] = Seat()
        log.info("table %s: seat %d left", self.code, index)
        if seat.kind == "human" and seat.player_id is not None:
            self.host.unseated(seat.player_id, self.code)
        if self.table.has_humans():
            self.save()
            self.send_update()
            return
        self.table.status = "closed"
        self.save()
        self.host.closed(self.code)
        log.info("table %s: closed", self.code, extra=event("table.close", table=self.code))

    def close(self) -> None:
        """Mark the table closed and store that (the caller removes it from memory)."""
        self.table.status = "closed"
        self.save()

    def reconnect(self, index: int, listener: Listener) -> None:
        """The human of seat ``index`` is back on ``listener``."""
        seat = self.table.seats[index]
        self.clock.cancel(f"hold{index}")
        seat.hold_deadline = None
        was_standing_in = seat.bot_standing_in
        seat.bot_standing_in = False
        # only the stand-in's own move is called off: the pending task may be the other
        # seat's (a real bot), and cancelling that one would freeze the game
        play = self.play
        if was_standing_in and self.clock.running("bot") and play.bot_seat == index:
            self.clock.cancel("bot")
        self.humans_gone_at = None
        if play.paused:
            play.paused = False
            other = self.table.seats[1 - index]
            idle = not self.clock.running("bot")
            others_turn = self.state.current_player == 1 - index
            bot_to_move = other.kind == "bot" or other.bot_standing_in
            if self.status == "playing" and idle and others_turn and bot_to_move:
                play.advance()  # the bots stopped while nobody was here
        listener.send(self.snapshot(index, None))
        play.remind_commitments(listener)  # 1.3: the reveal it may have missed
        self.send_update(skip=listener)
        log.info("table %s: seat %d back", self.code, index)
        if self.status == "playing" and self.state.current_player == index:
            play.prompt(index)

    def dropped(self, index: int) -> None:
        """The human of seat ``index`` lost their connection: hold the seat."""
        self.start_hold(index)
        log.info("table %s: seat %d dropped", self.code, index)
        self.send_update()
        if not self.humans_connected():
            self.humans_gone_at = self.now()

    def resume(self) -> None:
        """Just loaded (at start, or taken over): humans count as dropped until they say
        hello again, and the game moves on."""
        self.humans_gone_at = self.now() if self.table.has_humans() else None
        for index, seat in enumerate(self.table.seats):
            if seat.kind == "human":
                self.start_hold(index)
        self.play.advance()

    def dispose(self) -> None:
        """Every timer and task of this room ends (it is leaving memory)."""
        self.clock.dispose()
        self.play.turn_deadline = None

    # ---- holds ----------------------------------------------------------------------

    def start_hold(self, index: int) -> None:
        seat = self.table.seats[index]
        name = f"hold{index}"
        if seat.kind != "human" or self.listener_at(index) is not None:
            return
        if self.clock.running(name):
            return
        seconds: float = self.table.hold_seconds
        if self.status != "playing":  # nothing to come back to yet (or any more)
            seconds = min(seconds, self.host.config.idle_table_hold_seconds)
        seat.hold_deadline = self.now() + seconds
        self.clock.later(name, seconds, lambda: self._hold_ran_out(index))

    def _hold_ran_out(self, index: int) -> None:
        seat = self.table.seats[index]
        if not self.host.is_live(self.code, self) or seat.kind != "human":
            return
        if self.listener_at(index) is not None:
            return
        seat.hold_deadline = None
        if self.status != "playing":
            log.info("table %s: hold of seat %d ran out; seat freed", self.code, index)
            self.vacate(index)
            return
        expiry = self.table.on_hold_expiry
        log.info("table %s: hold of seat %d ran out (%s)", self.code, index, expiry)
        if expiry == "forfeit":
            self.play.finish("forfeit", 1 - index)
            self.start_hold(index)  # frees the seat if they stay away
            return
        if expiry == "bot":
            seat.bot_standing_in = True
            self.send_update()
            if self.state.current_player == index:
                self.play.advance()
            return
        self.send_update()

    # ---- the game -------------------------------------------------------------------

    def start_game(self) -> None:
        self.table.status = "playing"
        self.save()
        log.info(
            "table %s: game %d starts",
            self.code,
            self.game_no,
            extra=event(
                "table.start",
                table=self.code,
                game=self.game_no,
                seats=[
                    seat.kind if seat.kind != "bot" else f"bot:{seat.bot_level}"
                    for seat in self.table.seats
                ],
            ),
        )
        self.send_update()
        self.play.advance()

    # ---- the game (server.rooms.play) -----------------------------------------------

    def accept(
        self,
        seat: int,
        action: PlayerAction | Action,
        seq: int | None,
        listener: Listener | None,
        req_id: int | None,
    ) -> None:
        """A seat's move (raises ``IllegalActionError``, nothing changed): see
        :meth:`Play.accept`."""
        self.play.accept(seat, action, seq, listener, req_id)

    def finish(self, reason: str, winner: int | None) -> None:
        self.play.finish(reason, winner)

    def advance(self) -> None:
        self.play.advance()
