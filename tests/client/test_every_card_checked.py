"""Every Python client checks every card (issue 26): protocol.verify, the terminal client's
table (client/model/table.py), ``spades replay`` and ``spades bot`` (client/bot_client.py)
pass every honest
hand, 1.1 values and 1.3 commit-reveal alike, and raise the alarm, naming what failed and
keeping it, for a forged ``hand_result`` (or forged events) of each way of cheating."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from client.bot_client import BotStats, _Seat
from client.model.table import Table
from client.replay import load_pages, run_replay
from engine.bot import Bot
from protocol import messages as m
from protocol.codec import decode_client
from protocol.verify import HandCollector
from tests.client.test_cli_replay import finished_record
from tests.protocol.forged_hands import CODE, SeatHand, forgeries, seat_hands

HANDS = {
    (preset, committing): seat_hands(preset, seed, 5, committing)
    for seed, preset in enumerate(("classic", "five-hundred"))
    for committing in (True, False)
}
ALL_HONEST = [hand for hands in HANDS.values() for hand in hands]
WAYS = sorted({name for hand in ALL_HONEST for name in forgeries(hand)})


def verify_problems(hand: SeatHand) -> list[str]:
    collector = HandCollector(seat=hand.seat, value=hand.value.hex())
    for event in hand.events:
        collector.add(event)
    if hand.relayed is not None:
        collector.relayed(hand.relayed)
    return collector.check(hand.result)


def terminal(hand: SeatHand) -> Table:
    """The terminal client's table fed the hand as the model feeds it."""
    table = Table()
    table.view = hand.start
    number = hand.result.hand_number
    table.my_entropy[number] = hand.value
    for frame in hand.frames:
        table.collect(frame.events)
        for event in frame.events:
            if isinstance(event, m.HandStartedEvent):
                table.committed(event.hand_number, event.commitment)
    if hand.relayed is not None:
        reveal = table.reveal(hand.relayed)
        assert reveal is not None and reveal.value == hand.value.hex()
    table.add_result(hand.result)
    return table


class SentFrames:
    """The bot's websocket: keeps what it sends."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send(self, data: bytes) -> None:
        self.sent.append(decode_client(data))


def bot_client(hand: SeatHand) -> tuple[BotStats, list[Any]]:
    """``spades bot``'s seat fed the hand as its loop feeds it."""
    stats = BotStats()
    ws = SentFrames()
    seat = _Seat(ws, CODE, Bot("easy", seed=1), stats)  # type: ignore[arg-type]
    seat.view = hand.start
    seat.minor = 3 if hand.relayed is not None else 2

    async def feed() -> None:
        for event in hand.events:
            await seat.observe(event)
            if isinstance(event, m.HandStartedEvent):
                seat.values[event.hand_number] = hand.value  # the value this hand was dealt with
        if hand.relayed is not None:
            await seat.reveal(hand.relayed)
        seat.check(hand.result)

    asyncio.run(feed())
    return stats, ws.sent


def test_every_honest_hand_passes_every_client() -> None:
    exchanged = 0
    for hand in ALL_HONEST:
        assert verify_problems(hand) == []
        table = terminal(hand)
        number = hand.result.hand_number
        assert table.verified[number] and table.problems == {}
        assert table.entropy_included[number]
        stats, sent = bot_client(hand)
        assert stats.verified == 1 and stats.problems == {}
        kinds = [message.type for message in sent]
        expected = ["entropy_commit", "entropy"] if hand.relayed is not None else ["entropy"]
        assert kinds == expected
        exchanged += any(isinstance(e, m.ExchangeEvent) and e.count for e in hand.events)
    assert exchanged >= 4  # the blind-nil exchange draws were checked too


def test_the_forgeries_cover_every_way_of_cheating() -> None:
    assert (
        sorted(
            [
                "seed_not_committed",
                "my_value_replaced",
                "other_value_swapped",
                "offered_card_forged",
                "opponent_played_my_card",
                "opponent_played_both_of_a_pair",
                "exchange_draw_forged",
                "first_drafter_changed",
                "reveal_not_committed",
                "commitments_rewritten",
                "withheld_not_shown",
            ]
        )
        == WAYS
    )


@pytest.mark.parametrize("way", WAYS)
def test_each_client_raises_the_alarm_for_a_forged_hand(way: str) -> None:
    forged_hands = [forgeries(hand)[way] for hand in ALL_HONEST if way in forgeries(hand)]
    assert forged_hands
    for forged in forged_hands:
        problems = verify_problems(forged)
        assert problems, f"{way}: protocol.verify saw nothing"
        number = forged.result.hand_number
        table = terminal(forged)
        assert table.verified[number] is False, way
        assert table.problems[number] == problems  # said exactly, and kept
        stats, _ = bot_client(forged)
        assert stats.verified == 0 and stats.problems[number] == problems


def test_a_withheld_reveal_is_shown_not_an_alarm() -> None:
    hand = next(h for h in ALL_HONEST if h.relayed is not None)
    other = 1 - hand.seat
    entropy = list(hand.result.entropy)
    entropy[other] = ""
    withheld = [False, False]
    withheld[other] = True
    frames = tuple(
        frame.model_copy(
            update={
                "events": tuple(
                    e.model_copy(update={"withheld": tuple(withheld)})
                    if isinstance(e, m.ShuffledEvent)
                    else e
                    for e in frame.events
                )
            }
        )
        for frame in hand.frames
    )
    honest_withholding = SeatHand(
        hand.seat,
        hand.value,
        frames,
        hand.relayed,
        hand.result.model_copy(update={"entropy": tuple(entropy)}),
        hand.start,
    )
    # the deck is then drawn without the withheld value: the cards differ, so only the
    # seed, value and commitment checks apply to this made-up hand
    problems = verify_problems(honest_withholding)
    assert not any("commitment" in p or "withheld" in p for p in problems)
    table = terminal(honest_withholding)
    assert table.withheld[hand.result.hand_number] == [other]
    stats, _ = bot_client(honest_withholding)
    assert stats.withheld == 1


def test_replay_refuses_a_record_whose_cards_do_not_follow_from_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``spades replay`` rebuilds every card from the seeds and values: a record whose
    stock was changed (two cards swapped) or whose seed is another one does not replay."""
    record = finished_record("classic", 60)
    _, pages = load_pages(record)
    assert pages and all(page.verified for page in pages)
    hands: list[dict[str, Any]] = record["hands"]  # type: ignore[assignment]
    stock = hands[0]["stock"].split()
    stock[0], stock[1] = stock[1], stock[0]
    swapped = {**record, "hands": [{**hands[0], "stock": " ".join(stock)}, *hands[1:]]}
    other_seed = {**record, "hands": [{**hands[0], "seed": "00" * 32}, *hands[1:]]}
    for forged in (swapped, other_seed):
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(forged))
        assert run_replay(str(path), print_only=True) == 1
        assert "cannot replay" in capsys.readouterr().out
