"""A commit of one write: the statement runs as a transaction of its own (no BEGIN and
COMMIT around it), stored whole or not at all, and the store goes on as after any
commit; a batch of several writes still commits them together. The block that orders
batches, and the one that holds the log's truncation lock only when it is free."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from server.store import StoreError
from server.store.order import BatchOrder, TryHold
from server.store.sqlite import Store


def stored(path: Path, code: str) -> list[int]:
    """The indexes of ``code``'s actions a second reader of the file sees."""
    with sqlite3.connect(path) as reader:
        rows = reader.execute("SELECT idx FROM actions WHERE code = ? ORDER BY idx", (code,))
        return [int(row[0]) for row in rows]


def test_a_lone_write_is_stored_by_its_commit_and_no_transaction_stays_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "lone.db"
    store = Store(str(path), autocommit=False)
    try:
        store.append_action("LONE0001", 1, 1, 0, "keep", 1)
        assert stored(path, "LONE0001") == []  # held until the commit
        store.commit()
        assert stored(path, "LONE0001") == [1]
        assert not store._db.in_transaction
        store.append_action("LONE0001", 1, 2, 1, "discard", 1)
        store.commit()
        assert stored(path, "LONE0001") == [1, 2]
    finally:
        store.close()


def test_a_lone_write_that_fails_stores_nothing_and_the_next_commit_works(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fails.db"
    store = Store(str(path), autocommit=False)
    try:
        store.append_action("LONE0002", 1, 1, 0, "keep", 1)
        store.commit()
        store.append_action("LONE0002", 1, 1, 1, "discard", 2)  # the same key again
        with pytest.raises(StoreError):
            store.commit()
        assert not store._db.in_transaction
        assert stored(path, "LONE0002") == [1]
        store.append_action("LONE0002", 1, 2, 1, "discard", 2)
        store.commit()
        assert stored(path, "LONE0002") == [1, 2]
    finally:
        store.close()


def test_a_batch_of_two_writes_is_still_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    store = Store(str(path), autocommit=False)
    try:
        store.append_action("LONE0003", 1, 1, 0, "keep", 1)
        store.commit()
        store.append_action("LONE0003", 1, 2, 1, "keep", 1)
        store.append_action("LONE0003", 1, 1, 1, "keep", 2)  # fails: the first goes too
        with pytest.raises(StoreError):
            store.commit()
        assert stored(path, "LONE0003") == [1]
    finally:
        store.close()


def test_a_detached_lone_write_runs_in_another_thread_and_settles(tmp_path: Path) -> None:
    path = tmp_path / "detached.db"
    store = Store(str(path), autocommit=False)
    try:
        store.append_action("LONE0004", 1, 1, 0, "keep", 1)
        batch = store.detach()
        assert batch is not None
        worker = threading.Thread(target=batch.run)
        worker.start()
        worker.join()
        batch.settle(True)
        assert stored(path, "LONE0004") == [1]
    finally:
        store.close()


def test_batches_run_in_the_order_they_were_detached() -> None:
    order = BatchOrder()
    first, second = order.ticket(), order.ticket()
    ran: list[int] = []
    waiting = threading.Event()

    def run_second() -> None:
        waiting.set()
        with order.turn(second):
            ran.append(second)

    worker = threading.Thread(target=run_second)
    worker.start()
    assert waiting.wait(30)
    with order.turn(first):
        ran.append(first)  # the second is still held back: its turn comes after
    worker.join(30)
    assert ran == [first, second]
    order.wait_all()  # every batch has run: no wait


def test_a_turn_counts_as_run_even_when_its_block_raises() -> None:
    order = BatchOrder()
    first, second = order.ticket(), order.ticket()
    with pytest.raises(RuntimeError), order.turn(first):
        raise RuntimeError("the batch failed")
    with order.turn(second):
        pass
    order.wait_all()


def test_try_hold_holds_a_free_lock_for_its_block_only() -> None:
    lock = threading.Lock()
    with TryHold(lock) as held:
        assert held
        assert lock.locked()
    assert not lock.locked()
    lock.acquire()
    try:
        with TryHold(lock) as held:
            assert not held  # taken elsewhere: not waited for
        assert lock.locked()  # and not released by the block that did not take it
    finally:
        lock.release()
    with TryHold(None) as held:
        assert not held
