"""The order of a store's detached batches (see :mod:`server.store.base`).

    order = BatchOrder()
    ticket = order.ticket()          # at detach, on the loop's thread
    with order.turn(ticket):         # in the worker: waits for every batch detached before
        ...                          # the batch's statements, up to COMMIT
    order.wait_all()                 # before the loop's thread uses the connection itself
    with TryHold(lock) as held:      # held: ``lock`` was free and is held in the block

A read inside the next transaction executes that transaction's writes first: it must not
do so before the batches detached ahead of it have run, or their BEGIN would land inside
it (and the tables' writes out of order). Nothing here raises.
"""

from __future__ import annotations

import threading
from types import TracebackType

__all__ = ["BatchOrder", "TryHold"]


class BatchOrder:
    """Tickets in detach order; a batch runs on its ticket's turn (see the module)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._detached = 0
        self._finished = 0

    def ticket(self) -> int:
        with self._changed:
            ticket = self._detached
            self._detached += 1
            return ticket

    def turn(self, ticket: int) -> _Turn:
        """Wait until every batch detached before ``ticket`` has run; the ticket's batch
        counts as run when the block ends (however it ends)."""
        return _Turn(self, ticket)

    def _wait_for(self, ticket: int) -> None:
        # ``_finished`` only grows: once it has reached the ticket, no lock is needed to
        # see it (the common case: a lone batch, committed as soon as it is detached)
        if self._finished >= ticket:
            return
        with self._changed:
            while self._finished < ticket:
                self._changed.wait()

    def _done(self, ticket: int) -> None:
        with self._changed:
            self._finished = max(self._finished, ticket + 1)
            self._changed.notify_all()

    def wait_all(self) -> None:
        """Wait until every batch detached so far has run."""
        with self._changed:
            while self._finished < self._detached:
                self._changed.wait()


class _Turn:
    """The block of :meth:`BatchOrder.turn` (a class: cheaper than a generator's context
    manager, on the path of every commit)."""

    __slots__ = ("_order", "_ticket")

    def __init__(self, order: BatchOrder, ticket: int) -> None:
        self._order = order
        self._ticket = ticket

    def __enter__(self) -> None:
        self._order._wait_for(self._ticket)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._order._done(self._ticket)


class TryHold:
    """A block that holds ``lock`` if it can take it at once (``None``: never); the
    block's value says whether it did (a class: cheaper than a generator's context
    manager, on the path of every commit)."""

    __slots__ = ("_held", "_lock")

    def __init__(self, lock: threading.Lock | None) -> None:
        self._lock = lock
        self._held = False

    def __enter__(self) -> bool:
        lock = self._lock
        self._held = lock is not None and lock.acquire(blocking=False)
        return self._held

    def __exit__(self, *exc_info: object) -> None:
        if self._held and self._lock is not None:
            self._held = False
            self._lock.release()
