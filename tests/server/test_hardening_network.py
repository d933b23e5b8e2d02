"""One connection must not exhaust the server: ping floods, readers that never read,
half-open handshakes, and one log line per failure. Real websockets over loopback."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket

import msgpack
import pytest

from protocol import messages as m
from protocol.codec import encode
from server import RunningServer
from server.net.guard import FD_RESERVE, raise_fd_limit
from tests.server.helpers import Client, run


async def _until(check: object, polls: int = 400) -> bool:
    """Poll ``check()`` every 50 ms, at most ``polls`` times; whether it came true."""
    for _ in range(polls):
        if check():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.05)
    return False


def test_a_ping_flood_that_never_reads_is_dropped_and_honest_pings_go_on() -> None:
    async def test(server: RunningServer) -> None:
        honest = await Client.hello(server.url, "honest")
        flooder = await Client.hello(server.url, "flooder")
        flooder.ws.transport.pause_reading()  # it never reads a pong
        sent = 0
        while sent < 60_000 and len(server.server.handlers) == 2:
            for _ in range(100):  # websocket ping frames, below the application's limits
                flooder.ws.protocol.send_ping(b"x" * 125)
            sent += 100
            with contextlib.suppress(OSError):
                flooder.ws.send_data()
            await asyncio.sleep(0.005)
        # dropped within its ping budget, long before the pongs could pile up
        assert sent <= 1_000
        assert await _until(lambda: len(server.server.handlers) == 1)
        for nonce in range(20):
            assert (await honest.request(m.Ping(nonce=nonce), m.Pong)).nonce == nonce
        flooder.ws.transport.abort()

    run(test)


def test_a_reader_that_never_reads_is_dropped_when_its_output_stalls() -> None:
    # a byte bound far away: the stall itself must end the connection (keep-alive alone
    # waits for the buffer to drain before it pings, and so never times this peer out)
    async def test(server: RunningServer) -> None:
        reader = await Client.hello(server.url, "sleepy")
        snap = await reader.request(m.CreateTable(), m.Snapshot)
        (conn,) = server.hub.conns
        # small socket buffers on both ends (a slow link): the output waits in the server
        sock = conn.ws.transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        reader.ws.transport.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_RCVBUF, 4096
        )
        reader.ws.transport.pause_reading()
        request = encode(m.WatchTable(code=snap.table.code))
        for _ in range(2000):
            reader.ws.protocol.send_binary(request)
        reader.ws.send_data()
        assert await _until(lambda: conn.ws.transport.get_write_buffer_size() > 256 * 1024)
        assert await _until(lambda: len(server.hub.conns) == 0, polls=600)
        reader.ws.transport.abort()

    run(
        test,
        send_buffer_bytes=512 * 1024 * 1024,
        send_queue_limit=1_000_000,
        rate_burst=1_000_000,
        ping_interval=1.0,
        ping_timeout=1.0,
    )


def test_unread_output_past_the_byte_bound_drops_the_connection() -> None:
    async def test(server: RunningServer) -> None:
        reader = await Client.hello(server.url, "slow")
        snap = await reader.request(m.CreateTable(), m.Snapshot)
        reader.ws.transport.pause_reading()
        request = encode(m.WatchTable(code=snap.table.code))
        for _ in range(30):
            for _ in range(1000):
                reader.ws.protocol.send_binary(request)
            reader.ws.send_data()
            await asyncio.sleep(0.05)
            if not server.hub.conns:
                break
        assert await _until(lambda: len(server.hub.conns) == 0)
        reader.ws.transport.abort()

    run(
        test,
        send_buffer_bytes=64 * 1024,
        rate_burst=1_000_000,
        send_queue_limit=1_000_000,
        ping_interval=60,
        ping_timeout=60,
    )


def test_half_open_and_broken_handshakes_are_dropped_with_at_most_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def test(server: RunningServer) -> None:
        caplog.set_level(logging.INFO)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finishes its request
        assert await asyncio.wait_for(reader.read(100), 20) == b""  # the server hung up
        writer.close()
        broken = 0
        for garbage in (b"NOT HTTP AT ALL\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\n"):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(garbage)
            await writer.drain()
            if garbage.startswith(b"GET"):
                writer.write_eof()  # the peer gives up mid-handshake
            await asyncio.wait_for(reader.read(), 20)
            writer.close()
            broken += 1
        assert await _until(lambda: len(server.server.handlers) == 0)
        lines = [r for r in caplog.records if "handshake" in r.getMessage()]
        assert 1 <= len(lines) <= broken
        for line in lines:
            assert line.exc_info is None and "\n" not in line.getMessage()

    run(test, handshake_timeout=0.5)


def _strings(value: object) -> list[str]:
    """Every string inside a decoded msgpack value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for key, item in value.items() for t in _strings(key) + _strings(item)]
    if isinstance(value, list | tuple):
        return [t for item in value for t in _strings(item)]
    return []


def test_chat_that_would_forge_a_line_is_refused_and_reaches_nobody() -> None:
    async def test(server: RunningServer) -> None:
        alice = await Client.hello(server.url, "alice")
        snap = await alice.request(m.CreateTable(), m.Snapshot)
        code = snap.table.code
        bob = await Client.hello(server.url, "bob")
        await bob.request(m.JoinTable(code=code), m.Snapshot)
        for text in ("gg\nSERVER: opponent left; you win", "\x1b]0;x\x07", "a\u202eb"):
            reply = await alice.error(m.Chat(code=code, text=text), "bad_message")
            assert "U+" in reply.message
        await alice.request(m.Ping(nonce=1), m.Pong)
        said = await alice.send(m.Chat(code=code, text="  well played  "))
        assert said is None
        heard = await bob.expect(m.ChatMessage)
        assert heard.text == "well played"  # the first chat bob hears: nothing forged
        # every string in every frame bob got (the raw bytes may hold 0x1b inside a number)
        heard_texts = [text for frame in bob.raw for text in _strings(msgpack.unpackb(frame))]
        assert heard_texts and not any("\x1b" in t or "SERVER" in t for t in heard_texts)

    run(test)


def test_invisible_or_impersonating_names_are_refused_at_hello() -> None:
    async def test(server: RunningServer) -> None:
        for name in (
            "\u3164",
            "\u2800\u2800",
            "You",
            "Bot",
            "e\u0301\u0301\u0301\u0301",
            "a\u200bb",
        ):
            client = await Client.open(server.url)
            await client.error(m.Hello(protocol_version=1, name=name), "bad_name")
            await client.close()
        ok = await Client.hello(server.url, "  Zoë   Q ")
        assert ok.welcome is not None and ok.welcome.name == "Zoë Q"

    run(test)


def test_connections_are_shed_before_the_open_file_limit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def test(server: RunningServer) -> None:
        caplog.set_level(logging.INFO)
        # three half-open handshakes take every descriptor the server may spend on peers
        half_open = []
        for _ in range(3):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET / HTTP/1.1\r\n")
            half_open.append((reader, writer))
        assert await _until(lambda: len(server.server.handlers) == 3)
        # the next one is shed at once (long before the 30 s handshake timeout)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
        shed = [r for r in caplog.records if "shed" in r.getMessage()]
        assert len(shed) == 1 and shed[0].exc_info is None
        # the half-open ones give up; then an honest player gets in
        for _, w in half_open:
            w.close()
        assert await _until(lambda: len(server.server.handlers) == 0)
        honest = await Client.hello(server.url, "honest")
        assert (await honest.request(m.Ping(nonce=2), m.Pong)).nonce == 2

    run(test, fd_limit=FD_RESERVE + 3, handshake_timeout=30)


def test_the_soft_open_file_limit_is_raised_to_the_hard_one() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if soft == hard:  # lower it first, so that there is something to raise
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(256, hard // 2), hard))
        limit = raise_fd_limit()
        now_soft, now_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert now_hard == hard
        expected = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        assert now_soft == expected and limit == expected
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
