"""One unit of work per turn of the event loop: stored before anyone hears.

    work = UnitOfWork(store, metrics, players, rooms, directory)
    work.wrote(session, "act", 7)       # a request of this turn wrote to the store
    work.touched("K7QX2M9A")            # a table wrote (restored if the commit fails)
    session.send(message)               # queued; the session is marked dirty
    work.flush()                        # at the turn's end: commit, then send

Requests are handled one at a time and synchronously: engine ``apply``, store write (into
the store's open transaction), then the messages are encoded and queued on their
sessions. At the next turn of the loop :meth:`UnitOfWork.flush` commits the store once
for every action of the turn and only then writes each session's queue, so no seat hears
of an action before it is stored. Before the commit the directory must prove this node
still owns every table the turn wrote for (in a cluster; fencing). If the commit fails
nobody has heard anything: the touched tables go back to what the store has, the players
stored in the turn are memory-only again, and every request of the turn that wrote is
refused; a table another node claimed is dropped here instead.
"""

from __future__ import annotations

import asyncio
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

__all__ = ["Closable", "Fencing", "Outbox", "Turn", "UnitOfWork"]

log = logging.getLogger("server")


class _Metrics(Protocol):
    def commit_failed(self) -> None: ...

    def committed(self, seconds: float) -> None: ...

    def sent(self) -> None: ...

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

    # ---- what a turn did --------------------------------------------------------------

    def schedule(self) -> None:
        """Flush at the next turn of the loop (once however often it is asked)."""
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self.flush)

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

    def flush(self) -> None:
        """Commit the store, then write what every session has queued (see the module)."""
        turn = self.take()
        rooms = self._rooms()
        unproven = self._fencing().unproven({c for c in turn.touched if c in rooms.rooms})
        if unproven:
            error: Exception = FencedError(
                unproven, f"lease no longer held for {', '.join(unproven)}"
            )
        else:
            started = time.perf_counter()
            try:
                self.store.commit()
            except Exception as failed:
                error = failed
            else:
                self.metrics.committed(time.perf_counter() - started)
                for session in turn.dirty:
                    session.flush()
                self.metrics.sent()
                return
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
