"""Command-line entry points, used by ``python3 -m server`` and the ``spades`` command.

parser = argparse.ArgumentParser()
add_serve_arguments(parser)          # --host --port --db and the limits
sys.exit(run_serve(parser.parse_args()))

The bot client (``spades bot``) is a client: :mod:`client.bot_client`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import signal
import sys

from server.config import ServerConfig, default_db_path
from server.errors import ServerError
from server.ops.timeslice import DEFAULT_LOOP_SLICE_US, request_slice

__all__ = [
    "add_serve_arguments",
    "browser_address",
    "config_from_args",
    "run_serve",
]

_DEFAULTS = ServerConfig()


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the server's flags (every limit of :class:`ServerConfig`) to ``parser``."""
    d = _DEFAULTS
    add = parser.add_argument
    add("--host", default=d.host, help=f"address to listen on (default {d.host})")
    add("--port", type=int, default=d.port, help=f"port (default {d.port}; 0: any free port)")
    add(
        "--db",
        default="",
        help=f"SQLite store (default {default_db_path()}; ':memory:' keeps nothing)",
    )
    add(
        "--store",
        default="",
        metavar="URL",
        help="postgresql://USER@HOST:PORT/DB: keep everything in PostgreSQL instead of --db",
    )
    add(
        "--presence",
        default="",
        metavar="URL",
        help="redis://HOST:PORT/DB: run as one node of a cluster (leases, lobby, redirects)",
    )
    add(
        "--public-url",
        default="",
        metavar="URL",
        help="ws://HOST:PORT/ other nodes send this node's players to (with --presence)",
    )
    add("--node-id", default="", help="this node's name in the cluster (default: random)")
    add(
        "--lease-ms",
        type=int,
        default=d.lease_ms,
        help=f"table lease TTL in ms with --presence (default {d.lease_ms})",
    )
    add(
        "--max-connections",
        type=int,
        default=d.max_connections,
        help=f"default {d.max_connections}",
    )
    add("--max-tables", type=int, default=d.max_tables, help=f"default {d.max_tables}")
    add(
        "--max-message-bytes",
        type=int,
        default=d.max_message_bytes,
        help=f"largest frame (default {d.max_message_bytes})",
    )
    add(
        "--rate",
        type=float,
        default=d.rate_messages_per_second,
        help=f"messages per second per connection (default {d.rate_messages_per_second:g})",
    )
    add(
        "--rate-burst",
        type=int,
        default=d.rate_burst,
        help=f"message burst per connection (default {d.rate_burst})",
    )
    add("--chat-max-chars", type=int, default=d.chat_max_chars, help=f"default {d.chat_max_chars}")
    add(
        "--chat-rate",
        type=float,
        default=d.chat_per_second,
        help=f"chat lines per second (default {d.chat_per_second:g})",
    )
    add(
        "--hold-seconds",
        type=int,
        default=d.hold_seconds,
        help=f"default hold of a dropped seat (default {d.hold_seconds})",
    )
    add(
        "--entropy-seconds",
        type=float,
        default=d.entropy_seconds,
        help="how long a shuffle waits for the seats' entropy (default "
        f"{d.entropy_seconds:g}; 0: no entropy step)",
    )
    add(
        "--bot-delay",
        type=float,
        default=d.bot_delay,
        help=f"seconds a bot waits before acting (default {d.bot_delay:g})",
    )
    add(
        "--bot-workers",
        type=int,
        default=d.bot_workers,
        help=f"bot worker processes; 0: a thread (default {d.bot_workers})",
    )
    add(
        "--bot-effort",
        type=float,
        default=d.bot_effort,
        help="share of each level's search effort the bots spend; 0.5 on a core half as "
        f"fast keeps their decision times (default {d.bot_effort:g})",
    )
    add(
        "--ping-interval",
        type=float,
        default=d.ping_interval,
        help=f"keep-alive ping interval (default {d.ping_interval:g})",
    )
    add(
        "--ping-timeout",
        type=float,
        default=d.ping_timeout,
        help=f"keep-alive ping timeout (default {d.ping_timeout:g})",
    )
    add(
        "--close-timeout",
        type=float,
        default=d.close_timeout,
        help=f"seconds to wait for a closing handshake (default {d.close_timeout:g})",
    )
    add(
        "--max-connections-per-address",
        type=int,
        default=None,
        help="connections one network address may hold (default: a quarter of the maximum)",
    )
    add(
        "--max-tables-per-address",
        type=int,
        default=None,
        help="tables one address may hold (default: a fifth of --max-tables)",
    )
    add(
        "--max-bot-tables-per-address",
        type=int,
        default=None,
        help="unfinished tables with the bot one address may hold (default: max-tables/50)",
    )
    add(
        "--bot-decisions-per-address",
        type=int,
        default=d.bot_decisions_per_address,
        help="bot decisions in flight for one address's tables "
        f"(default {d.bot_decisions_per_address}; raise it behind a reverse proxy)",
    )
    add(
        "--ipv6-share-prefix",
        type=int,
        choices=(48, 56, 64),
        default=d.ipv6_share_prefix,
        help="IPv6 addresses count by this network for the per-address limits "
        f"(default {d.ipv6_share_prefix}; 56 where providers hand out /56 blocks)",
    )
    add(
        "--share-reserve",
        type=float,
        default=d.share_reserve,
        help="part of the connections and tables kept for addresses holding none "
        f"(default {d.share_reserve:g}; 0: none)",
    )
    add(
        "--address-rate",
        type=float,
        default=None,
        help="messages per second for all connections of one address (default: 5 x --rate)",
    )
    add(
        "--actions-rate",
        type=float,
        default=None,
        help="moves per second of one player; faster ones wait (default: --rate / 3)",
    )
    add(
        "--creations-rate",
        type=float,
        default=d.creations_per_minute_per_address,
        help="tables one address may create a minute, after its burst "
        f"(default {d.creations_per_minute_per_address:g})",
    )
    add(
        "--creations-burst",
        type=int,
        default=None,
        help="tables one address may create at once (default: a fifth of its table cap, "
        "at least 20)",
    )
    add(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="a reverse proxy's address (repeatable): its X-Forwarded-For names the player",
    )
    add(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin (https://cards.example.org) whose pages may open a game here "
        "(repeatable; default: only pages served by this host, and non-browser clients)",
    )
    add(
        "--max-half-open-per-address",
        type=int,
        default=d.max_half_open_per_address,
        help="connections of one address still in their HTTP handshake "
        f"(default {d.max_half_open_per_address}; 0: no bound)",
    )
    add(
        "--connects-per-second-per-address",
        type=float,
        default=d.connects_per_second_per_address,
        help="new connections one address may open a second, after a burst of "
        f"{d.connects_burst_per_address} (default {d.connects_per_second_per_address:g}; "
        "0: no bound)",
    )
    add(
        "--connects-burst-per-address",
        type=int,
        default=d.connects_burst_per_address,
        help="new connections one address may open at once "
        f"(default {d.connects_burst_per_address})",
    )
    add("--certfile", default=None, help="PEM certificate (chain): serve wss:// (TLS)")
    add("--keyfile", default=None, help="PEM private key of --certfile (if not in it)")
    add("--log-level", default="INFO", help="logging level (default INFO)")
    add(
        "--event-loop",
        choices=("auto", "asyncio", "uvloop"),
        default="asyncio",
        help="the event loop: asyncio's own (default), uvloop, or auto (uvloop if installed)",
    )
    add(
        "--loop-slice-us",
        type=int,
        default=DEFAULT_LOOP_SLICE_US,
        help="time slice the event loop asks Linux for, in microseconds, so a wake-up "
        f"takes the core at once from a busy process (default {DEFAULT_LOOP_SLICE_US}; "
        "0: the kernel's default)",
    )
    add(
        "--log-format",
        choices=("human", "json"),
        default="human",
        help="human lines (default) or one JSON object a line",
    )
    add(
        "--metrics-port",
        type=int,
        default=None,
        help="serve GET /metrics (Prometheus) on this port (default: off)",
    )
    add(
        "--admin-socket",
        default=None,
        help="unix socket for 'spades admin' (default: DB.admin beside a file store; '': none)",
    )
    add(
        "--metrics-host",
        default=d.metrics_host,
        help=f"address of the metrics port (default {d.metrics_host}: this machine only)",
    )
    add(
        "--keep-finished-days",
        type=float,
        default=d.keep_finished_days,
        help="days finished games (records, their actions and analyses) are kept "
        f"(default {d.keep_finished_days:g}; 0: for ever)",
    )
    add(
        "--reclaim-days",
        type=float,
        default=d.reclaim_days,
        help="days before closed or never-started tables and players at no open table "
        "are deleted "
        f"(default {d.reclaim_days:g}; 0: never)",
    )
    add(
        "--keep-analyses-days",
        type=float,
        default=d.keep_analyses_days,
        help=f"days cached analyses are kept (default {d.keep_analyses_days:g}; 0: for ever)",
    )
    add(
        "--analysis-queue-limit",
        type=int,
        default=d.analysis_queue_limit,
        help="analyses queued for the whole server; more are refused with server_full, "
        f"except for a seat of the game (default {d.analysis_queue_limit})",
    )
    add(
        "--analysis-per-address",
        type=int,
        default=d.analysis_per_address,
        help=f"analyses one address may wait for at once (default {d.analysis_per_address})",
    )
    add(
        "--report-cooldown",
        type=float,
        default=d.report_cooldown_seconds,
        help=f"seconds between two reports of one player (default {d.report_cooldown_seconds:g})",
    )
    add(
        "--address-reports-per-minute",
        type=float,
        default=d.reports_per_minute_per_address,
        help="reports one address may send a minute, after its burst "
        f"(default {d.reports_per_minute_per_address:g})",
    )
    add(
        "--address-report-burst",
        type=int,
        default=d.report_burst_per_address,
        help=f"reports one address may send at once (default {d.report_burst_per_address})",
    )


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """The config the flags say; raises SystemExit (one line) for a malformed address or
    a bot effort that is not above 0."""
    if not args.bot_effort > 0.0:  # (NaN too)
        raise SystemExit(f"spades serve: --bot-effort must be above 0, not {args.bot_effort:g}")
    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_address(proxy)
        except ValueError:
            raise SystemExit(
                f"spades serve: --trusted-proxy {proxy!r} is not an IP address"
            ) from None
    return ServerConfig(
        host=args.host,
        port=args.port,
        db_path=args.db,
        max_connections=args.max_connections,
        max_tables=args.max_tables,
        max_message_bytes=args.max_message_bytes,
        rate_messages_per_second=args.rate,
        rate_burst=args.rate_burst,
        chat_max_chars=args.chat_max_chars,
        chat_per_second=args.chat_rate,
        hold_seconds=args.hold_seconds,
        entropy_seconds=args.entropy_seconds,
        bot_delay=args.bot_delay,
        bot_workers=args.bot_workers,
        bot_effort=args.bot_effort,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_timeout,
        close_timeout=args.close_timeout,
        certfile=args.certfile,
        max_connections_per_address=args.max_connections_per_address,
        max_tables_per_address=args.max_tables_per_address,
        max_bot_tables_per_address=args.max_bot_tables_per_address,
        bot_decisions_per_address=args.bot_decisions_per_address,
        keyfile=args.keyfile,
        store_url=args.store,
        presence_url=args.presence,
        public_url=args.public_url,
        node_id=args.node_id,
        lease_ms=args.lease_ms,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        admin_socket=args.admin_socket,
        trusted_proxies=tuple(args.trusted_proxy),
        allowed_origins=tuple(args.allowed_origin),
        max_half_open_per_address=args.max_half_open_per_address,
        connects_per_second_per_address=args.connects_per_second_per_address,
        connects_burst_per_address=args.connects_burst_per_address,
        ipv6_share_prefix=args.ipv6_share_prefix,
        share_reserve=args.share_reserve,
        address_messages_per_second=args.address_rate,
        actions_per_second=args.actions_rate,
        creations_per_minute_per_address=args.creations_rate,
        creations_burst_per_address=args.creations_burst,
        keep_finished_days=args.keep_finished_days,
        reclaim_days=args.reclaim_days,
        keep_analyses_days=args.keep_analyses_days,
        analysis_queue_limit=args.analysis_queue_limit,
        analysis_per_address=args.analysis_per_address,
        report_cooldown_seconds=args.report_cooldown,
        reports_per_minute_per_address=args.address_reports_per_minute,
        report_burst_per_address=args.address_report_burst,
    )


def browser_address(config: ServerConfig, host: str, port: int) -> str:
    """The address to print for the browser client of a server listening on ``host`` and
    ``port`` with ``config``: https:// when it serves TLS (the port then speaks nothing
    else), and a placeholder host when it listens on every interface."""
    scheme = "https" if config.certfile else "http"
    shown = "<this machine's address>" if config.host in ("0.0.0.0", "::", "") else host
    return f"{scheme}://{shown}:{port}/"


async def _serve(config: ServerConfig) -> None:
    from server.app import start_server
    from server.ops.looplag import settle_gc

    running = await start_server(config)
    # the long-lived objects (modules, loaded tables) leave the collector's view, and full
    # collections get rarer: with thousands of connections a full pass stalls the loop
    settle_gc()
    print(f"spades server listening on {running.url}", flush=True)
    address = browser_address(config, running.host, running.port)
    print(f"play in a browser: {address} (nothing to install)", flush=True)
    if running.metrics_url is not None:
        print(f"metrics: {running.metrics_url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        logging.getLogger("server").info("shutting down")
        await running.close()


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until SIGTERM or Ctrl-C; returns the exit status."""
    from server.logs import configure_logging
    from server.ops.eventloop import run as run_loop

    configure_logging(args.log_format, args.log_level)
    config = config_from_args(args)
    slice_us = getattr(args, "loop_slice_us", DEFAULT_LOOP_SLICE_US)
    if slice_us < 0:
        print(f"spades server: --loop-slice-us must be 0 or more, not {slice_us}", file=sys.stderr)
        return 2
    # 0 asks for the default too: a slice is inherited from whatever started the server
    if not request_slice(slice_us) and slice_us:
        logging.getLogger("server").info("the kernel kept its own time slice for the loop")
    try:
        run_loop(_serve(config), getattr(args, "event_loop", "asyncio"))
    except ServerError as error:  # the store cannot be opened: already one clear line
        print(f"spades server: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        reason = error.strerror or str(error)
        print(
            f"spades server: cannot listen on {config.host}:{config.port}: {reason}",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        pass
    return 0
