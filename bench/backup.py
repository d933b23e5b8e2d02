"""Backup benchmark: ``spades backup`` of a live store while tables play.

    nice -n 10 python3 bench/backup.py --tables 200 --rate 2 --duration 20 --prefill 500

Starts ``python3 -m server`` on a store prefilled with ``--prefill`` finished game
records (a real game's record each, so the file has a realistic size) and drives
``--tables`` tables of two random clients (``bench/load.py``'s light client) at ``--rate``
actions per second per table for ``--duration`` seconds twice: once without backups,
once with ``spades backup`` (the real command, as its own process, 10 steps nicer than
the server as ``deploy/spades-backup.service`` runs it) taking copies back to back. The
last copy is integrity-checked and every record in it replayed with ``engine.replay``.
All traffic stays on 127.0.0.1; every loop is bounded by ``--duration`` and the count of
records. Prints one JSON object on its last line: the
store's size, each phase's action latency (p50/p99/max ms) and actions per second, the
backups' count and seconds (p50/max; ``copy_*``: the copy alone, as the command reports
it, without starting Python), the copy's size, and records replayed and failed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import summary
from bench.loadlib.rawclient import percentile, spread, start_process
from bench.loadlib.tables import worker
from engine import Deal, GameState, RuleSet, game_record, replay
from engine.bot import Bot
from server.backup import check_copy
from server.store import Store

ROOT = Path(__file__).resolve().parent.parent
BACKUP_NICE = 10


def a_finished_record(seed: int) -> dict[str, Any]:
    """A whole classic game of two easy bots, as its record."""
    rng = random.Random(seed)
    state = GameState(RuleSet.preset("classic"))
    bots = (Bot("easy", seed=rng.randrange(2**32)), Bot("easy", seed=rng.randrange(2**32)))
    for _ in range(100_000):  # a bound: a game is a few thousand actions
        if state.is_over:
            return game_record(state)
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(rng.randbytes(32)))
        else:
            state.apply(seat, bots[seat].choose(state.view_for(seat)))
    raise RuntimeError("the bots' game did not end")


def prefill(path: str, records: int) -> None:
    store = Store(path, autocommit=False)
    record = a_finished_record(1)
    for number in range(records):
        store.save_record(f"prefill-{number}", f"OLD{number:05d}", 1, record)
        store.add_player(f"old-{number}", f"player {number}", f"token {number}")
    store.commit()
    store.close()


def load_phase(port: int, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    setup = 2.0 + args.tables / 100
    start_at = time.monotonic() + setup
    stop_at = start_at + args.duration
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(
            worker,
            [
                (port, tables, 0, args.rate, start_at, stop_at, seed + i)
                for i, tables in enumerate(spread(args.tables, args.workers))
            ],
        )
    latencies = [x for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    return {
        **summary(latencies),
        "actions_per_s": round(actions / args.duration, 1),
        "errors": sum(r["errors"] for r in results),
        "start_at": start_at,
        "stop_at": stop_at,
    }


def backups_until(
    store: str, copy: str, start_at: float, stop_at: float, out: list[float], copying: list[float]
) -> None:
    """``spades backup`` back to back from ``start_at`` until ``stop_at``; each one's
    seconds go to ``out``, and the seconds of the copy itself (as the command reports
    them, without starting Python) to ``copying``; a failed one raises."""
    time.sleep(max(0.0, start_at - time.monotonic()))
    while time.monotonic() < stop_at:
        began = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "client.cli", "backup", copy, "--db", store],
            # as deploy/spades-backup.service runs it: Nice=10 below the server
            preexec_fn=lambda: os.nice(BACKUP_NICE),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip())
        out.append(time.monotonic() - began)
        copying.append(float(done.stdout.rsplit("checked, ", 1)[1].split(" s)")[0]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=2.0, help="actions per second per table")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of each phase")
    parser.add_argument("--prefill", type=int, default=500, help="finished records stored first")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        store, copy = f"{folder}/live.db", f"{folder}/copy.db"
        prefill(store, args.prefill)
        server, port = start_process(
            [
                sys.executable, "-m", "server", "--port", "0", "--db", store,
                "--max-connections", "10000", "--max-tables", "10000", "--bot-delay", "0",
                "--connects-per-second-per-address", "0",
            ]
        )  # fmt: skip
        try:
            quiet = load_phase(port, args, seed=1)
            seconds: list[float] = []
            copying: list[float] = []
            errors: list[BaseException] = []
            setup = 2.0 + args.tables / 100

            def take() -> None:
                try:
                    start_at = time.monotonic() + setup
                    backups_until(store, copy, start_at, start_at + args.duration, seconds, copying)
                except BaseException as error:
                    errors.append(error)

            taker = threading.Thread(target=take)
            taker.start()
            during = load_phase(port, args, seed=100)
            taker.join()
            if errors:
                raise errors[0]
            store_bytes = Path(store).stat().st_size
        finally:
            server.terminate()
            server.wait(timeout=30)
        tables, records = check_copy(copy)
        failed = 0
        db = Store(copy)
        rows = db._db.execute("SELECT record FROM records").fetchall()
        db.close()
        for (text,) in rows:
            try:
                replay(json.loads(text))
            except Exception:
                failed += 1
        copy_bytes = Path(copy).stat().st_size

    for phase in (quiet, during):
        phase.pop("start_at")
        phase.pop("stop_at")
    print(
        json.dumps(
            {
                "tables": args.tables,
                "rate_per_table": args.rate,
                "duration_s": args.duration,
                "store_mib": round(store_bytes / 2**20, 2),
                "without_backup": quiet,
                "during_backups": during,
                "backups": len(seconds),
                "backup_p50_s": round(percentile(seconds, 0.5), 3),
                "backup_max_s": round(max(seconds), 3) if seconds else None,
                "copy_p50_s": round(percentile(copying, 0.5), 3),
                "copy_max_s": round(max(copying), 3) if copying else None,
                "copy_mib": round(copy_bytes / 2**20, 2),
                "copy_open_tables": tables,
                "copy_records": records,
                "records_replayed": len(rows),
                "replay_failures": failed,
            }
        )
    )


if __name__ == "__main__":
    main()
