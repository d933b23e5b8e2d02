"""One client must not hold the server: per-address limits, every table counted,
abandoned tables reclaimed, stand-in bots that stop when nobody is there."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import threading

import pytest
from websockets.asyncio.client import connect

from engine import Action, PlayerView
from protocol import messages as m
from server import RunningServer, bots
from tests.server.helpers import FAST, Client, play_to_end, run, serve_config, two_players


async def _until(check: object, polls: int = 400) -> bool:
    for _ in range(polls):
        if check():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.05)
    return False


def test_one_address_may_hold_only_its_share_of_connections() -> None:
    async def test(server: RunningServer) -> None:
        held = [await Client.hello(server.url, f"p{i}") for i in range(3)]
        extra = await Client.open(server.url)
        refused = await extra.expect(m.ErrorMessage)
        assert refused.code == "server_full" and "address" in refused.message
        await _until(lambda: extra.ws.close_code is not None)
        assert extra.ws.close_code == 1013
        await held[0].close()
        assert await _until(lambda: len(server.hub.conns) == 2)
        again = await Client.hello(server.url, "p3")  # a slot came free
        assert again.welcome is not None

    run(test, max_connections_per_address=3)


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_share() -> None:
    async def open_via(url: str, forwarded: str) -> Client:
        headers = {"X-Forwarded-For": forwarded}
        return Client(await connect(url, additional_headers=headers, compression=None))

    async def hello_via(url: str, forwarded: str) -> Client:
        client = await open_via(url, forwarded)
        await client.send(m.Hello(protocol_version=1, name="p"))
        return client

    async def test(server: RunningServer) -> None:
        # the proxy (127.0.0.1) forwards two players: each has its own slot
        alice = await hello_via(server.url, "203.0.113.7")
        bob = await hello_via(server.url, "198.51.100.9, 203.0.113.8")
        for client in (alice, bob):
            assert isinstance(await client.recv(), m.Welcome)
        # a second connection of alice's address is over her share; a forged entry
        # left of the real one changes nothing (only the right end is the proxy's word)
        again = await open_via(server.url, "192.0.2.1, 203.0.113.7")
        refused = await again.expect(m.ErrorMessage)
        assert refused.code == "server_full" and "address" in refused.message
        assert await _until(lambda: again.ws.close_code is not None)
        assert sorted(conn.address for conn in server.hub.conns) == [
            "203.0.113.7",
            "203.0.113.8",
        ]

    run(test, max_connections_per_address=1, trusted_proxies=("127.0.0.1",))


def test_forwarded_for_is_ignored_from_a_peer_that_is_not_a_trusted_proxy() -> None:
    async def test(server: RunningServer) -> None:
        ws = await connect(
            server.url, additional_headers={"X-Forwarded-For": "203.0.113.7"}, compression=None
        )
        client = Client(ws)
        await client.send(m.Hello(protocol_version=1, name="p"))
        assert isinstance(await client.recv(), m.Welcome)
        assert [conn.address for conn in server.hub.conns] == ["127.0.0.1"]

    run(test, trusted_proxies=("127.0.0.9",))


def test_one_address_may_hold_only_its_share_of_tables_and_bots() -> None:
    async def test(server: RunningServer) -> None:
        first = await Client.hello(server.url, "first")
        second = await Client.hello(server.url, "second")
        await first.request(m.CreateTable(bot="easy"), m.Snapshot)
        # a second table with the bot from the same address: refused, by either way
        reply = await second.error(m.CreateTable(bot="easy"), "server_full")
        assert "bot" in reply.message
        plain = await second.request(m.CreateTable(), m.Snapshot)
        await second.error(m.AddBot(code=plain.table.code), "server_full")
        # and a third table of any kind: refused
        reply = await first.error(m.CreateTable(), "server_full")
        assert "address" in reply.message
        assert len(server.hub.tables) == 2

    run(test, max_tables_per_address=2, max_bot_tables_per_address=1)


def test_finished_tables_count_toward_the_table_cap() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "fin")
        await client.request(m.CreateTable(bot="easy", overrides=FAST), m.Snapshot)
        over = await play_to_end(client, random.Random(4))
        assert isinstance(over, m.GameOver)
        other = await Client.hello(server.url, "late")
        await other.error(m.CreateTable(), "server_full")  # the finished table holds memory

    run(test, max_tables=1)


def test_a_waiting_table_whose_creator_left_is_reclaimed_despite_a_long_hold() -> None:
    async def test(server: RunningServer) -> None:
        squatter = await Client.hello(server.url, "squat")
        snap = await squatter.request(m.CreateTable(hold_seconds=3600), m.Snapshot)
        code = snap.table.code
        await squatter.drop()
        assert await _until(lambda: code not in server.hub.tables)
        someone = await Client.hello(server.url, "someone")
        await someone.error(m.WatchTable(code=code), "unknown_table")
        await someone.request(m.CreateTable(), m.Snapshot)  # the slot is free again

    run(test, max_tables=1, idle_table_hold_seconds=0)


def test_stand_in_bots_stop_when_nobody_is_there_and_go_on_when_someone_is_back() -> None:
    async def test(server: RunningServer) -> None:
        human = await Client.hello(server.url, "h")
        snap = await human.request(
            m.CreateTable(
                bot="easy",
                hold_seconds=0,
                on_hold_expiry="bot",
                overrides={"target_score": 100_000},
            ),
            m.Snapshot,
        )
        code = snap.table.code
        table = server.hub.tables[code]
        token = human.token
        await human.drop()
        assert await _until(lambda: table.paused)  # the stand-in played a little, then stopped
        version = table.state.version
        await asyncio.sleep(0.5)  # bot_delay is 0: a playing bot would move many times
        assert table.state.version == version and table.status == "playing"
        back = await Client.hello(server.url, "h", token=token)
        assert back.welcome is not None and back.welcome.tables == (code,)
        turn = await back.expect(m.YourTurn)  # the game goes on with the human
        assert turn.version >= version

    run(test, standin_idle_seconds=0.2)


def test_a_playing_table_abandoned_by_every_human_is_closed() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server, hold_seconds=3600, on_hold_expiry="wait")
        await first.drop()
        await second.drop()
        assert await _until(lambda: code not in server.hub.tables)
        someone = await Client.hello(server.url, "someone")
        await someone.error(m.WatchTable(code=code), "unknown_table")

    run(test, abandoned_table_seconds=0.3)


def test_list_tables_is_paged_fifty_at_a_time() -> None:
    async def test(server: RunningServer) -> None:
        hosts = [await Client.hello(server.url, f"host{i}") for i in range(12)]
        created = set()
        for index in range(120):
            snap = await hosts[index % 12].request(m.CreateTable(), m.Snapshot)
            created.add(snap.table.code)
        await hosts[0].request(m.CreateTable(private=True), m.Snapshot)  # never listed
        pages = [await hosts[0].request(m.ListTables(offset=o), m.TableList) for o in (0, 50, 100)]
        assert [len(page.tables) for page in pages] == [50, 50, 20]
        listed = [t.code for page in pages for t in page.tables]
        assert len(listed) == len(set(listed)) and set(listed) == created
        assert (await hosts[0].request(m.ListTables(offset=500), m.TableList)).tables == ()
        first = await hosts[0].request(m.ListTables(), m.TableList)  # no offset: page one
        assert first.tables == pages[0].tables

    run(test, list_cache_seconds=0.0, max_tables_per_player=20)


def test_one_listing_serves_every_list_tables_while_it_is_fresh() -> None:
    async def test(server: RunningServer) -> None:
        host = await Client.hello(server.url, "host")
        before = await host.request(m.CreateTable(), m.Snapshot)
        listed = await host.request(m.ListTables(), m.TableList)
        assert [t.code for t in listed.tables] == [before.table.code]
        await host.request(m.CreateTable(), m.Snapshot)
        again = await host.request(m.ListTables(), m.TableList)
        assert again.tables == listed.tables  # served from the listing made above

    run(test, list_cache_seconds=3600.0)


def test_one_address_gets_one_bot_decision_at_a_time_and_others_still_get_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()
    lock = threading.Lock()
    in_flight = [0]
    real = bots.choose

    def slow(view: PlayerView, level: str, seed: int, iterations: int | None) -> Action:
        with lock:
            in_flight[0] += 1
        release.wait(30)
        with lock:
            in_flight[0] -= 1
        return real(view, level, seed, iterations)

    monkeypatch.setattr(bots, "choose", slow)

    async def bot_tables(server: RunningServer, source: str, count: int) -> None:
        """``count`` tables with the bot from ``source``, whose creator then vanishes: the
        bot and the stand-in want a decision every turn."""
        for index in range(count):
            ws = await connect(server.url, compression=None, local_addr=(source, 0))
            client = Client(ws)
            await client.send(m.Hello(protocol_version=1, name=f"p{index}"))
            await client.expect(m.Welcome)
            create = m.CreateTable(bot="easy", hold_seconds=0, on_hold_expiry="bot")
            await client.request(create, m.Snapshot)
            await client.drop()

    async def test(server: RunningServer) -> None:
        # two worker threads: one address could otherwise take both
        server.hub.bots._executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        server.hub.bots.turns.capacity = 2  # and two turns of the pool to hand out
        await bot_tables(server, "127.0.0.2", 2)
        assert await _until(lambda: in_flight[0] == 1)
        await asyncio.sleep(0.3)
        assert in_flight[0] == 1  # its second table waits for the first one's decision
        await bot_tables(server, "127.0.0.1", 1)
        assert await _until(lambda: in_flight[0] == 2)  # another address is not held up
        release.set()

    run(test)


def test_a_malformed_trusted_proxy_stops_the_server_at_start() -> None:
    good = serve_config("--trusted-proxy", "::1", "--trusted-proxy", "10.0.0.2")
    assert good.trusted_proxies == ("::1", "10.0.0.2")
    with pytest.raises(SystemExit, match="not an IP address"):
        serve_config("--trusted-proxy", "localhost")
