"""Where a level's bags come from: single hands played trick by trick, each bag classified.

    python3 bench/bag_probe.py --a hard --b normal --pairs 20 --seed 11
    python3 bench/bag_probe.py --a hard --b ismcts --pairs 20 --seed 11 --set-a play_bag_share=1
    python3 bench/bag_probe.py --a hard --b normal --pairs 20 --seed 11 --log bags.jsonl

The hands are those of ``bench/strength.py --max-hands 1`` with the same ``--seed`` (the
same shuffles, the same bot seeds, each shuffle played twice with the seats swapped), so
the two can be compared hand by hand. A trick that A wins once its tricks already reach
its (non-nil) bid is a bag; each is classified by how it was taken, judged with both hands
in sight at that moment:

- ``led_could_lose``: A led, and held a legal lead the other hand could beat (by
  following higher or trumping): a bag it could have avoided on that trick;
- ``led_all_winners``: A led and every legal lead of its would win the trick;
- ``followed_could_lose``: B led, and A held a legal card that loses to it;
- ``followed_forced``: B led and every legal card of A's wins;

each marked by B's bid at that moment: ``/chasing`` (B was short of its bid and could
still make it: a bag taken to set it), ``/b_hopeless`` (B could no longer make it; its
tricks land on A unless B takes them), or unmarked (B had made its bid). The last line
printed is one JSON object: A's bids made, bags a hand, the bag classes (counts), the
mean points a hand A minus B with its 95% interval, and B's figures. ``--log`` writes one
line per seat-hand.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import REFERENCES, ReferencePlayer, make_reference
from bench.strength import _seed, parse_tweaks
from engine import Deal, GameState, Phase, RuleSet
from engine.actions import Play
from engine.bot import LEVELS, Bot
from engine.cards import SUIT_MASKS
from engine.tricks import legal_play_mask, trick_winner

__all__ = ["bag_class", "main", "probe_hand"]

_SPADES = 3


def _beatable(card: int, other: int) -> bool:
    """Whether the hand ``other`` can win a trick led with ``card``."""
    suit = card // 13
    same = other & SUIT_MASKS[suit]
    if same:
        return same.bit_length() - 1 > card
    return bool(other & SUIT_MASKS[_SPADES]) and suit != _SPADES


def bag_class(mine: int, other: int, led: int, spades_broken: bool, leader_is_me: bool) -> str:
    """How a bag trick was taken (see the module docstring), before the chase split.

    ``mine``/``other``: both hands (masks) before the trick; ``led``: the card led when B
    led (ignored when A led).
    """
    if leader_is_me:
        legal = legal_play_mask(mine, -1, spades_broken)
        cards = [c for c in range(52) if legal >> c & 1]
        return "led_could_lose" if any(_beatable(c, other) for c in cards) else "led_all_winners"
    legal = legal_play_mask(mine, led // 13, spades_broken)
    cards = [c for c in range(52) if legal >> c & 1]
    loses = any(trick_winner(0, led, c) == 0 for c in cards)
    return "followed_could_lose" if loses else "followed_forced"


def _player(side: str, seed: int, tweaks: tuple[str, ...]) -> Bot | ReferencePlayer:
    if side in REFERENCES:
        return make_reference(side, seed=seed)
    bot = Bot(side, seed=seed)
    if tweaks and bot.config is not None:
        bot.config = replace(bot.config, **parse_tweaks(tweaks))  # type: ignore[arg-type]
    return bot


def probe_hand(
    pair: int,
    a_seat: int,
    side_a: str,
    side_b: str,
    base: int,
    rules: RuleSet,
    tweaks: tuple[tuple[str, ...], tuple[str, ...]],
) -> dict[str, object]:
    """One single hand of ``strength.py --max-hands 1`` (pair ``pair``, A in ``a_seat``):
    both bids, tricks, points, A's bags and their classes."""
    sides = (side_a, side_b) if a_seat == 0 else (side_b, side_a)
    seat_tweaks = (tweaks[0], tweaks[1]) if a_seat == 0 else (tweaks[1], tweaks[0])
    players = [
        _player(sides[s], int.from_bytes(_seed(base, pair, 1000 + s)[:8], "big"), seat_tweaks[s])
        for s in (0, 1)
    ]
    state = GameState(rules)
    state.apply(None, Deal(_seed(base, pair, 0)))
    b_seat = 1 - a_seat
    classes: Counter[str] = Counter()
    bag_tricks: list[int] = []
    trick_index = 0
    pending: tuple[int, int, bool, bool, int, int] | None = None
    while state.current_player is not None:
        seat = state.current_player
        view = state.view_for(seat)
        action = players[seat].choose(view)
        if view.phase is Phase.PLAY and isinstance(action, Play):
            if not view.current_trick:
                other_view = state.view_for(1 - seat)
                hands = [0, 0]
                hands[seat], hands[1 - seat] = view.hand_mask, other_view.hand_mask
                won = view.tricks_won
                pending = (
                    hands[a_seat],
                    hands[b_seat],
                    view.spades_broken,
                    seat == a_seat,
                    won[a_seat],
                    won[b_seat],
                )
                led = int(action.card)
            else:
                assert pending is not None
                mine, other, broken, a_led, a_won, b_won = pending
                winner_first = trick_winner(0, int(view.current_trick[0]), int(action.card))
                leader = 1 - seat
                winner = leader if winner_first == 0 else seat
                bid_a = state.view_for(a_seat).bids[a_seat]
                bid_b = state.view_for(a_seat).bids[b_seat]
                if winner == a_seat and bid_a and a_won >= bid_a:
                    kind = bag_class(mine, other, led, broken, a_led)
                    need = (bid_b or 0) - b_won
                    if bid_b and need > 13 - trick_index:
                        kind += "/b_hopeless"
                    elif bid_b and need > 0:
                        kind += "/chasing"
                    classes[kind] += 1
                    bag_tricks.append(trick_index)
                trick_index += 1
        state.apply(seat, action)
    result = state.hand_results[-1]
    return {
        "pair": pair,
        "a_seat": a_seat,
        "bids": [result.bids[a_seat], result.bids[b_seat]],
        "tricks": [result.tricks[a_seat], result.tricks[b_seat]],
        "points": [result.points[a_seat], result.points[b_seat]],
        "bags": [result.bags_added[a_seat], result.bags_added[b_seat]],
        "classes": dict(classes),
        "bag_tricks": bag_tricks,
    }


def _interval(values: list[float]) -> list[float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return [round(mean - half, 2), round(mean + half, 2)]


def summary(records: list[dict[str, object]]) -> dict[str, object]:
    """The figures of the JSON line over the seat-hands ``records``."""
    hands = len(records)
    out: dict[str, object] = {"hands": hands}
    for index, name in ((0, "a"), (1, "b")):
        bids = [r for r in records if r["bids"][index]]  # type: ignore[index]
        made = sum(r["tricks"][index] >= r["bids"][index] for r in bids)  # type: ignore[index]
        nils = [r for r in records if r["bids"][index] == 0]  # type: ignore[index]
        out[name] = {
            "bid_made_rate": round(made / len(bids), 4) if bids else None,
            "bags_per_hand": round(sum(r["bags"][index] for r in records) / hands, 3),  # type: ignore[index]
            "mean_bid": round(statistics.fmean(r["bids"][index] for r in bids), 3)  # type: ignore[index]
            if bids
            else None,
            "nils": len(nils),
            "nils_made": sum(r["tricks"][index] == 0 for r in nils),  # type: ignore[index]
        }
    total: Counter[str] = Counter()
    for record in records:
        total.update(record["classes"])  # type: ignore[arg-type]
    out["a_bag_classes"] = {k: total[k] for k in sorted(total)}
    diffs = [float(r["points"][0] - r["points"][1]) for r in records]  # type: ignore[index]
    out["mean_hand_diff"] = round(statistics.fmean(diffs), 2)
    out["mean_hand_diff_ci95"] = _interval(diffs)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", default="hard", choices=LEVELS)
    parser.add_argument("--b", default="normal", choices=(*LEVELS, *REFERENCES))
    parser.add_argument("--set-a", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--set-b", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--first-pair", type=int, default=0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--max-wall", type=float, default=None)
    parser.add_argument("--log", type=Path, default=None)
    args = parser.parse_args(argv)
    rules = RuleSet.preset(args.preset)
    tweaks = (tuple(args.set_a), tuple(args.set_b))
    start = time.perf_counter()
    records: list[dict[str, object]] = []
    for pair in range(args.first_pair, args.first_pair + args.pairs):
        if args.max_wall is not None and time.perf_counter() - start > args.max_wall:
            break
        for a_seat in (0, 1):
            record = probe_hand(pair, a_seat, args.a, args.b, args.seed, rules, tweaks)
            records.append(record)
            if args.log is not None:
                with args.log.open("a") as log:
                    log.write(json.dumps(record) + "\n")
        print(json.dumps({"pair": pair, "records": records[-2:]}), file=sys.stderr)
    line = {
        "bench": "bag_probe",
        "a": args.a,
        "b": args.b,
        "set_a": args.set_a,
        "set_b": args.set_b,
        "preset": args.preset,
        "seed": args.seed,
        "pairs": len(records) // 2,
        **summary(records),
        "wall_s": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(line))


if __name__ == "__main__":
    main()
