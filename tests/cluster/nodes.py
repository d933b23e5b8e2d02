"""Cluster test helpers: real server nodes as processes, and a small table-driving client.

    nodes = [Node(pg_dsn, redis_url, f"n{i}") for i in range(3)]   # started, waiting
    player = Player([n.url for n in nodes], home=0, seed=7)       # one human vs the bot
    await player.run(create=True)                                  # plays to game over
    nodes[0].kill()                                                # SIGKILL
    check_games(pg_dsn, players)                                   # lost / twice / replay

A :class:`Player` creates (or joins) a table, answers every ``your_turn`` with a random
legal action (seeded), follows ``redirect``, and when its connection drops says hello
with its token again on its own node or, failing that, on any other; it resends the
action it had not seen acknowledged with the same ``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from engine import replay
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from tests.redisfixture import free_port

ROOT = Path(__file__).resolve().parents[2]
RULES: dict[str, int | bool | str | None] = {"target_score": 1, "lose_score": -1}


class Node:
    """One ``python3 -m server`` node of the cluster, on a free loopback port (with
    ``presence=""``: a server on its own, on the same store, for comparison)."""

    def __init__(
        self,
        store: str,
        presence: str,
        node_id: str,
        lease_ms: int = 3000,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.store, self.presence, self.node_id = store, presence, node_id
        self.lease_ms, self.extra = lease_ms, extra
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "server",
                "--port", str(self.port),
                "--store", self.store,
                *(
                    ("--presence", self.presence, "--public-url", self.url,
                     "--node-id", self.node_id, "--lease-ms", str(self.lease_ms))
                    if self.presence else ()
                ),
                "--bot-workers", "0", "--bot-delay", "0", "--entropy-seconds", "0",
                "--rate", "10000", "--rate-burst", "10000",
                "--max-connections-per-address", "100000",
                "--max-tables-per-address", "100000",
                "--max-bot-tables-per-address", "100000",
                "--connects-per-second-per-address", "0",
                "--log-level", os.environ.get("SPADES_NODE_LOG", "WARNING"),
                *self.extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=None if os.environ.get("SPADES_NODE_LOG") else subprocess.DEVNULL,
            text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if "listening" not in line:
            self.process.kill()
            raise RuntimeError(f"node {self.node_id} did not start: {line!r}")

    def kill(self) -> None:
        """SIGKILL: nothing released, nothing flushed."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM and wait (a clean shutdown releases every lease)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


class Player:
    """A human seat driven by a seeded random policy (see the module docstring)."""

    def __init__(
        self, urls: list[str], home: int, seed: int, name: str = "p", pace: float = 0.0
    ) -> None:
        self.urls, self.home, self.pace = urls, home, pace
        self.url = urls[home]
        self.rng = random.Random(seed)
        self.name = name
        self.token: str | None = None
        self.code: str | None = None
        self.seq = 0
        self.sent: dict[int, tuple[int, m.ActionMessage]] = {}  # seq -> (version, action)
        self.acked: dict[int, int] = {}  # seq -> version
        self.record_id: str | None = None
        self.redirects = 0
        self.reconnects = 0
        self.welcomed = asyncio.Event()
        self.snapshot = asyncio.Event()
        self.done = asyncio.Event()
        self.joined: asyncio.Event = asyncio.Event()
        self.want: m.ClientMessage | None = None  # the lobby request to send (again)
        self.ws: ClientConnection | None = None
        self.close_codes: list[int | None] = []
        self.moving = False  # leaving this node for the next one
        self.finished_away = False

    async def run(self, request: m.ClientMessage | None, attempts: int = 200) -> None:
        """Connect, send ``request`` after the first welcome (create/join), and play until
        game over, reconnecting as needed (at most ``attempts`` connections)."""
        self.want = request
        failures = 0
        for _ in range(attempts):
            if self.done.is_set():
                return
            try:
                async with connect(
                    self.url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None, open_timeout=5
                ) as ws:
                    self.ws = ws
                    failures = 0
                    await self._session(ws)
                    self.close_codes.append(ws.close_code)
            except (OSError, ConnectionClosed, TimeoutError) as error:
                if isinstance(error, ConnectionClosed):
                    self.close_codes.append(error.rcvd.code if error.rcvd else None)
                failures += 1
                if self.token is not None:  # our node is gone: any other node will do
                    self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
                await asyncio.sleep(min(0.5, 0.05 * failures))
            self.ws = None
            self.reconnects += 1
        raise AssertionError(f"player {self.name}: gave up after {attempts} connections")

    async def _session(self, ws: ClientConnection) -> None:
        hello = m.Hello(protocol_version=1, protocol_minor=m.PROTOCOL_MINOR, name=self.name,
                        token=self.token)  # fmt: skip
        await ws.send(encode(hello))
        async for data in ws:
            assert isinstance(data, bytes)
            message = decode_server(data)
            if isinstance(message, m.Redirect):
                self.redirects += 1
                self.url = message.url
                return  # the `async with` closes; run() connects there
            await self._handle(ws, message)
            if self.done.is_set() or self.moving:
                self.moving = False
                return

    async def _handle(self, ws: ClientConnection, message: m.ServerMessage) -> None:
        if isinstance(message, m.Welcome):
            self.token = message.token
            self.welcomed.set()
            if self.want is not None and self.code not in message.tables:
                await ws.send(encode(self.want))
            elif self.code is not None and self.code not in message.tables:
                # our table is not on this node (any more): asking for it routes us
                await ws.send(encode(m.JoinTable(code=self.code)))
            # an action we never saw acknowledged goes again, same seq (applied once)
            for seq, (version, action) in sorted(self.sent.items()):
                if seq not in self.acked and self.code is not None:
                    act = m.Act(code=self.code, seq=seq, version=version, action=action)
                    await ws.send(encode(act))
        elif isinstance(message, m.Snapshot):
            self.code = message.table.code
            self.want = None
            self.snapshot.set()
            if message.table.status == "finished" and message.table.record_id is not None:
                # it ended while we were away (a stand-in bot played our seat out)
                self.record_id = message.table.record_id
                self.finished_away = True
                self.done.set()
                return
            if message.your_turn is not None:
                await self._act(ws, message.your_turn)
        elif isinstance(message, m.YourTurn):
            await self._act(ws, message)
        elif isinstance(message, m.Ack):
            self.acked[message.seq] = message.version
        elif isinstance(message, m.GameOver):
            self.record_id = message.record_id
            self.done.set()
        elif isinstance(message, m.ErrorMessage) and message.code == "unknown_table":
            # this node cannot tell where our table is (say, it lost Redis): try another
            self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
            self.moving = True
            await asyncio.sleep(0.1)

    async def _act(self, ws: ClientConnection, turn: m.YourTurn) -> None:
        for seq, (version, action) in self.sent.items():
            if version == turn.version and seq not in self.acked:
                await ws.send(encode(m.Act(code=turn.table, seq=seq, version=version,
                                           action=action)))  # fmt: skip
                return
        if self.pace:
            await asyncio.sleep(self.pace)
        self.seq += 1
        action = self.rng.choice(turn.legal)
        self.sent[self.seq] = (turn.version, action)
        await ws.send(
            encode(m.Act(code=turn.table, seq=self.seq, version=turn.version, action=action))
        )


def check_games(dsn: str, players: list[Player]) -> dict[str, int]:
    """What the store says of the players' games: acknowledged actions lost, actions
    applied twice, records that do not replay. Every figure must be 0."""
    import psycopg

    lost = twice = bad_records = 0
    with psycopg.connect(dsn) as db:
        for player in players:
            assert player.code is not None and player.record_id is not None
            row = db.execute(
                "SELECT game_no, record FROM records WHERE record_id = %s", (player.record_id,)
            ).fetchone()
            assert row is not None, f"no record {player.record_id}"
            game_no, record_text = row
            stored = db.execute(
                "SELECT idx, seat, seq FROM actions WHERE code = %s AND game_no = %s ORDER BY idx",
                (player.code, game_no),
            ).fetchall()
            by_index = {idx: (seat, seq) for idx, seat, seq in stored}
            for seq, version in player.acked.items():
                if by_index.get(version, (None, None))[1] != seq:
                    lost += 1
            seqs = Counter((seat, seq) for _, seat, seq in stored if seq is not None)
            twice += sum(count - 1 for count in seqs.values() if count > 1)
            indices = [idx for idx, _, _ in stored]
            if indices != list(range(1, len(indices) + 1)):
                twice += 1  # a gap or a repeat in the versions
            try:
                replay(json.loads(record_text), check=True)
            except Exception:
                bad_records += 1
    return {"actions_lost": lost, "actions_applied_twice": twice, "records_bad": bad_records}


async def until(condition: Any, timeout: float = 30.0, step: float = 0.05) -> None:
    """Wait for ``condition()`` to be true (a generous timeout, never a timing assert)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(step)


def stop_all(nodes: list[Node]) -> None:
    for node in nodes:
        with contextlib.suppress(Exception):
            node.stop()
