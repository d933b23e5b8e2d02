"""A real ``redis-server`` for tests: started in a temporary directory, stopped at the end.

    def test_x(redis_server: RedisServer) -> None:
        redis_server.url                  # redis://127.0.0.1:PORT/0
        redis_server.stop()               # Redis is gone (a partition, for everyone)
        redis_server.start()              # back on the same port, empty (no persistence)

    relay = Relay(redis_server.port)      # a loopback TCP relay in front of it
    relay.url                             # give this to ONE node: relay.cut() partitions it
    relay.cut(); relay.mend(); relay.close()

The server is Debian's ``redis-server`` run as an ordinary child process on 127.0.0.1
and a free port, with persistence off (no RDB, no AOF). Import the fixture in a
``conftest.py``: ``from tests.redisfixture import redis_server  # noqa: F401``.
:class:`RedisServer` raises :class:`RedisFixtureError` when the binary is missing or the
server does not answer in time.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["RedisFixtureError", "RedisServer", "Relay", "free_port", "redis_server"]


class RedisFixtureError(RuntimeError):
    """``redis-server`` is not installed, or did not start answering in time."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """One ``redis-server`` process on 127.0.0.1 (see the module docstring)."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RedisFixtureError("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        self.directory = directory
        self.port = port if port is not None else free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20.0) -> None:
        """Start the server (on the same port as before) and wait until it answers PING."""
        if self.process is not None:
            return
        log = open(self.directory / "redis.log", "ab")  # noqa: SIM115 (the child keeps it)
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(self.directory),
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "yes",
                "--daemonize", "no",
                "--loglevel", "warning",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        log.close()
        deadline = time.monotonic() + timeout
        while not _answers_ping(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                text = (self.directory / "redis.log").read_text(errors="replace")[-2000:]
                raise RedisFixtureError(f"redis-server did not start on {self.port}: {text}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server at once (SIGKILL: what a crash or a partition looks like)."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.wait(10)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Relay:
    """A loopback TCP relay to ``127.0.0.1:target_port`` that a test can cut and mend.

    Cutting closes every relayed connection and refuses new ones (accepted, then closed
    at once), which is what a node that lost its network to Redis sees.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._cut = False
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._closed = False
        self._thread = threading.Thread(target=self._accept, name="relay", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            with self._lock:
                self._sockets.discard(source)
                self._sockets.discard(sink)

    def cut(self) -> None:
        """Drop every relayed connection and refuse new ones until :meth:`mend`."""
        self._cut = True
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def mend(self) -> None:
        self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A fresh, empty ``redis-server`` for one test, stopped at its end."""
    with tempfile.TemporaryDirectory(prefix="spades-redis-") as directory:
        server = RedisServer(Path(directory))
        server.start()
        try:
            yield server
        finally:
            server.stop()
