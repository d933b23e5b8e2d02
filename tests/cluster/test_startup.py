"""How a node starts and stops: the embedded server never touches Redis, a node without a
shared store or without Redis is one clear line, a clean stop releases every lease."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from protocol import messages as m
from server import ServerConfig, start_server
from server.cluster.presence import Presence
from server.errors import StartupError
from tests.redisfixture import RedisServer, free_port
from tests.server.helpers import Client

ROOT = Path(__file__).resolve().parents[2]


def test_spades_serve_alone_never_imports_redis() -> None:
    code = (
        "import asyncio, sys\n"
        "from server import ServerConfig, start_server\n"
        "async def main():\n"
        "    config = ServerConfig(port=0, db_path=':memory:', bot_workers=0)\n"
        "    running = await start_server(config)\n"
        "    await running.close()\n"
        "asyncio.run(main())\n"
        "print('redis' in sys.modules, 'server.cluster.presence' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


def test_a_node_needs_a_shared_store(redis_server: RedisServer) -> None:
    config = ServerConfig(port=0, db_path=":memory:", presence_url=redis_server.url)
    with pytest.raises(StartupError, match="--presence needs a store every node shares"):
        asyncio.run(start_server(config))


def test_a_node_without_redis_says_so_in_one_line(pg_dsn: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [
            sys.executable, "-m", "server", "--port", "0", "--store", pg_dsn,
            "--presence", f"redis://127.0.0.1:{free_port()}/0", "--bot-workers", "0",
        ],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert out.returncode == 1
    assert "spades server: cannot reach Redis at redis://127.0.0.1:" in out.stderr


def test_a_clean_stop_releases_every_lease_at_once(redis_server: RedisServer, pg_dsn: str) -> None:
    async def scenario() -> None:
        config = ServerConfig(
            port=0,
            store_url=pg_dsn,
            presence_url=redis_server.url,
            node_id="solo",
            bot_workers=0,
            lease_ms=60_000,
        )
        running = await start_server(config)
        client = await Client.hello(running.url)
        await client.send(m.CreateTable(preset="classic"))
        watcher = await Presence.connect(redis_server.url, "watcher", "ws://x/", lease_ms=60_000)
        try:
            codes: list[str] = []
            for _ in range(200):
                codes = [k.split(":")[-1] for k in await watcher.client.keys("spades:lease:*")]
                if codes:
                    break
                await asyncio.sleep(0.05)
            assert len(codes) == 1
            owner = await watcher.owner(codes[0])
            assert owner is not None and owner.node_id == "solo"
            await client.close()
            await running.close()
            # released, not left to expire (the TTL is a minute)
            assert await watcher.owner(codes[0]) is None
            assert await watcher.node_url("solo") is None
        finally:
            await watcher.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))
