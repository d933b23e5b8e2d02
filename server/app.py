"""The composition root: builds the server's parts, starts them, stops them in reverse.

    running = await start_server(ServerConfig(port=0, db_path=":memory:"))
    print(running.url)                  # ws://127.0.0.1:PORT/
    await running.close()               # or: async with await start_server(...) as running:

:class:`Hub` builds the parts (docs/server.md draws them): the store, the players and
the registry of rooms, the unit of work, the directory (one node, or a cluster node
through Redis), the gateway's router, the transport, and operations (moderation,
metrics, admin, upkeep). It keeps the names the tests read (``tables``, ``players``,
``unstored``, ``conns``, ``flush``...) as a thin facade, and is the admin socket's
:class:`~server.ops.admin.AdminPort`. :func:`start_server` starts the parts in order:
retention, directory, tables, websockets, housekeeping, the host's endpoints;
:meth:`RunningServer.close` stops them in reverse.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from websockets.asyncio.server import Server

from server.accounts import SeekRatings
from server.accounts.limits import Attempts
from server.bots import BotRunner
from server.cluster.directory import Directory, LocalDirectory, cluster_directory_class
from server.config import ServerConfig
from server.gateway.account_requests import AccountRequests
from server.gateway.hello import HelloParts, goodbye
from server.gateway.router import Router, RouterParts
from server.gateway.services import Services
from server.gateway.session import Conn
from server.limits import AddressLimits
from server.lobby.handlers import LIST_PAGE_SIZE, Lobby
from server.lobby.players import Player, Players
from server.lobby.registry import Rooms
from server.lobby.seek_desk import SeekDesk
from server.lobby.seeks import MemoryPool, SeekPool
from server.lobby.turn import UnitOfWork
from server.net.addresses import client_host
from server.net.admission import Admission
from server.net.guard import raise_fd_limit, watch_stalled
from server.net.http import http_responder
from server.net.listener import listen
from server.net.pacing import HandshakePacer, paced
from server.net.tls import tls_context
from server.net.transport import Transport, TransportParts
from server.net.web import select_subprotocol
from server.ops.looplag import LoopLag
from server.ops.metrics import Metrics
from server.ops.moderation import Moderation, moderation_path
from server.ops.report_budget import ReportBudget
from server.ops.serving import OpsEndpoints
from server.ops.upkeep import Upkeep
from server.rooms.room import Room
from server.store import open_store
from server.tasks import Background

__all__ = ["LIST_PAGE_SIZE", "Conn", "Hub", "RunningServer", "start_server"]

log = logging.getLogger("server")


class Hub:
    """Every part of one server, built; ``load()`` before serving (see the module)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config, self.started, self._closing = config, time.monotonic(), False
        self.background = Background()  # the server's long-lived tasks
        spawn, now = self.background.spawn, self.now
        self.spawn = spawn
        self.wall_clock: Callable[[], float] = time.time  # the retention's (tests move it)
        cluster_class = cluster_directory_class(config)  # checked before the store opens
        self.work: UnitOfWork  # (the store's on_begin and the unit of work look these up)
        self.roster: Players
        self.rooms: Rooms
        store = self.store = open_store(config, on_begin=lambda: self.work.schedule())
        bots = self.bots = BotRunner(config.bot_workers, config.bot_iterations, config.bot_effort)
        self.limits = AddressLimits(config)
        bans = self.moderation = Moderation(moderation_path(config))
        bans.report_budget = ReportBudget.from_config(config)
        metrics = self.metrics = Metrics(self)  # reads the facade's counts when scraped
        cluster = cluster_class(config, store, spawn, self.now) if cluster_class else None
        directory: Directory = cluster or LocalDirectory()
        work = self.work = UnitOfWork(
            store, metrics, lambda: self.roster, lambda: self.rooms, lambda: directory
        )
        roster = self.roster = Players(store, work.stored)
        rooms = self.rooms = Rooms(config, store, bots, metrics, roster, directory, work.touched)
        if cluster is not None:
            cluster.attach(rooms, work.flush)
        lobby = Lobby(config, rooms, self.limits, bots, self.now)
        lobby.listing, lobby.created = directory.listing, directory.created
        services = self.services = Services(config, store, bots, rooms, bans, metrics, now, spawn)
        self.hello = HelloParts(config, store, roster, rooms, bans, metrics, self.now)
        attempts = _attempts(config, cluster)  # sign-in limits: in Redis for a cluster
        accounts = self.accounts = AccountRequests(
            store, roster, rooms, work, spawn, time.time, attempts
        )
        self.hello.signed_in, lobby.is_account = accounts.hello_token, accounts.is_account
        rooms.game_ended = accounts.rater.ended
        self.ratings = accounts.ratings  # the read-only Ratings lookup (the seek pool's)
        self.seek_pool = _seek_pool(config, cluster, spawn)
        seeks = self.seeks = SeekDesk(
            lobby, self.seek_pool, SeekRatings(accounts.ratings), spawn=spawn,
            wrote=work.schedule, bot_anchors=SeekRatings.anchors(),
        )  # fmt: skip
        parts = RouterParts(
            config, store, metrics, work, roster, lobby, services, self.hello, directory, spawn,
            seeks,
        )  # fmt: skip
        self.router = Router(parts)
        self.router.handlers.update(accounts.handlers())  # register, sign_in, profile...
        accounts.answered = self.router.answered
        handle, bye = self.router.handle_data, self.disconnected
        opener = functools.partial(Conn, config=config, hub=work)  # a session per connection
        wire = TransportParts(self.limits, bans, metrics, opener, handle, bye, self.now)
        self.transport: Transport[Conn] = Transport(config, wire)
        self.upkeep = Upkeep(config, store, rooms, roster, work.flush, lambda: self.wall_clock())
        # websocket upgrades a few per turn of the loop, newcomers first (server/net/pacing.py)
        limits, proxies = self.limits, config.trusted_proxies
        self.pacer = HandshakePacer(lambda share: limits.connections.get(share, 0), limits.share)
        self.process_request = paced(
            http_responder(self._health), self.pacer, lambda ws: client_host(ws, proxies)
        )
        # the facade: the names tests, benchmarks and the metrics page use
        self.handler, self.handle_data = self.transport.handler, self.router.handle_data
        self.flush, self.reclaim = work.flush, self.upkeep.reclaim
        self.directory, self.tables = directory, rooms.rooms
        self.players, self.unstored = roster.by_id, roster.unstored
        self.conns: set[Conn] = self.transport.sessions

    @property
    def closing(self) -> bool:
        return self._closing

    @closing.setter
    def closing(self, value: bool) -> None:
        self._closing = self.transport.closing = self.rooms.closing = value

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def disconnected(self, conn: Conn) -> None:
        self.seeks.gone(conn)
        goodbye(self.hello, conn, self.closing)

    def _health(self) -> dict[str, Any]:
        online, uptime = len(self.roster.online()), round(time.monotonic() - self.started, 3)
        return {"status": "ok", "tables": len(self.rooms), "players": online,
                "connections": len(self.conns), "uptime": uptime}  # fmt: skip

    # ---- the admin socket's view (server.ops.admin.AdminPort) -------------------------

    def admin_rooms(self) -> Iterable[Room]:
        return list(self.rooms)

    def admin_players(self) -> Iterable[Player]:
        return list(self.roster)

    def admin_sessions(self) -> Iterable[Conn]:
        return list(self.conns)

    def admin_tables_of(self, player_id: str) -> list[str]:
        return [room.code for room in self.rooms.tables_of(player_id)]

    def admin_close(self, code: str) -> bool:
        room = self.rooms.get(code)
        if room is not None:
            room.close()
            self.rooms.remove(code)
        return room is not None

    # ---- start and stop ---------------------------------------------------------------

    async def prepare(self) -> None:
        """Before :meth:`load`: the directory starts (a cluster node joins)."""
        await self.directory.start()
        await self.seek_pool.start()

    def load(self) -> None:
        """Load every stored table this node runs, and start the directory's work."""
        if self.directory.owns_all_at_start:
            self.rooms.load_all()
        self.directory.run()
        self.spawn(self.seeks.run())

    def close(self) -> None:
        """Flush, end every task and timer, stop the bots, close the store."""
        self.closing = True
        self.work.close()
        self.background.cancel()
        self.rooms.dispose_all()
        self.services.cancel()
        self.bots.close()
        self.store.close()

    async def closed(self) -> None:
        """After :meth:`close`: the directory gives up what this node holds."""
        await self.seek_pool.close()
        await self.accounts.accounts.attempts.close()
        await self.directory.close()


def _seek_pool(config: ServerConfig, cluster: Any, spawn: Any) -> SeekPool:
    """Play now's pool: in Redis for a cluster node (redis-py imported then), else memory."""
    if cluster is None:
        return MemoryPool()
    from server.cluster.redis_seeks import RedisSeekPool

    def leased(code: str) -> bool:  # the lease taken (not only being claimed)
        return cluster.presence is not None and bool(cluster.presence.holds(code))

    return RedisSeekPool(config.presence_url, cluster.node_id, spawn, leased=leased)


def _attempts(config: ServerConfig, cluster: Any) -> Attempts | None:
    """The accounts' attempt limits: in Redis for a cluster node, else memory (None)."""
    if cluster is None:
        return None
    from server.cluster.redis_limits import RedisAttempts

    return RedisAttempts(config.presence_url)


class RunningServer:
    """A started server: ``port``, ``url``, and ``close()`` (also an async context manager)."""

    def __init__(self, hub: Hub, server: Server, host: str, port: int, tls: bool = False) -> None:
        self.hub, self.server, self.host, self.port = hub, server, host, port
        shown = f"[{host}]" if ":" in host else host
        self.url = f"{'wss' if tls else 'ws'}://{shown}:{port}/"
        self._closed = False
        self.ops = OpsEndpoints()  # the metrics page and the admin socket
        self.metrics_url: str | None = None  # http://127.0.0.1:PORT/metrics when served
        self.admin_path: str | None = None  # the admin socket (see server.ops.admin)
        self.admin_server: asyncio.Server | None = None
        self.admission: Admission | None = None  # what new sockets meet (server.net.admission)

    async def close(self) -> None:
        """Close every connection (code 1001), stop the bots, flush and close the store."""
        if self._closed:
            return
        self._closed = True
        self.hub.closing = True
        self.server.close()
        await self.server.wait_closed()
        await self.ops.close()
        self.hub.close()
        await self.hub.closed()
        log.info("server closed")

    async def wait_closed(self) -> None:
        await self.server.wait_closed()

    async def __aenter__(self) -> RunningServer:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


async def start_server(config: ServerConfig) -> RunningServer:
    """Open the store, resume its unfinished games, and listen (``port=0``: any free port)."""
    tls = tls_context(config)
    fd_limit = config.fd_limit if config.fd_limit is not None else raise_fd_limit()
    hub = Hub(config)
    try:
        await hub.reclaim()  # before loading: what went is not loaded
        await hub.prepare()
        hub.load()
        server, admission = await listen(
            config, hub.handler, hub.process_request, select_subprotocol, fd_limit, tls
        )
        hub.metrics.count_shed(admission.shed)
    except BaseException:
        hub.close()
        raise
    hub.spawn(watch_stalled(lambda: server.handlers.keys(), config))
    hub.spawn(hub.upkeep.reap_abandoned())
    hub.spawn(hub.upkeep.keep_tidy())
    hub.spawn(LoopLag(hub.metrics.loop_lagged, gc_observe=hub.metrics.gc_paused).run())
    sockets = list(server.sockets)
    port = int(sockets[0].getsockname()[1]) if sockets else config.port
    log.info("listening on %s:%d%s", config.host, port, " (TLS)" if tls else "")
    running = RunningServer(hub, server, config.host, port, tls=tls is not None)
    running.admission = admission
    try:
        await running.ops.open(config, hub.metrics, hub)
        ops = running.ops
        running.metrics_url, running.admin_path = ops.metrics_url, ops.admin_path
        running.admin_server = ops.admin_server
    except BaseException:
        await running.close()
        raise
    return running
