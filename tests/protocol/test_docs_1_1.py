"""The figures docs/protocol.md gives a stranger are the server's defaults (keep-alive,
the rate budget and how many refusals close a connection, the entropy wait, holds)."""

from __future__ import annotations

from pathlib import Path

from protocol import messages as m
from server.config import ServerConfig

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
DEFAULTS = ServerConfig()


def _g(value: float) -> str:
    return f"{value:g}"


def test_keep_alive_figures_are_the_server_defaults() -> None:
    ping, pong, close = DEFAULTS.ping_interval, DEFAULTS.ping_timeout, DEFAULTS.close_timeout
    assert f"a WebSocket ping frame every **{_g(ping)} s**" in DOC
    assert f"If the pong has not come **{_g(pong)} s** after a ping" in DOC
    assert f"closing handshake **{_g(close)} s**" in DOC
    total = ping + pong + close
    assert f"at most **{_g(total)} s** after its last pong" in DOC
    assert f"a dead connection is dropped within {_g(total)} s" in DOC


def test_many_refusals_is_a_number_and_the_budget_is_the_default() -> None:
    refusals = DEFAULTS.rate_close_after
    assert f"**After {refusals} refusals in a row, the next message over the budget" in DOC
    assert f"after {refusals} refusals in a row" in m.ERROR_CODE_MEANINGS["rate_limited"]
    assert "many refusals" not in DOC
    rate, burst = DEFAULTS.rate_messages_per_second, DEFAULTS.rate_burst
    assert f"by default {_g(rate)} a second, bursts of {burst}" in DOC


def test_entropy_wait_hold_and_hello_figures_are_the_defaults() -> None:
    assert f"`entropy_seconds` ({_g(DEFAULTS.entropy_seconds)} s by default" in DOC
    assert f"`hold_seconds` (a table\nsetting, {DEFAULTS.hold_seconds} by default)" in DOC
    assert f"within {_g(DEFAULTS.hello_timeout)} seconds of connecting" in DOC


def test_exchange_order_and_every_1_1_message_are_documented() -> None:
    assert "in **card order** (clubs 2 up to the spade ace), not in the order" in DOC
    for tag in ("entropy", "entropy_accepted", "shuffled", "your_turn", "hold_deadline"):
        assert f"`{tag}`" in DOC
    assert "## Writing a bot over the protocol" in DOC
    assert "## The game record" in DOC


def test_every_python_block_of_the_document_compiles() -> None:
    import re

    blocks = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)
    assert len(blocks) >= 3  # the minimal client, the shuffle, the bot
    for block in blocks:
        compile(block, "docs/protocol.md", "exec")
    minimal = next(b for b in blocks if "async def play(" in b)
    # the minimal client speaks the current version and mixes in its entropy
    assert f'"protocol_minor": {m.PROTOCOL_MINOR}' in minimal and '"type": "entropy"' in minimal
