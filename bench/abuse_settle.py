"""The abuse suites' quiet windows, opened only once what the last attack left has stopped.

    await quiet_window(server, honest, ledger, seconds)   # settles, then measures

An attack's process ending does not end all of its load: the tables of ``bot_tables``
(core and shares suites) go on with the server's bots (the hard bot, and a stand-in for
the attacker who left) until the stand-ins give up, 30 s after the last human left. A
quiet window opened 1 s after such an attack measured the server still thinking for its
tables: a reference slower than quiet, to the favour of the phase compared with it.
:func:`settle` waits until no bot decision of another level than ``easy`` (the honest
players' only level) has been made for :data:`STILL_SECONDS`, at most
:data:`SETTLE_LIMIT` seconds; the seconds waited are noted in the ledger
(``Ledger.settled``, the summary's ``quiet_settle_s``). Raises nothing a page of the
server's ``/metrics`` that cannot be read would not (``OSError``).
"""

from __future__ import annotations

import asyncio
import time

from bench.abuse_kit import QUIET_SETTLE, Honest, Served, Window, measure
from bench.abuse_stats import Ledger
from bench.loadlib.scrape import counters, metrics_page

__all__ = ["SETTLE_LIMIT", "STILL_SECONDS", "quiet_window", "settle"]

SETTLE_LIMIT = 45.0
STILL_SECONDS = 2.0
_POLL = 0.5


def _attack_decisions(page: str) -> float:
    """Bot decisions so far of every level but the honest players' ``easy``."""
    return sum(
        count
        for key, count in counters(page).items()
        if key.startswith("spades_bot_decision_seconds_count") and 'level="easy"' not in key
    )


async def settle(server: Served, limit: float = SETTLE_LIMIT) -> float:
    """Wait until the server has made no bot decision but the honest players' for
    :data:`STILL_SECONDS` (at most ``limit`` s); the seconds waited."""
    began = time.monotonic()
    last = _attack_decisions(await asyncio.to_thread(metrics_page, server.metrics_port))
    still_since = began
    while time.monotonic() - began < limit:
        await asyncio.sleep(_POLL)
        now = _attack_decisions(await asyncio.to_thread(metrics_page, server.metrics_port))
        if now != last:
            last, still_since = now, time.monotonic()
        elif time.monotonic() - still_since >= STILL_SECONDS:
            break
    return round(time.monotonic() - began, 1)


async def quiet_window(server: Served, honest: Honest, ledger: Ledger, seconds: float) -> Window:
    """A window of ``seconds`` with no attack (the same honest load), opened once the
    last attack's leftovers stopped (:func:`settle`) and :data:`QUIET_SETTLE` s after the
    attack's process ended; noted in ``ledger`` as the reference of the attack phase
    that follows it (and, bracketed, of the one before it)."""
    waited = await settle(server)
    ledger.settled.append(waited)
    warmup = max(0.0, QUIET_SETTLE - waited)  # still for that long already
    deadline = time.monotonic() + warmup + seconds
    window = await measure(server, honest, warmup, deadline)
    ledger.quiet(window.sample, window.replies)
    return window
