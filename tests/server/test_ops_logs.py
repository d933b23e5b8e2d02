"""Structured logs: JSON lines, and never a token or a card in any line of real games."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from client.bot_client import play as bot_play
from protocol import messages as m
from server import RunningServer
from server.logs import HUMAN_FORMAT, configure_logging, event
from tests.server.helpers import FAST, Client, choose, play_to_end, run

# a card as the engine or the protocol writes it ("QS", "10H"), alone (not inside a code
# or an id), and any suit symbol: no log line may name a card, hidden or not
CARD = re.compile(r"(?<![A-Za-z0-9_-])(10|[2-9JQKA])[CDHS](?![A-Za-z0-9_-])")
SUIT = re.compile("[♠♥♦♣]")
# session tokens are 43 characters of URL-safe base64; no id the server logs is that long
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{40,}")


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def configured(log_format: str, level: str) -> Iterator[tuple[io.StringIO, _Capture]]:
    """The server's logging as ``spades serve --log-format F --log-level L`` sets it up,
    into a string, plus every record it lets through, while the block runs."""
    root, library = logging.getLogger(), logging.getLogger("websockets")
    handlers, levels = list(root.handlers), (root.level, library.level)
    stream, capture = io.StringIO(), _Capture()
    try:
        configure_logging(log_format, level, stream)
        root.addHandler(capture)
        yield stream, capture
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(levels[0])
        library.setLevel(levels[1])


async def _answer(client: Client, rng: random.Random, moves: int) -> None:
    """Answer ``moves`` of this client's turns with random legal actions (errors skipped)."""
    while moves > 0:
        turn = await client.expect(m.YourTurn, timeout=30.0)
        client.seq += 1
        action = await choose(client, turn, rng)
        await client.send(
            m.Act(code=turn.table, action=action, version=turn.version, seq=client.seq)
        )
        moves -= 1


async def _against_protocol_bot(server: RunningServer, tokens: list[str]) -> None:
    """A human who chats, sends bad input, drops and resumes with its token, against the
    bot playing over the protocol (``spades bot``)."""
    alice = await Client.hello(server.url, "alice")
    tokens.append(alice.token)
    snap = await alice.request(m.CreateTable(preset="classic", overrides=FAST), m.Snapshot)
    code = snap.table.code
    bot = asyncio.create_task(bot_play(server.url, code, level="easy", name="robot", seed=4))
    rng = random.Random(11)
    await _answer(alice, rng, 8)
    await alice.send(m.Chat(code=code, text="good luck"))
    await alice.send_raw(b"\x93not a map")
    await alice.send_raw(json.dumps({"type": "act", "code": code, "token": alice.token}))
    await alice.send(m.Chat(code=code, text="bad\x1b[2Jchat"))
    await alice.send(m.Act(code=code, action=m.BidAction(tricks=13), version=0, seq=500))
    await alice.send(m.Hello(protocol_version=1, name="again", token=alice.token))
    await _answer(alice, rng, 6)
    await alice.drop()
    again = await Client.hello(server.url, "alice", token=alice.token)
    assert again.welcome is not None and again.welcome.resumed
    again.seq = alice.seq  # sequence numbers go on over the resumed session
    await again.expect(m.Snapshot)
    over = await play_to_end(again, rng, stop=lambda message: isinstance(message, m.ErrorMessage))
    assert isinstance(over, m.GameOver), over
    assert await asyncio.wait_for(bot, 60) == 1


async def _against_server_bot(server: RunningServer, tokens: list[str]) -> None:
    """Two games (a rematch) of a human against the server's own bot."""
    bob = await Client.hello(server.url, "bob")
    tokens.append(bob.token)
    snap = await bob.request(
        m.CreateTable(preset="five-hundred", overrides=FAST, bot="easy", seat=1), m.Snapshot
    )
    rng = random.Random(12)
    assert isinstance(await play_to_end(bob, rng), m.GameOver)
    await bob.request(m.Rematch(code=snap.table.code), m.Snapshot)
    assert isinstance(await play_to_end(bob, rng), m.GameOver)


def test_logs_of_random_games_hold_no_token_and_no_card() -> None:
    tokens: list[str] = []

    async def test(server: RunningServer) -> None:
        await asyncio.gather(
            _against_protocol_bot(server, tokens), _against_server_bot(server, tokens)
        )

    with configured("json", "DEBUG") as (stream, capture):
        run(test, timeout=120.0)
    human_format = logging.Formatter(HUMAN_FORMAT)
    lines = stream.getvalue().splitlines()
    assert len(lines) == len(capture.records) > 40
    lines += [human_format.format(record) for record in capture.records]
    assert len(tokens) == 2
    for line in lines:
        assert not CARD.search(line), line
        assert not SUIT.search(line), line
        assert not TOKEN_LIKE.search(line), line
        assert not any(token in line for token in tokens), line
    events = [json.loads(line)["event"] for line in lines[: len(capture.records)]]
    for wanted in ("connection.open", "connection.close", "player.hello"):
        assert wanted in events, wanted
    assert events.count("table.start") == 3  # two tables, one rematch
    assert events.count("table.end") == 3
    closes = [
        json.loads(line)
        for line in lines[: len(capture.records)]
        if json.loads(line)["event"] == "connection.close"
    ]
    assert all("code" in close and "reason" in close for close in closes)


def test_json_lines_carry_time_level_event_and_fields() -> None:
    with configured("json", "INFO") as (stream, _):
        log = logging.getLogger("server")
        log.info("connection %d: opened", 7, extra=event("connection.open", conn=7, address="x"))
        log.debug("not shown at INFO")
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            log.exception("it failed")
        log.warning("plain line")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["event"] for line in lines] == ["connection.open", "error", "log"]
    first = lines[0]
    assert first["level"] == "info" and first["logger"] == "server"
    assert first["message"] == "connection 7: opened"
    assert first["conn"] == 7 and first["address"] == "x"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", first["time"])
    assert "RuntimeError: boom" in lines[1]["exception"]


def test_an_unknown_log_format_is_refused() -> None:
    with pytest.raises(ValueError, match="log format"):
        configure_logging("xml")
