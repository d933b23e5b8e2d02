"""Hostile and mistaken input: each gets its stable error code (or a clear close), and no
game changes."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import msgpack
import pytest

from protocol import messages as m
from server import RunningServer
from tests.server.helpers import Client, run, two_players


async def whose_turn(first: Client, second: Client, code: str) -> tuple[Client, Client, m.Snapshot]:
    snap = await first.snapshot(code)
    if snap.view.current_player == 0:
        return first, second, snap
    return second, first, await second.snapshot(code)


def test_every_bad_request_gets_its_error_and_changes_nothing() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        await first.expect(m.Events)
        await second.expect(m.Events)
        mover, waiter, snap = await whose_turn(first, second, code)
        before = (await first.snapshot(code), await second.snapshot(code))
        version = snap.view.version
        keep = m.KeepAction()

        # bytes that are not one valid message
        for data, readable in (
            (b"\xc1\xff\x00", None),
            (b"\x93\x01\x02\x03", None),
            (msgpack.packb({"type": "nope"}), "nope"),  # a readable type is echoed (1.1)
        ):
            await mover.send_raw(data)
            error = await mover.expect(m.ErrorMessage)
            assert error.code == "bad_message" and error.request == readable
        await mover.send_raw("a text frame")
        error = await mover.expect(m.ErrorMessage)
        assert error.code == "bad_message" and "binary" in error.message
        await mover.send_raw(msgpack.packb({"type": "action", "code": code, "id": 5}))
        error = await mover.expect(m.ErrorMessage)
        assert error.code == "bad_message"

        # requests the server refuses
        await mover.error(m.Hello(protocol_version=1, name="again"), "already_welcomed")
        await mover.error(m.JoinTable(code="ZZZZZZZZ"), "unknown_table")
        await mover.error(
            m.Act(code="ZZZZZZZZ", action=keep, version=version, seq=1), "unknown_table"
        )
        await waiter.error(m.Act(code=code, action=keep, version=version, seq=1), "not_your_turn")
        await mover.error(
            m.Act(code=code, action=keep, version=version - 1, seq=1), "stale_version"
        )
        await mover.error(
            m.Act(code=code, action=keep, version=version + 7, seq=1), "stale_version"
        )
        illegal = await mover.error(
            m.Act(code=code, action=m.PlayAction(card="AS"), version=version, seq=1),
            "illegal_action",
        )
        assert "draft" in illegal.message
        await mover.error(
            m.Act(code=code, action=m.BidAction(tricks=3), version=version, seq=1),
            "illegal_action",
        )
        stranger = await Client.hello(server.url, "mallory")
        await stranger.error(m.Act(code=code, action=keep, version=version, seq=1), "not_seated")
        await stranger.error(m.JoinTable(code=code), "table_full")
        await stranger.error(m.JoinTable(code=code, seat=0), "seat_taken")
        await stranger.error(m.AddBot(code=code, level="easy"), "not_seated")
        await stranger.error(m.Rematch(code=code), "not_seated")
        await stranger.error(m.Leave(code=code), "not_at_table")
        await stranger.error(m.Chat(code=code, text="hi"), "not_at_table")
        await mover.error(m.Chat(code=code, text="x" * 201), "chat_too_long")
        await mover.error(m.Rematch(code=code), "illegal_action")
        await mover.error(m.AddBot(code=code, level="easy"), "table_full")
        await mover.error(m.GetRecord(record_id="no-such-record"), "record_not_available")
        await stranger.error(m.CreateTable(preset="nonsense"), "bad_rules")
        await stranger.error(m.CreateTable(overrides={"target_score": -5}), "bad_rules")
        await stranger.error(m.CreateTable(overrides={"no_such_rule": 1}), "bad_rules")
        await stranger.error(m.CreateTable(overrides={"nil": "yes"}), "bad_rules")

        # the game is exactly as it was
        after = (await first.snapshot(code), await second.snapshot(code))
        assert [(s.table, s.view) for s in after] == [(s.table, s.view) for s in before]

        # an action resent with the same seq is acknowledged again, not applied twice
        ack = await mover.request(m.Act(code=code, action=keep, version=version, seq=42), m.Ack)
        assert ack.version == version + 1
        again = await mover.request(m.Act(code=code, action=keep, version=version, seq=42), m.Ack)
        assert again.version == ack.version
        snap = await mover.snapshot(code)
        assert snap.view.version == version + 1 and snap.view.draft_turns == (
            (1, 0) if mover is first else (0, 1)
        )

    run(test)


def test_connection_level_errors() -> None:
    async def test(server: RunningServer) -> None:
        fresh = await Client.open(server.url)
        await fresh.error(m.ListTables(), "hello_first")
        error = await fresh.error(m.Hello(protocol_version=2, name="x"), "unsupported_version")
        assert "1" in error.message
        await fresh.error(m.Hello(protocol_version=1, name="x", token="A" * 43), "bad_token")
        await fresh.error(m.Hello(protocol_version=1, name="\x07\x08"), "bad_name")
        # the connection still works after all that
        await fresh.send(m.Hello(protocol_version=1, name="x"))
        await fresh.expect(m.Welcome)
        pong = await fresh.request(m.Ping(nonce=7), m.Pong)
        assert pong.nonce == 7

        # a frame over the limit closes the connection with 1009
        big = await Client.hello(server.url, "big")
        await big.send_raw(b"\x00" * 5000)
        with pytest.raises(ConnectionError):
            await big.recv(5)
        assert big.ws.close_code == 1009

    run(test)


def test_a_flood_is_refused_then_closed() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "flood")
        for _ in range(40):
            await client.send(m.Ping())
        codes = []
        with pytest.raises(ConnectionError):
            while True:
                message = await client.recv(5)
                if isinstance(message, m.ErrorMessage):
                    codes.append(message.code)
        assert "rate_limited" in codes
        assert client.ws.close_code == 1008

    run(test, rate_messages_per_second=1.0, rate_burst=5, rate_close_after=5)


def test_chat_is_rate_limited_and_echoed() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        await first.send(m.Chat(code=code, text="  good luck  "))
        said = await second.expect(m.ChatMessage)
        assert said.text == "good luck" and said.seat == 0 and said.name == "alice"
        codes = []
        for _ in range(3):
            reply = await first.request(m.Chat(code=code, text="spam"), m.ErrorMessage)
            codes.append(reply.code)
        assert codes == ["rate_limited"] * 3

    run(test, chat_burst=1, chat_per_second=0.001)


def test_no_hello_in_time_closes_and_a_full_server_says_so() -> None:
    async def test(server: RunningServer) -> None:
        silent = await Client.open(server.url)
        with pytest.raises(ConnectionError):
            await silent.recv(5)
        assert silent.ws.close_code == 1008
        one = await Client.hello(server.url, "one")
        two = await Client.open(server.url)
        error = await two.expect(m.ErrorMessage)
        assert error.code == "server_full"
        with pytest.raises(ConnectionError):
            await two.recv(5)
        assert two.ws.close_code == 1013
        await one.close()

    run(test, hello_timeout=0.3, max_connections=1)


def test_healthz_and_plain_http() -> None:
    async def test(server: RunningServer) -> None:
        base = f"http://127.0.0.1:{server.port}"

        def get(path: str) -> tuple[int, str, str]:
            try:
                with urllib.request.urlopen(base + path, timeout=5) as response:
                    return (
                        response.status,
                        response.headers["Content-Type"],
                        response.read().decode(),
                    )
            except urllib.error.HTTPError as error:
                return error.code, error.headers["Content-Type"], error.read().decode()

        status, kind, body = await asyncio.to_thread(get, "/healthz")
        assert status == 200 and kind == "application/json"
        health = json.loads(body)
        assert {"tables", "players", "uptime"} <= set(health)
        status, kind, body = await asyncio.to_thread(get, "/")
        assert status == 200 and kind.startswith("text/html")  # the web client
        status, _, body = await asyncio.to_thread(get, "/nothing-here")
        assert status == 404 and "websocket" in body

    run(test)
