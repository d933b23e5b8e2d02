"""Our server's side of the load benchmark: tables of two clients (or one and the bot)
playing random legal actions, driven from a worker process.

    out = worker((port, tables, bot_tables, rate, start_at, stop_at, seed))

``out`` holds ``latencies`` (s, from an action sent to both seats having its ``events``),
``actions``, ``bot_actions``, ``errors`` and ``error_codes``, ``first``/``last`` action
times, ``ready_late_s`` and ``client`` (this worker's own CPU and loop lateness in the
window: :mod:`bench.loadlib.selfprobe`). A failed connection counts as an error; nothing raises.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import msgpack

from bench.loadlib.rawclient import RawClient, raw_connect
from bench.loadlib.selfprobe import SelfProbe

__all__ = ["worker"]


def _count(out: dict[str, Any], code: str) -> None:
    out["errors"] += 1
    out["error_codes"][code] = out["error_codes"].get(code, 0) + 1


# --------------------------------------------------------------------------- our server


class _Table:
    """One table: two seats (or one seat and the server's bot) playing random legal actions."""

    def __init__(
        self,
        rate: float,
        start_at: float,
        stop_at: float,
        rng: random.Random,
        bot: str | None,
        out: dict[str, Any],
    ) -> None:
        self.rate, self.start_at, self.stop_at = rate, start_at, stop_at
        self.rng, self.bot, self.out = rng, bot, out
        self.seats = 1 if bot else 2
        self.clients: list[RawClient] = []
        self.code: str | None = None
        self.seq = [0, 0]
        self.pending_version: int | None = None
        self.sent = 0.0
        self.seen: set[int] = set()
        self.joined: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def start(self, host: str, port: int) -> None:
        for index in range(self.seats):
            self.clients.append(
                await raw_connect(host, port, lambda data, i=index: self.on_message(i, data))
            )
        self.clients[0].send(msgpack.packb({"type": "hello", "protocol_version": 1, "name": "a"}))
        await asyncio.wait_for(self.joined, 120)

    def on_message(self, index: int, data: bytes) -> None:
        message = msgpack.unpackb(data)
        kind = message["type"]
        out = self.out
        if kind == "events":
            if self.pending_version is not None and message["version"] > self.pending_version:
                self.seen.add(index)
                if len(self.seen) == self.seats:
                    if self.sent >= self.start_at:
                        out["latencies"].append(time.monotonic() - self.sent)
                    self.pending_version = None
        elif kind == "your_turn":
            now = time.monotonic()
            if now >= self.stop_at:
                return
            delay = max(0.0, self.start_at - now)
            if self.rate > 0:
                delay += self.rng.expovariate(self.rate)
            if delay > 0:
                asyncio.get_running_loop().call_later(delay, self.act, index, message)
            else:
                self.act(index, message)
        elif kind == "ack":
            pass
        elif kind == "welcome":
            if index == 0:
                create: dict[str, Any] = {
                    "type": "create_table",
                    "preset": "classic",
                    "private": True,
                    "overrides": {"target_score": 10_000},
                }
                if self.bot:
                    create["bot"] = self.bot
                self.clients[0].send(msgpack.packb(create))
            else:
                self.clients[1].send(msgpack.packb({"type": "join_table", "code": self.code}))
        elif kind == "snapshot":
            if self.code is None:
                self.code = message["table"]["code"]
                if self.bot:
                    self.joined.set_result(None)
                else:
                    hello = {"type": "hello", "protocol_version": 1, "name": "b"}
                    self.clients[1].send(msgpack.packb(hello))
            elif index == 1 and not self.joined.done():
                self.joined.set_result(None)
        elif kind == "game_over":
            self.clients[index].send(msgpack.packb({"type": "rematch", "code": self.code}))
        elif kind == "error":
            _count(out, message["code"])
            if not self.joined.done():
                self.joined.set_exception(RuntimeError(message["message"]))

    def act(self, index: int, turn: dict[str, Any]) -> None:
        now = time.monotonic()
        if now >= self.stop_at:
            return
        if turn["phase"] == "exchange":
            action: Any = {"kind": "exchange", "cards": []}
        else:
            action = self.rng.choice(turn["legal"])
        self.seq[index] += 1
        frame = msgpack.packb(
            {
                "type": "action",
                "code": self.code,
                "action": action,
                "version": turn["version"],
                "seq": self.seq[index],
            }
        )
        self.pending_version, self.seen = turn["version"], set()
        # timed from the send, as the echo's pairs time theirs (their frame is made before)
        self.sent = time.monotonic()
        self.clients[index].send(frame)
        if now >= self.start_at:
            out = self.out
            out["actions"] += 1
            if out["first"] is None:
                out["first"] = now
            out["last"] = now

    def close(self) -> None:
        for client in self.clients:
            client.close()


def _new_out() -> dict[str, Any]:
    return {
        "latencies": [],
        "actions": 0,
        "errors": 0,
        "error_codes": {},
        "first": None,
        "last": None,
    }


async def _drive(
    port: int,
    tables: int,
    bot_tables: int,
    rate: float,
    start_at: float,
    stop_at: float,
    seed: int,
) -> dict[str, Any]:
    out, bot_out = _new_out(), _new_out()
    probe = SelfProbe(start_at, stop_at)  # this process's own CPU and loop lateness
    probe.start()
    rng = random.Random(seed)
    opening = asyncio.Semaphore(20)
    made: list[_Table] = []

    async def one(target: dict[str, Any], bot: str | None, table_rate: float) -> None:
        table = _Table(table_rate, start_at, stop_at, random.Random(rng.random()), bot, target)
        made.append(table)
        try:
            async with opening:
                await table.start("127.0.0.1", port)
        except Exception as error:  # a failed connection counts as an error
            _count(target, type(error).__name__)

    await asyncio.gather(
        *(one(out, None, rate) for _ in range(tables)),
        *(one(bot_out, "normal", 0) for _ in range(bot_tables)),
    )
    out["ready_late_s"] = max(0.0, time.monotonic() - start_at)
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()) + 0.5)
    for table in made:
        table.close()
    out["client"] = probe.figures()
    out["bot_actions"] = bot_out["actions"]
    out["errors"] += bot_out["errors"]
    for code, count in bot_out["error_codes"].items():
        out["error_codes"][code] = out["error_codes"].get(code, 0) + count
    return out


def worker(args: tuple[int, int, int, float, float, float, int]) -> dict[str, Any]:
    return asyncio.run(_drive(*args))
