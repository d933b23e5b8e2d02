"""A real PostgreSQL server for tests: started in a temporary directory, loopback only.

Session-scoped (one server per pytest process, so each xdist worker has its own), with a
fresh database for every test that asks for ``pg_dsn``::

    def test_something(pg_dsn: str) -> None:        # postgresql://spades@127.0.0.1:PORT/t_3
        store = PgStore(pg_dsn)

    def test_admin(pg_server: PgServer) -> None:     # the server itself
        with pg_server.admin() as admin: ...

Registered in ``tests/conftest.py``. The binaries are Debian's ``postgresql`` package
(``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs it); when they are missing the
fixture fails with a message saying so (no skip). ``initdb`` and ``postgres`` refuse to
run as root: as root they run as the ``postgres`` system user, who owns the directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["PgServer", "find_pg_bin", "pg_dsn", "pg_server"]

USER = "spades"  # the cluster's superuser (trust authentication, loopback only)
START_TIMEOUT = 60.0


def find_pg_bin() -> Path:
    """The directory of ``initdb`` and ``postgres`` (newest installed version).

    Raises ``RuntimeError`` with the fix when PostgreSQL is not installed.
    """
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is not None and Path(initdb).with_name("postgres").exists():
        return Path(initdb).resolve().parent
    raise RuntimeError(
        "PostgreSQL is not installed: the PostgreSQL store's tests need a real server "
        "(initdb and postgres from Debian's `postgresql` package; `.ci/run` installs it: "
        "apt-get install postgresql)"
    )


def _die_with_parent() -> None:
    """In the child before exec: PostgreSQL gets SIGINT (fast shutdown) if the pytest
    process that started it dies without stopping it (killed by a timeout, say)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the session's finalizer still stops it


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PgServer:
    """One ``postgres`` process on 127.0.0.1 (and a unix socket in its directory).

    ``PgServer.start()`` returns it running; ``dsn(database)`` addresses a database;
    ``create_database()`` makes a fresh one and returns its DSN; ``stop()`` ends it and
    removes the directory. Raises ``RuntimeError`` when the server cannot be started.
    """

    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.root = root
        self.port = port
        self.process = process
        self._names = itertools.count(1)

    @classmethod
    def start(cls, attempts: int = 3, durable: bool = False) -> PgServer:
        """Start a server; ``durable`` keeps PostgreSQL's own defaults (fsync on, every
        commit flushed) instead of the tests' faster settings (for benchmarks)."""
        bin_dir = find_pg_bin()
        fast = [] if durable else [
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        ]  # fmt: skip
        root = Path(tempfile.mkdtemp(prefix="spades-pg-"))
        owner: dict[str, Any] = {}
        if os.geteuid() == 0:
            # initdb refuses root; the Debian package's system user runs the server
            try:
                entry = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "running as root and there is no `postgres` user to run PostgreSQL as "
                    "(Debian's `postgresql` package creates it)"
                ) from None
            os.chown(root, entry.pw_uid, entry.pw_gid)
            owner = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        data = root / "data"
        log = root / "postgres.log"
        try:
            subprocess.run(
                [
                    str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "-A", "trust",
                    "-E", "UTF8", "--locale=C", "--no-sync",
                ],
                check=True,
                capture_output=True,
                cwd=root,
                **owner,
            )  # fmt: skip
        except subprocess.CalledProcessError as error:
            shutil.rmtree(root, ignore_errors=True)
            raise RuntimeError(f"initdb failed: {error.stderr.decode(errors='replace')}") from None
        last_error = ""
        for _ in range(attempts):  # another process may take the free port first
            port = _free_port()
            with open(log, "ab") as log_file:
                process = subprocess.Popen(
                    [
                        str(bin_dir / "postgres"), "-D", str(data), "-p", str(port),
                        "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={root}",
                        "-c", "shared_buffers=16MB", "-c", "max_connections=60",
                        "-c", "max_wal_senders=0", "-c", "wal_level=minimal",
                        "-c", "logging_collector=off", *fast,
                    ],
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    cwd=root,
                    preexec_fn=_die_with_parent,
                    **owner,
                )  # fmt: skip
            server = cls(root, port, process)
            if server._wait_ready():
                return server
            server.process.kill()
            server.process.wait(10)
            last_error = log.read_text(errors="replace")[-2000:]
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start:\n{last_error}")

    def _wait_ready(self) -> bool:
        import psycopg

        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                psycopg.connect(self.dsn("postgres"), connect_timeout=2).close()
                return True
            except psycopg.OperationalError:
                time.sleep(0.05)
        return False

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    @contextlib.contextmanager
    def admin(self) -> Iterator[Any]:
        """An autocommit superuser connection to the ``postgres`` database."""
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            yield connection

    def create_database(self) -> str:
        """A new empty database; returns its DSN."""
        name = f"t_{os.getpid()}_{next(self._names)}"
        with self.admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A running PostgreSQL for this pytest process, stopped at the end of the session."""
    try:
        server = PgServer.start()
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_dsn(pg_server: PgServer) -> str:
    """The DSN of a fresh, empty database on the session's server."""
    return pg_server.create_database()
