"""Abuse benchmark, fair shares (issue 25 items 3, 4, 5): attacks from several addresses.

    python3 bench/abuse_shares.py                       # every phase, about 2 minutes
    python3 bench/abuse_shares.py --attacks tables,list_flood --seconds 6

Starts ``python3 -m server`` (default limits, a throw-away SQLite file) on 127.0.0.1. An
honest player (127.0.0.1) plays the easy bot at its default delay the whole time, and six
honest probe connections (127.0.0.1, .201 to .205) each send an application ``ping``
every 40 ms. Each phase's attack
runs in its own process from several loopback addresses of its own (127.0.0.20 and up):

- ``tables``: five addresses create tables until refused (each may hold a fifth of them);
  then a sixth, new address tries one (``newcomer_created``).
- ``connections``: four addresses open connections until refused; then a fifth, new
  address connects (``newcomer_connected``).
- ``bot_tables``: eight addresses create hard bot tables left to stand-ins (the bot pool).
- ``list_flood``: four addresses, twelve connections each, listing 100 tables as fast as
  they are answered.
- ``json_keys``: two addresses, twenty JSON connections each, sending objects of 300
  unknown keys.
- ``credit_play``: two connections of one address playing each other, each answering
  its ``your_turn`` at once (``moves_per_second``, ``refused``).

Per phase (``baseline`` first): the honest ping round trip (p50, p99 ms), the honest
bot's reply (p50 s, the bot's delay included), the server's CPU in the window
(``server_cpu_pct``, % of one core), the server's largest RSS (MiB) and what
the attacker achieved. Loops are bounded in count and time; traffic stays on loopback.
Prints one JSON object on its last line. Runnable alone; ``bench/abuse.py`` may run its
phases too (:data:`ATTACKS`, :func:`attack`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.asyncio.client import ClientConnection

from bench.abuse_kit import (  # the same honest player as every abuse suite
    Honest,
    hello,
    honest_figures,
    join,
    measure,
    open_ws,
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

# the phases that leave tables or bots behind go last
ATTACKS = ("list_flood", "json_keys", "credit_play", "connections", "bot_tables", "tables")
FIRST_SOURCE = 20  # phase i uses 127.0.0.(20 + 10 i) ... (+9)


def _sources(phase: str, count: int) -> list[str]:
    base = FIRST_SOURCE + 10 * ATTACKS.index(phase)
    return [f"127.0.0.{base + i}" for i in range(count)]


async def _fill_tables(url: str, source: str, tag: str, **create: Any) -> tuple[int, list[Any]]:
    """Tables from ``source`` until the first refusal: (created, connections held)."""
    created, held = 0, []
    while len(held) < 40:
        try:
            ws = await hello(url, f"{tag}{len(held)}", source)
        except Exception:
            break
        held.append(ws)
        for _ in range(10):  # tables one player may sit at
            await ws.send(encode(m.CreateTable(**create)))
            if not isinstance(await until(ws, m.Snapshot), m.Snapshot):
                return created, held
            created += 1
    return created, held


async def _tables(url: str, deadline: float) -> dict[str, Any]:
    *holders, newcomer = _sources("tables", 6)
    results = await asyncio.gather(
        *(_fill_tables(url, s, f"t{i}_", private=True) for i, s in enumerate(holders))
    )
    late = await hello(url, "newcomer", newcomer)
    await late.send(encode(m.CreateTable(private=True)))
    ok = isinstance(await until(late, m.Snapshot), m.Snapshot)
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    for _, held in results:
        for ws in held:
            ws.transport.abort()
    late.transport.abort()
    return {"tables_by_address": [c for c, _ in results], "newcomer_created": ok}


async def _connections(url: str, deadline: float) -> dict[str, Any]:
    *holders, newcomer = _sources("connections", 5)
    held: list[ClientConnection] = []
    counts = []
    for source in holders:
        count = 0
        while count < 300:
            try:
                ws = await open_ws(url, source)
                await ws.send(encode(m.Ping(nonce=1)))  # refused ones are closed at once
                reply = decode_server(await asyncio.wait_for(ws.recv(), 5))  # type: ignore[arg-type]
            except Exception:
                break
            held.append(ws)
            if isinstance(reply, m.ErrorMessage) and reply.code == "server_full":
                break
            count += 1
        counts.append(count)
    try:
        late = await hello(url, "newcomer", newcomer)
        ok = True
        late.transport.abort()
    except Exception:
        ok = False
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    for ws in held:
        ws.transport.abort()
    return {"connections_by_address": counts, "newcomer_connected": ok}


async def _bot_tables(url: str, deadline: float) -> dict[str, Any]:
    create = {
        "bot": "hard",
        "hold_seconds": 0,
        "on_hold_expiry": "bot",
        "overrides": {"target_score": 100_000},
    }
    sources = _sources("bot_tables", 8)
    results = await asyncio.gather(
        *(_fill_tables(url, s, f"b{i}_", **create) for i, s in enumerate(sources))
    )
    for _, held in results:
        for ws in held:
            ws.transport.abort()  # stand-ins play the hard bots on
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    return {"bot_tables_by_address": [c for c, _ in results]}


async def _list_flood(url: str, deadline: float) -> dict[str, Any]:
    hosts = [await hello(url, f"lh{i}", _sources("list_flood", 5)[4]) for i in range(10)]
    for ws in hosts:
        for _ in range(10):
            await ws.send(encode(m.CreateTable()))
            await until(ws, m.Snapshot)
    lists = refused = 0

    async def lister(source: str, index: int) -> None:
        nonlocal lists, refused
        ws = await hello(url, f"ll{index}", source)
        with contextlib.suppress(Exception):
            while time.monotonic() < deadline:
                for _ in range(25):
                    await ws.send(encode(m.ListTables()))
                for _ in range(25):
                    reply = decode_server(await ws.recv())  # type: ignore[arg-type]
                    lists += isinstance(reply, m.TableList)
                    refused += isinstance(reply, m.ErrorMessage)
                await asyncio.sleep(0.5)

    await asyncio.gather(
        *(lister(s, i * 12 + j) for i, s in enumerate(_sources("list_flood", 4)) for j in range(12))
    )
    for ws in hosts:
        ws.transport.abort()
    return {"lists": lists, "refused": refused}


async def _json_keys(url: str, deadline: float) -> dict[str, Any]:
    bloated = json.dumps(
        {"type": "ping", "id": 1, **{f"k{i}": 0 for i in range(300)}}, separators=(",", ":")
    )
    sent = 0

    async def sender(source: str) -> None:
        nonlocal sent
        ws = await open_ws(url, source, json_wire=True)
        with contextlib.suppress(Exception):
            while time.monotonic() < deadline:
                for _ in range(25):
                    await ws.send(bloated)
                for _ in range(25):
                    await ws.recv()
                sent += 25
                await asyncio.sleep(0.8)
        ws.transport.abort()

    await asyncio.gather(*(sender(s) for s in _sources("json_keys", 2) for _ in range(20)))
    return {"bloated_frames": sent}


async def _credit_play(url: str, deadline: float) -> dict[str, Any]:
    source = _sources("credit_play", 1)[0]
    first, second = await hello(url, "cp1", source), await hello(url, "cp2", source)
    await first.send(encode(m.CreateTable(overrides={"target_score": 100_000})))
    code = (await until(first, m.Snapshot)).table.code
    await second.send(encode(m.JoinTable(code=code)))
    moves = refused = 0
    start = time.monotonic()

    async def player(ws: ClientConnection, seed: int) -> None:
        nonlocal moves, refused
        rng, seq = random.Random(seed), 0
        with contextlib.suppress(Exception):
            while time.monotonic() < deadline:
                message = decode_server(await asyncio.wait_for(ws.recv(), 5))  # type: ignore[arg-type]
                if isinstance(message, m.YourTurn):
                    seq += 1
                    act = m.Act(
                        code=code,
                        action=rng.choice(message.legal),
                        version=message.version,
                        seq=seq,
                    )
                    await ws.send(encode(act))
                    moves += 1
                elif isinstance(message, m.ErrorMessage):
                    refused += 1
                    await ws.send(encode(m.JoinTable(code=code)))  # a snapshot: its turn again

    await asyncio.gather(player(first, 1), player(second, 2))
    for ws in (first, second):
        ws.transport.abort()
    return {"moves_per_second": round(moves / (time.monotonic() - start), 1), "refused": refused}


def attack(name: str, url: str, deadline: float, results: Any) -> None:
    """Run one phase's attack until ``deadline`` (time.monotonic); in a child process."""
    run_attack = globals()[f"_{name}"]
    try:
        results[name] = asyncio.run(
            asyncio.wait_for(run_attack(url, deadline), deadline - time.monotonic() + 30)
        )
    except BaseException as error:  # report, never hang the benchmark
        results[name] = {"attack_error": repr(error)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        async with server_process(f"{folder}/abuse.db") as (server, url):
            honest = Honest(url)
            tasks = honest.start()
            manager = multiprocessing.get_context("spawn").Manager()
            results = manager.dict()
            phases: dict[str, Any] = {}
            ledger = Ledger()
            for index, name in enumerate(("baseline", *args.attacks)):
                if index > 1:  # the attack's own reference, measured just before it
                    await quiet_window(server, honest, ledger, args.seconds)
                deadline = time.monotonic() + args.warmup + args.seconds
                child = None
                if name != "baseline":
                    child = spawn(attack, (name, url, deadline, results))
                window = await measure(server, honest, args.warmup, deadline)
                join(child, 60)
                if name == "baseline":
                    ledger.quiet(window.sample, window.replies)
                else:
                    ledger.attacked(name, window.sample, window.replies)
                phases[name] = {
                    **honest_figures(window),
                    "server_rss_mib": round(window.rss_kib / 1024, 1),
                    "server_alive": server.poll() is None,
                    "attacker": dict(results.get(name, {})) if name != "baseline" else {},
                }
                await asyncio.sleep(args.pause)  # what the attack left is reclaimed
            if args.attacks:  # the last attack's quiet window after it (bracketed)
                await quiet_window(server, honest, ledger, args.seconds)
            honest.stop = True
            for task in tasks:
                task.cancel()
            manager.shutdown()
    for name in args.attacks:
        phases[name].update(ledger.figures(name))
    base = phases["baseline"]
    attacked = [p for name, p in phases.items() if name != "baseline"] or [base]
    worst_ping = max((p["ping_p99_ms"] or 0.0) for p in attacked)
    worst_bot = max((p["bot_reply_p50_s"] or 0.0) for p in attacked)
    return {
        "benchmark": "abuse_shares",
        "seconds_per_phase": args.seconds,
        "phases": phases,
        "worst_ping_p99_ms": worst_ping,
        "ping_p99_ratio_to_baseline": ratio(base["ping_p99_ms"], worst_ping),
        "worst_bot_reply_p50_s": worst_bot,
        "bot_reply_ratio_to_baseline": ratio(base["bot_reply_p50_s"], worst_bot),
        **ledger.summary(),
        "honest_errors": honest.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="attack before measuring")
    parser.add_argument("--pause", type=float, default=2.0, help="between phases")
    args = parser.parse_args()
    place_clients()  # before any process starts: they all run where this one does
    args.attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(args.attacks) - set(ATTACKS)
    if unknown:
        parser.error(f"unknown attacks: {', '.join(sorted(unknown))}")
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
