"""Moderation against a real server: ``spades admin`` requests over its unix socket."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect as websockets_connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES
from server import RunningServer, start_server
from server.admin import AdminError, Moderation, admin_request, is_report
from server.errors import ServerError
from server.logs import configure_logging
from tests.server.helpers import FAST, TEST_CONFIG, Client, run, two_players


@pytest.fixture
def db() -> Iterator[str]:
    """A store path in a short folder (a unix socket path has at most 107 bytes)."""
    folder = tempfile.mkdtemp(prefix="spo", dir="/tmp")
    try:
        yield os.path.join(folder, "s.db")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def admin(server: RunningServer, command: str, *args: str) -> Any:
    assert server.admin_path is not None
    return await asyncio.to_thread(admin_request, server.admin_path, command, list(args))


async def closed(client: Client) -> tuple[int | None, str | None]:
    """Wait until the server closes ``client``; its close code and reason."""
    while True:
        try:
            await client.recv(10.0)
        except ConnectionError:
            return client.ws.close_code, client.ws.close_reason


async def pinged(client: Client) -> list[m.ServerMessage]:
    """Everything ``client`` got before the answer to a fresh ping (it is all in by then)."""
    await client.send(m.Ping(nonce=77, id=9999))
    seen: list[m.ServerMessage] = []
    while True:
        message = await client.recv()
        if isinstance(message, m.Pong) and message.id == 9999:
            return seen
        seen.append(message)


def test_admin_socket_is_beside_the_store_and_private(db: str) -> None:
    async def test(server: RunningServer) -> None:
        assert server.admin_path == db + ".admin"
        mode = os.stat(db + ".admin").st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
        with pytest.raises(AdminError, match="unknown command"):
            await asyncio.to_thread(admin_request, db + ".admin", "reboot", [])
        with pytest.raises(AdminError, match="usage: close CODE"):
            await admin(server, "close")
        with pytest.raises(AdminError, match="no table"):
            await admin(server, "close", "NOSUCHTB")

    run(test, db_path=db)
    assert not os.path.exists(db + ".admin")  # removed at close
    with pytest.raises(AdminError, match="cannot reach"):
        admin_request(db + ".admin", "tables", [])


def test_an_in_memory_server_has_no_admin_socket() -> None:
    async def test(server: RunningServer) -> None:
        assert server.admin_path is None and server.admin_server is None

    run(test)


def test_admin_lists_tables_and_players(db: str) -> None:
    async def test(server: RunningServer) -> None:
        _, bob, code = await two_players(server)
        carol = await Client.hello(server.url, "carol")
        snap = await carol.request(
            m.CreateTable(preset="classic", overrides=FAST, bot="easy", seat=1), m.Snapshot
        )
        tables = {table["code"]: table for table in await admin(server, "tables")}
        assert set(tables) == {code, snap.table.code}
        assert [seat["name"] for seat in tables[code]["seats"]] == ["alice", "bob"]
        assert tables[code]["status"] == "playing"
        bot_seat, carol_seat = tables[snap.table.code]["seats"]  # carol asked for seat 1
        assert bot_seat["kind"] == "bot" and bot_seat["level"] == "easy"
        assert carol_seat["name"] == "carol" and carol_seat["connected"]
        players = {player["name"]: player for player in await admin(server, "players")}
        assert set(players) == {"alice", "bob", "carol"}
        assert players["alice"]["tables"] == [code]
        assert players["carol"]["address"] == "127.0.0.1"
        assert players["bob"]["id"] == bob.welcome.player_id if bob.welcome else False
        assert not players["bob"]["muted"]

    run(test, db_path=db)


def test_admin_closes_a_table(db: str) -> None:
    async def test(server: RunningServer) -> None:
        alice, bob, code = await two_players(server)
        assert await admin(server, "close", code.lower()) == code
        for client in (alice, bob):
            left = await client.expect(m.Left)
            assert left.table == code
        await alice.error(m.JoinTable(code=code), "unknown_table")
        assert await admin(server, "tables") == []

    run(test, db_path=db)


def test_admin_kicks_a_player_whose_seat_is_then_held(db: str) -> None:
    async def test(server: RunningServer) -> None:
        alice, bob, _ = await two_players(server)
        assert bob.welcome is not None
        assert await admin(server, "kick", "BOB") == [bob.welcome.player_id]
        assert await closed(bob) == (4003, "removed by the host")
        update = await alice.expect(m.TableUpdate, lambda u: u.table.seats[1].connected is False)
        assert update.table.seats[1].name == "bob"
        # a kick is not a ban: bob comes back with his token
        again = await Client.hello(server.url, "bob", token=bob.token)
        assert again.welcome is not None and again.welcome.resumed
        with pytest.raises(AdminError, match="no player"):
            await admin(server, "kick", "nobody")

    run(test, db_path=db)


def test_admin_bans_a_name_and_an_address_and_the_bans_survive_a_restart(db: str) -> None:
    async def test() -> None:
        config = replace(TEST_CONFIG, db_path=db)
        server = await start_server(config)
        try:
            alice, bob, _ = await two_players(server)
            mallory = await Client.hello(server.url, "Mallory")
            result = await admin(server, "ban", "name", "mallory")
            assert result == {"banned": "mallory", "kind": "name", "connections_dropped": 1}
            error = await mallory.expect(m.ErrorMessage)
            assert error.code == "banned"
            assert await closed(mallory) == (1008, "banned")
            # at hello, whatever the case
            fresh = await Client.open(server.url)
            await fresh.send(m.Hello(protocol_version=1, name="MALLORY", id=5))
            refused = await fresh.expect(m.ErrorMessage)
            assert (refused.code, refused.id, refused.request) == ("banned", 5, "hello")
            assert await closed(fresh) == (1008, "banned")
            # a banned name cannot come back under another one with its token
            await admin(server, "ban", "name", "bob")
            assert (await bob.expect(m.ErrorMessage)).code == "banned"
            sneaky = await Client.open(server.url)
            await sneaky.send(m.Hello(protocol_version=1, name="robert", token=bob.token))
            assert (await sneaky.expect(m.ErrorMessage)).code == "banned"
            # a player who never sat down is forgotten with her dropped connection
            eve = await Client.hello(server.url, "eve")
            await admin(server, "ban", "name", "EVE")
            assert (await eve.expect(m.ErrorMessage)).code == "banned"
            back = await Client.open(server.url)
            await back.send(m.Hello(protocol_version=1, name="evelyn", token=eve.token))
            assert (await back.expect(m.ErrorMessage)).code == "bad_token"
            # alice is untouched
            await alice.request(m.Ping(nonce=1), m.Pong)
            bans = await admin(server, "bans")
            assert bans == {"names": ["bob", "eve", "mallory"], "addresses": []}
        finally:
            await server.close()
        moderation = Path(db + ".moderation.json")
        assert stat.S_IMODE(moderation.stat().st_mode) == 0o600
        server = await start_server(config)  # the bans were kept
        try:
            again = await Client.open(server.url)
            await again.send(m.Hello(protocol_version=1, name="mallory"))
            assert (await again.expect(m.ErrorMessage)).code == "banned"
            assert await admin(server, "unban", "name", "mallory") is True
            assert await admin(server, "unban", "name", "mallory") is False
            welcomed = await Client.hello(server.url, "mallory")
            assert welcomed.welcome is not None
            # an address (here a network): dropped at once, refused at connect
            result = await admin(server, "ban", "address", "127.0.0.0/8")
            assert result["banned"] == "127.0.0.0/8" and result["connections_dropped"] == 1
            assert (await welcomed.expect(m.ErrorMessage)).code == "banned"
            refused_at_connect = await Client.open(server.url)
            error = await refused_at_connect.expect(m.ErrorMessage)
            assert error.code == "banned" and error.request is None
            assert await closed(refused_at_connect) == (1008, "banned")
            with pytest.raises(AdminError, match="not an IP address"):
                await admin(server, "ban", "address", "example.org")
        finally:
            await server.close()
        server = await start_server(config)
        try:
            refused = await Client.open(server.url)
            assert (await refused.expect(m.ErrorMessage)).code == "banned"
            await admin(server, "unban", "address", "127.0.0.1/8")
            assert (await Client.hello(server.url, "zed")).welcome is not None
        finally:
            await server.close()

    asyncio.run(asyncio.wait_for(test(), 60))


def test_admin_mutes_a_players_chat(db: str) -> None:
    async def test(server: RunningServer) -> None:
        alice, bob, code = await two_players(server)
        assert bob.welcome is not None
        assert await admin(server, "mute", "bob") == [bob.welcome.player_id]
        await bob.error(m.Chat(code=code, text="you are all terrible"), "muted")
        await alice.send(m.Chat(code=code, text="hello bob"))
        heard = await bob.expect(m.ChatMessage)
        assert heard.text == "hello bob"
        heard_by_alice = await pinged(alice)
        assert not [x for x in heard_by_alice if isinstance(x, m.ChatMessage) and x.name == "bob"]
        players = {p["name"]: p for p in await admin(server, "players")}
        assert players["bob"]["muted"]
        await admin(server, "unmute", bob.welcome.player_id)
        await bob.send(m.Chat(code=code, text="sorry"))
        said = await alice.expect(m.ChatMessage)
        assert (said.name, said.text) == ("bob", "sorry")

    run(test, db_path=db)


def test_a_report_goes_to_the_host_not_the_table(db: str) -> None:
    stream = io.StringIO()

    async def test(server: RunningServer) -> None:
        alice, bob, code = await two_players(server)
        assert alice.welcome is not None and bob.welcome is not None
        await bob.send(m.Chat(code=code, text="you play like a potato"))
        await alice.expect(m.ChatMessage)
        await alice.send(m.Chat(code=code, text="/report insults at every trick"))
        ack = await alice.expect(m.ChatMessage)
        assert (ack.seat, ack.name) == (None, "server") and "report" in ack.text
        heard_by_bob = [x for x in await pinged(bob) if isinstance(x, m.ChatMessage)]
        assert [x.text for x in heard_by_bob] == ["you play like a potato"]  # his own echo
        reports = await admin(server, "reports")
        assert len(reports) == 1
        report = reports[0]
        assert report["table"] == code
        assert (report["reporter"], report["reporter_name"]) == (alice.welcome.player_id, "alice")
        assert (report["reported"], report["reported_name"]) == (bob.welcome.player_id, "bob")
        assert report["text"] == "insults at every trick"
        assert report["recent_chat"] == ["bob: you play like a potato"]

    root, library = logging.getLogger(), logging.getLogger("websockets")
    handlers, levels = list(root.handlers), (root.level, library.level)
    try:
        configure_logging("json", "INFO", stream)
        run(test, db_path=db)
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(levels[0])
        library.setLevel(levels[1])
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    logged = [line for line in lines if line["event"] == "report"]
    assert len(logged) == 1
    assert logged[0]["reported_name"] == "bob" and logged[0]["text"] == "insults at every trick"
    assert logged[0]["recent_chat"] == ["bob: you play like a potato"]
    assert logged[0]["level"] == "warning"


def test_the_spades_admin_command_talks_to_a_running_server(db: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    server = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", "0", "--db", db, "--bot-workers", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[-1]
        assert url.startswith("ws://127.0.0.1:")

        async def seat_someone() -> str:
            client = await Client.hello(url, "dora")
            snap = await client.request(
                m.CreateTable(preset="classic", overrides=FAST, bot="easy", seat=1), m.Snapshot
            )

            def spades_admin(*args: str) -> subprocess.CompletedProcess[str]:
                command = [sys.executable, "-m", "client.cli", "admin", "--db", db, *args]
                return subprocess.run(command, capture_output=True, text=True, env=env, timeout=30)

            listed = await asyncio.to_thread(spades_admin, "tables")
            assert listed.returncode == 0, listed.stderr
            assert snap.table.code in listed.stdout and "vs dora" in listed.stdout
            people = await asyncio.to_thread(spades_admin, "--json", "players")
            assert [p["name"] for p in json.loads(people.stdout)] == ["dora"]
            wrong = await asyncio.to_thread(spades_admin, "close", "NOSUCHTB")
            assert wrong.returncode == 1 and "no table" in wrong.stderr
            await client.close()
            return snap.table.code

        asyncio.run(asyncio.wait_for(seat_someone(), 60))
    finally:
        server.terminate()
        server.wait(10)
    nobody = subprocess.run(
        [sys.executable, "-m", "client.cli", "admin", "--db", db, "tables"],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert nobody.returncode == 1 and "cannot reach" in nobody.stderr


def test_reports_are_limited_and_kept_across_a_restart(db: str) -> None:
    async def test() -> None:
        config = replace(TEST_CONFIG, db_path=db)
        server = await start_server(config)
        try:
            alice, _, code = await two_players(server)
            await alice.send(m.Chat(code=code, text="/report first"))
            assert (await alice.expect(m.ChatMessage)).name == "server"
            await alice.error(m.Chat(code=code, text="/REPORT again at once"), "rate_limited")
        finally:
            await server.close()
        assert stat.S_IMODE(os.stat(db + ".reports.jsonl").st_mode) == 0o600
        server = await start_server(config)
        try:
            reports = await admin(server, "reports")
            assert [report["text"] for report in reports] == ["first"]
        finally:
            await server.close()

    asyncio.run(asyncio.wait_for(test(), 60))


def test_a_second_server_on_the_same_store_does_not_take_the_admin_socket(db: str) -> None:
    async def test(server: RunningServer) -> None:
        other = await start_server(replace(server.hub.config, db_path=db))
        try:
            assert other.admin_path is None  # the first one keeps answering
            assert await admin(server, "tables") == []
        finally:
            await other.close()
        assert os.path.exists(db + ".admin")
        with pytest.raises(ServerError, match="another server"):
            await start_server(replace(server.hub.config, admin_socket=db + ".admin"))

    run(test, db_path=db)


def test_a_default_admin_socket_path_that_cannot_be_used_does_not_stop_the_server() -> None:
    folder = tempfile.mkdtemp(prefix="spo", dir="/tmp")
    deep = os.path.join(folder, "d" * 100)  # a unix socket path has at most 107 bytes
    os.makedirs(deep)
    try:

        async def test(server: RunningServer) -> None:
            assert server.admin_path is None
            assert (await Client.hello(server.url, "ann")).welcome is not None

        run(test, db_path=os.path.join(deep, "s.db"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_an_address_ban_behind_a_trusted_proxy_bans_the_forwarded_client(db: str) -> None:
    async def connect(url: str, forwarded: str) -> Client:
        ws = await websockets_connect(
            url,
            additional_headers={"X-Forwarded-For": forwarded},
            max_size=MAX_SERVER_MESSAGE_BYTES,
            compression=None,
        )
        return Client(ws)

    async def test(server: RunningServer) -> None:
        await admin(server, "ban", "address", "203.0.113.0/24")
        banned = await connect(server.url, "203.0.113.9")
        assert (await banned.expect(m.ErrorMessage)).code == "banned"
        assert await closed(banned) == (1008, "banned")
        welcome = await connect(server.url, "198.51.100.1")
        await welcome.send(m.Hello(protocol_version=1, name="fine"))
        assert (await welcome.expect(m.Welcome)).name == "fine"
        players = await admin(server, "players")
        assert [p["address"] for p in players] == ["198.51.100.1"]

    run(test, db_path=db, trusted_proxies=("127.0.0.1",))


def test_moderation_matches_networks_and_keeps_the_newest_reports(db: str) -> None:
    moderation = Moderation(db + ".moderation.json")
    moderation.ban("address", "2001:db8::/32")
    moderation.ban("address", "192.0.2.7")
    assert moderation.address_banned("192.0.2.7")
    assert moderation.address_banned("::ffff:192.0.2.7")  # an IPv4 peer on a v6 socket
    assert moderation.address_banned("2001:db8::1")
    assert not moderation.address_banned("192.0.2.8")
    assert not moderation.address_banned("?")
    for number in range(2001):  # past twice the kept count, the file is cut back
        moderation.report({"text": str(number)})
    lines = Path(db + ".reports.jsonl").read_text().splitlines()
    assert len(lines) == 1000 and json.loads(lines[-1]) == {"text": "2000"}
    again = Moderation(db + ".moderation.json")
    assert again.address_banned("192.0.2.7")
    assert [report["text"] for report in again.reports] == [str(n) for n in range(1001, 2001)]
    assert is_report("/report he cheats") and is_report("/REPORT") and not is_report("/reports")
    assert moderation.may_report("p1", 100.0) and not moderation.may_report("p1", 129.0)
    assert moderation.may_report("p1", 130.5)
