"""Issue 25 (hardening 3), item 7 and the hello flood: a socket past the address's
connection rate or its half-open bound is closed as it is accepted, before asyncio builds
a transport or websockets a protocol for it (server.net.listener).

Left to asyncio's server, every shed socket still cost a task, a transport, the library's
protocol and connection objects (some 110 us of the loop) before our first hook looked at
its address.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from asyncio import selector_events
from pathlib import Path
from typing import Any

import pytest
from websockets import server as ws_protocols
from websockets.asyncio.client import connect

from protocol import messages as m
from server import RunningServer
from server.net.listener import Listener
from tests.server.helpers import Client, run
from tests.server.test_hardening_tls import _self_signed
from tests.server.test_ops_metrics import scrape, value


class Built:
    """Counts the websockets protocols and asyncio socket transports built from now on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.protocols = 0
        self.transports = 0
        protocol_init = ws_protocols.ServerProtocol.__init__
        transport_init = selector_events._SelectorSocketTransport.__init__

        def protocol(this: Any, *args: Any, **kwargs: Any) -> None:
            self.protocols += 1
            protocol_init(this, *args, **kwargs)

        def transport(this: Any, *args: Any, **kwargs: Any) -> None:
            self.transports += 1
            transport_init(this, *args, **kwargs)

        monkeypatch.setattr(ws_protocols.ServerProtocol, "__init__", protocol)
        monkeypatch.setattr(selector_events._SelectorSocketTransport, "__init__", transport)


def _open_and_wait(port: int, source: str, count: int) -> list[bool]:
    """``count`` connections from ``source``, each sending half a request; for each,
    whether the server closed it at once (read EOF within 2 s). All closed at the end."""
    closed: list[bool] = []
    kept: list[socket.socket] = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            closed.append(sock.recv(1) == b"")
        except TimeoutError:
            closed.append(False)
        except (ConnectionResetError, BrokenPipeError):
            closed.append(True)
        kept.append(sock)
    for sock in kept:
        sock.close()
    return closed


def test_a_socket_past_the_connect_rate_gets_no_transport_and_no_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def test(server: RunningServer) -> None:
        built = Built(monkeypatch)
        closed = await asyncio.to_thread(_open_and_wait, server.port, "127.0.0.7", 12)
        assert closed == [False] * 3 + [True] * 9  # the burst of 3 kept, 9 shed
        assert built.protocols == 3 and built.transports == 3  # nothing for the 9
        assert server.admission is not None
        assert server.admission.shed["connect_rate"] == 9
        assert server.admission.rates.shed == 9
        honest = await Client.hello(server.url, "honest")  # another address: welcome
        assert (await honest.request(m.Ping(nonce=3), m.Pong)).nonce == 3
        assert built.protocols == 4  # (the client in this process built a transport too)
        await honest.close()

    run(
        test,
        connects_per_second_per_address=0.01,
        connects_burst_per_address=3,
        handshake_timeout=60,
    )


def test_a_socket_past_the_half_open_bound_gets_no_transport_and_no_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def test(server: RunningServer) -> None:
        built = Built(monkeypatch)
        # each of the first two holds its handshake open while the next ones come
        closed = await asyncio.to_thread(_open_and_wait, server.port, "127.0.0.8", 10)
        assert closed == [False] * 2 + [True] * 8
        assert built.protocols == 2 and built.transports == 2
        assert server.admission is not None
        assert server.admission.shed["half_open"] == 8
        assert server.admission.shed["connect_rate"] == 0
        # the two gave up (closed): the address has its handshakes back
        for _ in range(200):
            if server.admission.half_open.held("127.0.0.8") == 0:
                break
            await asyncio.sleep(0.01)
        assert server.admission.half_open.held("127.0.0.8") == 0
        again = Client(await connect(server.url, compression=None, local_addr=("127.0.0.8", 0)))
        await again.send(m.Hello(protocol_version=1, name="again"))
        await again.expect(m.Welcome)
        assert (await again.request(m.Ping(nonce=4), m.Pong)).nonce == 4
        await again.close()

    run(test, handshake_timeout=60, max_half_open_per_address=2)


def test_an_admitted_socket_is_no_longer_counted_once_it_is_gone() -> None:
    async def test(server: RunningServer) -> None:
        assert server.admission is not None
        clients = [await Client.hello(server.url, f"p{n}") for n in range(3)]
        assert len(server.admission.live) == 3
        assert server.admission.half_open.held("127.0.0.1") == 0  # handshakes over
        for client in clients:
            await client.close()
        for _ in range(200):
            if not server.admission.live:
                break
            await asyncio.sleep(0.01)
        assert not server.admission.live

    run(test)


def test_the_metrics_page_counts_the_sockets_shed_by_reason() -> None:
    async def test(server: RunningServer) -> None:
        before = await scrape(server)
        for reason in ("connect_rate", "half_open", "open_files"):
            assert value(before, "spades_connections_shed_total", reason=reason) == 0
        # 127.0.0.5: 2 held half-open, the next 2 (rate left) past the half-open bound,
        # the last 6 past its rate (burst 4); 127.0.0.6: 2 held, 2 past the half-open bound
        rated = await asyncio.to_thread(_open_and_wait, server.port, "127.0.0.5", 10)
        held = await asyncio.to_thread(_open_and_wait, server.port, "127.0.0.6", 4)
        assert rated == [False] * 2 + [True] * 8
        assert held == [False] * 2 + [True] * 2
        after = await scrape(server)
        assert value(after, "spades_connections_shed_total", reason="connect_rate") == 6
        assert value(after, "spades_connections_shed_total", reason="half_open") == 4
        assert value(after, "spades_connections_shed_total", reason="open_files") == 0

    run(
        test,
        metrics_port=0,
        connects_per_second_per_address=0.01,
        connects_burst_per_address=4,
        max_half_open_per_address=2,
        handshake_timeout=60,
    )


def test_a_failed_tls_handshake_leaves_nothing_counted_and_tls_still_serves(
    tmp_path: Path,
) -> None:
    cert, key = _self_signed(tmp_path)

    async def test(server: RunningServer) -> None:
        assert server.admission is not None
        # a client that does not trust the certificate: its TLS handshake fails
        for _ in range(3):
            with pytest.raises(ssl.SSLCertVerificationError):
                async with connect(server.url, ssl=ssl.create_default_context()):
                    pass
        # cleartext on the TLS port: the TLS handshake fails on the server's side
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
        for _ in range(200):
            if not server.admission.live:
                break
            await asyncio.sleep(0.01)
        assert not server.admission.live
        assert server.admission.half_open.held("127.0.0.1") == 0
        trust = ssl.create_default_context(cafile=str(cert))
        ws = await connect(server.url, ssl=trust, compression=None)
        tess = Client(ws)
        await tess.send(m.Hello(protocol_version=1, name="tess"))
        await tess.expect(m.Welcome)
        assert (await tess.request(m.Ping(nonce=9), m.Pong)).nonce == 9
        await tess.close()

    run(test, certfile=str(cert), keyfile=str(key), max_half_open_per_address=2)


def test_the_listener_goes_on_when_setting_up_one_socket_fails() -> None:
    async def main() -> list[str]:
        hosts: list[str] = []

        def on_accept(sock: socket.socket, host: str) -> None:
            hosts.append(host)
            if len(hosts) == 1:
                raise RuntimeError("a bug of ours")
            sock.close()

        listening = socket.create_server(("127.0.0.1", 0))
        listener = Listener([listening], on_accept)
        listener.start()
        port = listening.getsockname()[1]
        for source in ("127.0.0.3", "127.0.0.4"):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
            assert await asyncio.wait_for(reader.read(), 10) == b""  # closed, not left open
            writer.close()
        listener.close()
        await listener.wait_closed()
        assert not listener.is_serving() and listening.fileno() == -1
        return hosts

    assert asyncio.run(main()) == ["127.0.0.3", "127.0.0.4"]
