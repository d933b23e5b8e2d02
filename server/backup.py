"""``spades backup`` and ``spades restore``: the SQLite store's online copy.

The work is done in :mod:`server.store.sqlite_backup` (it is the SQLite store's own
business); this module is the name the command line (``client/cli.py``) loads::

    spades backup [--db PATH] [--to DIR]       # a consistent copy while the server runs
    spades restore BACKUP [--db PATH]          # with the server stopped
"""

from __future__ import annotations

from server.store.sqlite_backup import (
    BackupError,
    BackupResult,
    add_backup_arguments,
    add_restore_arguments,
    backup_store,
    check_copy,
    restore_store,
    run_backup,
    run_restore,
)

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
