"""Prometheus metrics of one server, served by ``GET /metrics`` on a port of its own.

    metrics = Metrics(hub)                 # hub: anything shaped like MetricsSource
    metrics.request_started()              # a frame came in (its receive time)
    metrics.action("human")                # an action entered a game (latency tracked)
    received = metrics.turn_ended()        # the receive times of the turn's human actions
    metrics.committed(seconds, received)   # the store committed them (in seconds)
    metrics.sent(received)                 # their frames were written
    metrics.loop_lagged(seconds)           # a loop-lag probe (server.ops.looplag)
    metrics.count_shed(admission.shed)     # connections shed as accepted, by reason
    text = metrics.render()                # the Prometheus text format, bytes

Every server has a registry of its own (never the process-wide default), so several
servers in one process (tests, the embedded single-player server) never collide. Counts
that are state (connections, players, tables by phase) are read from the hub when the
page is scraped, so they cost nothing per action; counters and histograms are updated by
small hooks in the hub. The page also carries ``process_resident_memory_bytes`` and
``process_open_fds`` (prometheus_client's process collector, Linux ``/proc``).

:func:`serve_metrics` listens on its own address (loopback unless told otherwise): the
main port is the public one, and behind a reverse proxy every peer of the main port is
loopback, so "loopback peers only" could not tell the host from the internet there.
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

__all__ = ["Metrics", "MetricsSource", "serve_metrics"]

# seconds: an action is sub-millisecond on a quiet server, tens of ms under load
_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# a bot decision: instant (easy) to about a second (hard), more on a busy machine
_BOT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
# how late a due timer starts: a quiet loop is well under a millisecond late
_LAG_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)
_COMMIT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)


class _Phase(Protocol):
    @property
    def value(self) -> str: ...


class _State(Protocol):
    @property
    def phase(self) -> _Phase: ...


class _Table(Protocol):
    @property
    def status(self) -> str: ...

    @property
    def state(self) -> _State: ...


class _Player(Protocol):
    @property
    def conn(self) -> object | None: ...


class MetricsSource(Protocol):
    """What the metrics read from the hub when scraped."""

    @property
    def conns(self) -> Sized: ...

    @property
    def players(self) -> Mapping[str, _Player]: ...

    @property
    def tables(self) -> Mapping[str, _Table]: ...


class _HubCollector(Collector):
    """Gauges read from the hub at scrape time."""

    def __init__(self, hub: MetricsSource) -> None:
        self.hub = hub

    def describe(self) -> Iterable[GaugeMetricFamily]:
        """Nothing at registration: the hub is read only when the page is scraped (it may
        still be being built when the metrics are)."""
        return ()

    def collect(self) -> Iterable[GaugeMetricFamily]:
        hub = self.hub
        yield GaugeMetricFamily(
            "spades_connections", "Open websocket connections.", value=len(hub.conns)
        )
        online = sum(1 for player in hub.players.values() if player.conn is not None)
        yield GaugeMetricFamily("spades_players", "Players connected (welcomed).", value=online)
        phases: Tally[str] = Tally()
        for table in hub.tables.values():
            # a playing table by its game's phase, the others by their status
            phases[table.state.phase.value if table.status == "playing" else table.status] += 1
        family = GaugeMetricFamily(
            "spades_tables",
            "Tables in memory by phase: waiting, a game phase (draft, bidding, play...) "
            "while playing, or finished.",
            labels=["phase"],
        )
        for phase in ("waiting", "finished"):
            phases.setdefault(phase, 0)
        for phase, count in sorted(phases.items()):
            family.add_metric([phase], count)
        yield family


class _ShedCollector(Collector):
    """The connections closed as they were accepted, read at scrape time from the count
    that :meth:`Metrics.count_shed` names (``server.net.admission.Admission.shed``)."""

    def __init__(self) -> None:
        self.shed: Mapping[str, int] = {}

    def describe(self) -> Iterable[CounterMetricFamily]:
        return ()

    def collect(self) -> Iterable[CounterMetricFamily]:
        family = CounterMetricFamily(
            "spades_connections_shed",
            "New TCP connections closed as they were accepted, before any handshake, by "
            "reason: connect_rate (their address opened connections faster than its rate), "
            "half_open (their address had its most handshakes in progress), open_files "
            "(the server was near its open-file limit).",
            labels=["reason"],
        )
        for reason, count in sorted(self.shed.items()):
            family.add_metric([reason], count)
        yield family


class Metrics:
    """The server's counters and histograms, and the page that shows them."""

    def __init__(self, hub: MetricsSource) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        ProcessCollector(registry=registry)  # process_resident_memory_bytes, process_open_fds
        registry.register(_HubCollector(hub))
        self._shed = _ShedCollector()
        registry.register(self._shed)
        self.connections_opened = Counter(
            "spades_connections_opened", "Websocket connections accepted.", registry=registry
        )
        self.actions = Counter(
            "spades_actions",
            "Actions entered into games, by who acted (human, bot, or dealer: the server's "
            "commit and shuffle). Its rate is the actions per second.",
            ["actor"],
            registry=registry,
        )
        self.action_latency = Histogram(
            "spades_action_latency_seconds",
            "From a human's action frame being read to its store commit (stage=commit) and "
            "to its events being written to every connection (stage=send).",
            ["stage"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.bot_decision = Histogram(
            "spades_bot_decision_seconds",
            "Wall time of one bot decision in the worker pool, by level.",
            ["level"],
            buckets=_BOT_BUCKETS,
            registry=registry,
        )
        self.store_commit = Histogram(
            "spades_store_commit_seconds",
            "One store commit (one per turn of the event loop that wrote).",
            buckets=_COMMIT_BUCKETS,
            registry=registry,
        )
        self.loop_lag = Histogram(
            "spades_loop_lag_seconds",
            "How late the event loop started a timer that was due (one probe every 10 ms): "
            "its tail is the stall every connection of this node waits through.",
            buckets=_LAG_BUCKETS,
            registry=registry,
        )
        self.gc_pause = Histogram(
            "spades_gc_pause_seconds",
            "One collection of Python's garbage collector, by generation (0, 1, 2): the "
            "loop stands still meanwhile.",
            ["generation"],
            buckets=_LAG_BUCKETS,
            registry=registry,
        )
        self._gc_generations = [self.gc_pause.labels(str(g)) for g in range(3)]
        self.rate_limited = Counter(
            "spades_rate_limited",
            "Requests refused by a rate budget (kind=request: the message budget, "
            "kind=chat: the chat budget).",
            ["kind"],
            registry=registry,
        )
        self.errors = Counter(
            "spades_errors", "Error messages sent, by error code.", ["code"], registry=registry
        )
        for level in ("easy", "normal", "hard"):
            self.bot_decision.labels(level)  # every level shows, even before its first move
        # the children used on every action, looked up once (labels() takes a lock)
        self._actors = {actor: self.actions.labels(actor) for actor in ("human", "bot", "dealer")}
        self._to_commit = self.action_latency.labels("commit")
        self._to_send = self.action_latency.labels("send")
        self._received = 0.0
        self._pending: list[float] = []  # receive times of this turn's human actions

    # ---- hooks ----------------------------------------------------------------------

    def opened(self) -> None:
        """A websocket connection was accepted."""
        self.connections_opened.inc()

    def count_shed(self, shed: Mapping[str, int]) -> None:
        """Show ``shed`` (connections refused as they were accepted, by reason; read at
        every scrape, so the caller keeps counting in it) as ``spades_connections_shed``."""
        self._shed.shed = shed

    def request_started(self) -> None:
        """A frame was read; the action it may carry is timed from now."""
        self._received = time.perf_counter()

    def action(self, actor: str, from_request: bool = False) -> None:
        """An action entered a game; ``from_request``: a human's, timed to its send."""
        counter = self._actors.get(actor)
        (counter if counter is not None else self.actions.labels(actor)).inc()
        if from_request:
            self._pending.append(self._received)

    def turn_ended(self) -> list[float]:
        """The receive times of the human actions of the turn that ends (its commit starts
        now; a turn that begins meanwhile gathers its own)."""
        received, self._pending = self._pending, []
        return received

    def committed(self, seconds: float, received: list[float]) -> None:
        """The store committed in ``seconds`` the actions received at ``received``."""
        self.store_commit.observe(seconds)
        now = time.perf_counter()
        stage = self._to_commit
        for started in received:
            stage.observe(now - started)

    def commit_failed(self) -> None:
        """Nothing of the turns being committed was stored (their requests were refused)."""
        self._pending = []

    def sent(self, received: list[float]) -> None:
        """The frames of the actions received at ``received`` were written."""
        now = time.perf_counter()
        stage = self._to_send
        for started in received:
            stage.observe(now - started)

    def loop_lagged(self, seconds: float) -> None:
        """A loop-lag probe woke ``seconds`` late (see :mod:`server.ops.looplag`)."""
        self.loop_lag.observe(seconds)

    def gc_paused(self, generation: int, seconds: float) -> None:
        """A collection of ``generation`` held the loop ``seconds``."""
        self._gc_generations[min(2, generation)].observe(seconds)

    def bot_decided(self, level: str, seconds: float) -> None:
        self.bot_decision.labels(level).observe(seconds)

    def refused(self, kind: str) -> None:
        self.rate_limited.labels(kind).inc()

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    # ---- the page -------------------------------------------------------------------

    def render(self) -> bytes:
        """The Prometheus text exposition of everything above."""
        return generate_latest(self.registry)

    def samples(self) -> Iterator[tuple[str, dict[str, str], float]]:
        """Every sample as (name, labels, value): for tests and the admin command."""
        for family in self.registry.collect():
            for sample in family.samples:
                yield sample.name, dict(sample.labels), float(sample.value)


def _respond(metrics: Metrics) -> Callable[[ServerConnection, Request], Response]:
    def process_request(connection: ServerConnection, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        if path != "/metrics":
            headers = Headers([("Content-Type", "text/plain; charset=utf-8")])
            return Response(404, "Not Found", headers, b"Not found: try /metrics\n")
        body = metrics.render()
        headers = Headers(
            [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))]
        )
        return Response(200, "OK", headers, body)

    return process_request


async def _no_websocket(connection: ServerConnection) -> None:
    """Never reached: every request is answered over plain HTTP."""


async def serve_metrics(metrics: Metrics, host: str, port: int) -> Server:
    """Listen on ``host``:``port`` (``0``: any free port) and answer ``GET /metrics``.

    The page is made in the event loop, where the hub's state lives, so a scrape never
    sees a table half changed. Raises ``OSError`` if the address cannot be bound.
    """
    return await serve(
        _no_websocket,
        host,
        port,
        process_request=_respond(metrics),
        compression=None,
        open_timeout=5.0,
        server_header="spades",  # no library name or version (as on the game port)
    )
