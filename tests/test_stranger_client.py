"""A stranger's client: the code of docs/protocol.md, run as it stands, against the server
run as a separate process with its default limits. It imports nothing of server/,
client/ or protocol/: the document's own Python (the shuffle's ``deck()`` and the bot of
"Writing a bot over the protocol" with its own chooser, plain msgpack and websockets)
plays both seats of a whole five-hundred game, mixing entropy from both seats into every
shuffle, and checks every hand of the record. The test then checks the record once more
on its own."""

from __future__ import annotations

import asyncio
import hashlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "protocol.md"


def document_code() -> dict[str, Any]:
    """Run the document's Python blocks that define ``deck`` and ``bot``; their names."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    wanted = [b for b in blocks if "def deck(" in b or "async def bot(" in b]
    assert len(wanted) == 2, "the document lost its deck() or bot() code"
    namespace: dict[str, Any] = {"__name__": "stranger"}
    for block in sorted(wanted, key=lambda b: "async def bot(" in b):  # deck() first
        exec(compile(block, str(DOC), "exec"), namespace)
    return namespace


async def start_server() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", "0", "--db", ":memory:",
         "--bot-workers", "0", "--log-level", "WARNING"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
    assert line.startswith("spades server listening on ws://127.0.0.1:"), line
    return proc, line.split()[-1]


@pytest.mark.timeout(240)
def test_a_strangers_bot_plays_five_hundred_with_entropy_and_checks_every_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = document_code()
    bot, deck, card_index = code["bot"], code["deck"], code["CARD_INDEX"]

    async def run() -> list[dict[str, Any]]:
        proc, url = await start_server()
        try:
            table: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            creator = asyncio.create_task(
                bot(
                    url,
                    {"type": "create_table", "preset": "five-hundred"},
                    on_table=table.set_result,
                )
            )
            joined = bot(
                url,
                {"type": "join_table", "code": await table},
                on_table=lambda code: None,
            )
            return list(await asyncio.gather(creator, joined))
        finally:
            proc.kill()
            proc.wait(10)
            assert proc.stdout is not None
            proc.stdout.close()

    records = asyncio.run(run())
    out = capsys.readouterr().out
    assert records[0] == records[1]
    record = records[0]
    assert record["format"] == "spades-record/1" and record["finished"]
    assert record["rules"]["target_score"] == 500
    assert max(record["scores"]) >= 500 or min(record["scores"]) <= record["rules"]["lose_score"]
    hands = record["hands"]
    assert "refused:" not in out  # two instant clients at the default rate budget
    assert out.count("seed and values verified, your entropy included") == 2 * len(hands)
    for hand in hands:
        # both seats' entropy is in every shuffle, and the deck follows from it
        assert len(hand["entropy"]) == 2 and all(len(value) == 64 for value in hand["entropy"])
        seed = bytes.fromhex(hand["seed"])
        assert hashlib.sha256(seed).hexdigest() == hand["commitment"]
        entropy = [bytes.fromhex(value) for value in hand["entropy"]]
        assert deck(seed, entropy) == [card_index[c] for c in hand["stock"].split()]
        assert deck(seed, entropy) != deck(seed)  # the seats' values changed the deck
        texts = [text for _, text in hand["actions"]]
        assert texts[0] == f"commit {hand['seed']}"
        assert texts[1] == f"shuffle {hand['entropy'][0]} {hand['entropy'][1]}"
