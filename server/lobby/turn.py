"""One unit of work per turn of the event loop: stored before anyone hears.

    work = UnitOfWork(store, metrics, players, rooms, directory)
    work.wrote(session, "act", 7)       # a request of this turn wrote to the store
    work.touched("K7QX2M9A")            # a table wrote (restored if the commit fails)
    session.send(message)               # queued; the session is marked dirty
    work.flush()                        # commit and send everything now, here
    work.close()                        # at the end: flush, and the commit worker stops

Requests are handled one at a time and synchronously: engine ``apply``, store write (held
in the store's open transaction), then the messages are encoded and queued on their
sessions. At the end of the loop's turn the unit of work commits the store once for every
action of the turn and only then writes each session's frames, so no seat hears of an
action before it is stored. Before the commit the directory must prove this node still
owns every table the turn wrote for (in a cluster; fencing).

Group commit: with a store on a file or a server (``store.threaded_commits``) the commit
runs in a worker thread (:meth:`Storage.detach`, then the batch runs there) and the loop
goes on with other requests meanwhile. The frames of the committing turn are taken out of
their sessions (a session's later frames queue behind them); the turns that end while a
commit is in flight gather into one group, committed as one batch as soon as it lands.
Batches run one at a time in order, so every table's writes, and every session's frames,
keep their order. :meth:`UnitOfWork.flush` (a close, upkeep, a cluster's fencing) waits for
the batch in flight and commits the rest on the loop's thread. A store whose commit waits
for no disk flush at the moment (SQLite's ``quick_commit``: it writes the log, a checkpoint
flushes) commits on the loop's thread when no batch is in flight: cheaper than the two
thread wake-ups of the hand-off, and nothing then waits behind it.

If a commit fails nobody has heard anything of it: the touched tables go back to what the
store has, the players stored in the turn are memory-only again, and every request of the
turn that wrote is refused; a table another node claimed is dropped here instead. The
turns gathered behind a failed batch were worked out on top of it: they are refused too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from pydantic import BaseModel

from protocol import messages as m
from server.lobby.players import Player, Players
from server.lobby.registry import Rooms
from server.store import FencedError, Storage
from server.store.base import CommitBatch

__all__ = ["Closable", "Fencing", "Outbox", "Turn", "UnitOfWork"]

log = logging.getLogger("server")


class _Metrics(Protocol):
    def turn_ended(self) -> list[float]: ...

    def commit_failed(self) -> None: ...

    def committed(self, seconds: float, received: list[float]) -> None: ...

    def sent(self, received: list[float]) -> None: ...

    def error(self, code: str) -> None: ...


class Outbox(Protocol):
    """A session as the unit of work sees it: frames queued until the commit."""

    pending: list[bytes]

    def send(self, message: BaseModel) -> None: ...

    def flush(self) -> None:
        """Write the queued frames (after the commit)."""
        ...


@runtime_checkable
class Closable(Protocol):
    def close_soon(self, code: int, reason: str) -> None: ...


class Fencing(Protocol):
    """What the unit of work asks of the directory (a cluster's leases)."""

    def unproven(self, codes: set[str]) -> tuple[str, ...]:
        """Of ``codes`` (tables in memory written this turn), those this node can no
        longer prove it owns: the turn is then refused as if the store had fenced it."""
        ...

    def released(self, code: str) -> bool:
        """Table ``code`` is run by another node now; whether its audience must reconnect
        (to be sent there) rather than hear ``left``."""
        ...


@dataclass
class Turn:
    """What one turn of the loop did: sessions with output, requests that wrote, tables
    written and players stored."""

    dirty: list[Outbox] = field(default_factory=list)
    writers: list[tuple[Outbox, str, int | None]] = field(default_factory=list)
    touched: set[str] = field(default_factory=set)
    new_players: list[tuple[Player, str]] = field(default_factory=list)
    # taken out of the sessions when its commit left the loop: (session, its frames)
    frames: list[tuple[Outbox, list[bytes]]] = field(default_factory=list)
    taken: bool = False  # whether ``frames`` were taken (else they are still queued)
    received: list[float] = field(default_factory=list)  # its human actions' receive times

    def join(self, later: Turn) -> None:
        """Add the turn gathered after this one (both fail together)."""
        self.dirty.extend(later.dirty)
        self.writers.extend(later.writers)
        self.touched |= later.touched
        self.new_players.extend(later.new_players)


@dataclass
class _InFlight:
    """A turn whose batch is being committed by the worker (the future: its seconds)."""

    turn: Turn
    batch: CommitBatch
    future: concurrent.futures.Future[float]


def _taken(sessions: list[Outbox]) -> list[tuple[Outbox, list[bytes]]]:
    """Each session's queued frames, copied out; its queue is left empty (the same list)."""
    taken = []
    for session in sessions:
        if session.pending:
            taken.append((session, session.pending.copy()))
            session.pending.clear()
    return taken


def _timed(batch: CommitBatch) -> float:
    """Run ``batch`` (in the worker thread); the seconds it took."""
    started = time.perf_counter()
    batch.run()
    return time.perf_counter() - started


class UnitOfWork:
    """The owner of "stored before anyone hears" (see the module)."""

    def __init__(
        self,
        store: Storage,
        metrics: _Metrics,
        players: Callable[[], Players],
        rooms: Callable[[], Rooms],
        fencing: Callable[[], Fencing],
    ) -> None:
        """``players``, ``rooms`` and ``fencing`` are looked up when needed (they are
        built after the unit of work, which the store's ``on_begin`` needs first)."""
        self.store = store
        self.metrics = metrics
        self._players = players
        self._rooms = rooms
        self._fencing = fencing
        self._turn = Turn()
        self._handle: asyncio.Handle | None = None
        self._inflight: _InFlight | None = None
        self._waiting = False  # a turn ended while a batch was in flight
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # ---- what a turn did --------------------------------------------------------------

    def schedule(self) -> None:
        """Commit and send at the next turn of the loop (once however often it is asked)."""
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self._turn_end)

    def dirty(self, session: Outbox) -> None:
        """``session`` has frames to send."""
        self._turn.dirty.append(session)
        self.schedule()

    def wrote(self, session: Outbox, request: str, req_id: int | None) -> None:
        self._turn.writers.append((session, request, req_id))

    def touched(self, code: str) -> None:
        self._turn.touched.add(code)

    def stored(self, player: Player, hashed: str) -> None:
        self._turn.new_players.append((player, hashed))

    def take(self) -> Turn:
        """Cancel a pending flush and take this turn (a new one starts empty)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        turn, self._turn = self._turn, Turn()
        return turn

    # ---- commit, then send ------------------------------------------------------------

    def _turn_end(self) -> None:
        self._handle = None
        if self._inflight is not None:
            self._waiting = True  # joins the next group, started when the batch lands
        elif not getattr(self.store, "threaded_commits", False):
            self.flush()
        else:
            # a commit that waits for no disk flush (SQLite's, most of the time) costs
            # less here than the hand-off to the worker and back (two thread wake-ups)
            quick = getattr(self.store, "quick_commit", None)
            if quick is not None:
                with quick() as here:
                    if here:
                        self.flush()
                        return
            self._start()

    def _unproven(self, turn: Turn) -> Exception | None:
        rooms = self._rooms()
        unproven = self._fencing().unproven({c for c in turn.touched if c in rooms.rooms})
        if unproven:
            return FencedError(unproven, f"lease no longer held for {', '.join(unproven)}")
        return None

    def _start(self) -> None:
        """Send this turn's commit to the worker (its frames wait for it), or send its
        frames now if it wrote nothing (nothing is in flight ahead of them)."""
        turn = self.take()
        self._waiting = False
        error = self._unproven(turn)
        batch = None
        if error is None:
            try:
                batch = self.store.detach()
            except Exception as lost:
                error = lost
        if error is not None:
            self._lost(error, turn)
            return
        if batch is None:
            self._write(turn)
            return
        turn.received = self.metrics.turn_ended()
        turn.frames = _taken(turn.dirty)  # what is sent from now on queues behind these
        turn.taken = True
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(1, "spades-commit")
        self._loop = asyncio.get_running_loop()
        inflight = _InFlight(turn, batch, self._worker.submit(_timed, batch))
        self._inflight = inflight
        # a bound method, not a closure over ``inflight``: the future keeps its callback,
        # and a closure would make future -> callback -> inflight -> future a cycle that
        # only the garbage collector frees (about 30 objects per batch, every batch)
        inflight.future.add_done_callback(self._done)

    def _done(self, future: concurrent.futures.Future[float]) -> None:
        """In the worker thread: a batch is done; the loop hears of it."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._landed_future, future)

    def _landed_future(self, future: concurrent.futures.Future[float]) -> None:
        inflight = self._inflight
        if inflight is not None and inflight.future is future:
            self._landed(inflight, True)

    def _landed(self, inflight: _InFlight, chain: bool) -> None:
        """The batch in flight is done: send its frames, or refuse it and the turns
        gathered behind it; then (``chain``) start the group that gathered meanwhile."""
        if self._inflight is not inflight:
            return  # a flush saw it land first
        self._inflight = None
        turn = inflight.turn
        try:
            seconds = inflight.future.result()
        except Exception as error:
            inflight.batch.settle(False)
            turn.join(self.take())  # worked out on top of the lost turn: lost with it
            self._waiting = False
            self._lost(error, turn)
            return
        inflight.batch.settle(True)
        self.metrics.committed(seconds, turn.received)
        self._write(turn)
        self.metrics.sent(turn.received)
        if chain and self._waiting:
            self._start()

    def _write(self, turn: Turn) -> None:
        """Write the frames of a stored turn: those taken out at its commit's start (with
        any frames queued since kept behind them), else each dirty session's queue."""
        for session, frames in turn.frames if turn.taken else _taken(turn.dirty):
            # the session's own list stays (emptied), the copy goes: a list made per
            # flush and kept by the session would live until its next action, long
            # enough for the collector's young passes to walk it
            later, session.pending = session.pending, frames
            session.flush()
            session.pending = later

    def flush(self) -> None:
        """Commit the store here, then write what every session has queued (a batch in
        flight lands first: this waits for it)."""
        inflight = self._inflight
        if inflight is not None:
            concurrent.futures.wait([inflight.future])
            self._landed(inflight, chain=False)
        self._waiting = False
        turn = self.take()
        error = self._unproven(turn)
        if error is None:
            received = self.metrics.turn_ended()
            started = time.perf_counter()
            try:
                self.store.commit()
            except Exception as failed:
                error = failed
            else:
                self.metrics.committed(time.perf_counter() - started, received)
                self._write(turn)
                self.metrics.sent(received)
                return
        self._lost(error, turn)

    def close(self) -> None:
        """Flush, and stop the commit worker (at the server's close)."""
        self.flush()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None

    def _lost(self, error: Exception, turn: Turn) -> None:
        self.metrics.commit_failed()
        players = self._players()
        for player, hashed in turn.new_players:  # not stored after all: memory only again
            players.unstore(player, hashed)
        self._failed(error, turn)

    def _failed(self, error: Exception, turn: Turn) -> None:
        """Nothing of this turn is stored: nobody hears of it, every request of the turn
        that wrote is refused, and every table it touched goes back to its stored state."""
        log.error("store commit failed, %d requests refused: %s", len(turn.writers), error)
        self.store.rollback()
        for session in turn.dirty:
            session.pending = []
        rooms = self._rooms()
        # a fenced table is run by another node now: this one forgets it (its audience
        # hears `left` and joins again, or reconnects to be sent there)
        fenced = set(error.codes) if isinstance(error, FencedError) else set()
        closing: list[Closable] = []
        for code in sorted(fenced):
            if self._fencing().released(code):
                if rooms.get(code) is not None:
                    log.warning("table %s: no longer owned by this node; dropped here", code)
                audience = rooms.remove(code, say_left=False)
                closing.extend(s for s in audience if isinstance(s, Closable))
            elif rooms.get(code) is not None:
                log.warning("table %s: claimed by another node; dropped here", code)
                rooms.remove(code)
        for code in sorted(turn.touched - fenced):
            rooms.restore_or_drop(code)
        reason = (
            "the table moved to another server node; nothing changed: join it again"
            if fenced
            else "the server could not store this (its disk may be full); nothing "
            "changed: try again"
        )
        for session, request, req_id in turn.writers:
            self.metrics.error("internal_error")
            session.send(
                m.ErrorMessage(code="internal_error", message=reason, request=request, id=req_id)
            )
        for listener in closing:
            listener.close_soon(1012, "this table moved to another node: reconnect")
