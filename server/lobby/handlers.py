"""The lobby's requests as thin functions over the registry: list, create, join, watch,
add the bot, leave, and the requests a table's room answers (act, rematch, entropy).

    outcome = create_table(lobby, session, player, message)   # None, or Elsewhere

Each takes the :class:`Lobby` (the parts it works with), the welcomed session, its
player and the request; it raises :class:`~server.errors.RequestError` to refuse (before
anything changed) and returns :class:`~server.lobby.registry.Elsewhere` when the table is
not run here (the gateway then routes the request). ``create_table``, ``add_bot`` and
``rematch`` are answered with a ``snapshot`` carrying the request's ``id``; the other
seats get a ``table_update``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import msgpack

from engine import EngineError, RuleSet
from protocol import messages as m
from protocol.codec import encode_for, json_from_msgpack
from server.bots import BotRunner
from server.config import ServerConfig
from server.errors import RequestError
from server.limits import AddressLimits, LimitError
from server.lobby.players import Link, Player
from server.lobby.registry import Elsewhere, Rooms
from server.logs import event
from server.rooms import requests
from server.rooms.ports import Listener
from server.rooms.room import Room
from server.rooms.table import Seat, Table
from server.rulebounds import check_score_range

__all__ = [
    "LIST_PAGE_SIZE",
    "Lobby",
    "act",
    "add_bot",
    "create_table",
    "entropy",
    "entropy_commit",
    "join_table",
    "leave",
    "list_tables",
    "open_table",
    "rematch",
    "watch_table",
]

log = logging.getLogger("server")

LIST_PAGE_SIZE = 50
"""Tables in one ``table_list`` page (``list_tables`` asks for the next with ``offset``)."""

MAX_CACHED_PAGES = 256
"""Encoded list pages kept at once (by offset and minor version) until the next listing."""

_NIL_ID = b"\xa2id\xc0"  # msgpack: the key "id", then nil

Listing = Callable[[tuple[m.TableSummary, ...]], tuple[m.TableSummary, ...]]


@dataclass
class Lobby:
    """The parts the lobby's requests work with. ``listing`` adds other nodes' open
    tables to this node's (the cluster directory's; a server on its own adds none)."""

    config: ServerConfig
    rooms: Rooms
    limits: AddressLimits
    bots: BotRunner
    now: Callable[[], float]
    listing: Listing = lambda local: local
    list_cache: tuple[float | None, tuple[m.TableSummary, ...]] = (None, ())
    # encoded pages of the listing above, by (offset, minor): msgpack and JSON, id left nil
    list_pages: dict[tuple[int, int], tuple[bytes, str]] = field(default_factory=dict)
    created: Callable[[str], None] = lambda code: None  # a new table (the directory claims it)
    is_account: Callable[[str], bool] = lambda player_id: False  # server/accounts


def list_tables(lobby: Lobby, session: Link, player: Player, message: m.ListTables) -> None:
    # built at most once per list_cache_seconds, whoever asks: listing every public
    # table for every request would let a few clients fill a core
    now = lobby.now()
    built_at, summaries = lobby.list_cache
    if built_at is None or now - built_at >= lobby.config.list_cache_seconds:
        public = (r for r in lobby.rooms if not r.private and r.status != "closed")
        summaries = lobby.listing(tuple(room.summary(now) for room in public))
        lobby.list_cache = (now, summaries)
        lobby.list_pages = {}
    # each page is encoded once per listing and minor version, in both encodings: only
    # the request's id is written per request
    key = (message.offset, min(session.minor, m.PROTOCOL_MINOR))
    encoded = lobby.list_pages.get(key)
    if encoded is None:
        if len(lobby.list_pages) >= MAX_CACHED_PAGES:
            lobby.list_pages.clear()
        page = summaries[message.offset : message.offset + LIST_PAGE_SIZE]
        data = encode_for(m.TableList(tables=page, id=None), key[1])
        if data is None or not data.endswith(_NIL_ID):
            session.send(m.TableList(tables=page, id=message.id))
            return
        encoded = lobby.list_pages[key] = (data, json_from_msgpack(data))
    data, text = encoded
    if message.id is None:
        session.send_encoded(data, text)
        return
    # "id" is the last field of table_list: its nil is the frame's last byte (msgpack)
    # and ``null}`` its JSON text's end
    packed_id: bytes = msgpack.packb(message.id)
    session.send_encoded(data[:-1] + packed_id, f"{text[: -len('null}')]}{message.id}}}")


def create_table(lobby: Lobby, session: Link, player: Player, message: m.CreateTable) -> None:
    open_table(lobby, session, player, message)


def open_table(lobby: Lobby, session: Link, player: Player, message: m.CreateTable) -> Room:
    """``create_table``'s work, returning the new room (play now seats its pair there).
    Raises :class:`~server.errors.RequestError` before anything changed."""
    config, rooms = lobby.config, lobby.rooms
    if len(rooms) >= config.max_tables:  # finished tables hold memory too
        raise RequestError("server_full", "the server has as many tables as it can hold")
    try:
        lobby.limits.check_new_table(session.address, rooms, message.bot is not None)
    except LimitError as error:
        raise RequestError("server_full", str(error)) from None
    mine = [r for r in rooms.tables_of(player.id) if r.status != "finished"]
    if len(mine) >= config.max_tables_per_player:
        raise RequestError("server_full", "you sit at as many tables as one player may")
    try:
        rules = RuleSet.preset(message.preset, **message.overrides)
        check_score_range(rules)
    except (EngineError, TypeError, ValueError) as error:
        raise RequestError("bad_rules", str(error)) from None
    table = Table(
        code=rooms.new_code(),
        private=message.private,
        preset=rules.preset_name(),
        rules=rules,
        on_hold_expiry=message.on_hold_expiry,
        hold_seconds=(
            message.hold_seconds if message.hold_seconds is not None else config.hold_seconds
        ),
        turn_seconds=message.turn_seconds,
        rated=message.rated,
    )
    if message.rated and not lobby.is_account(player.id):
        raise RequestError("not_signed_in", "a rated game is for accounts: sign in first")
    room = rooms.create(table, lobby.limits.share(session.address))
    index = message.seat if message.seat is not None else 0
    room.sit(index, player.id, player.name)
    if message.bot is not None:
        lobby.bots.warm()
        table.seats[1 - index] = Seat(
            kind="bot", name=f"bot ({message.bot})", bot_level=message.bot
        )
    # built before the table exists anywhere: a table whose messages cannot be built
    # fails here, loudly, never after an action
    created = room.snapshot(index, message.id)
    rooms.register(room)
    room.save()
    lobby.created(room.code)
    log.info(
        "table %s: created (%s, %s)",
        table.code,
        table.preset or "custom rules",
        "private" if table.private else "open",
        extra=event("table.create", table=table.code, preset=table.preset, conn=session.id),
    )
    session.send(created)
    if not table.empty_seats():
        room.start_game()
    return room


def join_table(
    lobby: Lobby, session: Link, player: Player, message: m.JoinTable
) -> Elsewhere | None:
    room = lobby.rooms.find(message.code)
    if isinstance(room, Elsewhere):
        return room
    requests.join(room, session, player.id, player.name, message)
    return None


def watch_table(
    lobby: Lobby, session: Link, player: Player, message: m.WatchTable
) -> Elsewhere | None:
    room = lobby.rooms.find(message.code)
    if isinstance(room, Elsewhere):
        return room
    requests.watch(room, session, player.id, message)
    return None


def add_bot(lobby: Lobby, session: Link, player: Player, message: m.AddBot) -> Elsewhere | None:
    room = lobby.rooms.find(message.code)
    if isinstance(room, Elsewhere):
        return room
    index = requests.seat_for_bot(room, player.id, message.seat)
    try:
        lobby.limits.check_bot(session.address, lobby.rooms)
    except LimitError as error:
        raise RequestError("server_full", str(error)) from None
    share = lobby.limits.share(session.address)  # the bot's decisions wait by share
    requests.add_bot(room, session, player.id, index, message.level, share, message.id)
    return None


RoomRequest = TypeVar("RoomRequest", m.Leave, m.Act, m.Rematch, m.Entropy, m.EntropyCommit)


def _in_room(
    request: Callable[[Room, Listener, str, RoomRequest], None],
) -> Callable[[Lobby, Link, Player, RoomRequest], Elsewhere | None]:
    """The lobby's handler of a request that names a table: find its room, or say where
    it runs (:class:`Elsewhere`), then let the room's ``request`` check and do it."""

    def handler(
        lobby: Lobby, session: Link, player: Player, message: RoomRequest
    ) -> Elsewhere | None:
        room = lobby.rooms.find(message.code)
        if isinstance(room, Elsewhere):
            return room
        request(room, session, player.id, message)
        return None

    return handler


leave = _in_room(requests.leave)
act = _in_room(requests.act)
rematch = _in_room(requests.rematch)
entropy = _in_room(requests.entropy)
entropy_commit = _in_room(requests.entropy_commit)
