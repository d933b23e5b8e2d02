"""Abuse benchmark, issue 25 items 1, 2, 6, 9 and 12 (egress): each attack from several
loopback addresses against a live server, beside honest players.

    python3 bench/abuse_work.py                           # every attack, about 1.5 minutes
    python3 bench/abuse_work.py --attacks create_leave --seconds 8

Starts ``python3 -m server`` (default limits, a throw-away SQLite file) on 127.0.0.1.
Beside every phase: the honest player of ``bench/abuse.py`` (the easy bot, 0.6 s delay)
and its pinger; an honest analyst (127.0.0.1) who asks for the analysis of its own game
every 2 s and times the answer; a fresh table of two honest players per phase (from
127.0.0.10, .11, ...), whose first seat sends one ``/report`` in it. Each attack runs
in its own process, its connections spread over ``--addresses`` loopback addresses
(127.0.0.20, .21, ...; a new block per attack). Figures per phase (``baseline``
first): honest ping p50/p99 (ms), the honest bot reply p50 (s), the honest analysis
answer p50 (s), honest reports sent and taken, the server's CPU in the window
(``server_cpu_pct``, % of one core), the server's RSS growth over the phase
(MiB), the store's growth (KiB of used pages, as a reader sees them) and per attacking
address per minute, and what the attacker achieved. Prints one JSON object on its last
line.

Attacks: ``analysis_flood`` (items 1 and 6: per address, connections asking again and
again for analyses of their games, then hanging up), ``create_leave`` (item 2: create a
table with the bot and leave, in a loop), ``report_flood`` (item 9: watchers of the
honest table reporting), ``record_egress`` (item 12: ``get_record`` of a whole game's
record as fast as the message budget allows).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.asyncio.client import ClientConnection

from bench._procstat import rss_kib
from bench.abuse_kit import (
    HONEST,
    Honest,
    hello,
    honest_figures,
    join,
    measure,
    place_clients,
    ratio,
    server_process,
    spawn,
    until,
)
from bench.abuse_settle import quiet_window
from bench.abuse_stats import Ledger
from protocol import messages as m
from protocol.codec import decode_server, encode

ATTACKS = ("analysis_flood", "create_leave", "report_flood", "record_egress")


async def _acted_record(ws: ClientConnection, target: int = 500) -> str | None:
    """Create a bot table, make one move, leave: the record id of that forfeited game."""
    await ws.send(encode(m.CreateTable(bot="easy", overrides={"target_score": target})))
    snap = await until(ws, m.Snapshot, limit=400)
    if not isinstance(snap, m.Snapshot):
        return None
    turn = await until(ws, m.YourTurn, limit=400)
    if not isinstance(turn, m.YourTurn):
        return None
    act = m.Act(code=turn.table, action=turn.legal[0], version=turn.version, seq=1)
    await ws.send(encode(act))
    await ws.send(encode(m.Leave(code=snap.table.code)))
    over = await until(ws, m.GameOver, limit=400)
    return over.record_id if isinstance(over, m.GameOver) else None


async def _played_record(ws: ClientConnection) -> str | None:
    """Play a one-hand game with the bot to its end: its (full) record id."""
    await ws.send(encode(m.CreateTable(bot="easy", overrides={"target_score": 1})))
    rng = random.Random(5)
    seq = 0
    for _ in range(2000):
        message = decode_server(await ws.recv())  # type: ignore[arg-type]
        if isinstance(message, m.YourTurn):
            seq += 1
            action = rng.choice(message.legal)
            await ws.send(
                encode(m.Act(code=message.table, action=action, version=message.version, seq=seq))
            )
        elif isinstance(message, m.GameOver):
            return message.record_id
    return None


# ---- attacks (each in its own process, until its deadline) ------------------------------


async def _analysis_flood(url: str, deadline: float, sources: list[str], info: Any) -> Any:
    asked = refused = answered = 0

    async def one(source: str, n: int) -> None:
        nonlocal asked, refused, answered
        while time.monotonic() < deadline:
            ws = await hello(url, f"an{n}", source, minor=1)
            record_id = await _acted_record(ws)
            if record_id is None:
                await ws.close()
                await asyncio.sleep(1.0)
                continue
            for _ in range(60):  # again and again, every key, never reading much
                seat, level = random.choice([0, 1]), random.choice(["easy", "normal", "hard"])
                with contextlib.suppress(Exception):
                    await ws.send(
                        encode(m.GetAnalysis(record_id=record_id, seat=seat, level=level))
                    )
                    asked += 1
                await asyncio.sleep(0.02)
            with contextlib.suppress(Exception):
                while True:
                    message = decode_server(await asyncio.wait_for(ws.recv(), 0.05))  # type: ignore[arg-type]
                    if isinstance(message, m.ErrorMessage):
                        refused += 1
                    elif isinstance(message, m.AnalysisMessage):
                        answered += 1
            ws.transport.abort()  # hang up with requests queued

    await asyncio.gather(
        *(one(source, n) for n, source in enumerate(sources * 4)), return_exceptions=True
    )
    return {"asked": asked, "refused": refused, "answered": answered}


async def _create_leave(url: str, deadline: float, sources: list[str], info: Any) -> Any:
    cycles = refused = 0

    async def one(source: str, n: int) -> None:
        nonlocal cycles, refused
        ws = await hello(url, f"cl{n}", source, minor=1)
        while time.monotonic() < deadline:
            await ws.send(encode(m.CreateTable(bot="easy", private=True)))
            snap = await until(ws, m.Snapshot, limit=400)
            if not isinstance(snap, m.Snapshot):
                refused += 1
                await asyncio.sleep(0.2)
                continue
            await ws.send(encode(m.Leave(code=snap.table.code)))
            await until(ws, m.Left, limit=400)
            cycles += 1
        await ws.close()

    await asyncio.gather(*(one(s, n) for n, s in enumerate(sources * 2)), return_exceptions=True)
    return {"cycles": cycles, "refused": refused}


async def _report_flood(url: str, deadline: float, sources: list[str], info: Any) -> Any:
    sent = taken = refused = 0
    code = info.get("reporter_table")

    async def one(source: str, n: int) -> None:
        nonlocal sent, taken, refused
        ws = await hello(url, f"rf{n}", source, minor=1)
        await ws.send(encode(m.WatchTable(code=code)))
        await until(ws, m.Snapshot, limit=400)
        while time.monotonic() < deadline:
            await ws.send(encode(m.Chat(code=code, text=f"/report spam {n}")))
            sent += 1
            reply = await until(ws, m.ChatMessage, limit=400)
            if isinstance(reply, m.ChatMessage) and reply.name == "server":
                taken += 1
            else:
                refused += 1
            await asyncio.sleep(1.0)
        await ws.close()

    await asyncio.gather(*(one(s, n) for n, s in enumerate(sources * 8)), return_exceptions=True)
    return {"reports_sent": sent, "reports_taken": taken, "refused": refused}


async def _record_egress(url: str, deadline: float, sources: list[str], info: Any) -> Any:
    received = refused = 0
    record_id = info.get("long_record")

    async def one(source: str, n: int) -> None:
        nonlocal received, refused
        ws = await hello(url, f"eg{n}", source, minor=1)
        while time.monotonic() < deadline:
            await ws.send(encode(m.GetRecord(record_id=record_id)))
            data = await ws.recv()
            message = decode_server(data)  # type: ignore[arg-type]
            if isinstance(message, m.RecordMessage):
                received += len(data)
            else:
                refused += 1
            await asyncio.sleep(0.035)  # about the per-connection message budget
        await ws.close()

    await asyncio.gather(*(one(s, n) for n, s in enumerate(sources * 4)), return_exceptions=True)
    return {"bytes_received": received, "refused": refused}


def _attack(name: str, url: str, deadline: float, addresses: int, info: Any, results: Any) -> None:
    """Run in a child process: one attack from ``addresses`` loopback addresses."""
    base = 20 + 10 * ATTACKS.index(name)
    sources = [f"127.0.0.{base + i}" for i in range(addresses)]
    attack = globals()[f"_{name}"]
    try:
        results[name] = asyncio.run(
            asyncio.wait_for(attack(url, deadline, sources, info), deadline - time.monotonic() + 10)
        )
    except BaseException as error:  # report, never hang the benchmark
        results[name] = {"attack_error": repr(error)}


# ---- the honest analyst and reporter ---------------------------------------------------


class Witness:
    """An honest analyst (its own game's analysis every 2 s) and a seated reporter."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.analyses: list[float] = []
        self.analysis_refused = 0
        self.reports_sent = 0
        self.reports_taken = 0
        self.reporter_table = ""
        self.reporters: list[tuple[ClientConnection, ClientConnection]] = []
        self.phase = 0
        self.long_record = ""
        self.stop = False

    async def setup(self) -> None:
        ws = await hello(self.url, "carol", HONEST, minor=1)
        self.long_record = await _played_record(ws) or ""
        await ws.close()

    async def analyse(self) -> None:
        ws = await hello(self.url, "analyst", HONEST, minor=1)
        record_id = await _acted_record(ws)
        levels = ["easy", "normal", "hard"]
        n = 0
        while not self.stop and record_id is not None:
            n += 1
            ask = m.GetAnalysis(record_id=record_id, seat=n % 2, level=levels[n % 3], id=n)
            start = time.monotonic()
            await ws.send(encode(ask))
            reply = await until(ws, m.AnalysisMessage, limit=400)
            if isinstance(reply, m.AnalysisMessage):
                self.analyses.append(time.monotonic() - start)
            else:
                self.analysis_refused += 1
            if n % 6 == 0:  # every key cached: a new game to analyse
                record_id = await _acted_record(ws)
            await asyncio.sleep(2.0)
        await ws.close()

    async def new_table(self) -> None:
        """A fresh table of two honest players for the next phase (the attack watches it)."""
        self.phase += 1
        # an address of its own each phase (127.0.0.10, .11, ...): an address's report
        # budget is its own, and 127.0.0.1 is every other honest player's
        source = f"127.0.0.{9 + self.phase}"
        ws = await hello(self.url, f"reporter{self.phase}", source, minor=1)
        await ws.send(encode(m.CreateTable(overrides={"target_score": 500})))
        snap = await until(ws, m.Snapshot, limit=400)
        self.reporter_table = snap.table.code
        other = await hello(self.url, f"reported{self.phase}", source, minor=1)
        await other.send(encode(m.JoinTable(code=self.reporter_table)))
        await until(other, m.Snapshot, limit=400)
        self.reporters.append((ws, other))

    async def report(self) -> None:
        """The seated reporter of this phase's table reports once."""
        ws = self.reporters[-1][0]
        await ws.send(encode(m.Chat(code=self.reporter_table, text="/report rude")))
        self.reports_sent += 1
        reply = await until(ws, m.ChatMessage, limit=400)
        if isinstance(reply, m.ChatMessage) and reply.name == "server":
            self.reports_taken += 1

    def take(self) -> dict[str, Any]:
        analyses, self.analyses = self.analyses, []
        figures = {
            "analysis_p50_s": None if not analyses else round(statistics.median(analyses), 3),
            "analyses": len(analyses),
            "analysis_refused": self.analysis_refused,
            "reports_sent": self.reports_sent,
            "reports_taken": self.reports_taken,
        }
        self.analysis_refused = self.reports_sent = self.reports_taken = 0
        return figures


def _store_bytes(path: str) -> int:
    """The store's size in pages as a reader sees it (its WAL included, not the WAL's
    own growth: the WAL file is reused and truncated, it is not data kept)."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        db = f"{folder}/abuse.db"
        async with server_process(db) as (server, url):
            honest, witness = Honest(url), Witness(url)
            await witness.setup()
            tasks = [*honest.start(), asyncio.create_task(witness.analyse())]
            manager = multiprocessing.get_context("spawn").Manager()
            results = manager.dict()
            info = manager.dict(long_record=witness.long_record)
            phases: dict[str, Any] = {}
            ledger = Ledger()
            for index, name in enumerate(("baseline", *args.attacks)):
                if index > 1:  # the attack's own reference, measured just before it
                    await quiet_window(server, honest, ledger, args.seconds)
                deadline = time.monotonic() + args.warmup + args.seconds
                child = None
                await witness.new_table()
                info["reporter_table"] = witness.reporter_table
                rss_start, store_start = rss_kib(server.pid), _store_bytes(db)
                if name != "baseline":
                    child = spawn(_attack, (name, url, deadline, args.addresses, info, results))

                async def opened() -> None:
                    witness.take()
                    await witness.report()

                window = await measure(server, honest, args.warmup, deadline, opened, rss_start)
                seen = witness.take()
                join(child, 30)
                if name == "baseline":
                    ledger.quiet(window.sample, window.replies)
                else:
                    ledger.attacked(name, window.sample, window.replies)
                grown = _store_bytes(db) - store_start
                minutes = (args.warmup + args.seconds) / 60
                figures = honest_figures(window)
                phases[name] = {
                    **{
                        k: figures[k]
                        for k in ("ping_p50_ms", "ping_p99_ms", "pings", "server_cpu_pct")
                    },
                    "bot_reply_p50_s": figures["bot_reply_p50_s"],
                    "loop_lag_p99_ms": figures["loop_lag_p99_ms"],
                    **{
                        k: figures[k]
                        for k in (
                            "machine_busy_pct",
                            "honest_cpu_pct",
                            "wake_late_p99_ms",
                            "client_wake_late_p99_ms",
                        )
                    },
                    **seen,
                    "rss_growth_mib": round((window.rss_kib - rss_start) / 1024, 1),
                    "store_growth_kib": round(grown / 1024, 1),
                    "store_kib_per_min_per_address": round(
                        grown / 1024 / minutes / args.addresses, 1
                    ),
                    "server_alive": server.poll() is None,
                    "attacker": dict(results.get(name, {})) if name != "baseline" else {},
                }
            if args.attacks:  # the last attack's quiet window after it (bracketed)
                await quiet_window(server, honest, ledger, args.seconds)
            honest.stop = witness.stop = True
            for task in tasks:
                task.cancel()
            manager.shutdown()
    for name in args.attacks:
        phases[name].update(ledger.figures(name))
    base = phases["baseline"]
    attacked = [p for name, p in phases.items() if name != "baseline"]

    def worst_ratio(key: str) -> float | None:
        worst = max((p[key] or 0.0) for p in attacked) if attacked else None
        return ratio(base[key], worst)

    return {
        "benchmark": "abuse_work",
        "addresses_per_attack": args.addresses,
        "seconds_per_phase": args.seconds,
        "phases": phases,
        "ping_p99_ratio_to_baseline": worst_ratio("ping_p99_ms"),
        "bot_reply_ratio_to_baseline": worst_ratio("bot_reply_p50_s"),
        **ledger.summary(),
        "worst_rss_growth_mib": max((p["rss_growth_mib"] for p in attacked), default=None),
        "worst_store_kib_per_min_per_address": max(
            (p["store_kib_per_min_per_address"] for p in attacked), default=None
        ),
        "honest_errors": honest.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="comma-separated")
    parser.add_argument("--seconds", type=float, default=14.0, help="measured per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="attack before measuring")
    parser.add_argument("--addresses", type=int, default=4, help="source addresses per attack")
    args = parser.parse_args()
    place_clients()  # before any process starts: they all run where this one does
    args.attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(args.attacks) - set(ATTACKS)
    if unknown:
        parser.error(f"unknown attacks: {', '.join(sorted(unknown))}")
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
