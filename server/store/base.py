"""What the server needs of a store: the ``Storage`` protocol, its rows and its errors.

Errors (the store's own; no driver's error crosses this boundary)::

    ServerError                 (server.errors)
    └── StoreError              the store cannot be opened, read, or lost its open writes
        └── FencedError         another node claimed a table written in this transaction

Both implementations (:mod:`server.store.sqlite`, :mod:`server.store.pg`) keep the same
guarantees: writes gather in one open transaction (``on_begin`` is called when it opens),
:meth:`Storage.commit` stores them all or raises :class:`StoreError` (nothing stored, no
transaction left open), and a table claimed with :meth:`Storage.claim_table` is fenced: a
commit that writes for it after another node claimed it raises :class:`FencedError`.

A commit may also leave the event loop's thread (group commit)::

    batch = store.detach()      # the open transaction, taken whole; new writes start the next
    batch.run()                 # in a worker thread: StoreError / FencedError, nothing stored
    batch.settle(committed)     # back on the loop's thread: the store's bookkeeping

Writes are held in memory until their batch runs (or a read inside the transaction sends
them first, so that it sees them), and every use of the connection takes the store's lock:
the loop never touches the database while a batch runs, except for a read, which waits.
Batches run one at a time, in the order they were detached.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from server.errors import ServerError
from server.store.accounts_rows import AccountRows
from server.store.policy import Reclaimed, RetentionPolicy

__all__ = [
    "ActionRow",
    "CommitBatch",
    "FencedError",
    "PlayerRow",
    "Storage",
    "StoreError",
    "TableRow",
    "token_hash",
]


class StoreError(ServerError):
    """The store cannot be opened or read, or it lost the writes of its open transaction.

    Raised when a store is opened (one line: where and what is wrong), by a read the
    database cannot answer, and by ``commit`` and every write until then when a write or
    the commit failed (say the disk is full): nothing since the last commit is stored, and
    the caller must bring its memory back to what is.
    """


class FencedError(StoreError):
    """Another node claimed a table of this transaction under a higher lease generation.

    Raised by ``claim_table`` (a higher generation is stored already) and by ``commit``
    (a table this node claimed was claimed since by someone else: the whole transaction
    was rolled back, nothing of it is stored). ``codes`` names the tables this node must
    stop running.
    """

    def __init__(self, codes: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.codes = codes


def token_hash(token: str) -> str:
    """What the store keeps instead of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str


@dataclass(frozen=True)
class TableRow:
    """A stored table; ``data`` parses its JSON (raises ``ValueError`` if it is damaged)."""

    code: str
    data_json: str
    status: str
    game_no: int

    @property
    def data(self) -> dict[str, Any]:
        data = json.loads(self.data_json)
        if not isinstance(data, dict):
            raise ValueError("the table's data is not a JSON object")
        return data


@dataclass(frozen=True)
class ActionRow:
    index: int
    seat: int | None
    action: str
    seq: int | None


class CommitBatch(Protocol):
    """One detached transaction (see the module): run it once, then settle it."""

    def run(self) -> None:
        """Store the batch's writes (any thread; blocks for the database). Raises
        :class:`FencedError` or :class:`StoreError`: nothing of it is stored."""
        ...

    def settle(self, committed: bool) -> None:
        """On the loop's thread after :meth:`run`: a batch that was not stored gives back
        the table claims it made."""
        ...


class Storage(Protocol):
    """The store as the server uses it. Every call may raise :class:`StoreError`."""

    accounts: AccountRows  # the accounts' rows (server/store/accounts_rows.py)

    @property
    def write_attempts(self) -> int:
        """Every write tried so far: a caller compares it before and after a request."""
        ...

    def commit(self) -> None:
        """Store the open transaction's writes; :class:`FencedError`/:class:`StoreError`:
        nothing of it is stored."""
        ...

    def detach(self) -> CommitBatch | None:
        """The open transaction as a batch to commit elsewhere (``None``: nothing open);
        the next write opens a new one. Raises :class:`StoreError` when the open
        transaction was lost already (nothing of it is stored, none is open now)."""
        ...

    @property
    def threaded_commits(self) -> bool:
        """Whether a batch is worth running off the loop (a file or a server: yes)."""
        ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...

    def claim_table(self, code: str, generation: int) -> None: ...

    def add_player_hashed(self, player_id: str, name: str, hashed: str) -> None: ...

    def player_by_token(self, token: str) -> PlayerRow | None: ...

    def save_table(self, code: str, data: dict[str, Any], status: str, game_no: int) -> None: ...

    def load_table(self, code: str) -> TableRow | None: ...

    def load_tables(self) -> list[TableRow]: ...

    def append_action(
        self, code: str, game_no: int, index: int, seat: int | None, action: str, seq: int | None
    ) -> None: ...

    def load_actions(self, code: str, game_no: int) -> list[ActionRow]: ...

    def save_record(
        self, record_id: str, code: str, game_no: int, record: dict[str, Any]
    ) -> None: ...

    def record_json(self, record_id: str) -> str | None: ...

    def save_analysis(self, record_id: str, seat: int, level: str, analysis_json: str) -> None: ...

    def analysis_json(self, record_id: str, seat: int, level: str) -> str | None: ...

    def reclaim_step(
        self,
        policy: RetentionPolicy,
        now: float,
        live_tables: Collection[str] = (),
        live_players: Collection[str] = (),
    ) -> Reclaimed:
        """Delete up to ``policy.batch`` rows of each kind ``policy`` lets go at ``now``
        (Unix seconds), keeping ``live_tables`` and ``live_players``; the deletes join the
        open transaction (the caller commits)."""
        ...
