"""``hello``: a new player, or a player back with their token (resumed on their seats).

    welcome(parts, session, message)     # raises RequestError; answers ``welcome``

A name that looks like a word of the game's (:func:`server.lobby.names.reserved`) is
refused (``bad_name``); a new player whose name looks like a connected player's gets a
number added (``alice 2``, in ``welcome.name``). A name or a resumed player's
name that looks like one the host banned is refused (``banned``) and the
connection closed. A new player is kept in memory only until they first sit down. A
resumed player's old connection is closed (4000), and each of their tables gets them
back: their seat's snapshot, its ``your_turn`` if it is their move.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from protocol import messages as m
from protocol.text import TextError, clean_name
from server.config import ServerConfig
from server.errors import RequestError
from server.gateway.session import Session, error_message
from server.lobby.names import reserved
from server.lobby.players import Player, Players
from server.lobby.registry import Rooms
from server.logs import event
from server.rooms.table import server_time
from server.store import PlayerRow, Storage

__all__ = ["HelloParts", "goodbye", "welcome"]

log = logging.getLogger("server")


class _Bans(Protocol):
    def name_banned(self, name: str) -> bool: ...


class _Errors(Protocol):
    def error(self, code: str) -> None: ...


@dataclass
class HelloParts:
    config: ServerConfig
    store: Storage
    players: Players
    rooms: Rooms
    bans: _Bans
    metrics: _Errors
    now: Callable[[], float]
    # a token of an account's session (server/gateway/account_requests.py): (token, address)
    signed_in: Callable[[str, str], PlayerRow | None] = lambda token, address: None


def welcome(parts: HelloParts, session: Session, message: m.Hello) -> None:
    if message.protocol_version not in m.SUPPORTED_VERSIONS:
        versions = ", ".join(str(v) for v in m.SUPPORTED_VERSIONS)
        raise RequestError(
            "unsupported_version",
            f"protocol version {message.protocol_version} is not supported; "
            f"this server speaks version {versions}",
        )
    try:
        name = clean_name(message.name)
    except TextError as error:
        raise RequestError("bad_name", str(error)) from None
    if reserved(name):  # look-alikes too: ``ʙot``, ``Υou``, ``Bot（easy）``
        raise RequestError("bad_name", f"the name {name!r} is one the game uses itself")
    if parts.bans.name_banned(name):
        _refuse_banned(parts, session, message)
        return
    players = parts.players
    player: Player
    if message.token is not None:
        fresh = players.unstored_by_token(message.token)
        row = None if fresh is not None else parts.store.player_by_token(message.token)
        if fresh is None and row is None:
            row = parts.signed_in(message.token, session.address)
        if fresh is not None:
            if parts.bans.name_banned(fresh.name):
                _refuse_banned(parts, session, message)
                return
            player = fresh
        elif row is None:
            raise RequestError("bad_token", "this token is not known here; say hello without one")
        else:
            if parts.bans.name_banned(row.name):
                _refuse_banned(parts, session, message)
                return
            player = players.known(row.id, row.name)
        token, resumed = message.token, True
    else:
        # two connected players never look alike (whom would a reader mean?): a
        # look-alike of a connected player's name gets a number, "alice 2"
        name = players.names.unique(name)
        player, token = players.new(name)  # in memory only until they first sit down
        resumed = False
    session.minor = min(message.protocol_minor, m.PROTOCOL_MINOR)
    old = player.conn
    if old is not None and old is not session:
        old.player = None
        old.close_soon(4000, "resumed on another connection")
    player.conn = session
    session.player = player
    holder = players.names.holder(player.name)
    if not (isinstance(holder, Player) and holder.conn is not None):
        players.names.claim(player)
    seated = parts.rooms.tables_of(player.id)
    session.send(
        m.Welcome(
            protocol_version=m.PROTOCOL_VERSION,
            server_versions=tuple(m.SUPPORTED_VERSIONS),
            player_id=player.id,
            name=player.name,
            token=token,
            resumed=resumed,
            tables=tuple(room.code for room in seated),
            id=message.id,
            protocol_minor=session.minor,
            server_time=server_time(parts.now()),
            entropy_seconds=parts.config.entropy_seconds,
        )
    )
    log.info(
        "connection %d: player %s %s",
        session.id,
        player.id,
        "resumed" if resumed else "new",
        extra=event("player.hello", conn=session.id, player=player.id, resumed=resumed),
    )
    for room in seated:
        index = room.seat_of(player.id)
        assert index is not None
        room.reconnect(index, session)


def _refuse_banned(parts: HelloParts, session: Session, message: m.Hello) -> None:
    parts.metrics.error("banned")
    session.send(
        error_message("banned", "this name is banned from this server", message.type, message.id)
    )
    session.close_soon(1008, "banned")


def goodbye(parts: HelloParts, session: Session, closing: bool) -> None:
    """``session`` ended: it stops watching, and its player's seats are held (a player
    who never sat down is forgotten). Nothing is held while the server is closing."""
    rooms = parts.rooms
    for code in list(session.watching):
        room = rooms.get(code)
        if room is not None:
            room.remove_spectator(session)
    session.watching.clear()
    player = session.player
    if player is None or player.conn is not session:
        return
    player.conn = None
    parts.players.names.release(player)
    seated = rooms.tables_of(player.id)
    if player.unstored_token_hash is not None and not seated:
        parts.players.forget(player)  # never sat down: nothing of them is kept
        return
    if closing:
        return
    for room in seated:
        index = room.seat_of(player.id)
        if index is not None:
            room.dropped(index)
