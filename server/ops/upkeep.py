"""What a long-running server does by itself: close abandoned tables, reclaim old rows.

    upkeep = Upkeep(config, store, rooms, players, flush)
    await upkeep.reclaim()              # the retention policy, now (also at start)
    spawn(upkeep.reap_abandoned())      # forever
    spawn(upkeep.keep_tidy())           # forever: reclaim every retention_interval_seconds

The retention's clock is :attr:`Upkeep.wall_clock` (Unix seconds; tests move it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from server.config import ServerConfig
from server.lobby.players import Players
from server.lobby.registry import Rooms
from server.logs import event
from server.store import Reclaimed, RetentionPolicy, Storage, StoreError

__all__ = ["Upkeep"]

log = logging.getLogger("server")


class Upkeep:
    """The server's housekeeping (see the module)."""

    def __init__(
        self,
        config: ServerConfig,
        store: Storage,
        rooms: Rooms,
        players: Players,
        flush: Callable[[], None],
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.store = store
        self.rooms = rooms
        self.players = players
        self.flush = flush
        self.wall_clock = wall_clock

    async def reap_abandoned(self) -> None:
        """Forever: close playing tables where no human has been connected for
        ``abandoned_table_seconds`` (tables that are not playing go when their holds do)."""
        limit = self.config.abandoned_table_seconds
        while True:
            await asyncio.sleep(min(10.0, limit / 4))
            now = asyncio.get_running_loop().time()
            for room in self.rooms:
                gone = room.humans_gone_at
                if room.status == "playing" and gone is not None and now - gone > limit:
                    log.info(
                        "table %s: abandoned; closed",
                        room.code,
                        extra=event("table.close", table=room.code, reason="abandoned"),
                    )
                    room.close()
                    self.rooms.remove(room.code)

    def policy(self) -> RetentionPolicy:
        config = self.config
        return RetentionPolicy(
            keep_finished_days=config.keep_finished_days,
            reclaim_days=config.reclaim_days,
            keep_analyses_days=config.keep_analyses_days,
        )

    async def reclaim(self, now: float | None = None) -> Reclaimed:
        """Delete what the retention policy lets go at ``now`` (Unix seconds; default
        :attr:`wall_clock`), one batch of each kind a turn of the loop, each batch
        committed by a flush; the tables in memory and connected players are kept."""
        policy = self.policy()
        total = Reclaimed(more=True)
        while total.more:
            live_players = [player.id for player in self.players.online()]
            try:
                step = self.store.reclaim_step(
                    policy,
                    self.wall_clock() if now is None else now,
                    live_tables=list(self.rooms.rooms),
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
