"""Frames in: decode, the rate budget, protocol version gates, and the handler table.

    router = Router(parts)                 # RouterParts: the handlers' parts, see below
    router.handle_data(session, frame)     # one frame, answered or refused

The table of handlers (:meth:`Router.__init__`) is declared once, by message type. Every
way a request can fail is answered here: a refusal (its code; the sentence only goes to
the sender), a store read that failed (``internal_error`` now, since no flush will refuse
it), anything else (``internal_error``, logged); a request that wrote is told to the unit
of work, which refuses it if the turn's commit fails. This module is the one place that
gates messages by protocol minor version (:data:`MINIMUM_MINOR`; the encoding by version
is the session's).

A request for a table this node does not run comes back from its handler as
:class:`~server.lobby.registry.Elsewhere`: the router asks the cluster directory where it
is and sends a ``redirect`` (protocol 1.2; older connections get ``unknown_table`` naming
the URL), or answers it here if the table came to this node meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import msgpack

from protocol import messages as m
from protocol.codec import decode_client, decode_client_json
from protocol.errors import DecodeError
from server.config import ServerConfig
from server.errors import RequestError
from server.gateway import hello
from server.gateway.services import Services
from server.gateway.session import Session, error_message
from server.limits import AddressBudgets, action_bucket
from server.lobby import handlers
from server.lobby.handlers import Lobby
from server.lobby.players import Player, Players
from server.lobby.registry import Elsewhere
from server.lobby.seek_desk import SeekDesk
from server.lobby.turn import UnitOfWork
from server.logs import event
from server.store import Storage, StoreError

__all__ = ["MINIMUM_MINOR", "Router", "RouterParts", "Routing"]

log = logging.getLogger("server")

Handler = Callable[[Session, Player, Any], Elsewhere | None]

MINIMUM_MINOR: dict[type, tuple[int, str]] = {
    # its answer would be a message a 1.0 connection never gets
    m.Entropy: (1, "entropy is a protocol 1.1 message: say protocol_minor 1 in hello"),
    m.GetAnalysis: (1, "get_analysis is new in protocol 1.1"),
    m.EntropyCommit: (3, "entropy_commit is a protocol 1.3 message: say protocol_minor 3"),
}
"""Requests new in a minor version: refused (``bad_message``) from an older connection."""

REDIRECT_MINOR = 2  # ``redirect`` is protocol 1.2

MAX_JSON_QUOTES = 256
"""Quote characters a JSON frame may hold (each key takes two): the largest request has
fewer than 30 keys, and refusing an object of hundreds of unknown keys before the
validator lists each of them costs nothing."""


MAX_MSGPACK_ITEMS = 32
"""Entries a map or array of a msgpack frame may hold (the largest request has fewer
than 30 keys): a frame of hundreds of unknown keys is refused before the validator
lists each of them, as :data:`MAX_JSON_QUOTES` does for JSON."""

REFILL_BEFORE_READING = 0.25
"""A connection refused for its request budget (or its address's) is not read again until
both budgets hold this part of their burst (at least one request): its later frames wait
in the kernel, and TCP makes the sender wait, instead of each being read, looked at and
refused. One refusal tells the client; what it sent meanwhile is handled afterwards."""

MAX_HOLD = 2.0  # seconds a refused connection goes unread at most

_SMALL_FRAME = 128  # bytes: no frame this short holds a map or array past the bound


def _bloated(data: bytes) -> bool:
    """Whether a msgpack frame holds a map or array of more than
    :data:`MAX_MSGPACK_ITEMS` entries (read in C, with nothing built past the bound);
    frames that are not msgpack at all are left to the decoder."""
    if len(data) <= _SMALL_FRAME:
        return False
    try:
        msgpack.unpackb(data, max_map_len=MAX_MSGPACK_ITEMS, max_array_len=MAX_MSGPACK_ITEMS)
    except ValueError as error:
        return "exceeds max_" in str(error)
    except Exception:  # not msgpack: the decoder says why
        return False
    return False


def _type_and_id(data: bytes | str) -> tuple[str | None, int | None]:
    """The ``type`` and ``id`` of a frame, read without validating it (``None`` where
    they cannot be read), to echo in a refusal."""
    try:
        if isinstance(data, str):
            if data.count('"') > MAX_JSON_QUOTES:
                return None, None
            obj = json.loads(data)
        else:
            obj = msgpack.unpackb(
                data, max_map_len=MAX_MSGPACK_ITEMS, max_array_len=MAX_MSGPACK_ITEMS
            )
    except Exception:  # anything unreadable: refused without them
        return None, None
    if not isinstance(obj, dict):
        return None, None
    kind, req_id = obj.get("type"), obj.get("id")
    return (
        kind if isinstance(kind, str) and len(kind) <= 32 else None,
        req_id if type(req_id) is int and 0 <= req_id <= 2**53 else None,
    )


class _Metrics(Protocol):
    def request_started(self) -> None: ...

    def error(self, code: str) -> None: ...

    def refused(self, kind: str) -> None: ...


class Routing(Protocol):
    """Where a table or a player's table is, in a cluster (the directory)."""

    spans_nodes: bool

    async def locate(self, code: str) -> str | None:
        """The public URL of the other node that runs ``code``; ``None`` if this node runs
        it now (taken over on the way) or nobody does. Never raises (logs instead)."""
        ...

    async def player_elsewhere(self, player_id: str) -> tuple[str, str] | None:
        """(URL, table code) of another node that runs a table of ``player_id``, if any."""
        ...

    def redirected(self) -> None: ...


@dataclass
class RouterParts:
    config: ServerConfig
    store: Storage
    metrics: _Metrics
    work: UnitOfWork
    players: Players
    lobby: Lobby
    services: Services
    hello: hello.HelloParts
    routing: Routing
    spawn: Callable[[Awaitable[None]], object]
    seeks: SeekDesk  # play now


class Router:
    """Frames of welcomed and new sessions to their handlers (see the module)."""

    def __init__(self, parts: RouterParts) -> None:
        self.parts = parts
        lobby, services = parts.lobby, parts.services

        def on(handler: Callable[..., Elsewhere | None]) -> Handler:
            return functools.partial(handler, lobby)

        self.handlers: dict[type, Handler] = {
            m.ListTables: on(handlers.list_tables),
            m.CreateTable: on(handlers.create_table),
            m.JoinTable: on(handlers.join_table),
            m.WatchTable: on(handlers.watch_table),
            m.AddBot: on(handlers.add_bot),
            m.Act: on(handlers.act),
            m.Chat: services.chat,
            m.Leave: on(handlers.leave),
            m.Rematch: on(handlers.rematch),
            m.GetRecord: services.get_record,
            m.GetAnalysis: services.get_analysis,
            m.Entropy: on(handlers.entropy),
            m.EntropyCommit: on(handlers.entropy_commit),
            m.Ping: services.ping,
            # play now
            m.Seek: parts.seeks.seek,
            m.CancelSeek: parts.seeks.cancel,
        }
        self._hello_waiting: set[Session] = set()
        # every connection of one address spends from one budget too: 250 connections
        # at each one's own rate would be several cores of work
        self.budgets = AddressBudgets(parts.config)
        self._deferred: set[str] = set()  # players with an act waiting for its budget

    # ---- frames in --------------------------------------------------------------------

    def handle_data(self, session: Session, data: bytes | str) -> None:
        parts = self.parts
        parts.metrics.request_started()
        # the budgets first: a refused frame costs a look at its type and id, never a
        # decode (what an address sends past its budget must cost next to nothing)
        hold = self._spend(session)
        if hold:
            self._refuse_rate(session, *_type_and_id(data), hold)
            return
        limit = parts.config.max_message_bytes
        if session.json and isinstance(data, str) and data.count('"') > MAX_JSON_QUOTES:
            parts.metrics.error("bad_message")
            reason = "a message has fewer keys and strings than this"
            session.send(error_message("bad_message", reason, None, None))
            return
        if not session.json and isinstance(data, bytes) and _bloated(data):
            parts.metrics.error("bad_message")
            reason = "a message has fewer keys and items than this"
            session.send(error_message("bad_message", reason, None, None))
            return
        try:
            if session.json:
                message = decode_client_json(data, limit)  # type: ignore[arg-type]
            else:
                message = decode_client(data, limit)  # type: ignore[arg-type]
        except DecodeError as error:
            # the frame's type and id are echoed whenever they could be read, so a client
            # waiting on that id is answered (protocol 1.1)
            code: m.ErrorCode = "too_large" if error.code == "too_large" else "bad_message"
            parts.metrics.error(code)
            session.send(error_message(code, str(error), error.request, error.request_id))
            return
        if isinstance(message, m.Act) and self._defers(session, message):
            return
        self.answered(session, message, self._dispatch)

    def _defers(self, session: Session, message: m.Act) -> bool:
        """Whether ``message`` waits for (or is refused by) its player's act budget.

        A player's moves are bounded whatever their connections: two connections that
        answer each other's ``your_turn`` at once would otherwise play as fast as the
        loop runs. A client that answers each turn at once is slowed, never refused: its
        act waits for the budget (one act at a time; another meanwhile is refused)."""
        player = session.player
        if player is None:
            return False
        if player.actions is None:
            player.actions = action_bucket(self.parts.config)
        if player.id in self._deferred:
            self.parts.metrics.error("rate_limited")
            reason = "too many moves; wait for the one before"
            session.send(error_message("rate_limited", reason, message.type, message.id))
            return True
        wait = player.actions.wait()
        if wait <= 0.0 and player.actions.take():
            return False
        self._deferred.add(player.id)
        loop = asyncio.get_running_loop()
        loop.call_later(wait, self._run_deferred, session, message, player.id)
        return True

    def _run_deferred(self, session: Session, message: m.Act, player_id: str) -> None:
        player = session.player
        if session.closed or player is None or player.id != player_id:
            self._deferred.discard(player_id)
            return
        assert player.actions is not None
        wait = player.actions.wait()
        if wait > 0.0 or not player.actions.take():
            asyncio.get_running_loop().call_later(
                max(wait, 0.001), self._run_deferred, session, message, player_id
            )
            return
        self._deferred.discard(player_id)
        writes = self.parts.store.write_attempts
        self.answered(session, message, self._dispatch)
        if self.parts.store.write_attempts != writes:
            self.parts.work.schedule()  # no frame of this turn asks for the flush

    def _spend(self, session: Session) -> float:
        """Spend one request of the connection's and its address's budgets: 0.0; else
        (nothing spent) the seconds to leave the connection unread, until both hold
        :data:`REFILL_BEFORE_READING` of their burst (at most :data:`MAX_HOLD`)."""
        # the connection's budget is looked at first and spent last: a request its
        # address's budget refuses costs the connection nothing
        now = time.monotonic()
        rate = session.rate
        if rate.wait(now) <= 0.0 and self.budgets.take(session.address, now):
            if rate.full(now):  # its refusals are forgotten once its budget is whole
                session.strikes = 0
            rate.take(now)
            return 0.0
        own = rate.wait(now, max(1.0, rate.burst * REFILL_BEFORE_READING))
        shared = self.budgets.wait(
            session.address, now, max(1.0, self.budgets.burst * REFILL_BEFORE_READING)
        )
        return min(MAX_HOLD, max(own, shared, 0.001))

    def _refuse_rate(
        self, session: Session, request: str | None, req_id: int | None, hold: float
    ) -> None:
        session.strikes += 1
        self.parts.metrics.refused("request")
        if session.strikes > self.parts.config.rate_close_after:
            session.close_soon(1008, "message rate limit exceeded")
            return
        self.parts.metrics.error("rate_limited")
        session.send(error_message("rate_limited", "too many messages; slow down", request, req_id))
        session.hold_reading(hold)

    def answered(
        self,
        session: Session,
        message: m.ClientMessage,
        dispatch: Callable[[Session, Any], None],
    ) -> None:
        """Run ``dispatch(session, message)`` and answer every way it can fail (also used
        by the account requests, which finish in a later task)."""
        parts = self.parts
        writes = parts.store.write_attempts
        try:
            dispatch(session, message)
        except RequestError as error:
            parts.metrics.error(error.code)
            # the code only: a refusal's sentence may name the sender's own card
            log.debug(
                "connection %d: %s refused (%s)",
                session.id,
                message.type,
                error.code,
                extra=event(
                    "request.refused", conn=session.id, request=message.type, code=error.code
                ),
            )
            session.send(error_message(error.code, error.message, message.type, message.id))
        except StoreError as error:
            if parts.store.write_attempts == writes:
                # a read failed (a database server that is down): no flush will refuse
                # this request, so answer it here
                log.error(
                    "connection %d: %s: the store cannot answer: %s",
                    session.id,
                    message.type,
                    error,
                )
                session.send(
                    error_message(
                        "internal_error",
                        "the server cannot reach its store just now; try again",
                        message.type,
                        message.id,
                    )
                )
            # else: logged where it happened; the flush refuses the whole turn
        except Exception:
            log.exception("connection %d: %s failed", session.id, message.type)
            parts.metrics.error("internal_error")
            session.send(
                error_message(
                    "internal_error", "the server failed on this request", message.type, message.id
                )
            )
        finally:
            if parts.store.write_attempts != writes:
                parts.work.wrote(session, message.type, message.id)

    # ---- dispatch ---------------------------------------------------------------------

    def _dispatch(self, session: Session, message: m.ClientMessage) -> None:
        if isinstance(message, m.Hello):
            if session.player is not None or session in self._hello_waiting:
                raise RequestError("already_welcomed", "this connection already said hello")
            if self._routes_hello(session, message):
                return
            hello.welcome(self.parts.hello, session, message)
            return
        elsewhere = self._handle(session, message)
        if elsewhere is not None:
            self.parts.spawn(self._route(session, message, elsewhere.code))

    def _handle(self, session: Session, message: m.ClientMessage) -> Elsewhere | None:
        player = session.player
        if player is None:
            raise RequestError("hello_first", "the first message must be hello")
        gate = MINIMUM_MINOR.get(type(message))
        if gate is not None and session.minor < gate[0]:
            raise RequestError("bad_message", gate[1])
        return self.handlers[type(message)](session, player, message)

    # ---- a cluster: tables of other nodes ---------------------------------------------

    def _routes_hello(self, session: Session, message: m.Hello) -> bool:
        """A token of a stored player, in a cluster: look up their tables' nodes first."""
        parts = self.parts
        if not parts.routing.spans_nodes or message.token is None:
            return False
        if parts.players.unstored_by_token(message.token) is not None:
            return False
        row = parts.store.player_by_token(message.token)
        if row is None:  # an account's session (server/gateway/account_requests.py)
            row = parts.hello.signed_in(message.token, session.address)
        if row is None:
            return False
        self._hello_waiting.add(session)
        parts.spawn(self._route_hello(session, message, row.id))
        return True

    async def _route_hello(self, session: Session, message: m.Hello, player_id: str) -> None:
        try:
            found = None
            if min(message.protocol_minor, m.PROTOCOL_MINOR) >= REDIRECT_MINOR:
                found = await self.parts.routing.player_elsewhere(player_id)
        finally:
            self._hello_waiting.discard(session)
        if session.closed:
            return
        if found is not None:
            self._redirect(session, found[0], found[1], message.type, message.id)
            return
        self._run(session, message)

    async def _route(self, session: Session, message: m.ClientMessage, code: str) -> None:
        url = await self.parts.routing.locate(code)
        if session.closed:
            return
        if url is not None:
            self._redirect(session, url, code, message.type, message.id)
        elif code in self.parts.lobby.rooms.rooms:
            self._run(session, message)  # taken over meanwhile: answer it here
        else:
            session.send(
                error_message(
                    "unknown_table", f"there is no table {code!r}", message.type, message.id
                )
            )

    def _redirect(
        self, session: Session, url: str, code: str, request: str, req_id: int | None
    ) -> None:
        self.parts.routing.redirected()
        player = session.player
        if player is not None:
            # a player kept in memory only until they sit down would be a stranger on
            # the other node: stored now (committed before the redirect goes out)
            self.parts.players.keep(player)
        if session.minor >= REDIRECT_MINOR or session.player is None:
            session.send(m.Redirect(url=url, table=code, request=request, id=req_id))
        else:
            session.send(
                error_message("unknown_table", f"table {code} is served at {url}", request, req_id)
            )

    def _run(self, session: Session, message: m.ClientMessage) -> None:
        """Handle a request whose routing was waited for, as ``handle_data`` would have."""
        writes = self.parts.store.write_attempts
        self.answered(session, message, self._dispatch_routed)
        if self.parts.store.write_attempts != writes:
            self.parts.work.schedule()

    def _dispatch_routed(self, session: Session, message: m.ClientMessage) -> None:
        if isinstance(message, m.Hello):
            if session.player is not None:
                raise RequestError("already_welcomed", "this connection already said hello")
            hello.welcome(self.parts.hello, session, message)
            return
        elsewhere = self._handle(session, message)
        if elsewhere is not None:
            # the owner went away while we waited: to this client the table is unknown
            raise RequestError("unknown_table", f"there is no table {elsewhere.code!r}")
