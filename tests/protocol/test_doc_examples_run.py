"""Every code example of docs/protocol.md runs, as it stands, against a real server.

The server is started in this process (``server.start_server`` with a
``server.config.ServerConfig``: its default limits, an in-memory store, the bot thinking
in-process without a pause). The document's Python is taken from the page and executed
unchanged: the minimal client plays the bot to the end of a game, and two copies of the
bot of "Writing a bot over the protocol" play each other to the end of a game, at both
presets; the 1.0 notes' first-drafter check is run on real ``hand_result`` messages of a
1.0 connection; the JavaScript of "JSON in text frames" runs in Node and is welcomed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect

from engine import GameState, RuleSet, Shuffle, shuffled_deck
from engine.actions import Commit, Deal
from protocol import messages as m
from server import start_server
from server.config import ServerConfig

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)
MARKERS = {
    "minimal": "async def play(",
    "deck": "def deck(",
    "bot": "async def bot(",
    "first_drafter": "def first_drafter_of_game(",
}
CONFIG = ServerConfig(port=0, db_path=":memory:", bot_workers=0, bot_delay=0.0)
PRESETS = ("classic", "five-hundred")


def block(name: str) -> str:
    (found,) = [b for b in PYTHON_BLOCKS if MARKERS[name] in b]
    return found


def run_code(*names: str) -> dict[str, Any]:
    """Execute the named blocks, in order, in one namespace (not as ``__main__``)."""
    namespace: dict[str, Any] = {"__name__": "docs_protocol"}
    for name in names:
        exec(compile(block(name), f"docs/protocol.md ({name})", "exec"), namespace)
    return namespace


def with_server(test: Callable[[str], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        running = await start_server(CONFIG)
        try:
            return await test(running.url)
        finally:
            await running.close()

    return asyncio.run(main())


def test_every_python_block_is_one_this_file_runs() -> None:
    """A new example in the document fails here until a test runs it."""
    assert len(PYTHON_BLOCKS) == len(MARKERS)
    for name in MARKERS:
        block(name)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_minimal_client_plays_the_bot_to_the_end_of_a_game(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    play = run_code("minimal")["play"]
    random.seed(f"minimal client {preset}")
    with_server(lambda url: play(url, preset))
    out = capsys.readouterr().out
    assert "error:" not in out
    hands = re.findall(r"^hand (\d+) scores \[(-?\d+), (-?\d+)\]$", out, re.MULTILINE)
    assert [int(number) for number, _, _ in hands] == list(range(1, len(hands) + 1))
    winner = int(re.findall(r"^game over, winner: seat (\d)$", out, re.MULTILINE)[-1])
    final = (int(hands[-1][1]), int(hands[-1][2]))
    target = RuleSet.preset(preset).target_score
    assert final[winner] >= target and final[winner] > final[1 - winner]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_bot_example_plays_itself_to_the_end_of_a_game(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_code("deck", "bot")
    bot = code["bot"]

    async def game(url: str) -> list[dict[str, Any]]:
        table: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        creator = bot(url, {"type": "create_table", "preset": preset}, on_table=table.set_result)
        first = asyncio.create_task(creator)
        second = bot(url, {"type": "join_table", "code": await table}, on_table=lambda _: None)
        return list(await asyncio.gather(first, second))

    records = with_server(game)
    out = capsys.readouterr().out
    assert records[0] == records[1]
    record = records[0]
    assert record["finished"] and record["rules"] == RuleSet.preset(preset).to_dict()
    target = record["rules"]["target_score"]
    assert max(record["scores"]) >= target and record["scores"][0] != record["scores"][1]
    assert record["scores"][record["winner"]] == max(record["scores"])
    # two bots answering each other at full speed meet the pace of moves (protocol 1.2's
    # budgets): an action may be refused with rate_limited and is sent again with the
    # same seq, as the document says; nothing else is ever refused, and only a few times
    refusals = re.findall(r"^refused: (\S+) (\S+)", out, re.MULTILINE)
    assert all(refusal == ("rate_limited", "action") for refusal in refusals), refusals
    assert len(refusals) <= 5, refusals
    assert out.count("seed and values verified, your entropy included") == 2 * len(record["hands"])
    assert "withheld" not in out and "not protected" not in out
    for hand in record["hands"]:
        entropy = [bytes.fromhex(value) for value in hand["entropy"]]
        assert len(entropy) == 2 and all(len(value) == 32 for value in entropy)
        stock = shuffled_deck(bytes.fromhex(hand["seed"]), tuple(entropy))
        assert code["deck"](bytes.fromhex(hand["seed"]), entropy) == stock


async def first_hands_as_1_0(url: str, games: int) -> list[dict[str, Any]]:
    """Play hand 1 of ``games`` games against the bot on a 1.0 connection (first legal
    action each turn); the ``hand_result`` of each, as it came."""
    results = []
    async with connect(url, max_size=2**20) as ws:

        async def send(message: dict[str, Any]) -> None:
            await ws.send(msgpack.packb(message))

        await send({"type": "hello", "protocol_version": 1, "name": "old timer"})  # 1.0
        seq = 0
        for _ in range(games):
            await send({"type": "create_table", "preset": "classic", "bot": "easy", "id": 1})
            code = None
            async for frame in ws:
                message = msgpack.unpackb(frame)
                if message["type"] == "snapshot" and message.get("id") == 1:
                    code = message["table"]["code"]
                elif message.get("table") not in (None, code):
                    continue  # the table left behind, closing
                elif message["type"] == "your_turn":
                    seq += 1
                    action = message["legal"][0] if message["legal"] else None
                    action = action or {"kind": "exchange", "cards": []}
                    await send({"type": "action", "code": message["table"], "action": action,
                                "version": message["version"], "seq": seq})  # fmt: skip
                elif message["type"] == "hand_result":
                    results.append(message)
                    await send({"type": "leave", "code": message["table"]})
                    break
                else:
                    assert message["type"] != "error", message
    return results


@pytest.mark.timeout(600)
def test_a_1_0_client_checks_the_first_drafter_as_the_1_0_notes_say() -> None:
    check = run_code("first_drafter")["first_drafter_of_game"]
    results = with_server(lambda url: first_hands_as_1_0(url, 4))
    assert len(results) == 4
    for result in results:
        assert result["hand_number"] == 1
        assert check(result["seed"]) == result["first_drafter"]
        # a 1.0 connection gets the two entries too: nobody sent entropy here
        assert result["entropy"] == ["", ""]
        assert hashlib.sha256(bytes.fromhex(result["seed"])).hexdigest() == result["commitment"]


def test_the_1_0_rule_and_the_current_rule_differ_for_some_seeds() -> None:
    """Why the note is needed: the 1.0 rule (the draw after the shuffle) is not the rule."""
    check = run_code("first_drafter")["first_drafter_of_game"]
    disagree = 0
    for n in range(16):
        seed = hashlib.sha256(b"first drafter %d" % n).digest()
        now = GameState(RuleSet())
        now.apply(None, Commit(seed))
        now.apply(None, Shuffle((b"", b"")))
        old = GameState(RuleSet())
        old.apply(None, Deal(seed))  # how a 1.0 server dealt: drawn after the shuffle
        assert check(seed.hex()) == now.first_drafter
        disagree += old.first_drafter != now.first_drafter
    assert disagree == 9  # about half of these 16 fixed seeds


def test_the_javascript_example_is_welcomed_on_a_json_connection() -> None:
    (snippet,) = re.findall(r"```js\n(.*?)```", DOC, re.DOTALL)
    assert "ws://HOST:8765/" in snippet

    async def test(url: str) -> Any:
        script = snippet.replace("ws://HOST:8765/", url)
        script += 'ws.addEventListener("message", () => ws.close());\n'  # one answer is enough
        node = await asyncio.create_subprocess_exec(
            "node", "--experimental-websocket", "-e",
            "console.log = (x) => process.stdout.write(JSON.stringify(x) + '\\n');\n" + script,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(node.communicate(), 60)
        assert node.returncode == 0, err
        return json.loads(out.decode().splitlines()[0])

    welcome = with_server(test)
    assert welcome["type"] == "welcome" and welcome["protocol_minor"] == m.PROTOCOL_MINOR
    assert welcome["name"] == "ada"
