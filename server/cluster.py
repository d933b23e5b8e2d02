"""One node of a cluster: the hub, with table leases, redirects and failover through Redis.

    spades serve --store postgresql://... --presence redis://... --public-url ws://HOST:PORT/

:func:`server.app.start_server` builds a :class:`ClusterHub` instead of a plain hub when
``config.presence_url`` is set. Every node serves connections and the lobby; each table
is run by the one node that holds its lease (:mod:`server.presence`):

- A new table's node takes its lease (generation 1) and claims it in the store
  (``claim_table``): the store then refuses any commit for it under an older generation.
- A request naming a table this node does not run is answered with ``redirect`` to the
  owner's public URL (protocol 1.2; older connections get ``unknown_table`` naming the
  URL). A ``hello`` with the token of a player whose table runs elsewhere is redirected
  the same way (a 1.0/1.1 client is welcomed here instead).
- A table nobody holds (its node died, or the cluster just started) is taken over by the
  first node that needs it or whose scan finds it: lease (a higher generation), claim,
  load and replay from the store (the hub's own start-up path), then its bots, timers and
  holds start again; its players come back with their tokens.
- A node writes for a table only while it can prove it holds the lease
  (``Presence.holds``): otherwise, and when the store says another node claimed the
  table (``FencedError``), the turn's writes are rolled back, the table is dropped here
  and its players' connections are closed (code 1012), so they reconnect and are sent to
  the new owner.
- The lobby lists this node's open tables and every other live node's (published in
  Redis, refreshed on each change notice). A node that takes a table over says so on the
  notice channel; a node that still had it drops it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from typing import Any

from protocol import messages as m
from server.app import Hub
from server.config import ServerConfig
from server.connection import Conn, RequestError
from server.connection import error_message as _error
from server.lobby import LIST_PAGE_SIZE
from server.presence import Presence, PresenceError
from server.store import FencedError, StoreError, token_hash
from server.tables import Player, Table

__all__ = ["MAX_ADOPT_PER_SCAN", "ClusterHub", "TableElsewhere"]

log = logging.getLogger("server.cluster")

MAX_ADOPT_PER_SCAN = 25
"""Orphan tables one node takes over per scan: the others' scans share out the rest."""


class TableElsewhere(RequestError):
    """The request names a table this node does not run (raised before anything changed)."""

    def __init__(self, code: str) -> None:
        super().__init__("unknown_table", f"there is no table {code!r} on this node")
        self.table_code = code


class ClusterHub(Hub):
    """A :class:`~server.app.Hub` that is one node of a cluster (see the module docstring)."""

    def __init__(self, config: ServerConfig) -> None:
        super().__init__(config)
        self.node_id = config.node_id or secrets.token_hex(6)
        self.public_url = config.public_url or f"ws://{config.host}:{config.port}/"
        self.presence: Presence | None = None
        self._remote: tuple[m.TableSummary, ...] = ()
        self._remote_stale = True
        self._published: dict[str, str] | None = None
        self._hello_waiting: set[Conn] = set()
        self._adopting: dict[str, asyncio.Future[Table | None]] = {}
        self._claiming: set[str] = set()  # new tables whose lease is being taken
        self.adopted = 0  # tables taken over from another node or from the store
        self.redirects = 0

    @property
    def lease_ms(self) -> int:
        return self.config.lease_ms

    # ---- start and stop ---------------------------------------------------------------

    async def prepare(self) -> None:
        """Connect to Redis, register this node and every unfinished stored table.

        Raises :class:`~server.presence.PresenceError` when Redis cannot be reached."""
        self.presence = await Presence.connect(
            self.config.presence_url,
            self.node_id,
            self.public_url,
            lease_ms=self.lease_ms,
            on_lobby=self._lobby_changed,
            on_notice=self._notice,
        )
        self.presence.on_lost = self._leases_lost
        await self.presence.add_tables([row.code for row in self.store.load_tables()])
        log.info("node %s (%s) joined the cluster", self.node_id, self.public_url)

    def load(self) -> None:
        """Nothing at start: tables are taken over by lease (:meth:`_adopt_forever`)."""
        self.spawn(self._adopt_forever())
        self.spawn(self._check_leases_forever())
        self.spawn(self._publish_forever())

    async def closed(self) -> None:
        """Give up this node's leases and directory entry (after the store's last commit)."""
        if self.presence is not None:
            await self.presence.close(release=True)

    @property
    def _presence(self) -> Presence:
        assert self.presence is not None, "prepare() first"
        return self.presence

    # ---- ownership ----------------------------------------------------------------------

    def owns(self, code: str) -> bool:
        """Whether this node may write for table ``code`` now."""
        return code in self._claiming or self._presence.holds(code)

    def flush(self) -> None:
        """Commit and write, unless this turn wrote for a table this node can no longer
        prove it owns: then nothing of the turn is stored (as if the store had fenced it)."""
        unproven = tuple(sorted(c for c in self._touched if c in self.tables and not self.owns(c)))
        if not unproven:
            super().flush()
            return
        dirty, writers, touched, new_players = self._take_turn()
        for player, hashed in new_players:  # not stored after all: memory only again
            player.unstored_token_hash = hashed
            self.unstored[hashed] = player
        error = FencedError(unproven, f"lease no longer held for {', '.join(unproven)}")
        self.metrics.commit_failed()
        self._commit_failed(error, dirty, writers, touched)

    def _commit_failed(
        self,
        error: Exception,
        dirty: list[Conn],
        writers: list[tuple[Conn, str, int | None]],
        touched: set[str],
    ) -> None:
        if not isinstance(error, FencedError):
            super()._commit_failed(error, dirty, writers, touched)
            return
        self.store.rollback()
        closing: list[Conn] = []
        for code in error.codes:
            closing.extend(self._give_up(code))
        super()._commit_failed(error, dirty, writers, touched)  # the other tables: restored
        for conn in closing:
            conn.close_soon(1012, "this table moved to another node: reconnect")

    def _give_up(self, code: str) -> list[Conn]:
        """Forget table ``code`` here (another node runs it, or will); returns the
        connections of its audience, to be closed so that they reconnect there."""
        if self.presence is not None:
            self.presence.forget(code)
        self._claiming.discard(code)
        table = self.tables.pop(code, None)
        if table is None:
            return []
        log.warning("table %s: no longer owned by this node; dropped here", code)
        self._stop_tasks(table)
        audience = [conn for _, conn in self._audience(table)]
        for conn in table.spectators:
            conn.watching.discard(code)
        table.spectators.clear()
        return audience

    def _leases_lost(self, codes: list[str]) -> None:
        self.flush()  # what was decided before the loss goes out (or is refused) first
        closing = [conn for code in codes for conn in self._give_up(code)]
        for conn in closing:
            conn.close_soon(1012, "this table moved to another node: reconnect")

    async def _check_leases_forever(self) -> None:
        # a lease that could not be renewed (Redis unreachable) stops being proof of
        # ownership by itself; the tables go as soon as that happens
        while True:
            await asyncio.sleep(self.lease_ms / 1000 / 6)
            lost = [code for code in self.tables if not self.owns(code)]
            if lost:
                log.error("cannot prove ownership of %d tables; dropping them", len(lost))
                self._leases_lost(lost)

    # ---- taking tables over -----------------------------------------------------------

    async def _adopt_forever(self) -> None:
        while True:
            try:
                orphans = await self._presence.orphans()
                random.shuffle(orphans)
                for code in orphans[:MAX_ADOPT_PER_SCAN]:
                    await self.adopt(code)
            except PresenceError as error:
                log.error("cannot scan for orphan tables: %s", error)
            await asyncio.sleep(self.lease_ms / 1000 / 3)

    async def adopt(self, code: str) -> Table | None:
        """Take table ``code`` over if nobody holds it: lease, claim, load, resume.

        Returns the table (``None`` if another node holds it or the store has no such
        open table). Raises :class:`~server.presence.PresenceError`."""
        table = self.tables.get(code)
        if table is not None:
            return table
        work = self._adopting.get(code)
        if work is None:
            work = asyncio.ensure_future(self._adopt(code))
            self._adopting[code] = work
            work.add_done_callback(lambda _: self._adopting.pop(code, None))
        return await asyncio.shield(work)

    async def _adopt(self, code: str) -> Table | None:
        presence = self._presence
        row = self.store.load_table(code)
        if row is None or row.status == "closed":
            await presence.forget_table(code)
            return None
        # the store's fence may be above Redis's counter (Redis restarted empty): each
        # refused claim at least doubles the generation, so a few tries get past it
        for _ in range(48):
            generation = await presence.acquire(code)
            if generation is None:
                return None
            try:
                self.store.claim_table(code, generation)
                row = self.store.load_table(code)  # after the claim: older commits are in
                break
            except FencedError:
                await presence.release(code)
                await presence.raise_generation(code, 2 * generation + 1)
            except StoreError as error:
                log.error("table %s: cannot claim it: %s", code, error)
                await presence.release(code)
                return None
        else:
            return None
        if row is None or row.status == "closed":
            await presence.forget_table(code)
            return None
        table = self._load_row(row)
        if table is None:
            await presence.release(code)
            return None
        self.tables[code] = table
        self.adopted += 1
        # a node that still runs it (its lease ran out under it) drops it now, not at
        # its next renewal; the store's fence would refuse its next commit anyway
        self.spawn(presence.notice({"kind": "taken_over", "table": code, "generation": generation}))
        log.info("table %s: taken over (generation %d, version %d)", code, generation,
                 table.state.version)  # fmt: skip
        table.humans_gone_at = self.now if table.has_humans() else None
        for index, seat in enumerate(table.seats):
            if seat.kind == "human":
                self._start_hold(table, index)
        self._advance(table)
        return table

    # ---- new tables, seats, closing ---------------------------------------------------

    def _create_table(self, conn: Conn, player: Player, message: m.CreateTable) -> None:
        before = set(self.tables)
        super()._create_table(conn, player, message)
        for code in set(self.tables) - before:
            self._claiming.add(code)
            self.spawn(self._claim_new(code))

    async def _claim_new(self, code: str) -> None:
        try:
            for attempt in range(3):  # Redis may be slow for a moment: not lost yet
                try:
                    generation = await self._presence.acquire(code)
                    break
                except PresenceError:
                    if attempt == 2:
                        raise
                    await asyncio.sleep(self.lease_ms / 1000 / 8)
            if generation is None:
                raise PresenceError(f"table {code}: its lease is held elsewhere")
            self.store.claim_table(code, generation)
        except (PresenceError, StoreError) as error:
            log.error("table %s: cannot take its lease; dropped: %s", code, error)
            for conn in self._give_up(code):
                conn.close_soon(1012, "this table could not be registered: reconnect")
            return
        finally:
            self._claiming.discard(code)
        table = self.tables.get(code)
        if table is not None:
            for seat in table.seats:
                if seat.kind == "human" and seat.player_id is not None:
                    await self._presence.seat(seat.player_id, code)

    def _sit(self, table: Table, index: int, player: Player) -> None:
        super()._sit(table, index, player)
        if table.code in self.tables:  # a new table's seats are recorded with its lease
            self.spawn(self._presence.seat(player.id, table.code))

    def _vacate(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        leaving = seat.player_id if seat.kind == "human" else None
        super()._vacate(table, index)
        if leaving is not None:
            self.spawn(self._presence.unseat(leaving, table.code))
        if table.status == "closed":
            self.spawn(self._presence.forget_table(table.code))

    def _drop_table(self, table: Table) -> None:
        super()._drop_table(table)
        if table.status == "closed":
            self.spawn(self._presence.forget_table(table.code))

    # ---- routing: tables of other nodes -----------------------------------------------

    def _table(self, code: str) -> Table:
        table = self.tables.get(code.upper())
        if table is None:
            raise TableElsewhere(code.upper())
        return table

    def _dispatch(self, conn: Conn, message: m.ClientMessage) -> None:
        if isinstance(message, m.Hello) and conn.player is None:
            if conn in self._hello_waiting:
                raise RequestError("already_welcomed", "this connection already said hello")
            if message.token is not None and self.unstored.get(token_hash(message.token)) is None:
                row = self.store.player_by_token(message.token)
                if row is not None:
                    self._hello_waiting.add(conn)
                    self.spawn(self._route_hello(conn, message, row.id))
                    return
        try:
            super()._dispatch(conn, message)
        except TableElsewhere as elsewhere:
            self.spawn(self._route(conn, message, elsewhere.table_code))

    async def _owner_url(self, code: str) -> str | None:
        """The public URL of the other node that runs ``code``, or ``None`` if this node
        has it now (taken over on the way) or nobody has it."""
        # a dead node's lease outlives its registration by up to one TTL: wait it out
        # (a few checks), then take the table over
        for _ in range(12):
            owner = await self._presence.owner(code)
            if owner is None:
                await self.adopt(code)
                return None
            if owner.node_id == self.node_id:
                return None
            url = await self._presence.node_url(owner.node_id)
            if url is not None:
                return url
            await asyncio.sleep(self.lease_ms / 1000 / 4)
        return None

    async def _route_hello(self, conn: Conn, message: m.Hello, player_id: str) -> None:
        try:
            url, where = None, ""
            if min(message.protocol_minor, m.PROTOCOL_MINOR) >= 2:
                for code in await self._presence.player_tables(player_id):
                    if code in self.tables:
                        continue
                    url = await self._owner_url(code)
                    if url is not None:
                        where = code
                        break
        except PresenceError as error:
            log.error("cannot look up the tables of player %s: %s", player_id, error)
            url = None
        finally:
            self._hello_waiting.discard(conn)
        if conn.closed:
            return
        if url is not None:
            self._redirect(conn, url, where, message.type, message.id)
            return
        self._run(conn, message)

    async def _route(self, conn: Conn, message: m.ClientMessage, code: str) -> None:
        try:
            url = await self._owner_url(code)
        except PresenceError as error:
            log.error("cannot find the node of table %s: %s", code, error)
            url = None
        if conn.closed:
            return
        if url is not None:
            self._redirect(conn, url, code, message.type, message.id)
        elif code in self.tables:
            self._run(conn, message)  # taken over meanwhile: answer it here
        else:
            conn.send(
                _error("unknown_table", f"there is no table {code!r}", message.type, message.id)
            )

    def _redirect(self, conn: Conn, url: str, code: str, request: str, req_id: int | None) -> None:
        self.redirects += 1
        player = conn.player
        hashed = player.unstored_token_hash if player is not None else None
        if player is not None and hashed is not None:
            # a player kept in memory only until they sit down would be a stranger on
            # the other node: stored now (committed before the redirect goes out)
            self.store.add_player_hashed(player.id, player.name, hashed)
            player.unstored_token_hash = None
            del self.unstored[hashed]
            self._new_players.append((player, hashed))
        if conn.minor >= 2 or conn.player is None:
            conn.send(m.Redirect(url=url, table=code, request=request, id=req_id))
        else:
            conn.send(_error("unknown_table", f"table {code} is served at {url}", request, req_id))

    def _run(self, conn: Conn, message: m.ClientMessage) -> None:
        """Handle a request whose routing was waited for, as ``handle_data`` would have."""
        writes = self.store.write_attempts
        self._dispatch_answered(conn, message, self._dispatch_routed)
        if self.store.write_attempts != writes:
            self._schedule_flush()

    def _dispatch_routed(self, conn: Conn, message: m.ClientMessage) -> None:
        try:
            if isinstance(message, m.Hello):
                if conn.player is not None:
                    raise RequestError("already_welcomed", "this connection already said hello")
                self._hello(conn, message)
            else:
                super()._dispatch(conn, message)
        except TableElsewhere as elsewhere:
            # the owner went away while we waited: to this client the table is unknown
            raise RequestError(
                "unknown_table", f"there is no table {elsewhere.table_code!r}"
            ) from None

    # ---- the lobby across nodes -------------------------------------------------------

    def _notice(self, notice: dict[str, Any]) -> None:
        code = notice.get("table")
        if notice.get("kind") == "taken_over" and isinstance(code, str) and code in self.tables:
            log.warning("table %s: taken over by node %s", code, notice.get("from"))
            self._leases_lost([code])

    def _lobby_changed(self, node_id: str) -> None:
        if node_id != self.node_id:
            self._remote_stale = True

    async def _publish_forever(self) -> None:
        while True:
            try:
                if self._remote_stale:
                    self._remote_stale = False
                    await self._refresh_remote()
                now = self.now
                mine = {
                    t.code: t.summary(self.players, now).model_dump_json()
                    for t in self.tables.values()
                    if not t.private and t.status != "closed"
                }
                if mine != self._published:
                    await self._presence.publish_open(mine)
                    self._published = mine
            except PresenceError as error:
                log.error("cannot share the lobby: %s", error)
                self._remote_stale = True
            await asyncio.sleep(self.config.list_cache_seconds / 2)

    async def _refresh_remote(self) -> None:
        listing = await self._presence.open_tables()
        out: list[m.TableSummary] = []
        for node_id, tables in sorted(listing.items()):
            if node_id == self.node_id:
                continue
            for text in tables.values():
                with contextlib.suppress(ValueError):
                    out.append(m.TableSummary.model_validate_json(text))
        self._remote = tuple(out)

    def _list_tables(self, conn: Conn, player: Player, message: m.ListTables) -> None:
        now = self.now
        built_at, summaries = self._list_cache
        if built_at is None or now - built_at >= self.config.list_cache_seconds:
            public = (t for t in self.tables.values() if not t.private and t.status != "closed")
            local = tuple(table.summary(self.players, now) for table in public)
            codes = {s.code for s in local}
            summaries = local + tuple(s for s in self._remote if s.code not in codes)
            self._list_cache = (now, summaries)
        page = summaries[message.offset : message.offset + LIST_PAGE_SIZE]
        conn.send(m.TableList(tables=page, id=message.id))

    def stats(self) -> dict[str, Any]:
        """Figures for benchmarks: tables run here, taken over, redirects, Redis ops."""
        return {
            "node": self.node_id,
            "tables": len(self.tables),
            "adopted": self.adopted,
            "redirects": self.redirects,
            "redis_ops": self._presence.ops if self.presence is not None else 0,
        }
