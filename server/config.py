"""Server settings: one dataclass with documented defaults (each has a ``spades serve`` flag).

config = ServerConfig(port=0, db_path=":memory:")       # a throw-away server
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["ServerConfig", "default_db_path"]


def default_db_path() -> str:
    """``$XDG_DATA_HOME/spades/spades.db`` (``~/.local/share/spades/spades.db`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "spades" / "spades.db")


@dataclass(frozen=True)
class ServerConfig:
    """Everything the server can be told; the defaults suit a small public server.

    - ``host``/``port``: where to listen (``port=0``: any free port, see ``RunningServer.port``).
    - ``db_path``: the SQLite store; ``":memory:"`` keeps nothing after the process ends.
    - ``store_url``: a ``postgresql://USER@HOST:PORT/DB`` address: the PostgreSQL store
      (one node of a cluster) instead of SQLite; ``""``: SQLite at ``db_path``.
    - ``presence_url``: a ``redis://HOST:PORT/DB`` address: this server is one node of a
      cluster (:mod:`server.cluster`), with table leases, the lobby and notices in Redis;
      ``""``: a server on its own. ``public_url``: the ``ws://HOST:PORT/`` clients are
      redirected to for this node's tables (default: the listening address);
      ``node_id``: this node's name in Redis (default: random); ``lease_ms``: a table
      lease's TTL (renewed every quarter of it; a dead node's tables move after it).
    - ``max_message_bytes``: frames above it close the connection (code 1009).
    - ``max_connections``: more get ``server_full`` and a close (1013).
    - ``max_tables``: unfinished tables the server keeps; more get ``server_full``.
    - ``max_tables_per_player``: unfinished tables one player may sit at when creating one.
    - ``rate_messages_per_second``/``rate_burst``: per-connection message budget (token
      bucket); beyond it requests get ``rate_limited`` and ``rate_close_after`` refusals in a
      row close the connection (1008).
    - ``chat_max_chars``, ``chat_per_second``/``chat_burst``: chat length and rate.
    - ``hello_timeout``: seconds a new connection has to send ``hello``.
    - ``entropy_seconds``: after ``hand_started``, how long the server waits for the human
      seats' entropy before it shuffles without the missing values (protocol 1.1); ``0``
      turns the step off (the shuffle follows the commitment at once, without entropy).
    - ``hold_seconds``: the hold of a dropped seat when ``create_table`` does not name one.
    - ``bot_delay``: seconds a bot waits before acting, so a human can follow the play.
    - ``bot_workers``: worker processes for bot decisions; ``0`` thinks in one thread of
      the server process instead (for tests and embedded single-player use).
    - ``bot_iterations``: overrides the bot's search effort (``None``: the level's own).
    - ``bot_effort``: the share of each level's own search effort its bots spend (``1``:
      all of it). Effort is a count of iterations, not a time, so on a core half as fast
      as the one the levels were tuned on (docs/bot.md) ``0.5`` keeps their decision
      times, for a weaker bot. Ignored where ``bot_iterations`` is set.
    - ``standin_level``: the level of the bot that stands in for a dropped or slow human.
    - ``ping_interval``/``ping_timeout``/``close_timeout``: keep-alive; a dead connection
      is noticed and dropped within their sum (15 s by default).
    - ``send_queue_limit``: messages queued for a slow reader before it is disconnected.
    - ``send_buffer_bytes``: bytes waiting in the socket for a slow reader before it is
      disconnected (pongs to its pings included); a peer whose output has not drained for
      ``ping_interval + ping_timeout`` is disconnected too.
    - ``pings_per_second``/``ping_burst``: websocket ping frames one connection may send
      (each costs a pong); beyond them the connection is dropped.
    - ``handshake_timeout``: seconds a new TCP connection has to finish its websocket
      handshake.
    - ``trusted_proxies``: addresses of reverse proxies in front of the server; a
      connection from one of them counts as the address its ``X-Forwarded-For`` names
      (the nearest address that is not itself a trusted proxy), so per-address limits
      apply to the players and not to the proxy. Empty: the header is ignored (anyone
      could forge it).
    - ``certfile``/``keyfile``: a PEM certificate (chain) and its key: the server speaks
      TLS (``wss://``); ``keyfile`` may be left out when ``certfile`` holds both.
    - ``max_connections_per_address``/``max_tables_per_address``/
      ``max_bot_tables_per_address``: what one network address may hold (``None``: a
      quarter of ``max_connections``, a fifth of ``max_tables``, a fiftieth of
      ``max_tables``, at least 4 each). Every table in memory counts, finished ones too.
    - ``idle_table_hold_seconds``: the most a dropped seat is held at a table that is not
      playing (waiting or finished), whatever the table asked for: such tables are
      reclaimed once nobody is left.
    - ``standin_idle_seconds``: stand-in bots stop moving once no human at the table has
      been connected for this long; the game waits for someone to come back.
    - ``abandoned_table_seconds``: a playing table with no human connected for this long
      is closed (its game stays unfinished).
    - ``wal_limit_bytes``: the store's write-ahead log is truncated once it grows past
      this (under steady writes it would otherwise never start over).
    - ``fd_limit``: the open-file limit to plan for (``None``: raise the soft limit to the
      hard one at start and use that); new connections are shed 128 descriptors short of
      it, so the store and the bot workers always have theirs.
    - ``ipv6_share_prefix``: IPv6 addresses count by network for every per-address limit
      (64, or 56 where providers hand out /56 blocks); IPv4 addresses count one by one.
    - ``share_reserve``: the part of ``max_connections`` and ``max_tables`` (at least
      one each; ``0``: none) kept for addresses that hold none: an address that holds
      some may not take the last of them, so a newcomer always finds room.
    - ``address_messages_per_second``/``address_burst``: the request budget shared by
      every connection of one address, on top of each connection's own (``None``: five
      connections' worth, ``5 * rate_messages_per_second`` and ``5 * rate_burst``).
    - ``credits_per_second``: request tokens a connection may be given back for the
      replies the server asks of it (one per ``your_turn``), at most.
    - ``actions_per_second``/``actions_burst``: ``act`` requests of one player handled
      a second, whatever the connections (``None``: a third of ``rate_messages_per_second``
      and half of ``rate_burst``); a faster one waits its turn (one at most; more are
      refused with ``rate_limited``).
    - ``list_cache_seconds``: how long one listing of the open tables serves every
      ``list_tables``.
    - ``bot_decisions_per_address``: bot decisions in flight at once for the tables of
      one address (the address that created the table or brought the bot); the rest
      wait their turn, so one address cannot take the whole bot worker pool.
    - ``metrics_port``/``metrics_host``: where ``GET /metrics`` (Prometheus text) is
      served, on a listener of its own (``None``: no metrics page; ``0``: any free port;
      the host is loopback unless told otherwise).
    - ``max_half_open_per_address``: TCP connections of one address (an IPv4 address, an
      IPv6 /64) still in their HTTP handshake at once; more are closed at once (0: no
      bound; trusted proxies have none).
    - ``connects_per_second_per_address``/``connects_burst_per_address``: new TCP
      connections one address (an IPv4 address, an IPv6 network of ``ipv6_share_prefix``)
      may open (a token bucket; ``0``: no bound; trusted proxies have none); more are
      closed at once, before any handshake is read: a refusal after the handshake
      (``rate_limited`` to the hello) costs the server half a millisecond a connection,
      a shed socket a fifth of that. Honest use stays far below:
      a browser opens one connection and reconnects at most every second or so, and
      fifty players behind one NAT all reconnecting at once (a restart, a network blip)
      fit in the burst of 50; 10 a second refills that burst in five seconds.
    - ``allowed_origins``: origins (``https://cards.example.org``) whose pages may open a
      websocket here besides the page's own host; a request without ``Origin`` (not a
      browser) is not checked.
    - ``admin_socket``: the unix socket ``spades admin`` talks to (``None``: beside a file
      store, ``DB.admin``, and none for an in-memory store; ``""``: none).
    - ``keep_finished_days``/``reclaim_days``/``keep_analyses_days``: how long finished
      games, closed or never-started tables and idle players, and cached analyses are kept (``0``:
      for ever); reclaimed at start and every ``retention_interval_seconds`` (see
      :mod:`server.store.retention`).
    - ``store_retry_seconds``: after the store failed to commit (a full disk), how long a
      game waits before the server moves on in it again (deals, bots).
    - ``analysis_queue_limit``/``analysis_per_address``: analyses waiting to be worked
      out (one queue for the server; more are refused with ``server_full``), and requests
      for them one address may have waiting (each connection at most one analysis;
      more are refused with ``rate_limited``).
    - ``reply_bytes_per_second_per_address``/``reply_bytes_burst_per_address``: bytes of
      ``record`` and ``analysis`` answers one address may be sent (a token bucket);
      beyond it ``get_record``/``get_analysis`` are refused with ``rate_limited``.
    - ``creations_per_minute_per_address``/``creations_burst_per_address``: tables one
      address may create (beyond: ``rate_limited``; burst ``None``: a fifth of the
      tables one address may hold, at least 20).
    - ``forfeits_per_hour``: games one player (or, at a bot table, its creator's
      address) may give up within an hour; beyond it they may not create tables until
      the hour has moved on (``rate_limited``; ``None``: as the burst above; ``0``: no
      limit). A game given up before any player acted keeps its record in memory
      while its table lives, never stored.
    - ``report_cooldown_seconds``: how often one player may ``/report``;
      ``reports_per_minute_per_address``/``report_burst_per_address``: the reports of
      one address (a token bucket; the seats of a game are limited by nothing else).
    """

    host: str = "127.0.0.1"
    port: int = 8765
    db_path: str = ""
    max_message_bytes: int = 4096
    max_connections: int = 1000
    max_tables: int = 500
    max_tables_per_player: int = 10
    rate_messages_per_second: float = 30.0
    rate_burst: int = 60
    rate_close_after: int = 20
    chat_max_chars: int = 200
    chat_per_second: float = 1.0
    chat_burst: int = 5
    hello_timeout: float = 10.0
    hold_seconds: int = 60
    entropy_seconds: float = 2.0
    bot_delay: float = 0.6
    bot_workers: int = 2
    bot_iterations: int | None = None
    bot_effort: float = 1.0
    standin_level: Literal["easy", "normal", "hard"] = "normal"
    ping_interval: float = 5.0
    ping_timeout: float = 8.0
    close_timeout: float = 2.0
    send_queue_limit: int = 2000
    send_buffer_bytes: int = 256 * 1024
    store_retry_seconds: float = 1.0
    certfile: str | None = None
    bot_decisions_per_address: int = 1
    list_cache_seconds: float = 1.0
    fd_limit: int | None = None
    wal_limit_bytes: int = 64 * 1024 * 1024
    max_connections_per_address: int | None = None
    max_tables_per_address: int | None = None
    max_bot_tables_per_address: int | None = None
    idle_table_hold_seconds: int = 60
    standin_idle_seconds: float = 30.0
    abandoned_table_seconds: float = 3900.0
    keyfile: str | None = None
    pings_per_second: float = 2.0
    ping_burst: int = 20
    handshake_timeout: float = 5.0
    store_url: str = ""
    presence_url: str = ""
    public_url: str = ""
    node_id: str = ""
    lease_ms: int = 5000
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    admin_socket: str | None = None
    trusted_proxies: tuple[str, ...] = ()
    max_half_open_per_address: int = 64
    connects_per_second_per_address: float = 10.0
    connects_burst_per_address: int = 50
    allowed_origins: tuple[str, ...] = ()
    # fair shares (server/limits.py): one IPv4 address, or one IPv6 network of this prefix
    ipv6_share_prefix: int = 64
    share_reserve: float = 0.05
    address_messages_per_second: float | None = None
    address_burst: int | None = None
    credits_per_second: float = 5.0
    actions_per_second: float | None = None
    actions_burst: int | None = None
    # retention (server/store/retention.py): days each kind is kept, 0 for ever
    keep_finished_days: float = 365.0
    reclaim_days: float = 7.0
    keep_analyses_days: float = 30.0
    retention_interval_seconds: float = 3600.0
    # hardening 3 (issue 25): analyses, replies, creations and reports per address
    analysis_queue_limit: int = 16
    analysis_per_address: int = 3
    reply_bytes_per_second_per_address: float = 32 * 1024.0
    reply_bytes_burst_per_address: int = 512 * 1024
    creations_per_minute_per_address: float = 20.0
    creations_burst_per_address: int | None = None
    forfeits_per_hour: int | None = None
    report_cooldown_seconds: float = 30.0
    reports_per_minute_per_address: float = 3.0
    report_burst_per_address: int = 3

    @property
    def database(self) -> str:
        """The store path to open (``db_path``, or the default in the user's data dir)."""
        return self.db_path or default_db_path()
