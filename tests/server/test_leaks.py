"""Secrecy: every byte each seat and a spectator received names only cards it may know.

The game record (fetched after the game) is replayed action by action; a message about
state version ``v`` may only name cards that appear in the receiver's own engine view at
``v``. Messages without a version name no card at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from typing import Any

import pytest

from engine import GameState, PlayerView, RuleSet, parse_action
from protocol import messages as m
from protocol.codec import decode_server
from server import RunningServer
from tests.server.helpers import Client, play_to_end, run, two_players

CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$")


def cards_named(value: Any) -> set[str]:
    """Every string anywhere in ``value`` (a dumped message) that is a card."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_named(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(cards_named(v) for v in value)) if value else set()
    return set()


def known(view: PlayerView) -> set[str]:
    cards = [
        *view.hand,
        *view.draft_kept,
        *view.draft_discarded,
        *view.draft_taken,
        *view.draft_seen_after_keep,
        *view.exchange_given,
        *view.exchange_received,
        *view.current_trick,
    ]
    if view.offered is not None:
        cards.append(view.offered)
    for trick in view.tricks:
        cards.extend(trick.cards)
    return {str(card) for card in cards}


def known_by_version(record: dict[str, Any], viewer: int | None) -> dict[int, set[str]]:
    state = GameState(RuleSet.from_dict(record["rules"]))
    out = {0: known(state.view_for(viewer))}
    for seat, text in record["actions"]:
        state.apply(seat, parse_action(text))
        out[state.version] = known(state.view_for(viewer))
    return out


def version_of(message: m.ServerMessage) -> int | None:
    if isinstance(message, m.Events | m.YourTurn):
        return message.version
    if isinstance(message, m.Snapshot):
        return message.view.version
    return None


def check(raw: list[bytes], allowed: dict[int, set[str]]) -> int:
    """Assert no frame names a card its receiver may not know; returns cards checked."""
    checked = 0
    for data in raw:
        message = decode_server(data)
        named = cards_named(message.model_dump())
        version = version_of(message)
        may = allowed[version] if version is not None else set()
        assert named <= may, f"{type(message).__name__} at {version} leaks {named - may}"
        checked += len(named)
    return checked


@pytest.mark.parametrize(("preset", "seed"), [("classic", 10), ("five-hundred", 20)])
def test_no_message_names_a_card_its_receiver_may_not_know(preset: str, seed: int) -> None:
    async def test(server: RunningServer) -> None:
        overrides: dict[str, int | bool | str | None] = {"target_score": 150, "lose_score": -150}
        if preset == "five-hundred":
            overrides["blind_nil_exchange"] = 3
        first, second, code = await two_players(server, preset, overrides=overrides)
        spectator = await Client.hello(server.url, "eve")
        await spectator.request(m.WatchTable(code=code), m.Snapshot)
        rng = random.Random(seed)
        over = await asyncio.gather(
            play_to_end(first, random.Random(rng.random())),
            play_to_end(second, random.Random(rng.random())),
        )
        assert isinstance(over[0], m.GameOver)
        await spectator.expect(m.GameOver)
        reply = await first.request(m.GetRecord(record_id=over[0].record_id), m.RecordMessage)
        record = json.loads(reply.record_json)
        assert len(record["hands"]) >= 1
        seats = {0: first, 1: second}
        for seat, client in seats.items():
            assert check(client.raw, known_by_version(record, seat)) > 50
        check(spectator.raw, known_by_version(record, None))
        with pytest.raises(AssertionError):  # the check has teeth: seat 0 knows things 1 doesn't
            check(first.raw, known_by_version(record, 1))
        # a spectator never sees a card outside the tricks on the table
        for data in spectator.raw:
            message = decode_server(data)
            if isinstance(message, m.Snapshot):
                view = message.view
                assert not view.hand and view.offered is None and not view.draft_kept
                assert not view.exchange_given and not view.exchange_received

    run(test)


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_logs_name_no_card_no_token_and_no_seed() -> None:
    capture = _Capture()
    logger = logging.getLogger("server")
    old_level = logger.level
    logger.addHandler(capture)
    logger.setLevel(logging.DEBUG)
    try:
        secrets_seen: list[str] = []

        async def test(server: RunningServer) -> None:
            first, second, _ = await two_players(server, "five-hundred")
            over = await asyncio.gather(
                play_to_end(first, random.Random(1)), play_to_end(second, random.Random(2))
            )
            assert isinstance(over[0], m.GameOver)
            reply = await first.request(m.GetRecord(record_id=over[0].record_id), m.RecordMessage)
            record = json.loads(reply.record_json)
            secrets_seen.extend([first.token, second.token])
            secrets_seen.extend(hand["seed"] for hand in record["hands"])

        run(test)
    finally:
        logger.removeHandler(capture)
        logger.setLevel(old_level)
    assert len(capture.lines) > 5
    text = "\n".join(capture.lines)
    assert not re.search(r"\b(10|[2-9JQKA])[CDHS]\b", text), text
    for secret in secrets_seen:
        assert secret not in text
