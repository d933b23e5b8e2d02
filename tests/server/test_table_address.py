"""Issue 25 leftover: tables loaded at start keep the share of the address that created
them, so the per-address table caps count them after a restart; only the share is kept."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from engine import RuleSet
from protocol import messages as m
from server import start_server
from server.rooms.table import Table
from tests.server.helpers import TEST_CONFIG, Client


async def _from(url: str, source: str, name: str) -> Client:
    """A welcomed client from the local address ``source`` (127.0.0.x)."""
    client = Client(await connect(url, compression=None, local_addr=(source, 0)))
    with contextlib.suppress(ConnectionClosed):
        await client.send(m.Hello(protocol_version=1, name=name))
    assert isinstance(await client.recv(), m.Welcome)
    return client


def test_a_restart_keeps_counting_the_tables_an_address_created(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, db_path=str(tmp_path / "spades.db"), max_tables_per_address=2)

    async def before() -> list[str]:
        server = await start_server(config)
        try:
            host = await _from(server.url, "127.0.0.5", "host")
            codes = []
            for _ in range(2):
                snapshot = await host.request(m.CreateTable(), m.Snapshot)
                codes.append(snapshot.table.code)
            reply = await host.error(m.CreateTable(), "server_full")
            assert "address" in reply.message
            await host.close()
            return codes
        finally:
            await server.close()

    async def after(codes: list[str]) -> None:
        server = await start_server(config)
        try:
            assert {code: server.hub.tables[code].address for code in codes} == {
                code: "127.0.0.5" for code in codes
            }
            again = await _from(server.url, "127.0.0.5", "again")
            reply = await again.error(m.CreateTable(), "server_full")
            assert "address" in reply.message  # the two loaded tables count
            other = await _from(server.url, "127.0.0.6", "other")
            await other.request(m.CreateTable(), m.Snapshot)  # another address has room
            for client in (again, other):
                await client.close()
        finally:
            await server.close()

    codes = asyncio.run(before())
    db = sqlite3.connect(tmp_path / "spades.db")
    stored = {code: json.loads(data) for code, data in db.execute("SELECT code, data FROM tables")}
    db.close()
    assert {stored[code]["address"] for code in codes} == {"127.0.0.5"}
    asyncio.run(after(codes))


def test_only_the_share_of_an_ipv6_address_is_stored_and_old_rows_load() -> None:
    table = Table(
        code="ADDR2345",
        private=False,
        preset="classic",
        rules=RuleSet.preset("classic"),
        on_hold_expiry="wait",
        hold_seconds=60,
        turn_seconds=None,
        address="2001:db8:5:6::/64",
    )
    data = table.to_data()
    assert data["address"] == "2001:db8:5:6::/64"
    assert Table.from_data("ADDR2345", data, "waiting", 1).address == "2001:db8:5:6::/64"
    del data["address"]  # a row stored before the address was kept
    assert Table.from_data("ADDR2345", data, "waiting", 1).address is None
