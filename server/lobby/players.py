"""The players a server knows: by id, by unstored token, and the tables each sits at.

    players = Players(store, work)
    player = players.new(name)                # kept in memory until they first sit down
    player = players.resume(token)            # None: a token this server does not know
    players.keep(player)                      # stored now (they sit down): in this turn
    players.seat(player_id, code)             # the index of their tables
    players.tables_of(player_id)              # codes, pruned of tables they left
    players.names.holder(name)                # the connected player whose name looks alike

A player who never sat down costs no write: their token's hash is kept in memory only,
and they are forgotten when their connection ends. The first seat stores them, in the
turn's transaction; if that commit fails they are memory-only again
(:meth:`Players.unstore`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

from server.limits import TokenBucket
from server.lobby.names import NameIndex
from server.rooms.frames import Frame
from server.store import Storage, token_hash

__all__ = ["Link", "Player", "Players"]


class Link(Protocol):
    """A player's live connection as the lobby sees it (a gateway ``Session``)."""

    player: Player | None

    @property
    def id(self) -> int: ...

    @property
    def address(self) -> str: ...

    @property
    def minor(self) -> int: ...

    @property
    def watching(self) -> set[str]: ...

    def send(self, message: BaseModel) -> None: ...

    def send_frame(self, frame: Frame) -> None:
        """Queue a message encoded once for every socket of the same view (see Frame)."""
        ...

    def send_encoded(self, data: bytes, text: str) -> None:
        """Queue a message encoded both ways (msgpack ``data``, JSON ``text``)."""
        ...

    def credit(self, count: int, per_hand: bool = False) -> None: ...

    def close_soon(self, code: int, reason: str) -> None: ...


@dataclass(eq=False)
class Player:
    """A person with a session token; ``conn`` is their live connection, if any.

    ``unstored_token_hash`` is set while the player has never sat down: such a player is
    kept only in memory (and forgotten when they leave), so a flood of hellos writes
    nothing; the store gets them when they first take a seat.
    """

    id: str
    name: str
    conn: Link | None = None
    unstored_token_hash: str | None = None
    actions: TokenBucket | None = None  # their ``act`` budget, whatever the connection


class Players:
    """Every player in memory (see the module)."""

    def __init__(self, store: Storage, stored: Callable[[Player, str], None]) -> None:
        """``stored(player, hashed)`` is told of each player stored in the open turn."""
        self.store = store
        self._stored = stored
        self.by_id: dict[str, Player] = {}
        self.unstored: dict[str, Player] = {}  # by token hash: players who never sat down
        self._seated: dict[str, set[str]] = {}  # player id -> codes of tables they sit at
        self.names = NameIndex()  # connected players by the skeleton of their name

    def __len__(self) -> int:
        return len(self.by_id)

    def __iter__(self) -> Iterator[Player]:
        return iter(list(self.by_id.values()))

    def get(self, player_id: str) -> Player | None:
        return self.by_id.get(player_id)

    def online(self) -> list[Player]:
        return [player for player in self.by_id.values() if player.conn is not None]

    def new(self, name: str) -> tuple[Player, str]:
        """A new player and their token, kept in memory only (see the module)."""
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        player = Player(secrets.token_hex(8), name, unstored_token_hash=hashed)
        self.by_id[player.id] = player
        self.unstored[hashed] = player
        return player, token

    def unstored_by_token(self, token: str) -> Player | None:
        return self.unstored.get(token_hash(token))

    def known(self, player_id: str, name: str) -> Player:
        """The player with this id, made if needed (a stored player coming back)."""
        player = self.by_id.get(player_id)
        if player is None:
            player = self.by_id[player_id] = Player(player_id, name)
        return player

    def keep(self, player: Player) -> None:
        """Store ``player`` if only memory has them (in the open turn)."""
        hashed = player.unstored_token_hash
        if hashed is None:
            return
        self.store.add_player_hashed(player.id, player.name, hashed)
        player.unstored_token_hash = None
        del self.unstored[hashed]
        self._stored(player, hashed)

    def unstore(self, player: Player, hashed: str) -> None:
        """The turn that stored ``player`` was lost: memory only again."""
        player.unstored_token_hash = hashed
        self.unstored[hashed] = player

    def forget(self, player: Player) -> None:
        """Forget a player who never sat down (their connection ended)."""
        if player.unstored_token_hash is not None:
            self.unstored.pop(player.unstored_token_hash, None)
        self.by_id.pop(player.id, None)
        self._seated.pop(player.id, None)

    # ---- the index of their tables ---------------------------------------------------

    def seat(self, player_id: str, code: str) -> None:
        self._seated.setdefault(player_id, set()).add(code)

    def unseat(self, player_id: str, code: str) -> None:
        codes = self._seated.get(player_id)
        if codes is not None:
            codes.discard(code)

    def tables_of(self, player_id: str, sits_at: Callable[[str], bool]) -> list[str]:
        """Codes of the tables where ``player_id`` sits: those of the index for which
        ``sits_at(code)`` holds (the others are pruned)."""
        codes = self._seated.get(player_id)
        if not codes:
            return []
        out = []
        for code in list(codes):
            if sits_at(code):
                out.append(code)
            else:
                codes.discard(code)
        return out
