"""Issue 25, the edge: half-open handshakes per address (7), HTTP answers and their log
lines (8), the admin socket and moderation files in a folder others can write (11), the
websocket's Origin and the Server header (12). Real sockets over loopback; other
127.0.0.x source addresses by binding the client socket (Linux)."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Iterator
from dataclasses import replace

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from protocol import messages as m
from server import RunningServer, start_server
from server.errors import ServerError, StartupError
from server.net.frontdoor import MAX_HEADER_BYTES, RefusalTally
from server.ops.admin_cli import admin_request
from server.ops.moderation import AdminError, Moderation
from tests.server.helpers import TEST_CONFIG, Client, run, serve_config


async def _until(check: object, polls: int = 400) -> bool:
    """Poll ``check()`` every 50 ms, at most ``polls`` times; whether it came true."""
    for _ in range(polls):
        if check():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.05)
    return False


async def _open_from(source: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def _ask(port: int, request: bytes) -> bytes:
    """Send ``request`` raw; everything the server answers until it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 20)
    finally:
        writer.close()


def _status(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert match is not None, answer[:80]
    return int(match.group(1))


# ---- 7: half-open handshakes ------------------------------------------------------------


def test_half_open_handshakes_are_capped_per_address_and_an_honest_player_gets_in() -> None:
    async def test(server: RunningServer) -> None:
        slow = []
        for _ in range(12):  # never finish their request
            reader, writer = await _open_from("127.0.0.2", server.port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            slow.append((reader, writer))
        # the cap holds 4; the other 8 are closed at once (the timeout is 60 s away)
        assert await _until(lambda: len(server.server.handlers) == 4)
        closed = 0
        for reader, _ in slow:
            try:
                data = await asyncio.wait_for(reader.read(), 0.2)
            except TimeoutError:
                continue
            closed += data == b""
        assert closed == 8
        # another address still has its own 4, and an honest player gets in beside them
        other = [await _open_from("127.0.0.3", server.port) for _ in range(4)]
        for _, writer in other:
            writer.write(b"GET / HTTP/1.1\r\n")
        assert await _until(lambda: len(server.server.handlers) == 8)
        honest = await Client.hello(server.url, "honest")
        assert (await honest.request(m.Ping(nonce=7), m.Pong)).nonce == 7
        for _, writer in slow + other:
            writer.close()

    run(test, handshake_timeout=60, max_half_open_per_address=4)


def test_request_headers_past_the_byte_bound_get_431_and_are_not_kept() -> None:
    async def test(server: RunningServer) -> None:
        # four lines of 6 KB: each under the library's 8 KiB line limit, 24 KB in all
        headers = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"a" * 6000) for i in range(4))
        answer = await _ask(server.port, b"GET / HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
        assert _status(answer) == 431
        assert MAX_HEADER_BYTES < 4 * 6000
        # an honest request of ordinary size is served
        assert _status(await _ask(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) == 200

    run(test)


# ---- 8: HTTP answers and log lines ------------------------------------------------------


def test_head_is_answered_other_methods_get_405_and_http_1_0_gets_400() -> None:
    async def test(server: RunningServer) -> None:
        head = await _ask(server.port, b"HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _status(head) == 200
        top, _, body = head.partition(b"\r\n\r\n")
        assert body == b"" and b"Content-Length: " in top
        page = await _ask(server.port, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _status(page) == 200 and page.endswith(b"\r\n\r\n")
        for method in (b"POST", b"OPTIONS", b"PUT", b"DELETE"):
            answer = await _ask(server.port, method + b" / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _status(answer) == 405
            assert b"Allow: GET, HEAD" in answer
        assert _status(await _ask(server.port, b"GET / HTTP/1.0\r\n\r\n")) == 400
        assert _status(await _ask(server.port, b"\x16\x03\x01 junk\r\n\r\n")) == 400

    run(test)


def test_refused_requests_log_no_error_and_a_counted_line_at_most_per_second(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def test(server: RunningServer) -> None:
        caplog.set_level(logging.INFO)
        requests = [b"HEAD / HTTP/1.0\r\n\r\n", b"POST / HTTP/1.1\r\n\r\n", b"nonsense\r\n\r\n"]
        for i in range(30):
            await _ask(server.port, requests[i % 3])
        for _ in range(10):  # pages served: no line at INFO
            assert _status(await _ask(server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")) == 200

        def refused() -> int:
            found = (
                re.match(r"handshakes refused: (\d+)", record.getMessage())
                for record in caplog.records
            )
            return sum(int(match.group(1)) for match in found if match)

        assert await _until(lambda: refused() == 30)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not [r for r in caplog.records if "connection rejected" in r.getMessage()]
        lines = [r for r in caplog.records if "handshakes refused" in r.getMessage()]
        assert len(lines) < 30  # counted together, not one line each

    run(test)


def test_the_refusal_tally_writes_at_most_one_line_a_second() -> None:
    clock = [100.0]
    logger = logging.getLogger("test.tally")
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    logger.addHandler(handler)
    try:
        tally = RefusalTally(logger, interval=1.0, now=lambda: clock[0])
        for step in range(300):  # 300 refusals over 2.99 s
            clock[0] = 100.0 + step / 100
            tally.note("HTTP 400" if step % 2 else "HTTP 405")
        tally.flush()
    finally:
        logger.removeHandler(handler)
    counts = [int(re.match(r"handshakes refused: (\d+)", line).group(1)) for line in seen]  # type: ignore[union-attr]
    assert sum(counts) == 300
    assert len(seen) == 4  # at 100.0, 101.0, 102.0, and the rest at the end
    assert "HTTP 400: " in seen[1] and "HTTP 405: " in seen[1]


# ---- 11: the admin socket and the moderation files --------------------------------------


@pytest.fixture
def folder() -> Iterator[str]:
    """A short private folder (a unix socket path has at most 107 bytes)."""
    path = tempfile.mkdtemp(prefix="sph", dir="/tmp")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_a_store_in_a_folder_others_can_write_is_refused_at_start(folder: str) -> None:
    shared = os.path.join(folder, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o1777)  # like /tmp: every user may add a name here

    async def main() -> None:
        config = replace(TEST_CONFIG, db_path=os.path.join(shared, "s.db"))
        with pytest.raises(StartupError, match="writable by every user"):
            running = await start_server(config)
            await running.close()
        assert not os.path.exists(os.path.join(shared, "s.db.admin"))

    asyncio.run(main())


def test_moderation_files_are_never_written_or_read_through_a_link(folder: str) -> None:
    victim = os.path.join(folder, "victim.txt")
    with open(victim, "w") as file:
        file.write("precious\n")
    path = os.path.join(folder, "s.db.moderation.json")
    moderation = Moderation(path)
    # links planted where the files (and the old fixed temporary name) go
    os.symlink(victim, path + ".tmp")
    os.symlink(victim, os.path.join(folder, "s.db.reports.jsonl"))
    moderation.ban("name", "mallory")
    moderation.report({"from": "p1", "text": "rude"})
    with open(victim) as file:
        assert file.read() == "precious\n"
    assert not os.path.islink(path)
    with open(path) as file:
        assert "mallory" in file.read()
    # a server starting over a planted link refuses to read it
    with pytest.raises(ServerError, match="reports file"):
        Moderation(path)


def test_spades_admin_talks_only_to_a_socket_of_its_own_user(folder: str) -> None:
    db = os.path.join(folder, "s.db")

    async def test(server: RunningServer) -> None:
        path = server.admin_path
        assert path is not None
        assert await asyncio.to_thread(admin_request, path, "tables", []) == []
        stranger = 65534 if os.geteuid() != 65534 else 65533
        if os.geteuid() == 0:  # a socket another user made: hand ours to "nobody"
            os.chown(path, stranger, -1)
            refused = asyncio.to_thread(admin_request, path, "tables", [])
        else:  # the same check, for a user that cannot give files away
            refused = asyncio.to_thread(admin_request, path, "tables", [], 10.0, stranger)
        with pytest.raises(AdminError, match="not talking to it"):
            await refused

    run(test, db_path=db)


def test_spades_admin_refuses_what_is_not_a_socket(folder: str) -> None:
    path = os.path.join(folder, "fake.admin")
    with open(path, "w") as file:
        file.write("")
    with pytest.raises(AdminError, match="not a socket"):
        admin_request(path, "tables", [])
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:  # ours: connect fails
        sock.bind(os.path.join(folder, "quiet.admin"))
        with pytest.raises(AdminError, match="cannot reach"):
            admin_request(os.path.join(folder, "quiet.admin"), "tables", [], timeout=1.0)


# ---- 12: Origin and the Server header ---------------------------------------------------


def test_a_page_of_another_origin_cannot_open_a_game() -> None:
    async def test(server: RunningServer) -> None:
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url, origin="http://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        own = f"http://127.0.0.1:{server.port}"
        for origin in (own, "https://cards.example", None):
            ws = await connect(server.url, origin=origin)  # type: ignore[arg-type]
            await ws.close()

    run(test, allowed_origins=("https://cards.example",))


def test_allowed_origin_is_a_repeatable_option() -> None:
    config = serve_config(
        "--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example"
    )
    assert config.allowed_origins == ("https://a.example", "https://b.example")
    assert serve_config().allowed_origins == ()


def test_the_server_header_names_no_library_or_version() -> None:
    async def test(server: RunningServer) -> None:
        for request in (b"GET /healthz HTTP/1.1\r\n\r\n", b"GET /nothing HTTP/1.1\r\n\r\n"):
            answer = await _ask(server.port, request)
            headers = answer.partition(b"\r\n\r\n")[0]
            assert b"\r\nServer: spades\r\n" in headers + b"\r\n"
            assert b"websockets" not in answer and b"Python" not in answer
        ws = await connect(server.url)
        assert ws.response is not None and ws.response.headers["Server"] == "spades"
        await ws.close()

    run(test)
