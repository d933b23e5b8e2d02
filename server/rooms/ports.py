"""What a room needs from outside it, as narrow interfaces (a room imports nothing above).

- :class:`Listener`: one connection as a room sees it (a seat's or a spectator's):
  queue a message, its protocol minor version, give back rate tokens, the codes of the
  tables it watches (kept by the rooms only: the room is the one owner of membership).
- :class:`Clock`: the room's timers; the only part of a room that touches the event loop
  (:class:`server.rooms.clock.LoopClock`; a test steps a room with a manual clock).
- :class:`RoomHost`: the server around the rooms: config, store, bots, metrics, who is
  connected, and the unit of work and registry hooks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from pydantic import BaseModel

from server.bots import BotRunner
from server.config import ServerConfig
from server.rooms.frames import Frame
from server.store import Storage

__all__ = ["Clock", "Listener", "RoomHost", "RoomMetrics"]


class Listener(Protocol):
    """A connection as a room sees it."""

    @property
    def minor(self) -> int: ...

    @property
    def watching(self) -> set[str]: ...

    def send(self, message: BaseModel) -> None: ...

    def send_frame(self, frame: Frame) -> None:
        """Queue a message encoded once for every socket of the same view (see Frame)."""
        ...

    def credit(self, count: int, per_hand: bool = False) -> None:
        """Give back ``count`` request tokens: the server asked this connection for a reply.
        ``per_hand``: a reply asked for once a hand (the entropy steps), not per turn."""
        ...


class Clock(Protocol):
    """A room's timers, by name (``"turn"``, ``"entropy"``, ``"bot"``, ``"hold0"``...):
    starting one under a name that runs cancels the old; all die with :meth:`dispose`."""

    def now(self) -> float: ...

    def later(self, name: str, seconds: float, callback: Callable[[], None]) -> None: ...

    def task(self, name: str, work: Coroutine[Any, Any, None]) -> None: ...

    def cancel(self, name: str) -> None: ...

    def running(self, name: str) -> bool: ...

    def current(self, name: str) -> bool:
        """Whether the code running now is the timer or task ``name`` (it then ends)."""
        ...

    def dispose(self) -> None: ...


class RoomMetrics(Protocol):
    def action(self, actor: str, from_request: bool = False) -> None: ...

    def bot_decided(self, level: str, seconds: float) -> None: ...


class RoomHost(Protocol):
    """The server as its rooms see it."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def store(self) -> Storage: ...

    @property
    def bots(self) -> BotRunner: ...

    @property
    def metrics(self) -> RoomMetrics: ...

    def listener_of(self, player_id: str) -> Listener | None:
        """The live connection of a player, if any."""
        ...

    def touched(self, code: str) -> None:
        """Table ``code`` wrote to the store in this turn (restored if the commit fails)."""
        ...

    def seated(self, player_id: str, code: str) -> None: ...

    def unseated(self, player_id: str, code: str) -> None: ...

    def closed(self, code: str) -> None:
        """Table ``code`` closed itself (nobody left): it leaves memory."""
        ...

    def is_live(self, code: str, room: object) -> bool:
        """Whether ``room`` is still the live room of ``code`` (a timer of a room that was
        dropped and loaded again must not act)."""
        ...

    def bot_slot(self, address: str) -> asyncio.Semaphore:
        """One bot decision at a time per network address."""
        ...
