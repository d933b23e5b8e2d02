"""Issue 25 (hardening 3), items 3, 4, 5, 10 and 12's X-Forwarded-For ports: fair shares
per address (IPv6 by network), a reserve for newcomers, one request budget per address,
cached list pages, cheap refusals of bloated JSON, the turn credit, and look-alike names.

Other source addresses are 127.0.0.x (a client socket bound to them, Linux); IPv6
addresses come through a trusted proxy's ``X-Forwarded-For``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from types import SimpleNamespace
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from protocol import messages as m
from protocol.codec import JSON_SUBPROTOCOL
from server import RunningServer
from server.config import ServerConfig
from server.gateway import router as router_module
from server.gateway.session import Session
from server.lobby import handlers as handlers_module
from server.ops.admin import run_command
from tests.server.helpers import TEST_CONFIG, Client, run, serve_config, two_players

PROXY = ("127.0.0.1",)


async def _via(server: RunningServer, forwarded: str, name: str = "p") -> Client:
    """A client behind the trusted proxy (127.0.0.1) as ``forwarded``, hello sent."""
    ws = await connect(
        server.url, additional_headers={"X-Forwarded-For": forwarded}, compression=None
    )
    client = Client(ws)
    with contextlib.suppress(ConnectionClosed):  # a refused connection is closed at once
        await client.send(m.Hello(protocol_version=1, name=name))
    return client


async def _from(server: RunningServer, source: str, name: str = "p") -> Client:
    """A client from the local address ``source`` (127.0.0.x), hello sent."""
    client = Client(await connect(server.url, compression=None, local_addr=(source, 0)))
    with contextlib.suppress(ConnectionClosed):
        await client.send(m.Hello(protocol_version=1, name=name))
    return client


async def _answer(client: Client) -> m.ServerMessage:
    message = await client.recv()
    assert message is not None
    return message


# ---- item 3: fair shares --------------------------------------------------------------


def test_ipv6_addresses_of_one_64_share_one_connection_cap() -> None:
    async def test(server: RunningServer) -> None:
        first = await _via(server, "2001:db8:1:2::1", "a")
        second = await _via(server, "2001:db8:1:2:ffff::9", "b")
        for client in (first, second):
            assert isinstance(await _answer(client), m.Welcome)
        # a third address of the same /64: over the share
        third = await _via(server, "2001:db8:1:2::3", "c")
        refused = await _answer(third)
        assert isinstance(refused, m.ErrorMessage) and refused.code == "server_full"
        # another /64 of the same /56 is another share by default
        other = await _via(server, "2001:db8:1:3::1", "d")
        assert isinstance(await _answer(other), m.Welcome)

    run(test, max_connections_per_address=2, trusted_proxies=PROXY)


def test_ipv6_share_prefix_56_makes_a_56_one_share() -> None:
    async def test(server: RunningServer) -> None:
        first = await _via(server, "2001:db8:1:2::1", "a")
        assert isinstance(await _answer(first), m.Welcome)
        other = await _via(server, "2001:db8:1:3::1", "d")  # same /56
        refused = await _answer(other)
        assert isinstance(refused, m.ErrorMessage) and refused.code == "server_full"

    run(test, max_connections_per_address=1, trusted_proxies=PROXY, ipv6_share_prefix=56)


def test_ipv6_addresses_of_one_64_share_the_table_and_bot_caps() -> None:
    async def test(server: RunningServer) -> None:
        first = await _via(server, "2001:db8:5:6::1", "a")
        second = await _via(server, "2001:db8:5:6::2", "b")
        for client in (first, second):
            assert isinstance(await _answer(client), m.Welcome)
        await first.request(m.CreateTable(bot="easy"), m.Snapshot)
        reply = await second.error(m.CreateTable(bot="easy"), "server_full")
        assert "bot" in reply.message
        await second.request(m.CreateTable(), m.Snapshot)
        reply = await second.error(m.CreateTable(), "server_full")
        assert "address" in reply.message
        # the tables count by share: the bot's decisions wait in the share's one line
        assert {room.address for room in server.hub.tables.values()} == {"2001:db8:5:6::/64"}

    run(
        test,
        max_tables_per_address=2,
        max_bot_tables_per_address=1,
        trusted_proxies=PROXY,
    )


def test_addresses_holding_connections_leave_the_last_one_to_a_newcomer() -> None:
    async def test(server: RunningServer) -> None:
        # six connections in all, three per address, one kept for addresses holding none
        held = [await _from(server, "127.0.0.2", f"a{i}") for i in range(3)]
        held += [await _from(server, "127.0.0.3", f"b{i}") for i in range(2)]
        for client in held:
            assert isinstance(await _answer(client), m.Welcome)
        late = await _from(server, "127.0.0.3", "b2")
        refused = await _answer(late)
        assert isinstance(refused, m.ErrorMessage) and refused.code == "server_full"
        newcomer = await _from(server, "127.0.0.4", "c")
        assert isinstance(await _answer(newcomer), m.Welcome)

    run(test, max_connections=6, max_connections_per_address=3, share_reserve=0.1)


def test_addresses_holding_tables_leave_the_last_ones_to_a_newcomer() -> None:
    async def test(server: RunningServer) -> None:
        a = await _from(server, "127.0.0.2", "a")
        b = await _from(server, "127.0.0.3", "b")
        c = await _from(server, "127.0.0.4", "c")
        for client in (a, b, c):
            assert isinstance(await _answer(client), m.Welcome)
        for _ in range(5):
            await a.request(m.CreateTable(private=True), m.Snapshot)
        for _ in range(4):
            await b.request(m.CreateTable(private=True), m.Snapshot)
        reply = await b.error(m.CreateTable(private=True), "server_full")
        assert "hold none" in reply.message
        await c.request(m.CreateTable(private=True), m.Snapshot)  # the reserve
        assert len(server.hub.tables) == 10

    run(
        test,
        max_tables=10,
        max_tables_per_address=5,
        max_tables_per_player=10,
        share_reserve=0.1,
    )


# ---- item 4: bounded work per address -------------------------------------------------


def test_connections_of_one_address_share_one_request_budget() -> None:
    async def test(server: RunningServer) -> None:
        clients = [await _from(server, "127.0.0.5", f"r{i}") for i in range(3)]
        refused = 0
        for client in clients:
            for _ in range(5):
                await client.send(m.Ping(id=client.new_id()))
        for client in clients:
            for _ in range(6):  # its welcome, then a pong or a refusal per ping
                message = await _answer(client)
                refused += isinstance(message, m.ErrorMessage) and message.code == "rate_limited"
        # 3 hellos and 15 pings from one address, a budget of 10: 8 refused
        assert refused == 8
        # another address has its own budget
        other = await _from(server, "127.0.0.6", "o")
        assert isinstance(await _answer(other), m.Welcome)

    run(test, address_messages_per_second=0.001, address_burst=10)


def test_list_pages_are_encoded_once_per_listing_for_both_encodings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    encoded: list[int] = []
    real = handlers_module.encode_for

    def counting(message: Any, minor: int) -> bytes | None:
        encoded.append(minor)
        return real(message, minor)

    monkeypatch.setattr(handlers_module, "encode_for", counting)

    async def test(server: RunningServer) -> None:
        owner = await Client.hello(server.url, "owner")
        snap = await owner.request(m.CreateTable(), m.Snapshot)
        lister = await Client.hello(server.url, "lister")
        codes = []
        for _ in range(3):
            listing = await lister.request(m.ListTables(), m.TableList)
            codes.append([table.code for table in listing.tables])
        browser = await connect(server.url, subprotocols=[JSON_SUBPROTOCOL], compression=None)
        await browser.send(
            json.dumps(
                {
                    "type": "hello",
                    "protocol_version": 1,
                    "protocol_minor": m.PROTOCOL_MINOR,
                    "name": "web",
                }
            )
        )
        await browser.recv()
        for request_id in (7, 8):
            await browser.send(json.dumps({"type": "list_tables", "id": request_id}))
            text = await browser.recv()
            assert isinstance(text, str)
            answer = json.loads(text)
            assert answer["type"] == "table_list" and answer["id"] == request_id
            codes.append([table["code"] for table in answer["tables"]])
        assert codes == [[snap.table.code]] * 5
        assert encoded == [m.PROTOCOL_MINOR]  # one page, one encoding, five answers
        await browser.close()

    run(test, list_cache_seconds=3600.0)


def test_json_with_hundreds_of_unknown_keys_is_refused_before_validation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[str] = []
    real = router_module.decode_client_json

    def counting(data: str, limit: int) -> m.ClientMessage:
        decoded.append(data)
        return real(data, limit)

    monkeypatch.setattr(router_module, "decode_client_json", counting)

    async def test(server: RunningServer) -> None:
        browser = await connect(server.url, subprotocols=[JSON_SUBPROTOCOL], compression=None)
        bloated = {"type": "ping", "id": 3, **{f"k{i}": 0 for i in range(300)}}
        await browser.send(json.dumps(bloated, separators=(",", ":")))
        answer = json.loads(await browser.recv())
        assert answer["type"] == "error" and answer["code"] == "bad_message"
        assert decoded == []  # never handed to the validator
        await browser.send(json.dumps({"type": "hello", "protocol_version": 1, "name": "w"}))
        assert json.loads(await browser.recv())["type"] == "welcome"
        assert len(decoded) == 1
        await browser.close()

    run(test)


# ---- item 5: the turn credit ----------------------------------------------------------


def _session(**overrides: Any) -> Session:
    ws = SimpleNamespace(
        subprotocol=None, remote_address=("127.0.0.1", 1), request=None, transport=None
    )
    config: ServerConfig = TEST_CONFIG.__class__(**{**TEST_CONFIG.__dict__, **overrides})
    return Session(ws, config)  # type: ignore[arg-type]


def test_a_turn_credit_gives_back_one_request_and_credits_are_capped() -> None:
    session = _session(rate_messages_per_second=0.001, rate_burst=1, credits_per_second=0.001)
    assert session.rate.take() and not session.rate.take()
    session.credit(2)  # a your_turn: one move to answer it with, not two
    assert [session.rate.take() for _ in range(3)] == [True, False, False]
    session.credit(2)  # the credit budget is spent: nothing more for free
    assert not session.rate.take()


def test_one_player_may_act_only_so_often_whatever_the_credit() -> None:
    async def test(server: RunningServer) -> None:
        first, _second, code = await two_players(server)
        ids = []
        for seq in range(5):
            request_id = first.new_id()
            ids.append(request_id)
            bid = m.BidAction(tricks=13)
            await first.send(
                m.Act(code=code, seq=10_000 + seq, action=bid, version=0, id=request_id)
            )
        answers = [await first.expect(m.ErrorMessage) for _ in range(4)]
        # a budget of three: those are handled (refused by the game: not its turn, or a
        # stale version), the fourth waits for the budget, the fifth is refused
        assert [a.id for a in answers] == ids[:3] + ids[4:]
        assert [a.code == "rate_limited" for a in answers] == [False, False, False, True]
        assert server.hub.router._deferred == {first.welcome.player_id}  # type: ignore[union-attr]

    run(test, actions_per_second=0.001, actions_burst=3)


# ---- item 10: look-alike names ---------------------------------------------------------


@pytest.mark.parametrize("name", ["Υou", "ʙot", "ꜱerver", "Bot（easy）", "ＢＯＴ (hard)"])
def test_names_that_look_like_the_games_words_are_refused(name: str) -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.open(server.url)
        await client.send(m.Hello(protocol_version=1, name=name))
        refused = await _answer(client)
        assert isinstance(refused, m.ErrorMessage) and refused.code == "bad_name"

    run(test)


@pytest.mark.parametrize("name", ["troII", "trоll", "ｔｒｏｌｌ", "TROLL", "tr0ll"])
def test_a_name_ban_holds_for_look_alike_names(name: str) -> None:
    async def test(server: RunningServer) -> None:
        server.hub.moderation.ban("name", "troll")
        client = await Client.open(server.url)
        await client.send(m.Hello(protocol_version=1, name=name))
        refused = await _answer(client)
        assert isinstance(refused, m.ErrorMessage) and refused.code == "banned"

    run(test)


def test_two_connected_players_never_have_look_alike_names() -> None:
    async def test(server: RunningServer) -> None:
        alice = await Client.hello(server.url, "alice")
        names = []
        for name in ("alice", "ALICE", "аlice", "aIice"):  # Cyrillic a; capital I
            twin = await Client.hello(server.url, name)
            assert twin.welcome is not None
            names.append(twin.welcome.name)
        assert names == ["alice 2", "ALICE 3", "аlice 4", "aIice 5"]
        await alice.drop()
        for _ in range(100):  # the name is free once alice has gone
            if server.hub.roster.names.holder("alice") is None:
                break
            await asyncio.sleep(0.02)
        again = await Client.hello(server.url, "alice")
        assert again.welcome is not None and again.welcome.name == "alice"

    run(test)


def test_admin_by_name_refuses_an_ambiguous_name_and_acts_by_id() -> None:
    async def test(server: RunningServer) -> None:
        # a stored bob (he sat down) leaves; another bob comes; the first comes back
        first = await Client.hello(server.url, "bob")
        await first.request(m.CreateTable(private=True), m.Snapshot)
        token = first.token
        await first.drop()
        for _ in range(100):
            if server.hub.roster.names.holder("bob") is None:
                break
            await asyncio.sleep(0.02)
        second = await Client.hello(server.url, "Bob")
        back = await Client.hello(server.url, "bob", token=token)
        assert back.welcome is not None and second.welcome is not None
        for command in ("kick", "mute"):
            reply = run_command(server.hub, {"command": command, "args": ["bob"]})
            assert reply["ok"] is False and "give an id" in reply["error"]
        muted = run_command(server.hub, {"command": "mute", "args": [second.welcome.player_id]})
        assert muted == {"ok": True, "result": [second.welcome.player_id]}
        assert server.hub.moderation.muted == {second.welcome.player_id}

    run(test)


# ---- item 12: X-Forwarded-For entries with a port -------------------------------------


@pytest.mark.parametrize(
    ("forwarded", "address"),
    [
        ("203.0.113.7:5678", "203.0.113.7"),
        ("198.51.100.1, 203.0.113.8:443", "203.0.113.8"),
        ("[2001:db8::7]:443", "2001:db8::7"),
        ("[2001:db8::8]", "2001:db8::8"),
    ],
)
def test_a_forwarded_address_with_a_port_counts_as_that_address(
    forwarded: str, address: str
) -> None:
    async def test(server: RunningServer) -> None:
        client = await _via(server, forwarded)
        assert isinstance(await _answer(client), m.Welcome)
        assert [conn.address for conn in server.hub.conns] == [address]

    run(test, trusted_proxies=PROXY)


def test_spades_serve_takes_the_share_options() -> None:
    config = serve_config(
        "--ipv6-share-prefix", "56", "--share-reserve", "0.1", "--actions-rate", "4"
    )
    assert (config.ipv6_share_prefix, config.share_reserve) == (56, 0.1)
    assert config.actions_per_second == 4.0 and config.address_messages_per_second is None
