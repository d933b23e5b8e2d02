"""A consistent copy of a live SQLite store, and putting a copy back.

``spades backup PATH`` (:func:`backup_store`) copies the store with SQLite's online backup
API while the server keeps playing: the copy is read from one read transaction (in WAL
mode a reader never blocks the server's writes, and the snapshot cannot move under the
copy, so the copy never starts over however busy the server is), page by page in steps,
into a temporary file beside the target. The temporary file is integrity-checked,
flushed to disk, made 0600 and only then renamed into place, so ``PATH`` is either the
old file or a whole, checked copy::

    result = backup_store("/var/lib/spades/spades.db", "/backups/")   # a directory: dated name
    result.path, result.bytes, result.tables, result.records

``spades restore BACKUP`` (:func:`restore_store`) puts a copy back as the store while the
server is stopped (it refuses while any process has the store open), through the same
backup API, so the store's own write-ahead log stays consistent. A copy is also a whole
store by itself: ``spades serve --db COPY`` starts from it directly.

Both raise :class:`BackupError` (one line: what and where) and leave the target as it was.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from server.config import default_db_path
from server.errors import ServerError

__all__ = [
    "BackupError",
    "BackupResult",
    "add_backup_arguments",
    "add_restore_arguments",
    "backup_store",
    "check_copy",
    "restore_store",
    "run_backup",
    "run_restore",
]

# the tables every spades store has; a file without them is not one
_STORE_TABLES = frozenset({"players", "tables", "actions", "records"})


class BackupError(ServerError):
    """The copy could not be made or put back; the message is one line for the host."""


@dataclass(frozen=True)
class BackupResult:
    """What :func:`backup_store` wrote: the file, its size, and what the copy holds."""

    path: str
    bytes: int
    tables: int
    records: int
    seconds: float


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    text = str(error)
    if "full" in text:
        return "the disk is full; nothing was written"
    if "I/O error" in text:  # a failed write: a size limit, a vanished or full device
        return f"{text} (is the disk full?); nothing was written"
    return text


def _open_source(store: str) -> sqlite3.Connection:
    """A read-only connection to an existing store (never creates one)."""
    if store == ":memory:":
        raise BackupError("an in-memory store (--db :memory:) keeps nothing to back up")
    if not Path(store).is_file():
        raise BackupError(f"no store at {store}")
    try:
        source = sqlite3.connect(
            f"file:{quote(os.path.abspath(store))}?mode=ro", uri=True, isolation_level=None
        )
    except sqlite3.Error as error:
        raise BackupError(f"cannot open the store {store}: {_reason(error)}") from None
    try:
        _require_store(source, store)
    except BaseException:
        source.close()
        raise
    return source


def _require_store(db: sqlite3.Connection, path: str) -> None:
    try:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as error:
        raise BackupError(f"{path} is not a spades store: {_reason(error)}") from None
    if not names >= _STORE_TABLES:
        raise BackupError(f"{path} is not a spades store (no {', '.join(sorted(_STORE_TABLES))})")


def check_copy(path: str) -> tuple[int, int]:
    """Integrity-check the store file ``path``; returns (tables not closed, records).

    Raises :class:`BackupError` when it is damaged or not a spades store.
    """
    try:
        db = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {path}: {_reason(error)}") from None
    try:
        try:
            verdict = db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.Error as error:
            raise BackupError(f"{path} is damaged: {_reason(error)}") from None
        if verdict != [("ok",)]:
            raise BackupError(f"{path} is damaged: {verdict[0][0]}")
        _require_store(db, path)
        tables: int = db.execute("SELECT count(*) FROM tables WHERE status != 'closed'").fetchone()[
            0
        ]
        records: int = db.execute("SELECT count(*) FROM records").fetchone()[0]
        return tables, records
    finally:
        db.close()


def _target_file(target: str, now: float) -> Path:
    path = Path(target)
    if target.endswith(("/", os.sep)) and not path.exists():
        try:  # a directory named as one: made (0700) for the first copy
            path.mkdir(mode=0o700, parents=True)
        except OSError as error:
            raise BackupError(f"cannot write {target}: {_reason(error)}") from None
    if path.is_dir():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
        return path / f"spades-{stamp}.db"
    return path


def _fsync_dir(directory: Path) -> None:
    # the rename is only durable once the directory entry is; some filesystems refuse
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def backup_store(
    store: str,
    target: str,
    pages_per_step: int = 256,
    pause: float = 0.001,
    progress: Callable[[int, int], None] | None = None,
) -> BackupResult:
    """Copy the (live) store file ``store`` to ``target``, consistently, and check the copy.

    ``target`` is a file path, or a directory (existing, or named with a trailing ``/``:
    then made, 0700); in a directory the copy is named ``spades-YYYYMMDD-HHMMSS.db``
    (UTC). The copy goes ``pages_per_step`` pages at a
    time with ``pause`` seconds between steps (so a big store does not take all of the
    disk's attention); ``progress(copied, total)`` is told after each step. An existing
    file at the target is replaced only once the new copy is whole and checked.

    Raises :class:`BackupError`: no store at ``store``, not a spades store, a target that
    cannot be written (a missing directory, no permission), a full disk, or a copy that
    fails its integrity check. No temporary file is left behind.
    """
    started = time.monotonic()
    path = _target_file(target, time.time())
    source = _open_source(store)
    temp: Path | None = None
    try:
        try:
            fd, temp_name = tempfile.mkstemp(
                prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
            )
        except OSError as error:
            raise BackupError(f"cannot write {path}: {_reason(error)}") from None
        os.close(fd)  # mkstemp made it 0600: tokens are hashed, but the rest is private
        temp = Path(temp_name)
        copy = sqlite3.connect(temp, isolation_level=None)
        try:
            # one read transaction for the whole copy: the snapshot cannot move under it
            source.execute("BEGIN")
            source.execute("SELECT count(*) FROM sqlite_master").fetchone()

            def step(status: int, remaining: int, total: int) -> None:
                if progress is not None:
                    progress(total - remaining, total)
                if pause > 0 and remaining:
                    time.sleep(pause)

            source.backup(copy, pages=max(1, pages_per_step), progress=step)
            source.execute("COMMIT")
            # the copy is one self-contained file: no log beside it
            copy.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.Error as error:
            raise BackupError(f"cannot write {path}: {_reason(error)}") from None
        finally:
            copy.close()
        tables, records = check_copy(str(temp))
        try:
            with open(temp, "rb+") as handle:
                os.fsync(handle.fileno())
            os.chmod(temp, 0o600)
            os.replace(temp, path)
        except OSError as error:
            raise BackupError(f"cannot write {path}: {_reason(error)}") from None
        temp = None
        _fsync_dir(path.parent)
        return BackupResult(
            path=str(path),
            bytes=path.stat().st_size,
            tables=tables,
            records=records,
            seconds=time.monotonic() - started,
        )
    finally:
        source.close()
        if temp is not None:
            with contextlib.suppress(OSError):
                temp.unlink()


def restore_store(backup: str, store: str) -> tuple[int, int]:
    """Make the store file ``store`` an exact copy of ``backup`` (the server stopped).

    Returns (tables not closed, records) of the restored store. Raises
    :class:`BackupError` when ``backup`` is missing, damaged or not a spades store, or
    when ``store`` is in use (a running server has it open): stop the server first.
    The store's own file (mode 0600 when created) and its log stay consistent: the
    copy is written through SQLite, not over the file.
    """
    if not Path(backup).is_file():
        raise BackupError(f"no backup at {backup}")
    check_copy(backup)
    source = _open_source(backup)
    try:
        try:
            Path(store).parent.mkdir(parents=True, exist_ok=True)
            # never through a link planted where the store goes (ELOOP: refused)
            nofollow = getattr(os, "O_NOFOLLOW", 0)
            os.close(os.open(store, os.O_RDWR | os.O_CREAT | nofollow, 0o600))
            target = sqlite3.connect(store, isolation_level=None, timeout=0)
        except (OSError, sqlite3.Error) as error:
            raise BackupError(f"cannot write the store {store}: {_reason(error)}") from None
        try:
            try:
                # an exclusive lock kept until we close: refused while a server has it open
                target.execute("PRAGMA locking_mode=EXCLUSIVE")
                target.execute("BEGIN EXCLUSIVE")
                target.execute("COMMIT")
            except sqlite3.OperationalError as error:
                raise BackupError(
                    f"the store {store} is in use ({error}): stop the server first"
                ) from None
            try:
                source.backup(target)
            except sqlite3.Error as error:
                raise BackupError(f"cannot write the store {store}: {_reason(error)}") from None
        finally:
            target.close()
    finally:
        source.close()
    return check_copy(store)


# ---- the commands: spades backup PATH, spades restore BACKUP ----------------------------


def add_backup_arguments(parser: argparse.ArgumentParser) -> None:
    """``spades backup PATH [--db STORE]``."""
    parser.add_argument(
        "path",
        help="the copy to write: a file, or a directory (end it with / to have it made) "
        "for a dated spades-YYYYMMDD-HHMMSS.db in it",
    )
    parser.add_argument(
        "--db", default=None, help=f"the server's store (default {default_db_path()})"
    )
    parser.add_argument(
        "--step-pages",
        type=int,
        default=256,
        help="pages (4 KiB each) copied per step (default 256)",
    )
    parser.add_argument(
        "--step-pause",
        type=float,
        default=0.001,
        help="seconds to pause between steps, to spare a busy disk (default 0.001)",
    )


def run_backup(args: argparse.Namespace) -> int:
    """Back up the store, print one line about the copy; 1 and one line on stderr if not."""
    store = args.db or default_db_path()
    try:
        result = backup_store(store, args.path, args.step_pages, args.step_pause)
    except BackupError as error:
        print(f"spades backup: {error}", file=sys.stderr)
        return 1
    print(
        f"spades backup: {result.path} ({result.bytes} bytes, {result.tables} open tables, "
        f"{result.records} game records, checked, {result.seconds:.2f} s)",
        flush=True,
    )
    return 0


def add_restore_arguments(parser: argparse.ArgumentParser) -> None:
    """``spades restore BACKUP [--db STORE]``."""
    parser.add_argument("backup", help="a copy made by spades backup")
    parser.add_argument(
        "--db",
        default=None,
        help=f"the store to replace, the server stopped (default {default_db_path()})",
    )


def run_restore(args: argparse.Namespace) -> int:
    """Put a backup back as the store; 1 and one line on stderr if that cannot be done."""
    store = args.db or default_db_path()
    try:
        tables, records = restore_store(args.backup, store)
    except BackupError as error:
        print(f"spades restore: {error}", file=sys.stderr)
        return 1
    print(
        f"spades restore: {store} is now the copy {args.backup} ({tables} open tables, "
        f"{records} game records); start the server with spades serve --db {store}",
        flush=True,
    )
    return 0
