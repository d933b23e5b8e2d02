"""Failover with real processes: the owner of 50 live tables is killed with SIGKILL
mid-game and the other nodes take them over; a node cut off from Redis stops committing
for the tables it can no longer prove it owns."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import psycopg
import redis

from protocol import messages as m
from tests.cluster.nodes import RULES, Node, Player, check_games, stop_all, until
from tests.redisfixture import RedisServer, Relay

TABLES = 50


def _fences(dsn: str) -> dict[str, int]:
    with psycopg.connect(dsn) as db:
        return dict(db.execute("SELECT code, generation FROM fences").fetchall())


def _action_count(dsn: str, code: str) -> int:
    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT count(*) FROM actions WHERE code = %s", (code,)).fetchone()
        assert row is not None
        return int(row[0])


def test_kill_9_the_owner_of_50_live_tables_every_game_finishes_nothing_lost_or_twice(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    # a 3 s lease: a node of a busy test machine keeps its leases through a stall
    nodes = [Node(pg_dsn, redis_server.url, f"n{i}", lease_ms=3000) for i in range(3)]
    try:

        async def scenario() -> None:
            urls = [n.url for n in nodes]
            players = [
                Player(urls, home=0, seed=100 + i, name=f"p{i}", pace=0.15) for i in range(TABLES)
            ]
            create = m.CreateTable(preset="classic", overrides=RULES, bot="easy")
            runs = [asyncio.create_task(p.run(create)) for p in players]
            # mid-game: every table has acknowledged actions, none has finished
            await until(lambda: all(len(p.acked) >= 3 for p in players), timeout=90)
            assert not any(p.done.is_set() for p in players)
            before = {p.code: p.seq for p in players}
            owners = redis.Redis.from_url(redis_server.url, decode_responses=True)
            leases = owners.mget([f"spades:lease:{p.code}" for p in players])
            owners.close()
            # node 0 runs them all, unless this machine was busy enough to stall a node
            # past its lease and move some already (the same failover, earlier): the
            # node killed is the one that owns the most live tables now
            owner_of = {
                p.code: str(lease).split()
                for p, lease in zip(players, leases, strict=True)
                if lease is not None  # None: moving right now
            }
            victim = Counter(owner[0] for owner in owner_of.values()).most_common(1)[0][0]
            at_kill = {
                code: int(owner[1]) for code, owner in owner_of.items() if owner[0] == victim
            }
            assert len(at_kill) >= 10, leases
            nodes[int(victim[1:])].kill()
            await asyncio.wait_for(asyncio.gather(*runs), 150)
            # every table the killed node ran moved to a live node, a higher generation
            fences = _fences(pg_dsn)
            assert all(fences[code] > generation for code, generation in at_kill.items())
            assert all(p.seq > before[p.code] for p in players)  # played on after the kill
            # everyone at a killed table came back by token
            assert all(p.reconnects >= 1 for p in players if p.code in at_kill)
            assert check_games(pg_dsn, players) == {
                "actions_lost": 0,
                "actions_applied_twice": 0,
                "records_bad": 0,
            }

        asyncio.run(asyncio.wait_for(scenario(), 280))
    finally:
        stop_all(nodes)


def test_a_node_cut_off_from_redis_stops_committing_and_another_takes_over(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    relay = Relay(redis_server.port)
    cut_off = Node(pg_dsn, relay.url, "cut", lease_ms=2000)
    nodes = [cut_off]
    try:

        async def scenario() -> None:
            player = Player([cut_off.url], home=0, seed=5, name="pat", pace=0.2)
            create = m.CreateTable(preset="classic", overrides=RULES, bot="easy")
            run = asyncio.create_task(player.run(create, attempts=400))
            await until(lambda: len(player.acked) >= 3, timeout=60)
            code = player.code
            assert code is not None
            generation = _fences(pg_dsn)[code]
            closes = len(player.close_codes)
            relay.cut()
            # the node drops the table and closes its players' connections (1012) ...
            await until(lambda: 1012 in player.close_codes[closes:], timeout=30)
            stored = _action_count(pg_dsn, code)
            # ... and, though alive and asked again and again, stores nothing more for it
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                assert cut_off.process is not None and cut_off.process.poll() is None
            assert _action_count(pg_dsn, code) == stored
            assert not player.done.is_set()
            # a node that can reach Redis takes the table over (generation 2); the player
            # finds it there and the game finishes with nothing lost
            healthy = Node(pg_dsn, redis_server.url, "ok", lease_ms=2000)
            nodes.append(healthy)
            player.urls.append(healthy.url)
            await asyncio.wait_for(run, 120)
            assert _fences(pg_dsn)[code] > generation
            assert _action_count(pg_dsn, code) > stored
            assert check_games(pg_dsn, [player]) == {
                "actions_lost": 0,
                "actions_applied_twice": 0,
                "records_bad": 0,
            }

        asyncio.run(asyncio.wait_for(scenario(), 200))
    finally:
        stop_all(nodes)
        relay.close()


def test_redis_restarted_empty_the_tables_come_back_above_the_stores_fences(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    nodes = [Node(pg_dsn, redis_server.url, f"n{i}") for i in range(2)]
    try:

        async def scenario() -> None:
            player = Player([n.url for n in nodes], home=0, seed=9, name="rae", pace=0.05)
            create = m.CreateTable(preset="classic", overrides=RULES, bot="easy")
            run = asyncio.create_task(player.run(create, attempts=400))
            await until(lambda: len(player.acked) >= 3, timeout=60)
            code = player.code
            assert code is not None
            # Redis forgets everything (no persistence) while the store remembers fences
            # from takeovers Redis no longer counts
            redis_server.stop()
            with psycopg.connect(pg_dsn) as db:
                db.execute("UPDATE fences SET generation = 5 WHERE code = %s", (code,))
            redis_server.start()
            await asyncio.wait_for(run, 120)
            assert _fences(pg_dsn)[code] > 5
            assert check_games(pg_dsn, [player]) == {
                "actions_lost": 0,
                "actions_applied_twice": 0,
                "records_bad": 0,
            }

        asyncio.run(asyncio.wait_for(scenario(), 200))
    finally:
        stop_all(nodes)
