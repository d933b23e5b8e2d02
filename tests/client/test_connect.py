"""Saying what is wrong: a client that cannot reach a Spades server says why, counts its
attempts and stops; TLS (wss://) against the real server hub behind a self-signed
certificate; no terminal, no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.server import serve

from client.model import ClientModel
from client.net import CONNECT_ATTEMPTS, Connection, describe_failure, ssl_context
from client.render import fragments_text, render_main, render_prompt
from engine import Phase
from protocol import messages as m
from server.app import Hub
from server.config import ServerConfig
from tests.client.helpers import advance_to, dealt, model_at


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run_until_stopped(connection: Connection) -> None:
    # the loop ends by itself once the client gives up (attempts are counted, not timed);
    # the timeout only guards the test run against a hang
    await asyncio.wait_for(connection.run(), 30)


def prompt(model: ClientModel) -> str:
    return fragments_text(render_prompt(model))


def test_a_refused_address_counts_its_attempts_and_stops() -> None:
    url = f"ws://127.0.0.1:{free_port()}/"
    model = ClientModel("alice", url=url)
    prompts: list[str] = []
    connection = Connection(url, model, retry_delays=(0.0,), ping_interval=None)
    connection.redraw = lambda: prompts.append(prompt(model))
    asyncio.run(run_until_stopped(connection))
    assert model.given_up
    assert "connection refused" in model.connect_error
    assert model.link.attempt == (CONNECT_ATTEMPTS, CONNECT_ATTEMPTS)
    assert any(
        f"Trying again (2 of {CONNECT_ATTEMPTS})" in text for text in prompts
    )  # a visible count
    assert not any("seat is held" in text for text in prompts)
    assert "Could not connect" in prompt(model)
    assert "Could not connect" in fragments_text(render_main(model))


def test_a_plain_http_server_is_not_a_spades_server() -> None:
    async def run() -> ClientModel:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        model = ClientModel("alice")
        async with server:
            connection = Connection(f"ws://127.0.0.1:{port}/", model, retry_delays=(0.0,))
            await run_until_stopped(connection)
        return model

    model = asyncio.run(run())
    assert model.given_up
    assert model.connect_error == "not a Spades server (it answered HTTP 404)"
    assert model.link.attempt[0] == 1  # no point in trying again


def test_a_websocket_server_speaking_something_else_is_not_a_spades_server() -> None:
    async def run() -> ClientModel:
        async def talk(websocket: object) -> None:
            await websocket.send(b"\x00\x01 not msgpack of ours")  # type: ignore[attr-defined]
            await asyncio.sleep(1)

        async with serve(talk, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            model = ClientModel("alice")
            await run_until_stopped(Connection(f"ws://127.0.0.1:{port}/", model))
        return model

    model = asyncio.run(run())
    assert model.given_up and "not a Spades server" in model.connect_error


def test_a_refused_protocol_version_stops_the_client() -> None:
    model = ClientModel("alice")
    model.handle(
        m.ErrorMessage(code="unsupported_version", message="protocol version 9 is not supported")
    )
    assert model.given_up
    assert "protocol version" in model.connect_error


def test_unknown_host_and_tls_failures_are_named_and_not_retried() -> None:
    text, retry = describe_failure(socket.gaierror(-2, "Name or service not known"), "ws://nohost/")
    assert text == "unknown host 'nohost'" and not retry
    text, retry = describe_failure(ssl.SSLError(1, "bad record"), "wss://h/")
    assert text.startswith("TLS error") and not retry
    text, retry = describe_failure(ConnectionRefusedError(111, "refused"), "ws://h:1/")
    assert "refused" in text and retry


def test_seat_is_held_only_when_a_seat_is_held() -> None:
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    model.connection_lost()
    assert "your seat is held" in prompt(model)
    lobby = ClientModel("alice")
    welcome = m.Welcome(
        protocol_version=1,
        server_versions=(1,),
        player_id="p1",
        name="alice",
        token="tok",
        resumed=False,
        tables=(),
    )
    lobby.handle(welcome)  # welcomed once, at no table
    lobby.connection_lost()
    assert "Connection lost" in prompt(lobby) and "seat is held" not in prompt(lobby)


# ---- TLS ------------------------------------------------------------------------------


def self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


async def tls_hub(cert: Path, key: Path) -> tuple[Hub, object, int]:
    """The real server's hub, served over TLS on a loopback port."""
    hub = Hub(ServerConfig(host="127.0.0.1", port=0, db_path=":memory:", bot_workers=0))
    hub.load()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = await serve(
        hub.handler, "127.0.0.1", 0, process_request=hub.process_request, ssl=context
    )
    port = next(iter(server.sockets)).getsockname()[1]
    return hub, server, int(port)


def test_wss_with_a_cafile_reaches_the_server_and_without_it_says_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)

    async def run() -> tuple[ClientModel, ClientModel]:
        hub, server, port = await tls_hub(cert, key)
        url = f"wss://127.0.0.1:{port}/"
        trusted = ClientModel("alice")
        connection = Connection(url, trusted, ssl=ssl_context(url, str(cert)))
        task = asyncio.create_task(connection.run())
        try:
            for _ in range(500):  # bounded by count: a welcome over TLS arrives
                if trusted.token is not None:
                    break
                await asyncio.sleep(0.01)
        finally:
            await connection.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        stranger = ClientModel("bob")
        await run_until_stopped(
            Connection(url, stranger, ssl=ssl_context(url), retry_delays=(0.0,))
        )
        server.close()  # type: ignore[attr-defined]
        await server.wait_closed()  # type: ignore[attr-defined]
        hub.close()
        return trusted, stranger

    trusted, stranger = asyncio.run(run())
    assert trusted.token is not None and trusted.welcomed_once
    assert stranger.given_up
    assert stranger.connect_error.startswith("TLS error")
    assert "--cafile" in stranger.connect_error


def test_ssl_context_is_only_for_wss(tmp_path: Path) -> None:
    assert ssl_context("ws://127.0.0.1:1/") is None
    assert isinstance(ssl_context("wss://127.0.0.1:1/"), ssl.SSLContext)
    with pytest.raises(ValueError):
        ssl_context("ws://127.0.0.1:1/", str(tmp_path / "ca.pem"))


# ---- no terminal ----------------------------------------------------------------------


@pytest.mark.parametrize("argv", [[], ["play", "ws://127.0.0.1:1/"]])
def test_without_a_terminal_one_line_and_no_traceback(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "client.cli", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs an interactive terminal" in lines[0]


def test_a_hello_refused_before_any_welcome_stops_the_client() -> None:
    """A server of another version that rejects our hello says so, instead of leaving
    the client on "Connecting…" for ever."""

    async def run() -> ClientModel:
        async def refuse(websocket: object) -> None:
            from protocol.codec import encode

            await websocket.recv()  # type: ignore[attr-defined]
            refusal = m.ErrorMessage(
                code="bad_message", message="hello.protocol_minor: Extra inputs", request="hello"
            )
            await websocket.send(encode(refusal))  # type: ignore[attr-defined]
            await asyncio.sleep(1)

        async with serve(refuse, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            model = ClientModel("alice")
            await run_until_stopped(Connection(f"ws://127.0.0.1:{port}/", model))
        return model

    model = asyncio.run(run())
    assert model.given_up
    assert model.connect_error == "the server refused our hello: hello.protocol_minor: Extra inputs"


def test_a_forgotten_session_starts_anew_without_an_error_on_screen() -> None:
    """A spectator's session is not stored (the server keeps only players who sat down):
    after a server restart its token gets ``bad_token``. The client starts a new session
    by itself, so the player sees a plain note, not a refusal it can do nothing about."""
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0), seat=None)
    model.connection_lost()
    model.handle(
        m.ErrorMessage(
            code="bad_token",
            message="this token is not known here; say hello without one",
            request="hello",
        )
    )
    hello = model.sent[-1]
    assert isinstance(hello, m.Hello) and hello.token is None
    assert "bad_token" not in model.flash and "not known" not in model.flash
    assert not any("token" in line for line in model.log)
    assert model.log[-1] == "The server did not know our session: starting a new one."
