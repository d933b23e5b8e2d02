"""Fuzz the server's whole input path: bytes in, decode, validate, apply.

    python3 bench/fuzz.py                      # 100,000 inputs
    python3 bench/fuzz.py --inputs 1000000 --seed 7

Drives one server hub in this process through ``Hub.handle_data`` (:mod:`server.app`), the
function every websocket frame goes through, with frames that are random bytes, text,
oversized, mutated valid messages (bytes flipped, cut or spliced; fields dropped, retyped
or replaced; type tags swapped) and valid messages sent at the wrong moment (another
table's code, out of turn, a stale version, an illegal card). The fuzzing connections sit
at their own table (playing it, so the game moves) and know the code of a victim table
where two other players sit. After every input:

- every reply decodes as a valid server message (``protocol.codec.decode_server``);
- no ``internal_error`` reply and no exception or error log line from the server;
- the victim table's game has not changed, and no reply about it carries a card of its
  hands.

Prints one JSON object on its last line: inputs, replies, errors by code, unexpected
(must be 0), elapsed seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack

from protocol import convert
from protocol import messages as m
from protocol.codec import decode_server, encode
from protocol.errors import DecodeError
from server.app import Conn, Hub
from server.config import ServerConfig
from server.rooms.frames import Frame

CONFIG = ServerConfig(
    port=0,
    db_path=":memory:",
    bot_delay=0.0,
    bot_workers=0,
    rate_messages_per_second=1e9,
    rate_burst=10**9,
    max_tables_per_player=1000,
    max_tables=100_000,
)


class _Transport:
    def get_write_buffer_size(self) -> int:
        return 0


class _Protocol:
    state = None  # not OPEN: nothing is written


class FakeSocket:
    """What :class:`Conn` needs of a websocket connection, without a network."""

    def __init__(self) -> None:
        self.transport = _Transport()
        self.protocol = _Protocol()
        self.close_code: int | None = None
        self.remote_address = ("fuzz", 0)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.close_code = code


class FuzzConn(Conn):
    """A connection whose replies are kept (as bytes) instead of being written."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(FakeSocket(), hub.config, hub.work)  # type: ignore[arg-type]
        self.replies: list[bytes] = []

    def send_frame(self, frame: Frame) -> None:
        if not self.closed:
            self.replies.append(frame.data)

    def take(self) -> list[bytes]:
        replies, self.replies = self.replies, []
        return replies


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


RANDOM_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 13, 2**31, 2**53 + 1, -(2**63), 2**64 - 1, 0.5,
    float("nan"), float("inf"), "", "x", "AS", "10S", "ZZ", "keep", "K7QX2M9A", "a" * 5000,
    "\x00", "\u202e", b"", b"\xff" * 10, [], [1, 2], ["AS", "AS"], {}, {"type": "hello"},
    {"kind": "play", "card": "AS"}, {"kind": "bid", "tricks": 99},
]  # fmt: skip

TYPE_TAGS = [
    "hello", "list_tables", "create_table", "join_table", "watch_table", "add_bot",
    "action", "chat", "leave", "rematch", "get_record", "ping", "welcome", "error", "?",
]  # fmt: skip


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        if not buf or choice < 0.15:
            buf += bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif choice < 0.5:
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        elif choice < 0.7:
            del buf[rng.randrange(len(buf)) :]
        elif choice < 0.85:
            at = rng.randrange(len(buf))
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        else:
            at = rng.randrange(len(buf))
            del buf[at : at + rng.randint(1, 4)]
    return bytes(buf)


def mutate_fields(obj: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    obj = dict(obj)
    for _ in range(rng.randint(1, 3)):
        keys = list(obj)
        choice = rng.random()
        if keys and choice < 0.4:
            obj[rng.choice(keys)] = rng.choice(RANDOM_VALUES)
        elif keys and choice < 0.55:
            del obj[rng.choice(keys)]
        elif choice < 0.7:
            obj[rng.choice(["extra", "id", "seq", "version", "token", "code"])] = rng.choice(
                RANDOM_VALUES
            )
        elif choice < 0.85:
            obj["type"] = rng.choice(TYPE_TAGS)
        elif "action" in obj and isinstance(obj["action"], dict):
            action = dict(obj["action"])
            action[rng.choice(["kind", "card", "tricks", "declare", "cards"])] = rng.choice(
                RANDOM_VALUES
            )
            obj["action"] = action
    return obj


def _pack(obj: Any) -> bytes:
    try:
        return bytes(msgpack.packb(obj, use_bin_type=True))
    except (TypeError, ValueError, OverflowError):
        return b"\xc1"


class Fuzzer:
    """A hub, a victim table (two players), and fuzzing connections at their own table."""

    def __init__(self, hub: Hub, rng: random.Random) -> None:
        self.hub = hub
        self.rng = rng
        self.errors: Counter[str] = Counter()
        self.unexpected: list[str] = []
        self.replies = 0
        self.inputs = 0
        self.log = _Errors()
        logging.getLogger("server").addHandler(self.log)
        logging.getLogger("server").propagate = False
        self.alice = self.connect("alice")
        self.bob = self.connect("bob")
        self.victim = self.request(self.alice, m.CreateTable(overrides={"target_score": 500}))
        self.request(self.bob, m.JoinTable(code=self.victim))
        self.fuzzers: list[FuzzConn] = []
        self.own = ""
        self.new_fuzzers()

    # ---- plumbing -----------------------------------------------------------------

    def connect(self, name: str) -> FuzzConn:
        conn = FuzzConn(self.hub)
        self.hub.conns.add(conn)
        self.hub.handle_data(conn, encode(m.Hello(protocol_version=1, name=name)))
        conn.take()
        return conn

    def request(self, conn: FuzzConn, message: Any) -> str:
        self.hub.handle_data(conn, encode(message))
        code = ""
        for data in conn.take():
            reply = decode_server(data)
            if isinstance(reply, m.Snapshot):
                code = reply.table.code
        return code

    def new_fuzzers(self) -> None:
        for conn in self.fuzzers:
            self.hub.conns.discard(conn)
            self.hub.disconnected(conn)
        self.fuzzers = [self.connect("eve"), self.connect("mallory")]
        self.own = self.request(self.fuzzers[0], m.CreateTable())
        self.request(self.fuzzers[1], m.JoinTable(code=self.own))

    def victim_state(self) -> tuple[int, str, int]:
        table = self.hub.tables[self.victim]
        return table.state.version, table.status, len(table.state.actions)

    def hidden_cards(self) -> set[str]:
        state = self.hub.tables[self.victim].state
        return {str(card) for seat in (0, 1) for card in state.hand_of(seat)}

    # ---- inputs -------------------------------------------------------------------

    def valid_messages(self, conn: FuzzConn) -> list[Any]:
        rng = self.rng
        hub = self.hub
        code = rng.choice([self.victim, self.own, self.own, "ZZZZZZZZ", self.victim.lower()])
        table = hub.tables.get(code.upper())
        version = table.state.version if table is not None else 0
        legal: list[Any] = [m.KeepAction(), m.BidAction(tricks=rng.randint(0, 13))]
        if table is not None and table.state.current_player is not None:
            seat = table.state.current_player
            legal = [convert.action_message(a) for a in table.state.legal_actions(seat)] or legal
        seq = rng.randint(0, 50)
        return [
            m.Hello(protocol_version=rng.choice([1, 2, 0]), name=rng.choice(["e", " ", "\x07"]),
                    token=rng.choice([None, "x" * 43, "bad"])),
            m.ListTables(),
            m.CreateTable(preset=rng.choice(["classic", "five-hundred", "nope"])),
            m.JoinTable(code=code, seat=rng.choice([None, 0, 1])),
            m.WatchTable(code=code),
            m.AddBot(code=code, level="easy"),
            m.Act(code=code, action=rng.choice(legal), seq=seq,
                  version=max(0, version + rng.choice([0, 0, -1, 1]))),
            m.Chat(code=code, text=rng.choice(["hi", "x" * 300, "  "])),
            m.Leave(code=code),
            m.Rematch(code=code),
            m.GetRecord(record_id=rng.choice(["nope", "a" * 16])),
            m.Ping(nonce=rng.randint(0, 2**31)),
        ]  # fmt: skip

    def frame(self, conn: FuzzConn) -> bytes | str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.05:
            return bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
        if roll < 0.07:
            return "a text frame"
        if roll < 0.08:
            return bytes(self.hub.config.max_message_bytes + rng.randint(1, 100))
        message = rng.choice(self.valid_messages(conn))
        if roll < 0.45:
            return encode(message)
        obj = message.model_dump(mode="python")
        if roll < 0.75:
            return _pack(mutate_fields(obj, rng))
        return mutate_bytes(encode(message), rng)

    # ---- one step -----------------------------------------------------------------

    def step(self) -> None:
        conn = self.rng.choice(self.fuzzers)
        before = self.victim_state()
        hidden = self.hidden_cards()
        data = self.frame(conn)
        self.inputs += 1
        try:
            self.hub.handle_data(conn, data)
            self.hub.flush()
        except Exception as error:  # handle_data must never raise
            self.unexpected.append(f"raised {error!r} for {data!r}"[:300])
        for raw in conn.take():
            self.replies += 1
            try:
                reply = decode_server(raw)
            except DecodeError as error:
                self.unexpected.append(f"invalid reply {error} for {data!r}"[:300])
                continue
            if isinstance(reply, m.ErrorMessage):
                self.errors[reply.code] += 1
                if reply.code == "internal_error":
                    self.unexpected.append(f"internal_error for {data!r}"[:300])
            about = getattr(reply, "table", None)
            about = about.code if isinstance(about, m.TableInfo) else about
            if about == self.victim:
                text = json.dumps(reply.model_dump(mode="json"))
                leaked = [card for card in hidden if f'"{card}"' in text]
                if leaked:
                    self.unexpected.append(f"{reply.type} about the victim shows {leaked}")
        if self.victim_state() != before:
            self.unexpected.append(f"the victim table changed after {data!r}"[:300])
        if self.log.records:
            self.unexpected.extend(f"server logged: {r}"[:300] for r in self.log.records)
            self.log.records.clear()
        for other in (self.alice, self.bob):
            other.take()
        if (
            any(c.closed or c.player is None for c in self.fuzzers)
            or self.own not in self.hub.tables
        ):
            self.new_fuzzers()
        for c in self.fuzzers:
            c.take()


async def run(inputs: int, seed: int) -> dict[str, Any]:
    hub = Hub(replace(CONFIG))
    hub.load()
    fuzzer = Fuzzer(hub, random.Random(seed))
    started = time.monotonic()
    for index in range(inputs):
        fuzzer.step()
        if index % 500 == 0:
            await asyncio.sleep(0)  # let bot and timer tasks run
    elapsed = time.monotonic() - started
    hub.close()
    return {
        "inputs": fuzzer.inputs,
        "replies": fuzzer.replies,
        "errors_by_code": dict(sorted(fuzzer.errors.items())),
        "unexpected": len(fuzzer.unexpected),
        "unexpected_examples": fuzzer.unexpected[:5],
        "victim_version": fuzzer.victim_state()[0],
        "elapsed_s": round(elapsed, 2),
        "inputs_per_s": round(fuzzer.inputs / elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.inputs, args.seed))))


if __name__ == "__main__":
    main()
