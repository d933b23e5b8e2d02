"""A light websocket client for the load benchmark, and process helpers.

    process, port = start_process([sys.executable, "-m", "server", "--port", "0"])
    process, port = start_process(argv, cpus={0})   # it and its threads on core 0 only
    pin({1})                                        # this process on core 1 only
    client = await raw_connect("127.0.0.1", port, on_message)   # on_message(bytes)
    client.send(msgpack.packb({...}))
    percentile(values, 0.99); spread(total, workers); free_port()

:class:`RawClient` speaks RFC 6455 over a plain asyncio protocol (binary frames, pings
answered) so that the load generator, which shares the machine's cores with the server
it measures, costs as little as possible. ``start_process`` raises ``RuntimeError`` when
the process prints no port within 30 s.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import time
from typing import Any

__all__ = [
    "RawClient",
    "free_port",
    "percentile",
    "pin",
    "raw_connect",
    "split_cores",
    "spread",
    "start_process",
]


def pin(cpus: set[int] | None) -> None:
    """Keep this process (and what it starts later) on ``cpus`` (``None``: as it was)."""
    if cpus:
        os.sched_setaffinity(0, cpus)


def split_cores() -> tuple[set[int], set[int]] | None:
    """The cores for a server (the first this process may use) and for its load
    generator (the others); ``None`` with fewer than two cores."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None
    return {cores[0]}, set(cores[1:])


def start_process(
    argv: list[str], cpus: set[int] | None = None
) -> tuple[subprocess.Popen[str], int]:
    """Start a server process (on ``cpus`` only, with every thread it starts, when
    given) and read the port it prints."""
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
        preexec_fn=(lambda: pin(cpus)) if cpus else None,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        for word in line.replace("/", " ").replace(":", " ").split():
            if word.isdigit() and int(word) > 1000:
                return process, int(word)
    process.kill()
    raise RuntimeError(f"{argv} did not report a port")


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class RawClient(asyncio.Protocol):
    """A minimal websocket client over a plain asyncio protocol (RFC 6455, binary frames,
    answers pings), so that the load generator costs far less CPU than the server it
    measures: the two share this machine's cores."""

    def __init__(self, host: str, port: int, on_message: Any) -> None:
        self.host, self.port = host, port
        self.on_message = on_message
        self.buf = bytearray()
        self.open = False
        self.transport: asyncio.Transport | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(
            f"GET / HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("connection lost during the handshake"))

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[: buf.find(b"\r\n")])
            del buf[: end + 4]
            if b" 101 " not in status:
                if not self.ready.done():
                    self.ready.set_exception(ConnectionError(status.decode(errors="replace")))
                return
            self.open = True
            if not self.ready.done():
                self.ready.set_result(None)
        while len(buf) >= 2:
            size, offset = buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    return
                size, offset = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if len(buf) < 10:
                    return
                size, offset = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < offset + size:
                return
            opcode = buf[0] & 0x0F
            payload = bytes(buf[offset : offset + size])
            del buf[: offset + size]
            if opcode == 2:
                self.on_message(payload)
            elif opcode == 9:
                self.send(payload, 0xA)
            elif opcode == 8 and self.transport is not None:
                self.open = False
                self.transport.close()

    def send(self, payload: bytes, opcode: int = 2) -> None:
        """One masked frame (with a zero mask: the payload goes as it is)."""
        size = len(payload)
        if size < 126:
            header = bytes((0x80 | opcode, 0x80 | size))
        else:
            header = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(header + b"\0\0\0\0" + payload)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def raw_connect(host: str, port: int, on_message: Any) -> RawClient:
    loop = asyncio.get_running_loop()
    _, client = await loop.create_connection(lambda: RawClient(host, port, on_message), host, port)
    await asyncio.wait_for(client.ready, 60)
    return client


def spread(total: int, workers: int) -> list[int]:
    return [total // workers + (1 if i < total % workers else 0) for i in range(workers)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
