"""The order of a store's detached batches (see :mod:`server.store.base`).

    order = BatchOrder()
    ticket = order.ticket()          # at detach, on the loop's thread
    with order.turn(ticket):         # in the worker: waits for every batch detached before
        ...                          # the batch's statements, up to COMMIT
    order.wait_all()                 # before the loop's thread uses the connection itself

A read inside the next transaction executes that transaction's writes first: it must not
do so before the batches detached ahead of it have run, or their BEGIN would land inside
it (and the tables' writes out of order). Nothing here raises.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["BatchOrder"]


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

    @contextmanager
    def turn(self, ticket: int) -> Iterator[None]:
        """Wait until every batch detached before ``ticket`` has run; the ticket's batch
        counts as run when the block ends (however it ends)."""
        with self._changed:
            while self._finished < ticket:
                self._changed.wait()
        try:
            yield
        finally:
            with self._changed:
                self._finished = max(self._finished, ticket + 1)
                self._changed.notify_all()

    def wait_all(self) -> None:
        """Wait until every batch detached so far has run."""
        with self._changed:
            while self._finished < self._detached:
                self._changed.wait()
