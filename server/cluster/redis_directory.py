"""The directory of a cluster node: table leases, redirects and failover through Redis.

    spades serve --store postgresql://... --presence redis://... --public-url ws://HOST:PORT/

:func:`server.app.start_server` gives the server a :class:`RedisDirectory` instead of
the :class:`~server.cluster.directory.LocalDirectory` when ``config.presence_url`` is
set. Every node serves connections and the lobby; each table is run by the one node
that holds its lease (:mod:`server.cluster.presence`):

- A new table's node takes its lease (generation 1) and claims it in the store
  (``claim_table``): the store then refuses any commit for it under an older generation.
- A request naming a table this node does not run is answered with ``redirect`` to the
  owner's public URL (protocol 1.2; older connections get ``unknown_table`` naming the
  URL). A ``hello`` with the token of a player whose table runs elsewhere is redirected
  the same way (a 1.0/1.1 client is welcomed here instead).
- A table nobody holds (its node died, or the cluster just started) is taken over by the
  first node that needs it or whose scan finds it: lease (a higher generation), claim,
  load and replay from the store (the registry's own loading), then its bots, timers and
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
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import messages as m
from server.cluster.presence import Presence, PresenceError
from server.config import ServerConfig
from server.lobby.registry import Rooms
from server.lobby.turn import Closable
from server.rooms.ports import Listener
from server.rooms.room import Room
from server.store import FencedError, Storage, StoreError

__all__ = ["MAX_ADOPT_PER_SCAN", "RedisDirectory"]

log = logging.getLogger("server.cluster")

MAX_ADOPT_PER_SCAN = 25
"""Orphan tables one node takes over per scan: the others' scans share out the rest."""


class RedisDirectory:
    """The :class:`~server.cluster.directory.Directory` of a cluster node (see the module).

    ``attach(rooms, flush)`` gives it the registry and the unit of work's flush once they
    are built (they are built after the directory)."""

    spans_nodes = True
    owns_all_at_start = False  # tables are taken over by lease (:meth:`_adopt_forever`)

    def __init__(
        self,
        config: ServerConfig,
        store: Storage,
        spawn: Callable[[Awaitable[None]], object],
        now: Callable[[], float],
    ) -> None:
        self.config = config
        self.store = store
        self.spawn = spawn
        self.now = now
        self.node_id = config.node_id or secrets.token_hex(6)
        self.public_url = config.public_url or f"ws://{config.host}:{config.port}/"
        self.presence: Presence | None = None
        self._rooms: Rooms | None = None
        self._flush: Callable[[], None] = lambda: None
        self._remote: tuple[m.TableSummary, ...] = ()
        self._remote_stale = True
        self._published: dict[str, str] | None = None
        self._adopting: dict[str, asyncio.Future[Room | None]] = {}
        self._claiming: set[str] = set()  # new tables whose lease is being taken
        self.adopted = 0  # tables taken over from another node or from the store
        self.redirects = 0

    def attach(self, rooms: Rooms, flush: Callable[[], None]) -> None:
        self._rooms, self._flush = rooms, flush

    @property
    def rooms(self) -> Rooms:
        assert self._rooms is not None, "attach() first"
        return self._rooms

    @property
    def lease_ms(self) -> int:
        return self.config.lease_ms

    @property
    def _presence(self) -> Presence:
        assert self.presence is not None, "start() first"
        return self.presence

    # ---- start and stop ---------------------------------------------------------------

    async def start(self) -> None:
        """Connect to Redis, register this node and every unfinished stored table.

        Raises :class:`~server.cluster.presence.PresenceError` when Redis cannot be reached."""
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

    def run(self) -> None:
        self.spawn(self._adopt_forever())
        self.spawn(self._check_leases_forever())
        self.spawn(self._publish_forever())

    async def close(self) -> None:
        """Give up this node's leases and directory entry (after the store's last commit)."""
        if self.presence is not None:
            await self.presence.close(release=True)

    # ---- ownership --------------------------------------------------------------------

    def owns(self, code: str) -> bool:
        """Whether this node may write for table ``code`` now."""
        return code in self._claiming or self._presence.holds(code)

    def unproven(self, codes: set[str]) -> tuple[str, ...]:
        return tuple(sorted(code for code in codes if not self.owns(code)))

    def released(self, code: str) -> bool:
        """Another node runs ``code`` (or will): forget its lease; its audience reconnects."""
        if self.presence is not None:
            self.presence.forget(code)
        self._claiming.discard(code)
        return True

    def _give_up(self, code: str) -> list[Listener]:
        """Forget table ``code`` here; returns its audience, to be sent elsewhere."""
        self.released(code)
        if self.rooms.get(code) is None:
            return []
        log.warning("table %s: no longer owned by this node; dropped here", code)
        return self.rooms.remove(code, say_left=False)

    @staticmethod
    def _reconnect(audience: list[Listener], reason: str) -> None:
        for listener in audience:
            if isinstance(listener, Closable):
                listener.close_soon(1012, reason)

    def _leases_lost(self, codes: list[str]) -> None:
        self._flush()  # what was decided before the loss goes out (or is refused) first
        closing = [listener for code in codes for listener in self._give_up(code)]
        self._reconnect(closing, "this table moved to another node: reconnect")

    async def _check_leases_forever(self) -> None:
        # a lease that could not be renewed (Redis unreachable) stops being proof of
        # ownership by itself; the tables go as soon as that happens
        while True:
            await asyncio.sleep(self.lease_ms / 1000 / 6)
            lost = [code for code in self.rooms.rooms if not self.owns(code)]
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

    async def adopt(self, code: str) -> Room | None:
        """Take table ``code`` over if nobody holds it: lease, claim, load, resume.

        Returns the room (``None`` if another node holds it or the store has no such
        open table). Raises :class:`~server.cluster.presence.PresenceError`."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        work = self._adopting.get(code)
        if work is None:
            work = asyncio.ensure_future(self._adopt(code))
            self._adopting[code] = work
            work.add_done_callback(lambda _: self._adopting.pop(code, None))
        return await asyncio.shield(work)

    async def _adopt(self, code: str) -> Room | None:
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
        room = self.rooms.load_row(row)
        if room is None:
            await presence.release(code)
            return None
        self.rooms.register(room)
        self.adopted += 1
        # a node that still runs it (its lease ran out under it) drops it now, not at
        # its next renewal; the store's fence would refuse its next commit anyway
        self.spawn(presence.notice({"kind": "taken_over", "table": code, "generation": generation}))
        log.info("table %s: taken over (generation %d, version %d)", code, generation,
                 room.state.version)  # fmt: skip
        room.resume()
        return room

    # ---- new tables and seats ---------------------------------------------------------

    def created(self, code: str) -> None:
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
            self._reconnect(self._give_up(code), "this table could not be registered: reconnect")
            return
        finally:
            self._claiming.discard(code)
        room = self.rooms.get(code)
        if room is not None:
            for seat in room.seats:
                if seat.kind == "human" and seat.player_id is not None:
                    await self._presence.seat(seat.player_id, code)

    def seated(self, player_id: str, code: str) -> None:
        self.spawn(self._presence.seat(player_id, code))

    def unseated(self, player_id: str, code: str) -> None:
        self.spawn(self._presence.unseat(player_id, code))

    def forgotten(self, code: str) -> None:
        self.spawn(self._presence.forget_table(code))

    # ---- routing: tables of other nodes -----------------------------------------------

    async def _owner_url(self, code: str) -> str | None:
        """The public URL of the other node that runs ``code``, or ``None`` if this node
        has it now (taken over on the way) or nobody has it. Raises ``PresenceError``."""
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

    async def locate(self, code: str) -> str | None:
        try:
            return await self._owner_url(code)
        except PresenceError as error:
            log.error("cannot find the node of table %s: %s", code, error)
            return None

    async def player_elsewhere(self, player_id: str) -> tuple[str, str] | None:
        try:
            for code in await self._presence.player_tables(player_id):
                if code in self.rooms.rooms:
                    continue
                url = await self._owner_url(code)
                if url is not None:
                    return url, code
        except PresenceError as error:
            log.error("cannot look up the tables of player %s: %s", player_id, error)
        return None

    def redirected(self) -> None:
        self.redirects += 1

    # ---- the lobby across nodes -------------------------------------------------------

    def _notice(self, notice: dict[str, Any]) -> None:
        code = notice.get("table")
        if (
            notice.get("kind") == "taken_over"
            and isinstance(code, str)
            and code in self.rooms.rooms
        ):
            log.warning("table %s: taken over by node %s", code, notice.get("from"))
            self._leases_lost([str(code)])

    def _lobby_changed(self, node_id: str) -> None:
        if node_id != self.node_id:
            self._remote_stale = True

    async def _publish_forever(self) -> None:
        while True:
            try:
                if self._remote_stale:
                    self._remote_stale = False
                    await self._refresh_remote()
                now = self.now()
                mine = {
                    room.code: room.summary(now).model_dump_json()
                    for room in self.rooms
                    if not room.private and room.status != "closed"
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

    def listing(self, local: tuple[m.TableSummary, ...]) -> tuple[m.TableSummary, ...]:
        codes = {summary.code for summary in local}
        return local + tuple(s for s in self._remote if s.code not in codes)

    def stats(self) -> dict[str, Any]:
        """Figures for benchmarks: tables run here, taken over, redirects, Redis ops."""
        return {
            "node": self.node_id,
            "tables": len(self.rooms),
            "adopted": self.adopted,
            "redirects": self.redirects,
            "redis_ops": self._presence.ops if self.presence is not None else 0,
        }
