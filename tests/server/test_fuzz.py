"""Fuzzing the server over real connections: random and mutated frames, wrong types,
out-of-turn and illegal actions, other tables' codes. Every reply is a valid message (an
error with a documented code, or a normal answer), the server stays up, and no game
changes (the seated players' snapshots before and after are equal)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import messages as m
from protocol.codec import decode_server, encode
from server import RunningServer, start_server
from tests.server.helpers import FAST, TEST_CONFIG, Client

T = TypeVar("T")


class Live:
    """A server and its clients on an event loop in a thread; tests call in with ``run``."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: RunningServer = self.run(start_server(replace(TEST_CONFIG)))

    def run(self, coro: Awaitable[T], timeout: float = 30.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)  # type: ignore[arg-type]

    def close(self) -> None:
        self.run(self.server.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class Table:
    """Alice and Bob at a table (the victim), Eve (the fuzzer) at her own."""

    def __init__(self, live: Live) -> None:
        self.live = live
        url = live.server.url
        self.alice = live.run(Client.hello(url, "alice"))
        self.bob = live.run(Client.hello(url, "bob"))
        snap = live.run(self.alice.request(m.CreateTable(overrides=FAST), m.Snapshot))
        self.code = snap.table.code
        live.run(self.bob.request(m.JoinTable(code=self.code), m.Snapshot))
        self.eve = live.run(Client.hello(url, "eve"))
        own = live.run(self.eve.request(m.CreateTable(bot="easy", overrides=FAST), m.Snapshot))
        self.own = own.table.code

    def snapshots(self) -> tuple[Any, Any]:
        async def both() -> tuple[Any, Any]:
            a = await self.alice.snapshot(self.code)
            b = await self.bob.snapshot(self.code)
            return a, b

        a, b = self.live.run(both())
        return (a.table.status, a.view), (b.table.status, b.view)

    def turn(self) -> tuple[int, int]:
        """(seat to move, version) of the victim table."""
        (_, view), _ = self.snapshots()
        return view.current_player, view.version


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    live = Live()
    try:
        yield Table(live)
    finally:
        live.close()


# ---- frames ---------------------------------------------------------------------------

codes = st.sampled_from(["VICTIM", "OWN", "ZZZZZZZZ", "victim", ""])
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.binary(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.sampled_from(["AS", "10H", "keep", "discard", "play", "bid", "action", "hello", "VICTIM"]),
)
actions = st.one_of(
    st.builds(dict, kind=st.just("keep")),
    st.builds(dict, kind=st.just("discard")),
    st.builds(dict, kind=st.just("bid"), tricks=st.integers(-2, 15)),
    st.builds(dict, kind=st.just("play"), card=st.sampled_from(["AS", "2C", "10H", "QD", "ZZ"])),
    st.builds(dict, kind=st.just("blind_nil"), declare=st.booleans()),
    st.builds(dict, kind=st.just("exchange"), cards=st.lists(st.sampled_from(["AS", "2C"]))),
    st.dictionaries(st.sampled_from(["kind", "card", "tricks"]), values, max_size=3),
)
messages = st.one_of(
    st.builds(
        dict,
        type=st.just("action"),
        code=codes,
        action=actions,
        version=st.integers(0, 400),
        seq=st.integers(0, 2**53),
    ),
    st.builds(dict, type=st.just("join_table"), code=codes, seat=st.sampled_from([None, 0, 1, 2])),
    st.builds(dict, type=st.just("watch_table"), code=codes),
    st.builds(dict, type=st.just("add_bot"), code=codes, level=st.sampled_from(["easy", "x"])),
    st.builds(dict, type=st.just("leave"), code=codes),
    st.builds(dict, type=st.just("rematch"), code=codes),
    st.builds(dict, type=st.just("chat"), code=codes, text=st.text(max_size=300)),
    st.builds(dict, type=st.just("get_record"), record_id=st.text(max_size=40)),
    st.builds(dict, type=st.just("hello"), protocol_version=st.integers(-1, 3), name=st.text()),
    st.builds(dict, type=st.just("create_table"), preset=st.text(max_size=12)),
    st.builds(
        dict,
        type=st.sampled_from(["list_tables", "ping", "pong", "welcome", "nope", ""]),
        nonce=values,
    ),
    st.dictionaries(st.text(max_size=8), values, max_size=5),
)


@st.composite
def mutated(draw: st.DrawFn, message: st.SearchStrategy[dict[str, Any]]) -> dict[str, Any]:
    obj = dict(draw(message))
    for key in draw(st.lists(st.sampled_from(sorted(obj) or ["type"]), max_size=2)):
        if draw(st.booleans()):
            obj[key] = draw(values)
        else:
            obj.pop(key, None)
    if draw(st.booleans()):
        obj[draw(st.sampled_from(["extra", "id", "seq", "token"]))] = draw(values)
    return obj


def packed(obj: Any) -> bytes:
    try:
        return bytes(msgpack.packb(obj, use_bin_type=True))
    except (TypeError, ValueError, OverflowError):
        return b"\xc1"


@st.composite
def byte_mutations(draw: st.DrawFn) -> bytes:
    data = bytearray(packed(draw(messages)))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["flip", "cut", "insert"]))
        if kind == "flip":
            data[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del data[at:]
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
    return bytes(data)


frames = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=20),
    st.just(bytes(5000)),
    messages.map(packed),
    mutated(messages).map(packed),
    byte_mutations(),
)

# bad input from a seated player: structurally broken, or well formed and refused
seated_bad = st.one_of(
    st.binary(max_size=64).filter(lambda b: not b or not (0x80 <= b[0] <= 0x8F or b[0] >= 0xDE)),
    st.text(max_size=20),
    st.just(bytes(5000)),
    st.sampled_from(["out_of_turn", "stale", "illegal", "other_table", "unknown_table"]),
)


# ---- the test -------------------------------------------------------------------------


def _fix_codes(obj: Any, table: Table) -> Any:
    if isinstance(obj, dict):
        return {k: _fix_codes(v, table) for k, v in obj.items()}
    if obj == "VICTIM":
        return table.code
    if obj == "victim":
        return table.code.lower()
    if obj == "OWN":
        return table.own
    return obj


async def _exchange(client: Client, data: bytes | str) -> list[bytes]:
    """Send ``data``, then a ping; every frame up to the pong is the answer."""
    start = len(client.raw)
    await client.send_raw(data)
    if client.ws.close_code is not None:
        return client.raw[start:]
    nonce = 424242
    try:
        await client.send(m.Ping(nonce=nonce, id=nonce))
        await client.expect(m.Pong, lambda p: p.nonce == nonce, timeout=10)
    except ConnectionError:
        pass  # closed for an oversized frame: its close reason is the answer
    return client.raw[start:]


def _check_replies(raw: list[bytes], table: Table, hidden: set[str]) -> None:
    for data in raw:
        reply = decode_server(data)  # raises if it is not a valid server message
        if isinstance(reply, m.ErrorMessage):
            assert reply.code in m.ERROR_CODES and reply.code != "internal_error", reply
        about = getattr(reply, "table", None)
        about = about.code if isinstance(about, m.TableInfo) else about
        if about == table.code:
            text = json.dumps(reply.model_dump(mode="json"))
            assert not [card for card in hidden if f'"{card}"' in text], reply


def _reconnect(table: Table, name: str) -> None:
    client: Client = getattr(table, name)
    if client.ws.close_code is None:
        return
    fresh = table.live.run(Client.hello(table.live.server.url, name, token=client.token))
    setattr(table, name, fresh)


@settings(
    max_examples=1000,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(frame=frames, seated=seated_bad, who=st.sampled_from(["eve", "eve", "eve", "seated"]))
def test_bad_frames_change_nothing(table: Table, frame: Any, seated: Any, who: str) -> None:
    before = table.snapshots()
    hidden = {card for _, view in before for card in view.hand}
    if who == "eve":
        sender, data = "eve", frame
        if isinstance(frame, bytes):
            try:  # name the real tables
                data = packed(_fix_codes(msgpack.unpackb(frame, raw=False), table))
            except Exception:
                data = frame
    else:
        mover, version = table.turn()
        other = "alice" if mover == 1 else "bob"
        current = "alice" if mover == 0 else "bob"
        if isinstance(seated, bytes | str) and seated not in (
            "out_of_turn", "stale", "illegal", "other_table", "unknown_table",
        ):  # fmt: skip
            sender, data = current, seated
        elif seated == "out_of_turn":
            act = m.Act(code=table.code, action=m.KeepAction(), version=version, seq=10**9)
            sender, data = other, encode(act)
        elif seated == "stale":
            act = m.Act(code=table.code, action=m.KeepAction(), version=version + 7, seq=10**9)
            sender, data = current, encode(act)
        elif seated == "illegal":
            act = m.Act(code=table.code, action=m.BidAction(tricks=13), version=version, seq=10**9)
            sender, data = current, encode(act)
        elif seated == "other_table":
            act = m.Act(code=table.own, action=m.KeepAction(), version=version, seq=10**9)
            sender, data = current, encode(act)
        else:
            act = m.Act(code="ZZZZZZZZ", action=m.KeepAction(), version=version, seq=10**9)
            sender, data = current, encode(act)
    client: Client = getattr(table, sender)
    raw = table.live.run(_exchange(client, data))
    _check_replies(raw, table, hidden if sender == "eve" else set())
    if sender != "eve":
        assert any(isinstance(decode_server(r), m.ErrorMessage) for r in raw) or (
            client.ws.close_code is not None
        ), raw
    _reconnect(table, sender)
    # the server is up and the game has not moved
    assert table.snapshots() == before
