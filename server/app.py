"""The authoritative asyncio websocket server.

    running = await start_server(ServerConfig(port=0, db_path=":memory:"))
    print(running.url)                  # ws://127.0.0.1:PORT/
    await running.close()               # or: async with await start_server(...) as running:

Layers (see each module's docstring): :mod:`server.connection` (a ``Conn``: frames out,
rate budgets), this module (``Hub``: frames in, ``hello``, dispatch, flush, loading,
start-up), :mod:`server.lobby` (``Lobby``: codes, listing, create/join/watch/add_bot/leave)
and :mod:`server.room` (``TableRoom``: one table's game loop, where a played card goes).
``Hub`` is ``class Hub(Lobby)``, ``Lobby`` is ``class Lobby(TableRoom)``. This module
re-exports ``Conn`` and ``LIST_PAGE_SIZE``.

How it works, in one place:

- Each connection gets a :class:`Conn`. Requests are handled one at a time and
  synchronously: engine ``apply``, store write (into the store's open transaction), then
  the messages are encoded (once per kind of viewer) and queued on their connections.
  Nothing another coroutine does can interleave with that. At the next turn of the loop
  :meth:`Hub.flush` commits the store and only then writes each connection's queue with
  one socket write (no waiting on a slow reader: one that lets too much pile up is
  disconnected). One commit so serves every action of a turn of the loop, and no seat
  hears of an action before it is stored.
- Every message a seat gets is built from that seat's own view (``Outcome.for_viewer``,
  ``GameState.view_for``); spectators get the ``None`` viewer's. Errors only repeat the
  engine's message, which only ever talks about the sender's own cards.
- The server is chance. Before each hand it applies ``Commit(secrets.token_bytes(32))``
  (``hand_started`` carries the commitment), waits up to ``entropy_seconds`` for the
  ``entropy`` of each connected 1.1 human seat, then applies ``Shuffle`` with the values
  that came (``b""`` for a bot or silent seat): not even the server can choose the deck.
- Bots (and stand-ins for dropped or slow humans) think in a :class:`~server.bots.BotRunner`
  executor, after ``bot_delay``; the result is applied only if the state has not moved.
- On start every table that is not closed is loaded and its game rebuilt from the stored
  actions; its humans count as dropped until they say hello with their token again.

Semantics the protocol leaves to the server:

- ``join_table`` for a table where you already sit changes nothing and answers with a
  fresh ``snapshot`` of your seat (``watch_table`` too): the way to resynchronise.
- ``create_table``, ``add_bot`` and ``rematch`` are answered with a ``snapshot`` carrying the
  request's ``id``; the other seats get a ``table_update``. ``chat`` is answered by its echo
  (``chat`` messages carry no ``id``). The ``rematch`` that completes the agreement starts
  the new game: everyone at the table gets its snapshot (version 0) before its events.
- A snapshot of the seat to move carries its ``your_turn`` (protocol 1.1).
- The rate budget gets back 2 tokens per ``your_turn`` and 1 per ``hand_started`` for each
  seat asked for entropy: answering what the server asks for is never refused.
- ``leave`` during a game forfeits it (``game_over`` with reason ``forfeit``); a table with
  no human left is closed. A dropped seat of a table that is not playing is freed when its
  hold runs out.
- ``act`` checks, in order: the table, your seat, that the game is on, an already applied
  ``seq`` (``ack`` again), your turn, the ``version``, then the engine's rules.
- Sequence numbers start over with each game (a rematch).
- ``rematch`` before game over is refused with ``illegal_action``; bots always agree.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import ssl
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from engine import (
    parse_action,
)
from protocol import messages as m
from protocol.codec import (
    decode_client,
    decode_client_json,
    encode,
    encode_json,
)
from protocol.errors import DecodeError
from protocol.text import TextError, clean_chat, clean_name
from server.admin import (
    REPORT_PREFIX,
    Moderation,
    admin_socket_path,
    is_report,
    moderation_path,
    new_report,
    serve_admin,
)
from server.bots import BotRunner
from server.config import ServerConfig
from server.connection import Conn, RequestError
from server.connection import error_message as _error
from server.connection import peer_address as _peer
from server.errors import ServerError, StartupError
from server.guard import OneLineLogger, guarded_connection, raise_fd_limit, watch_stalled
from server.limits import AddressLimits
from server.lobby import LIST_PAGE_SIZE, Lobby
from server.logs import event
from server.metrics import Metrics, serve_metrics
from server.store import (
    FencedError,
    Reclaimed,
    RetentionPolicy,
    Storage,
    StoreError,
    TableRow,
    open_store,
    token_hash,
)
from server.tables import Player, Table, server_time
from server.web import respond as web_respond
from server.web import select_subprotocol

__all__ = ["LIST_PAGE_SIZE", "Conn", "Hub", "RunningServer", "start_server"]


log = logging.getLogger("server")


class Hub(Lobby):
    """Every table, player and connection of one server."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store: Storage = open_store(config, on_begin=self._schedule_flush)
        self.bots = BotRunner(config.bot_workers, config.bot_iterations)
        self.limits = AddressLimits(config)
        self.tables: dict[str, Table] = {}
        self.players: dict[str, Player] = {}
        self.seated: dict[str, set[str]] = {}  # player id -> codes of tables they sat at
        self.conns: set[Conn] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        # get_analysis: the analyses being worked out, and one worker's worth of room
        self.analyses: dict[tuple[str, int, str], asyncio.Future[str]] = {}
        self.analysis_slot = asyncio.Semaphore(1)
        self.started = time.monotonic()
        self.closing = False
        self._dirty: list[Conn] = []
        self._writers: list[tuple[Conn, str, int | None]] = []  # requests that wrote, this turn
        self._touched: set[str] = set()  # tables written this turn
        self._bot_slots: dict[str, asyncio.Semaphore] = {}  # by address: one decision each
        self._list_cache: tuple[float | None, tuple[m.TableSummary, ...]] = (None, ())
        self._new_players: list[tuple[Player, str]] = []  # players stored this turn
        self.unstored: dict[str, Player] = {}  # by token hash: players who never sat down
        self._flush_handle: asyncio.Handle | None = None
        self.metrics = Metrics(self)
        self.moderation = Moderation(moderation_path(config))

    # ---- sending --------------------------------------------------------------------

    def dirty(self, conn: Conn) -> None:
        """``conn`` has messages to send: flush at the next turn of the loop."""
        self._dirty.append(conn)
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_soon(self.flush)

    def _take_turn(
        self,
    ) -> tuple[list[Conn], list[tuple[Conn, str, int | None]], set[str], list[tuple[Player, str]]]:
        """Cancel a pending flush and take this turn's queues (each starts empty again):
        the connections with output, the requests that wrote, the tables written and the
        players stored."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        dirty, self._dirty = self._dirty, []
        writers, self._writers = self._writers, []
        touched, self._touched = self._touched, set()
        new_players, self._new_players = self._new_players, []
        return dirty, writers, touched, new_players

    def flush(self) -> None:
        """Commit the store, then write what every connection has queued.

        Every message queued so far was made after its action was applied and written to
        the store's open transaction; committing before any write keeps "stored before any
        seat hears of it" while one commit serves every action of this turn of the loop.
        If the commit fails nobody has heard anything: the tables are rebuilt from what the
        store has and the connections that were about to hear are closed (they resume).
        """
        dirty, writers, touched, new_players = self._take_turn()
        started = time.perf_counter()
        try:
            self.store.commit()
        except Exception as error:
            self.metrics.commit_failed()
            for player, hashed in new_players:  # not stored after all: memory only again
                player.unstored_token_hash = hashed
                self.unstored[hashed] = player
            self._commit_failed(error, dirty, writers, touched)
            return
        self.metrics.committed(time.perf_counter() - started)
        for conn in dirty:
            conn.flush()
        self.metrics.sent()

    def _commit_failed(
        self,
        error: Exception,
        dirty: list[Conn],
        writers: list[tuple[Conn, str, int | None]],
        touched: set[str],
    ) -> None:
        """Nothing of this turn is stored: nobody hears of it, every request of the turn
        that wrote is refused, and every table it touched goes back to its stored state."""
        log.error("store commit failed, %d requests refused: %s", len(writers), error)
        self.store.rollback()
        for conn in dirty:
            conn.pending = []
        # a fenced table is run by another node now: this one forgets it (its audience
        # hears `left` and joins again) instead of restoring it from the store
        fenced = set(error.codes) if isinstance(error, FencedError) else set()
        for code in sorted(fenced):
            table = self.tables.get(code)
            if table is not None:
                log.warning("table %s: claimed by another node; dropped here", code)
                self._drop_table(table)
        for code in sorted(touched - fenced):
            self._restore_or_drop(code)
        reason = (
            "the table moved to another server node; nothing changed: join it again"
            if fenced
            else "the server could not store this (its disk may be full); nothing "
            "changed: try again"
        )
        for conn, request, req_id in writers:
            self.metrics.error("internal_error")
            conn.send(_error("internal_error", reason, request, req_id))

    def _restore_or_drop(self, code: str) -> None:
        """:meth:`_restore`; while the store cannot even be read (a database server that
        is down), the table leaves memory instead, since memory may hold actions the store
        lost, and is loaded again from the store once it answers."""
        try:
            self._restore(code)
        except StoreError as error:
            log.error("table %s: the store cannot give it back yet: %s", code, error)
            table = self.tables.get(code)
            if table is not None:
                self._drop_table(table)
            if not self.closing:
                asyncio.get_running_loop().call_later(
                    self.config.store_retry_seconds, self._reload, code
                )

    def _reload(self, code: str) -> None:
        if code not in self.tables and not self.closing:
            self._restore_or_drop(code)

    def _restore(self, code: str) -> None:
        """Bring table ``code`` back to what the store has, tell its audience, and let the
        game go on a little later (so a store that keeps failing is not retried in a loop)."""
        table = self.tables.get(code)
        row = self.store.load_table(code)
        if table is None:
            if row is None or row.status == "closed":
                return
            table = self._load_row(row)
            if table is None:
                return
            self.tables[code] = table
        elif row is None or row.status == "closed":
            self._drop_table(table)
            return
        else:
            stored = Table.from_data(row.code, row.data, row.status, row.game_no)  # type: ignore[arg-type]
            for old, new in zip(table.seats, stored.seats, strict=True):
                if old.kind == new.kind == "human" and old.player_id == new.player_id:
                    new.hold_deadline, new.bot_standing_in = old.hold_deadline, old.bot_standing_in
            table.seats, table.status = stored.seats, stored.status
            table.game_no, table.record_id = stored.game_no, stored.record_id
            self._replay(table)
        for index, seat in enumerate(table.seats):
            if seat.kind == "human" and seat.player_id is not None:
                self.seated.setdefault(seat.player_id, set()).add(code)
                self._start_hold(table, index)
        self._stop_tasks(table, holds=False)
        for viewer, conn in self._audience(table):
            conn.send(self._snapshot(table, viewer, None))
        asyncio.get_running_loop().call_later(self.config.store_retry_seconds, self._resume, code)

    def _resume(self, code: str) -> None:
        table = self.tables.get(code)
        if table is not None and table.status == "playing" and table.bot_task is None:
            try:
                self._advance(table)
            except Exception as error:  # the store still fails: the next flush restores
                log.error("table %s: cannot go on yet: %s", code, error)

    def _drop_table(self, table: Table) -> None:
        """Forget ``table`` in memory (it is closed, or was never stored)."""
        self._stop_tasks(table)
        for _, conn in self._audience(table):
            conn.watching.discard(table.code)
            conn.send(m.Left(table=table.code))
        table.spectators.clear()
        self.tables.pop(table.code, None)

    # ---- utilities ------------------------------------------------------------------

    @property
    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background task failed")

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ---- start-up -------------------------------------------------------------------

    def load(self) -> None:
        """Load every table that is not closed and rebuild its game from its actions.

        A table whose stored data cannot be read or replayed is left out (and reported by
        code, one log line each); the others load.
        """
        bad: list[str] = []
        for row in self.store.load_tables():
            table = self._load_row(row)
            if table is None:
                bad.append(row.code)
                continue
            self.tables[table.code] = table
            log.info(
                "table %s: loaded (%s, game %d, version %d)",
                table.code,
                table.status,
                table.game_no,
                table.state.version,
            )
        if bad:
            log.error("%d stored tables could not be loaded: %s", len(bad), ", ".join(bad))
        for table in list(self.tables.values()):
            table.humans_gone_at = self.now if table.has_humans() else None
            for index, seat in enumerate(table.seats):
                if seat.kind == "human":
                    self._start_hold(table, index)
            self._advance(table)

    def _load_row(self, row: TableRow) -> Table | None:
        """The table of a stored row with its game replayed, or ``None`` (logged) if the
        row is damaged: bad JSON, missing fields, bad rules, actions that do not replay."""
        try:
            table = Table.from_data(row.code, row.data, row.status, row.game_no)  # type: ignore[arg-type]
            self._replay(table)
            table.info(None, self.players, 0.0)  # its messages can be built
        except Exception as error:
            # the error's kind only: its text may name a card of the stored game
            log.error(
                "table %s: stored data is damaged, not loaded: %s",
                row.code,
                type(error).__name__,
            )
            return None
        for seat in table.seats:
            if seat.kind == "human" and seat.player_id is not None:
                self.players.setdefault(seat.player_id, Player(seat.player_id, seat.name or "?"))
                self.seated.setdefault(seat.player_id, set()).add(row.code)
        return table

    def _replay(self, table: Table) -> None:
        table.state = type(table.state)(table.rules)
        for seat in table.seats:
            seat.seqs = {}
        for row in self.store.load_actions(table.code, table.game_no):
            table.state.apply(row.seat, parse_action(row.action))
            if row.seq is not None and row.seat is not None:
                table.seats[row.seat].seqs[row.seq] = row.index

    # ---- HTTP -----------------------------------------------------------------------

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            body = json.dumps(
                {
                    "status": "ok",
                    "tables": len(self.tables),
                    "players": sum(1 for p in self.players.values() if p.conn is not None),
                    "connections": len(self.conns),
                    "uptime": round(time.monotonic() - self.started, 3),
                }
            )
            response = connection.respond(200, body + "\n")
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "application/json"
            return response
        if request.headers.get("Upgrade", "").lower() != "websocket":
            page = web_respond(connection, request)  # the web client's files
            if page is not None:
                return page
        if path != "/":
            return connection.respond(
                404,
                "Not found. This is a spades websocket server: "
                "connect to / with a websocket client.\n",
            )
        if request.headers.get("Upgrade", "").lower() != "websocket":
            response = connection.respond(
                426,
                "Upgrade required. This is a spades websocket server: use a websocket client.\n",
            )
            response.headers["Upgrade"] = "websocket"
            return response
        return None

    # ---- connections ----------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        conn = Conn(ws, self.config, self)
        full = len(self.conns) >= self.config.max_connections or self.closing
        if self.moderation.address_banned(conn.address):
            log.info(
                "connection from %s refused: banned",
                _peer(ws),
                extra=event("connection.refused", address=_peer(ws), reason="banned"),
            )
            self.metrics.error("banned")
            with contextlib.suppress(ConnectionClosed):
                refusal = _error("banned", "this address is banned from this server", None, None)
                await ws.send(encode_json(refusal) if conn.json else encode(refusal))
                await ws.close(1008, "banned")
            return
        if full or not self.limits.connect(conn.address):
            reason = "the server is full" if full else "your address has too many connections"
            log.info(
                "connection from %s refused: %s",
                _peer(ws),
                reason,
                extra=event("connection.refused", address=_peer(ws), reason=reason),
            )
            self.metrics.error("server_full")
            with contextlib.suppress(ConnectionClosed):
                refusal = _error("server_full", f"{reason}; try later", None, None)
                await ws.send(encode_json(refusal) if conn.json else encode(refusal))
                await ws.close(1013, "server full")
            return
        self.conns.add(conn)
        self.metrics.connections_opened.inc()
        log.info(
            "connection %d: opened from %s",
            conn.id,
            _peer(ws),
            extra=event("connection.open", conn=conn.id, address=_peer(ws)),
        )
        try:
            await self._read(conn)
        except ConnectionClosed:
            pass
        finally:
            self.limits.disconnect(conn.address)
            self.conns.discard(conn)
            conn.closed = True
            conn.pending = []
            self._disconnected(conn)
            if conn.close_task is not None:  # our close code, not the default 1000
                with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
                    await conn.close_task
            code, reason = ws.close_code, ws.close_reason or ""
            player_id = conn.player.id if conn.player is not None else None
            log.info(
                "connection %d: closed (%s %s)",
                conn.id,
                code,
                reason,
                extra=event(
                    "connection.close", conn=conn.id, code=code, reason=reason, player=player_id
                ),
            )

    async def _read(self, conn: Conn) -> None:
        ws = conn.ws
        deadline = self.now + self.config.hello_timeout
        while not conn.closed:
            if conn.player is None:
                try:
                    data = await asyncio.wait_for(ws.recv(), max(0.0, deadline - self.now))
                except TimeoutError:
                    await ws.close(1008, "no hello in time")
                    return
            else:
                data = await ws.recv()
            self.handle_data(conn, data)

    def handle_data(self, conn: Conn, data: bytes | str) -> None:
        self.metrics.request_started()
        try:
            if conn.json:
                message = decode_client_json(data, self.config.max_message_bytes)  # type: ignore[arg-type]
            else:
                message = decode_client(data, self.config.max_message_bytes)  # type: ignore[arg-type]
        except DecodeError as error:
            # the frame's type and id are echoed whenever they could be read, so a client
            # waiting on that id is answered (protocol 1.1)
            if not self._rate_ok(conn, error.request, error.request_id):
                return
            code: m.ErrorCode = "too_large" if error.code == "too_large" else "bad_message"
            self.metrics.error(code)
            conn.send(_error(code, str(error), error.request, error.request_id))
            return
        if not self._rate_ok(conn, message.type, message.id):
            return
        self._dispatch_answered(conn, message, self._dispatch)

    def _dispatch_answered(
        self, conn: Conn, message: m.ClientMessage, dispatch: Callable[[Conn, Any], None]
    ) -> None:
        """Run ``dispatch(conn, message)`` and answer every way it can fail: a refusal
        (its code), a store read that failed (``internal_error`` now, since no flush will
        refuse it), anything else (``internal_error``, logged); a request that wrote is
        remembered so the flush can refuse it if the commit fails."""
        writes = self.store.write_attempts
        try:
            dispatch(conn, message)
        except RequestError as error:
            self.metrics.error(error.code)
            # the code only: a refusal's sentence may name the sender's own card
            log.debug(
                "connection %d: %s refused (%s)",
                conn.id,
                message.type,
                error.code,
                extra=event("request.refused", conn=conn.id, request=message.type, code=error.code),
            )
            conn.send(_error(error.code, error.message, message.type, message.id))
        except StoreError as error:
            if self.store.write_attempts == writes:
                # a read failed (a database server that is down): no flush will refuse
                # this request, so answer it here
                log.error(
                    "connection %d: %s: the store cannot answer: %s", conn.id, message.type, error
                )
                conn.send(
                    _error(
                        "internal_error",
                        "the server cannot reach its store just now; try again",
                        message.type,
                        message.id,
                    )
                )
            # else: logged where it happened; the flush refuses the whole turn
        except Exception:
            log.exception("connection %d: %s failed", conn.id, message.type)
            self.metrics.error("internal_error")
            conn.send(
                _error(
                    "internal_error", "the server failed on this request", message.type, message.id
                )
            )
        finally:
            if self.store.write_attempts != writes:
                self._writers.append((conn, message.type, message.id))

    def _rate_ok(self, conn: Conn, request: str | None, req_id: int | None) -> bool:
        if conn.rate.take():
            conn.strikes = 0
            return True
        conn.strikes += 1
        self.metrics.refused("request")
        if conn.strikes > self.config.rate_close_after:
            conn.close_soon(1008, "message rate limit exceeded")
        else:
            self.metrics.error("rate_limited")
            conn.send(_error("rate_limited", "too many messages; slow down", request, req_id))
        return False

    def _disconnected(self, conn: Conn) -> None:
        for code in list(conn.watching):
            table = self.tables.get(code)
            if table is not None:
                table.spectators.discard(conn)
        conn.watching.clear()
        player = conn.player
        if player is None or player.conn is not conn:
            return
        player.conn = None
        if player.unstored_token_hash is not None and not self._tables_of(player.id):
            # never sat down: nothing of them is kept
            del self.unstored[player.unstored_token_hash]
            del self.players[player.id]
            return
        if self.closing:
            return
        for table in self._tables_of(player.id):
            index = table.seat_of(player.id)
            if index is not None:
                self._start_hold(table, index)
                log.info("table %s: seat %d dropped", table.code, index)
                self._send_update(table)
                if not table.humans_connected(self.players):
                    table.humans_gone_at = self.now

    # ---- requests -------------------------------------------------------------------

    def _dispatch(self, conn: Conn, message: m.ClientMessage) -> None:
        if isinstance(message, m.Hello):
            if conn.player is not None:
                raise RequestError("already_welcomed", "this connection already said hello")
            self._hello(conn, message)
            return
        player = conn.player
        if player is None:
            raise RequestError("hello_first", "the first message must be hello")
        handlers: dict[type, Callable[[Conn, Player, Any], None]] = {
            m.ListTables: self._list_tables,
            m.CreateTable: self._create_table,
            m.JoinTable: self._join_table,
            m.WatchTable: self._watch_table,
            m.AddBot: self._add_bot,
            m.Act: self._act,
            m.Chat: self._chat,
            m.Leave: self._leave,
            m.Rematch: self._rematch,
            m.GetRecord: self._get_record,
            m.GetAnalysis: self._get_analysis,
            m.Entropy: self._entropy,
            m.Ping: self._ping,
        }
        handlers[type(message)](conn, player, message)

    def _hello(self, conn: Conn, message: m.Hello) -> None:
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
        if self.moderation.name_banned(name):
            self._refuse_banned(conn, message)
            return
        if message.token is not None:
            fresh = self.unstored.get(token_hash(message.token))
            row = None if fresh is not None else self.store.player_by_token(message.token)
            if fresh is not None:
                if self.moderation.name_banned(fresh.name):
                    self._refuse_banned(conn, message)
                    return
                player = fresh
            elif row is None:
                raise RequestError(
                    "bad_token", "this token is not known here; say hello without one"
                )
            else:
                if self.moderation.name_banned(row.name):
                    self._refuse_banned(conn, message)
                    return
                player = self.players.get(row.id) or Player(row.id, row.name)
                self.players[row.id] = player
            token, resumed = message.token, True
        else:
            # kept in memory only until the player first sits down (see _sit)
            player_id = secrets.token_hex(8)
            token, resumed = secrets.token_urlsafe(32), False
            hashed = token_hash(token)
            player = Player(player_id, name, unstored_token_hash=hashed)
            self.players[player_id] = player
            self.unstored[hashed] = player
        conn.minor = min(message.protocol_minor, m.PROTOCOL_MINOR)
        old = player.conn
        if old is not None and old is not conn:
            old.player = None
            old.close_soon(4000, "resumed on another connection")
        player.conn = conn
        conn.player = player
        seated = self._tables_of(player.id)
        conn.send(
            m.Welcome(
                protocol_version=m.PROTOCOL_VERSION,
                server_versions=tuple(m.SUPPORTED_VERSIONS),
                player_id=player.id,
                name=player.name,
                token=token,
                resumed=resumed,
                tables=tuple(t.code for t in seated),
                id=message.id,
                protocol_minor=conn.minor,
                server_time=server_time(self.now),
                entropy_seconds=self.config.entropy_seconds,
            )
        )
        log.info(
            "connection %d: player %s %s",
            conn.id,
            player.id,
            "resumed" if resumed else "new",
            extra=event("player.hello", conn=conn.id, player=player.id, resumed=resumed),
        )
        for table in seated:
            index = table.seat_of(player.id)
            assert index is not None
            self._reconnect(table, index, conn)

    def _refuse_banned(self, conn: Conn, message: m.Hello) -> None:
        self.metrics.error("banned")
        conn.send(
            _error("banned", "this name is banned from this server", message.type, message.id)
        )
        conn.close_soon(1008, "banned")

    def _reconnect(self, table: Table, index: int, conn: Conn) -> None:
        seat = table.seats[index]
        task = table.hold_tasks.pop(index, None)
        if task is not None:
            task.cancel()
        seat.hold_deadline = None
        was_standing_in = seat.bot_standing_in
        seat.bot_standing_in = False
        # only the stand-in's own move is called off: the pending task may be the other
        # seat's (a real bot), and cancelling that one would freeze the game
        if was_standing_in and table.bot_task is not None and table.bot_seat == index:
            table.bot_task.cancel()
            table.bot_task = None
        table.humans_gone_at = None
        if table.paused:
            table.paused = False
            other = table.seats[1 - index]
            idle = table.bot_task is None or table.bot_task.done()
            others_turn = table.state.current_player == 1 - index
            bot_to_move = other.kind == "bot" or other.bot_standing_in
            if table.status == "playing" and idle and others_turn and bot_to_move:
                self._advance(table)  # the bots stopped while nobody was here
        conn.send(self._snapshot(table, index, None))
        self._send_update(table, skip=conn)
        log.info("table %s: seat %d back", table.code, index)
        if table.status == "playing" and table.state.current_player == index:
            self._prompt(table, index)

    def _chat(self, conn: Conn, player: Player, message: m.Chat) -> None:
        table = self._table(message.code)
        index = table.seat_of(player.id)
        if index is None and conn not in table.spectators:
            raise RequestError("not_at_table", "you are not at this table")
        try:
            text = clean_chat(message.text)  # the name rules: nothing that forges a screen
        except TextError as error:
            raise RequestError("bad_message", str(error)) from None
        if len(text) > self.config.chat_max_chars:
            raise RequestError(
                "chat_too_long", f"chat is limited to {self.config.chat_max_chars} characters"
            )
        if not conn.chat_rate.take():
            self.metrics.refused("chat")
            raise RequestError("rate_limited", "too much chat; slow down")
        if is_report(text):  # for the host only: the table never sees it
            if not self.moderation.may_report(player.id, self.now):
                raise RequestError(
                    "rate_limited", "your last report was only just sent: try again later"
                )
            self._report(conn, player, table, index, text[len(REPORT_PREFIX) :].strip())
            return
        if player.id in self.moderation.muted:
            raise RequestError("muted", "the host has muted your chat on this server")
        self.moderation.heard(table.code, player.name, text)
        out = encode(m.ChatMessage(table=table.code, seat=index, name=player.name, text=text))
        for _, other in self._audience(table):
            other.send_bytes(out)

    def _report(
        self, conn: Conn, player: Player, table: Table, index: int | None, text: str
    ) -> None:
        """Log and keep a ``/report`` (with the table's recent chat); tell only the reporter."""
        other = table.seats[1 - index] if index is not None else None
        reported = (
            (other.player_id, other.name)
            if other is not None and other.kind == "human"
            else (None, None)
        )
        recent = list(self.moderation.recent_chat.get(table.code, ()))
        report = new_report(table.code, player, reported, text, recent)
        self.moderation.report(report)
        log.warning(
            "table %s: %s (%s) reports %s: %s",
            table.code,
            player.name,
            player.id,
            reported[1] or "-",
            text,
            extra=event("report", **report),
        )
        conn.send(
            m.ChatMessage(
                table=table.code,
                seat=None,
                name="server",
                text="Your report was sent to the host of this server. Thank you.",
            )
        )

    def _get_record(self, conn: Conn, player: Player, message: m.GetRecord) -> None:
        text = self.store.record_json(message.record_id)
        if text is None:
            raise RequestError("record_not_available", "no finished game has this record id (yet)")
        conn.send(m.RecordMessage(record_id=message.record_id, record_json=text, id=message.id))

    def _get_analysis(self, conn: Conn, player: Player, message: m.GetAnalysis) -> None:
        if conn.minor < 1:
            raise RequestError("bad_message", "get_analysis is new in protocol 1.1")
        record_json = self.store.record_json(message.record_id)
        if record_json is None:
            raise RequestError("record_not_available", "no finished game has this record id (yet)")
        key = (message.record_id, message.seat, message.level)
        cached = self.store.analysis_json(*key)
        if cached is not None:
            conn.send(self._analysis_message(message, cached))
            return
        work = self.analyses.get(key)
        if work is None:  # one analysis per record, seat and level, however many ask
            work = asyncio.ensure_future(self._analyse(record_json, *key))
            self.analyses[key] = work
            work.add_done_callback(lambda _: self.analyses.pop(key, None))
        self.spawn(self._answer_analysis(conn, message, work))

    async def _analyse(self, record_json: str, record_id: str, seat: int, level: str) -> str:
        async with self.analysis_slot:  # one at a time: a bot worker stays free for the tables
            text = await self.bots.analyse(record_json, seat, level)
        self.store.save_analysis(record_id, seat, level, text)
        return text

    async def _answer_analysis(
        self, conn: Conn, message: m.GetAnalysis, work: asyncio.Future[str]
    ) -> None:
        try:
            text = await asyncio.shield(work)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("record %s: the analysis failed", message.record_id)
            conn.send(_error("internal_error", "the analysis failed", message.type, message.id))
            return
        conn.send(self._analysis_message(message, text))

    @staticmethod
    def _analysis_message(message: m.GetAnalysis, text: str) -> m.AnalysisMessage:
        return m.AnalysisMessage(
            record_id=message.record_id,
            seat=message.seat,
            level=message.level,
            analysis_json=text,
            id=message.id,
        )

    def _ping(self, conn: Conn, player: Player, message: m.Ping) -> None:
        conn.send(m.Pong(nonce=message.nonce, id=message.id))

    # ---- abandoned tables -----------------------------------------------------------

    async def reap_abandoned(self) -> None:
        """Forever: close playing tables where no human has been connected for
        ``abandoned_table_seconds`` (tables that are not playing go when their holds do)."""
        limit = self.config.abandoned_table_seconds
        while True:
            await asyncio.sleep(min(10.0, limit / 4))
            now = self.now
            for table in list(self.tables.values()):
                gone = table.humans_gone_at
                if table.status == "playing" and gone is not None and now - gone > limit:
                    log.info(
                        "table %s: abandoned; closed",
                        table.code,
                        extra=event("table.close", table=table.code, reason="abandoned"),
                    )
                    table.status = "closed"
                    self._save(table)
                    self._drop_table(table)

    # ---- cluster hooks (server.cluster.ClusterHub fills them in) --------------------

    async def prepare(self) -> None:
        """Before :meth:`load`: nothing for a server on its own."""

    async def closed(self) -> None:
        """After :meth:`close`: nothing for a server on its own."""

    # ---- retention (server/store/retention.py) ---------------------------------------

    wall_clock: Callable[[], float] = time.time  # the retention's clock (tests move it)

    def retention_policy(self) -> RetentionPolicy:
        config = self.config
        return RetentionPolicy(
            keep_finished_days=config.keep_finished_days,
            reclaim_days=config.reclaim_days,
            keep_analyses_days=config.keep_analyses_days,
        )

    async def reclaim(self, now: float | None = None) -> Reclaimed:
        """Delete what the retention policy lets go at ``now`` (Unix seconds; default
        :attr:`wall_clock`), one batch of each kind a turn of the loop, each batch committed by a
        flush; the tables in memory and connected players are kept."""
        policy = self.retention_policy()
        total = Reclaimed(more=True)
        while total.more:
            live_players = [p.id for p in self.players.values() if p.conn is not None]
            try:
                step = self.store.reclaim_step(
                    policy,
                    self.wall_clock() if now is None else now,
                    live_tables=list(self.tables),
                    live_players=live_players,
                )
            except StoreError as error:  # a full disk: try again next time
                log.error("retention: cannot reclaim now: %s", error)
                self.flush()
                break
            self.flush()
            total = total + step
            await asyncio.sleep(0)
        if total.total:
            log.info(
                "retention: reclaimed %d finished games, %d closed and %d waiting tables, "
                "%d analyses, %d players",
                total.finished_games,
                total.closed_tables,
                total.waiting_tables,
                total.analyses,
                total.players,
            )
        return total

    async def keep_tidy(self) -> None:
        """Forever: :meth:`reclaim` every ``retention_interval_seconds``."""
        while True:
            await asyncio.sleep(self.config.retention_interval_seconds)
            await self.reclaim()

    # ---- shutdown -------------------------------------------------------------------

    def close(self) -> None:
        self.closing = True
        self.flush()
        for task in list(self.tasks):
            task.cancel()
        for work in list(self.analyses.values()):
            work.cancel()
        self.bots.close()
        self.store.close()


class RunningServer:
    """A started server: ``port``, ``url``, and ``close()`` (also an async context manager)."""

    def __init__(self, hub: Hub, server: Server, host: str, port: int, tls: bool = False) -> None:
        self.hub = hub
        self.server = server
        self.host = host
        self.port = port
        shown = f"[{host}]" if ":" in host else host
        self.url = f"{'wss' if tls else 'ws'}://{shown}:{port}/"
        self._closed = False
        self.metrics_server: Server | None = None
        self.metrics_url: str | None = None  # http://127.0.0.1:PORT/metrics when served
        self.admin_server: asyncio.Server | None = None
        self.admin_path: str | None = None  # the admin socket (see server.admin)

    async def close(self) -> None:
        """Close every connection (code 1001), stop the bots, flush and close the store."""
        if self._closed:
            return
        self._closed = True
        self.hub.closing = True
        self.server.close()
        await self.server.wait_closed()
        if self.metrics_server is not None:
            self.metrics_server.close()
            await self.metrics_server.wait_closed()
        if self.admin_server is not None:
            self.admin_server.close()
            await self.admin_server.wait_closed()
            with contextlib.suppress(OSError):
                os.unlink(self.admin_path or "")
        self.hub.close()
        await self.hub.closed()
        log.info("server closed")

    async def wait_closed(self) -> None:
        await self.server.wait_closed()

    async def __aenter__(self) -> RunningServer:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


async def start_server(config: ServerConfig) -> RunningServer:
    """Open the store, resume its unfinished games, and listen (``port=0``: any free port)."""
    tls = _tls_context(config)
    fd_limit = config.fd_limit if config.fd_limit is not None else raise_fd_limit()
    if config.presence_url:
        hub: Hub = _cluster_hub(config)
    else:
        hub = Hub(config)
    try:
        await hub.reclaim()  # before loading: what went is not loaded
        await hub.prepare()
        hub.load()
        server = await serve(
            hub.handler,
            config.host,
            config.port,
            process_request=hub.process_request,
            select_subprotocol=select_subprotocol,
            max_size=config.max_message_bytes,
            compression=None,
            ping_interval=config.ping_interval,
            ping_timeout=config.ping_timeout,
            close_timeout=config.close_timeout,
            open_timeout=config.handshake_timeout,
            max_queue=32,
            create_connection=guarded_connection(config, fd_limit),
            logger=OneLineLogger(logging.getLogger("websockets.server")),
            ssl=tls,
        )
    except BaseException:
        hub.close()
        raise
    hub.spawn(watch_stalled(lambda: server.handlers.keys(), config))
    hub.spawn(hub.reap_abandoned())
    hub.spawn(hub.keep_tidy())
    sockets = list(server.sockets)
    port = int(sockets[0].getsockname()[1]) if sockets else config.port
    log.info("listening on %s:%d%s", config.host, port, " (TLS)" if tls else "")
    running = RunningServer(hub, server, config.host, port, tls=tls is not None)
    if config.metrics_port is not None:
        try:
            running.metrics_server = await serve_metrics(
                hub.metrics, config.metrics_host, config.metrics_port
            )
        except BaseException:
            await running.close()
            raise
        bound = next(iter(running.metrics_server.sockets)).getsockname()
        shown = f"[{bound[0]}]" if ":" in str(bound[0]) else str(bound[0])
        running.metrics_url = f"http://{shown}:{bound[1]}/metrics"
        log.info("metrics on %s", running.metrics_url)
    admin_path = admin_socket_path(config)
    if admin_path is not None:
        try:
            running.admin_server = await serve_admin(hub, admin_path)
            running.admin_path = admin_path
        except ServerError as error:
            if config.admin_socket is not None:  # asked for by name: it must work
                await running.close()
                raise
            # the default place: play goes on without moderation, and the log says why
            log.warning("no admin socket (spades admin will not reach this server): %s", error)
        except BaseException:
            await running.close()
            raise
    return running


def _cluster_hub(config: ServerConfig) -> Hub:
    """A cluster node's hub (:mod:`server.cluster`; redis-py is imported only here).

    Raises :class:`StartupError` without a shared store (``--store``) or when redis-py
    is not installed."""
    if not config.store_url:
        raise StartupError(
            "--presence needs a store every node shares: add --store postgresql://..."
        )
    try:
        from server.cluster import ClusterHub
    except ImportError as error:
        raise StartupError(
            f"--presence needs redis-py ({error}): pip install 'spades2[cluster]'"
        ) from None
    return ClusterHub(config)


def _tls_context(config: ServerConfig) -> ssl.SSLContext | None:
    """The server's TLS context (TLS 1.2 or later), or ``None`` without a certificate.

    Raises :class:`StartupError` when the certificate or key cannot be loaded.
    """
    if config.certfile is None:
        if config.keyfile is not None:
            raise StartupError("--keyfile needs --certfile")
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(config.certfile, config.keyfile)
    except (OSError, ssl.SSLError) as error:
        raise StartupError(f"cannot load the TLS certificate {config.certfile}: {error}") from None
    return context
