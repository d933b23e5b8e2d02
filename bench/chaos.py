"""Chaos benchmark: SIGKILL the server under load, restart it on the same store, and check
that no acknowledged action is lost or applied twice.

    python3 bench/chaos.py                          # 200 tables, 4 kills, ~1.5 minutes
    python3 bench/chaos.py --tables 50 --kills 3 --duration 30

Starts ``python3 -m server`` on loopback with a SQLite file in a temporary folder. Each
table is two protocol clients (in this process) playing random legal actions at
``--pace`` actions per second per table, one short game after another (target score 1,
so a game is about one hand), on tables whose dropped seats wait for their player. During
``--duration`` seconds the server is killed with SIGKILL ``--kills`` times at random
moments and restarted on the same store and port; every client reconnects, says hello
with its token, gets ``welcome`` (resumed) and its snapshots, resends the action it had
not seen acknowledged (same ``seq``) and carries on. After the duration no new game
starts; the games in progress are played out (bounded by ``--grace``), the server is
stopped cleanly and the store is checked:

- ``actions_lost``: acknowledged actions not in the store (must be 0);
- ``actions_applied_twice``: a seat's ``seq`` stored more than once in a game, or an
  acknowledgement whose stored action has another seat or ``seq`` (must be 0);
- ``records_differing``: finished games whose stored record differs from a clean replay
  of their stored actions, or whose record fails ``engine.replay(record, check=True)``
  (must be 0);
- ``max_resume_s``: the longest time from a restart (the new process started) to every
  client having its ``welcome`` and snapshots again.

Every loop is bounded in count and time; all traffic stays on 127.0.0.1. Prints one JSON
object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from engine import GameState, RecordError, RuleSet, game_record, parse_action, replay
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode

RULES: dict[str, int | bool | str | None] = {"target_score": 1, "lose_score": -1}


class ServerProcess:
    """The server as a subprocess on a fixed store (and, after the first start, port)."""

    def __init__(self, db: Path, folder: Path) -> None:
        self.db = db
        self.folder = folder
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None
        self.starts = 0

    def start(self) -> float:
        """Start it and wait until it listens; returns when the process was started."""
        for attempt in range(50):
            self.starts += 1
            log = open(self.folder / f"server-{self.starts}.log", "w")  # noqa: SIM115
            started = time.monotonic()
            proc = subprocess.Popen(
                [
                    sys.executable, "-m", "server", "--port", str(self.port), "--db", str(self.db),
                    "--bot-delay", "0", "--bot-workers", "0", "--rate", "1000",
                    "--rate-burst", "1000", "--max-connections", "10000",
                    "--connects-per-second-per-address", "0",
                    "--max-tables", "100000", "--hold-seconds", "3600",
                    "--log-level", "WARNING",
                ],
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )  # fmt: skip
            log.close()
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if "listening on ws://" in line:
                self.proc = proc
                self.port = int(line.rsplit(":", 1)[1].strip().strip("/"))
                return started
            proc.wait(10)
            time.sleep(0.1 * (attempt + 1))  # the port may not be free again yet
        raise RuntimeError("the server does not start again")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Stats:
    def __init__(self) -> None:
        self.acks: dict[tuple[str, int, int], int] = {}  # (code, seat, seq) -> version
        self.acked = 0
        self.errors: Counter[str] = Counter()
        self.games_over: set[str] = set()
        self.reconnects = 0


class Player:
    """One seat's client: reconnects with its token whenever the connection breaks."""

    def __init__(self, name: str, pair: Pair, index: int) -> None:
        self.name = name
        self.pair = pair
        self.index = index
        self.token: str | None = None
        self.ws: ClientConnection | None = None
        self.seq = 0
        self.pending: m.Act | None = None
        self.seats: dict[str, int] = {}  # table code -> my seat
        self.resumed_at = 0.0
        self.turn_task: asyncio.Task[None] | None = None
        self.done = False

    async def run(self, deadline: float) -> None:
        server = self.pair.server
        while not self.done and time.monotonic() < deadline:
            try:
                self.ws = await connect(
                    server.url, compression=None, max_size=MAX_SERVER_MESSAGE_BYTES, open_timeout=5
                )
            except Exception:  # the server is down: try again shortly
                await asyncio.sleep(0.05 + random.random() * 0.05)
                continue
            try:
                await self._session(self.ws, deadline)
            except ConnectionClosed:
                pass
            finally:
                if self.turn_task is not None:
                    self.turn_task.cancel()
                    self.turn_task = None
                await self.ws.close()
            if not self.done:
                self.pair.stats.reconnects += 1
                await asyncio.sleep(0.05 + random.random() * 0.05)

    async def _session(self, ws: ClientConnection, deadline: float) -> None:
        await ws.send(encode(m.Hello(protocol_version=1, name=self.name, token=self.token)))
        async with asyncio.timeout(max(0.1, deadline - time.monotonic())):
            async for data in ws:
                assert isinstance(data, bytes)
                await self._handle(ws, decode_server(data))
                if self.done:
                    return

    async def _handle(self, ws: ClientConnection, message: m.ServerMessage) -> None:
        pair = self.pair
        if isinstance(message, m.Welcome):
            first = self.token is None
            self.token = message.token
            if first:
                if self.index == 0:
                    await pair.new_game(self)
                elif pair.code is not None:
                    await ws.send(encode(m.JoinTable(code=pair.code)))
                return
            if not message.tables:
                self.resumed_at = time.monotonic()
            if self.pending is not None:  # not acknowledged: send it again, same seq
                await ws.send(encode(self.pending))
            await pair.resume(self, message)
        elif isinstance(message, m.Snapshot):
            code = message.table.code
            if message.table.your_seat is not None:
                self.seats[code] = message.table.your_seat
            self.resumed_at = time.monotonic()
            await pair.on_snapshot(self, message)
        elif isinstance(message, m.YourTurn):
            if self.pending is not None and self.pending.version == message.version:
                return  # the resent action answers this turn
            if self.turn_task is not None:
                self.turn_task.cancel()
            self.turn_task = asyncio.create_task(self._act_later(ws, message))
        elif isinstance(message, m.Ack):
            seat = self.seats[message.table]
            key = (message.table, seat, message.seq)
            if key not in pair.stats.acks:
                pair.stats.acked += 1
                pair.stats.acks[key] = message.version
            elif pair.stats.acks[key] != message.version:
                pair.stats.errors["ack_version_changed"] += 1
            if self.pending is not None and self.pending.seq == message.seq:
                self.pending = None
        elif isinstance(message, m.GameOver):
            await pair.game_over(self, message.table)
        elif isinstance(message, m.ErrorMessage):
            pair.stats.errors[message.code] += 1
            if message.request == "action":
                self.pending = None

    async def _act_later(self, ws: ClientConnection, turn: m.YourTurn) -> None:
        await asyncio.sleep(random.expovariate(self.pair.pace))
        if turn.phase == "exchange":
            action: m.ActionMessage = m.ExchangeAction(cards=())
        else:
            action = random.choice(turn.legal)
        self.seq += 1
        self.pending = m.Act(code=turn.table, action=action, version=turn.version, seq=self.seq)
        self.turn_task = None
        with contextlib.suppress(ConnectionClosed):  # if not, resent after the reconnect
            await ws.send(encode(self.pending))


class Pair:
    """Two players, one table at a time."""

    def __init__(
        self, number: int, server: ServerProcess, stats: Stats, pace: float, stop_new: float
    ) -> None:
        self.server = server
        self.stats = stats
        self.pace = pace
        self.stop_new = stop_new
        self.players = [Player(f"c{number}a", self, 0), Player(f"c{number}b", self, 1)]
        self.code: str | None = None  # the table being played
        self.known: set[str] = set()
        self.finished = 0

    async def new_game(self, creator: Player) -> None:
        if time.monotonic() >= self.stop_new:
            for player in self.players:
                player.done = True
                if player.ws is not None:
                    await player.ws.close()
            return
        self.code = None
        create = m.CreateTable(
            preset="classic", overrides=RULES, private=True, on_hold_expiry="wait"
        )
        if creator.ws is not None:
            # if this fails, on its next welcome it finds the table or creates it again
            with contextlib.suppress(ConnectionClosed):
                await creator.ws.send(encode(create))

    async def resume(self, player: Player, welcome: m.Welcome) -> None:
        assert player.ws is not None
        if player.index == 0 and self.code is None:
            fresh = [code for code in welcome.tables if code not in self.known]
            if fresh:  # the create went through before the crash
                self.code = fresh[-1]
                self.known.add(self.code)
                await player.ws.send(encode(m.JoinTable(code=self.code)))
            else:
                await self.new_game(player)
        elif player.index == 1 and self.code is not None and self.code not in welcome.tables:
            await player.ws.send(encode(m.JoinTable(code=self.code)))

    async def on_snapshot(self, player: Player, snapshot: m.Snapshot) -> None:
        code = snapshot.table.code
        if player.index == 0 and self.code is None and code not in self.known:
            self.code = code
            self.known.add(code)
            other = self.players[1]
            if other.ws is not None and other.token is not None:
                with contextlib.suppress(ConnectionClosed):
                    await other.ws.send(encode(m.JoinTable(code=code)))
        if code == self.code and snapshot.table.status == "finished":
            await self.game_over(player, code)  # it ended while we were away

    async def game_over(self, player: Player, code: str) -> None:
        if code != self.code:
            return
        self.stats.games_over.add(code)
        self.finished += 1
        self.code = None
        await self.new_game(self.players[0])

    async def run(self, deadline: float) -> None:
        first, second = self.players
        task = asyncio.create_task(first.run(deadline))
        while first.token is None and not task.done():
            await asyncio.sleep(0.05)
        await asyncio.gather(task, second.run(deadline))


def check_store(db: Path, stats: Stats) -> dict[str, Any]:
    """Compare the acknowledgements with the store and every record with a replay."""
    con = sqlite3.connect(db)
    rows: dict[tuple[str, int], list[tuple[int, int | None, str, int | None]]] = {}
    for code, game_no, idx, seat, action, seq in con.execute(
        "SELECT code, game_no, idx, seat, action, seq FROM actions ORDER BY code, game_no, idx"
    ):
        rows.setdefault((code, game_no), []).append((idx, seat, action, seq))
    twice = 0
    by_version: dict[tuple[str, int], tuple[int | None, int | None]] = {}
    for (code, _), actions in rows.items():
        seqs = Counter((seat, seq) for _, seat, _, seq in actions if seq is not None)
        twice += sum(count - 1 for count in seqs.values())
        for idx, seat, _, seq in actions:
            by_version[(code, idx)] = (seat, seq)
    lost = 0
    for (code, seat, seq), version in stats.acks.items():
        stored = by_version.get((code, version))
        if stored is None:
            lost += 1
        elif stored != (seat, seq):
            twice += 1
    rules = {
        code: RuleSet.from_dict(json.loads(data)["rules"])
        for code, data in con.execute("SELECT code, data FROM tables")
    }
    differing = 0
    finished = 0
    for code, game_no, text in con.execute("SELECT code, game_no, record FROM records"):
        record = json.loads(text)
        finished += 1
        state = GameState(rules[code])
        try:
            for _, seat, action, _ in rows.get((code, game_no), []):
                state.apply(seat, parse_action(action))
            if game_record(state) != record:
                differing += 1
                continue
            replay(record, check=True)
        except (RecordError, Exception):
            differing += 1
    unfinished = len(rows) - finished
    con.close()
    return {
        "games_finished": finished,
        "games_unfinished": unfinished,
        "actions_stored": sum(len(a) for a in rows.values()),
        "actions_lost": lost,
        "actions_applied_twice": twice,
        "records_differing": differing,
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    random.seed(args.seed)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = folder / "chaos.db"
        server = ServerProcess(db, folder)
        await asyncio.to_thread(server.start)
        stats = Stats()
        began = time.monotonic()
        stop_new = began + args.duration
        deadline = stop_new + args.grace
        pairs = [Pair(i, server, stats, args.pace, stop_new) for i in range(args.tables)]
        tasks = []
        for pair in pairs:  # connect gradually
            tasks.append(asyncio.create_task(pair.run(deadline)))
            await asyncio.sleep(0.005)
        resume_times: list[float] = []
        kill_at = sorted(rng.uniform(0.1, 0.9) * args.duration for _ in range(args.kills))
        for at in kill_at:
            await asyncio.sleep(max(0.0, began + at - time.monotonic()))
            server.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.5))
            restarted = await asyncio.to_thread(server.start)
            # every client that is still playing has its welcome and snapshot again
            while time.monotonic() < restarted + 60:
                waiting = [
                    p
                    for pair in pairs
                    for p in pair.players
                    if not p.done and p.token is not None and p.resumed_at < restarted
                ]
                if not waiting:
                    break
                await asyncio.sleep(0.01)
            resume_times.append(
                max(
                    (p.resumed_at for pair in pairs for p in pair.players if not p.done),
                    default=restarted,
                )
                - restarted
            )
        done, pending = await asyncio.wait(tasks, timeout=max(1.0, deadline - time.monotonic()))
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        failures = [t.exception() for t in done if t.exception() is not None]
        await asyncio.to_thread(server.stop)
        checked = check_store(db, stats)
    return {
        "tables": args.tables,
        "pace_per_table": args.pace,
        "duration_s": args.duration,
        "kills": len(kill_at),
        **checked,
        "games_over_seen": len(stats.games_over),
        "actions_acknowledged": stats.acked,
        "max_resume_s": round(max(resume_times, default=0.0), 3),
        "resume_s": [round(x, 3) for x in resume_times],
        "reconnects": stats.reconnects,
        "errors": dict(stats.errors),
        "client_failures": [repr(f) for f in failures][:5],
        "elapsed_s": round(time.monotonic() - began, 1),
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pace", type=float, default=2.0, help="actions per second per table")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of chaos")
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--grace", type=float, default=90.0, help="seconds to finish games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
