"""Abuse benchmark: each attack of issue 10 against a live server, beside an honest table.

    python3 bench/abuse.py                       # every suite, about 12.5 minutes
    python3 bench/abuse.py --attacks ping_flood,bot_tables --seconds 8
    python3 bench/abuse.py --suites core --placement shared   # every process on every core

``--placement split`` (the default) runs the server and its bot workers on the first core
and every client process (the honest players, the attacks) on the other, as an
attacker's machines are not the server's; ``shared`` lets every process use both cores,
as the figures before this option were measured. Each phase also reports the machine's
busy CPU (``machine_busy_pct``, 200 for two whole cores), the honest process's own CPU,
and how late a process at normal priority on the server's core woke from 10 ms sleeps
(``wake_late_p99_ms``; ``client_wake_late_p99_ms`` on the clients' core): the machine's
part of the honest tail, which the server does not cause.

Starts ``python3 -m server`` (default limits, a throw-away SQLite file) on 127.0.0.1. An
honest player (from 127.0.0.1) plays the easy bot at its default 0.6 s delay the whole
time, and six honest probe connections (127.0.0.1, .201 to .205) each send an application
``ping`` every 40 ms (``pings`` in each phase: the p99's sample). Then each
attack in turn runs in its own process from its own loopback address (127.0.0.2, .3,
...), so the per-address limits apply to it as to a stranger: a ``--warmup`` before the measured
window of ``--seconds``. For every phase (``baseline`` first, with no attack) it records
the honest ping round trip (p50, p99 in ms), the honest bot's reply (from the action
sent to the next ``your_turn``: p50 in s, bot delay included), the server's CPU in the
window (``server_cpu_pct``: its own process, % of one core), the server's largest RSS
(MiB, its own process), and what the attacker achieved. Before each attack after the
first, a quiet window of the same length (no attack, the same honest load) is measured:
each attack phase reports its p99 against that window and against every quiet window
pooled, each with a block-bootstrap 95% interval, and whether it is within 2x (``met``,
``missed`` or ``unclear``; see bench/abuse_stats.py). Every loop is bounded in count
and time; all traffic stays on loopback. Prints one JSON object on its last line.

Attacks: ``ping_flood`` (websocket ping frames, never reading), ``slow_reader``
(requests whose replies are never read), ``hello_flood`` (hello and hang up, as fast as
possible), ``squat`` (tables with a one-hour hold, then gone), ``bot_tables`` (hard bot
tables with stand-ins and nobody there), ``list_flood`` (four clients listing 100
tables at their rate limit), ``half_open`` (handshakes that never finish).

The attacks of hardening round 3 live beside it, each runnable alone with its own server
and honest players: ``bench/abuse_work.py`` (analysis flood, create and leave, report
flood, record egress), ``bench/abuse_edge.py`` (half-open sockets from several addresses,
HEAD and garbage floods measured in log bytes) and ``bench/abuse_shares.py`` (fair shares
from several addresses and an IPv6 /64, list and unknown-key floods, the turn credit). With
``--suites`` (default: all of ``core,work,edge,shares``) this script runs each in turn and
prints one JSON object with a key per suite (``core`` is the attacks above).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from bench.abuse_kit import (
    ATTACK_NICENESS,
    PLACEMENT_ENV,
    PLACEMENTS,
    SERVER_ARGS_ENV,
    Honest,
    hello,
    honest_figures,
    join,
    measure,
    place_clients,
    placement,
    ratio,
    server_process,
    spawn,
    until,
)
from bench.abuse_settle import quiet_window
from bench.abuse_stats import Ledger
from protocol import messages as m
from protocol.codec import encode

ATTACKS = (
    "ping_flood",
    "slow_reader",
    "hello_flood",
    "squat",
    "bot_tables",
    "list_flood",
    "half_open",
)
ATTACKER = "127.0.0.2"  # each attack process sets its own: 127.0.0.2, .3, ...


# ---- attacks (each runs in its own process until its deadline) -----------------------


async def _ping_flood(url: str, deadline: float) -> dict[str, int]:
    pings = dropped = refused = 0
    while time.monotonic() < deadline:
        conns: list[ClientConnection] = []
        try:
            for i in range(2):
                conns.append(await hello(url, f"pf{i}", ATTACKER))
        except (ConnectionError, OSError, WebSocketException):
            # dropped connections come back at once: their hellos spend the address's
            # request budget, and a refused one tries again (the attack goes on)
            refused += 1
            for ws in conns:
                ws.transport.abort()
            await asyncio.sleep(0.05)
            continue
        for ws in conns:
            ws.transport.pause_reading()
        while time.monotonic() < deadline and not all(ws.transport.is_closing() for ws in conns):
            for ws in conns:
                if ws.transport.is_closing():
                    continue
                with contextlib.suppress(Exception):
                    for _ in range(50):
                        ws.protocol.send_ping(b"p" * 125)
                    ws.send_data()
                    pings += 50
            await asyncio.sleep(0.002)
        dropped += sum(ws.transport.is_closing() for ws in conns)
        for ws in conns:
            ws.transport.abort()
    return {"pings_sent": pings, "connections_dropped": dropped, "hellos_refused": refused}


async def _slow_reader(url: str, deadline: float) -> dict[str, int]:
    sent = dropped = 0
    while time.monotonic() < deadline:
        ws = await hello(url, "slow", ATTACKER)
        await ws.send(encode(m.CreateTable(private=True)))
        snap = await until(ws, m.Snapshot)
        if not isinstance(snap, m.Snapshot):
            break
        ws.transport.pause_reading()
        request = encode(m.WatchTable(code=snap.table.code))
        while time.monotonic() < deadline and not ws.transport.is_closing():
            with contextlib.suppress(Exception):
                for _ in range(20):  # within the message rate limit
                    ws.protocol.send_binary(request)
                ws.send_data()
                sent += 20
            await asyncio.sleep(0.7)
        dropped += ws.transport.is_closing()
        ws.transport.abort()
    return {"requests_unread": sent, "connections_dropped": dropped}


async def _hello_flood(url: str, deadline: float) -> dict[str, int]:
    hellos = refused = 0

    async def one_loop(index: int) -> None:
        nonlocal hellos, refused
        while time.monotonic() < deadline:
            try:
                ws = await hello(url, f"hf{index}", ATTACKER)
                hellos += 1
                await ws.close()
            except Exception:
                refused += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one_loop(i) for i in range(16)))
    return {"hellos": hellos, "refused": refused}


async def _squat(url: str, deadline: float) -> dict[str, int]:
    created = refused = 0
    held: list[ClientConnection] = []
    while time.monotonic() < deadline and refused < 3:
        ws = await hello(url, f"sq{len(held)}", ATTACKER)
        held.append(ws)
        for _ in range(10):
            await ws.send(encode(m.CreateTable(hold_seconds=3600)))
            reply = await until(ws, m.Snapshot)
            if isinstance(reply, m.Snapshot):
                created += 1
            else:
                refused += 1
                break
    for ws in held:
        ws.transport.abort()
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    return {"tables_created": created, "refusals": refused}


async def _bot_tables(url: str, deadline: float) -> dict[str, int]:
    created = refused = 0
    held: list[ClientConnection] = []
    while time.monotonic() < deadline and refused < 3:
        ws = await hello(url, f"bt{len(held)}", ATTACKER)
        held.append(ws)
        for _ in range(10):
            await ws.send(
                encode(
                    m.CreateTable(
                        bot="hard",
                        hold_seconds=0,
                        on_hold_expiry="bot",
                        overrides={"target_score": 100_000},
                    )
                )
            )
            reply = await until(ws, m.Snapshot)
            if isinstance(reply, m.Snapshot):
                created += 1
            else:
                refused += 1
                break
    for ws in held:
        ws.transport.abort()  # nobody left: the stand-ins would play the hard bots forever
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    return {"bot_tables_created": created, "refusals": refused}


async def _list_flood(url: str, deadline: float) -> dict[str, int]:
    hosts = [await hello(url, f"lh{i}", ATTACKER) for i in range(10)]
    made = 0
    for ws in hosts:
        for _ in range(10):
            await ws.send(encode(m.CreateTable()))
            made += isinstance(await until(ws, m.Snapshot), m.Snapshot)
    lists = 0

    async def lister(index: int) -> None:
        nonlocal lists
        ws = await hello(url, f"ll{index}", ATTACKER)
        while time.monotonic() < deadline:
            for _ in range(25):  # just under the 30 messages/s budget
                await ws.send(encode(m.ListTables()))
            for _ in range(25):
                await ws.recv()
            lists += 25
            await asyncio.sleep(max(0.0, 0.9))

    await asyncio.gather(*(lister(i) for i in range(4)))
    for ws in hosts:
        ws.transport.abort()
    return {"public_tables": made, "lists": lists}


async def _half_open(url: str, deadline: float) -> dict[str, int]:
    port = int(url.rsplit(":", 1)[1].strip("/"))
    opened = 0
    writers: list[asyncio.StreamWriter] = []
    while time.monotonic() < deadline:
        writers = [w for w in writers if not w.is_closing()]
        while len(writers) < 400 and time.monotonic() < deadline:
            try:
                _, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACKER, 0)
                )
            except OSError:
                break
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            writers.append(writer)
            opened += 1
        await asyncio.sleep(0.2)
    for writer in writers:
        writer.close()
    return {"half_open_connections": opened}


def _attack(name: str, url: str, deadline: float, results: Any) -> None:
    """Run in a child process: one attack until ``deadline`` (time.monotonic), from its
    own loopback address (what one attack leaves behind does not limit the next)."""
    global ATTACKER
    ATTACKER = f"127.0.0.{2 + ATTACKS.index(name)}"
    attack = globals()[f"_{name}"]
    try:
        results[name] = asyncio.run(
            asyncio.wait_for(attack(url, deadline), deadline - time.monotonic() + 10)
        )
    except BaseException as error:  # report, never hang the benchmark
        results[name] = {"attack_error": repr(error)}


# ---- phases ----------------------------------------------------------------------------


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
                    child = spawn(_attack, (name, url, deadline, results))
                window = await measure(server, honest, args.warmup, deadline)
                join(child, 30)
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
            if args.attacks:  # the last attack's quiet window after it (bracketed)
                await quiet_window(server, honest, ledger, args.seconds)
            honest.stop = True
            for task in tasks:
                task.cancel()
            manager.shutdown()
    for name in args.attacks:
        phases[name].update(ledger.figures(name))
    base = phases["baseline"]
    worst_ping = max((p["ping_p99_ms"] or 0.0) for p in phases.values())
    worst_bot = max((p["bot_reply_p50_s"] or 0.0) for p in phases.values())
    return {
        "benchmark": "abuse",
        "seconds_per_phase": args.seconds,
        "phases": phases,
        "worst_ping_p99_ms": worst_ping,
        # against the suite's first window only (the figure of earlier rounds)
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
    parser.add_argument("--seconds", type=float, default=14.0, help="measured per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="attack before measuring")
    parser.add_argument("--suites", default=",".join(SUITES), help="comma-separated")
    parser.add_argument(
        "--attack-nice",
        type=int,
        default=ATTACK_NICENESS,
        help="the attacks' processes' niceness (0: on equal terms with the server)",
    )
    parser.add_argument(
        "--placement",
        choices=PLACEMENTS,
        default="split",
        help="split: the server on one core, every client process on the other (an "
        "attacker's CPU is not on the server's machine); shared: all on every core",
    )
    parser.add_argument(
        "--server-args",
        default="",
        help="more `spades serve` options for every suite's server, e.g. '--loop-slice-us 0'",
    )
    args = parser.parse_args()
    os.environ["SPADES_ATTACK_NICE"] = str(args.attack_nice)  # the suites' scripts too
    os.environ[PLACEMENT_ENV] = args.placement
    os.environ[SERVER_ARGS_ENV] = args.server_args
    place_clients()
    args.attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(args.attacks) - set(ATTACKS)
    if unknown:
        parser.error(f"unknown attacks: {', '.join(sorted(unknown))}")
    suites = [name for name in args.suites.split(",") if name]
    if set(suites) - set(SUITES):
        parser.error(f"unknown suites: {', '.join(sorted(set(suites) - set(SUITES)))}")
    result: dict[str, Any] = {"attack_nice": args.attack_nice, "placement": placement()}
    result["server_args"] = args.server_args
    for name in suites:
        result[name] = asyncio.run(run(args)) if name == "core" else run_suite(SUITES[name])
    print(json.dumps(result))


SUITES = {
    "core": "",
    "work": "abuse_work.py",
    "edge": "abuse_edge.py",
    "shares": "abuse_shares.py",
}


def run_suite(script: str, timeout: float = 900.0) -> dict[str, Any]:
    """Run one of the other abuse scripts (own server, own honest players); its JSON line.

    The script runs in a process group of its own. If it has not ended after ``timeout``
    seconds, the whole group (the script, its server, the server's workers and the
    attackers) is ended and the suite reports ``{"error": "timed out ..."}``: a suite that
    hangs must not leave a server behind to skew the next suite's figures.
    """
    path = Path(__file__).resolve().parent / script
    process = subprocess.Popen(
        [sys.executable, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _end_group(process)
        stdout, stderr = process.communicate()
        return {"error": f"timed out after {timeout:g} s", "stderr": stderr[-2000:]}
    lines = stdout.strip().splitlines()
    if process.returncode != 0 or not lines:
        return {"error": f"exit {process.returncode}", "stderr": stderr[-2000:]}
    parsed: dict[str, Any] = json.loads(lines[-1])
    return parsed


def _end_group(process: subprocess.Popen[str]) -> None:
    """Ask the process group of ``process`` to end, then kill what is left of it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    # The group outlives its leader: kill the server and attackers it left, if any.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
