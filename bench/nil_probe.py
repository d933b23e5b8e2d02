"""Nil probe: how often a hand drafted for nil survives, and how well the bot foresees it.

    python3 bench/nil_probe.py --deals 40 --setter hard --drafter heuristic

Each deal is one classic hand. Seat 0 drafts only for nil (``--drafter simple``: keep a
low card on offer, else take the next card, as :func:`engine.bot.draft.draw_nil_draft`
draws the cards to come; ``heuristic``: the blind-nil drafter of
:func:`engine.bot.heuristics.draft_keep`, which keeps the card on offer when it is less
dangerous than the average unseen card; ``search``:
:func:`engine.bot.draft.search_nil_draft`, the heuristic where its draws do not tell keep
from discard), then bids nil and plays as the ``hard`` bot; seat 1 is the ``--setter``
level, drafting, bidding and playing as it would. Before its bid, seat 0's survival
estimate is taken the way :func:`engine.bot.search.search_bid` takes it (the share
of sampled deals on which a ducking playout takes no trick). This bounds from above what
drafting for nil can give: no level drafts for nil more single-mindedly.

``--play-from P`` plays a hand out only when the estimate is at least ``P`` (the draft and
the estimate cost little, the play most), so a long run spends its time on the hands that
calibrate the estimate.

The last line printed is one JSON object: deals, nils made, the mean estimate, for each
estimate threshold the share of hands at or above it and the nils made among them, and
the calibration: per band of estimates, the hands played, their mean estimate and the
share made (predicted against made, as ``bench/bid_probe.py`` does for bids), for the
bid's estimate and for a flat one (the opponent's hand drawn uniformly from the unseen
cards, ``calibration_flat``).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Deal, GameState, Phase, RuleSet
from engine.actions import Bid, Discard, Keep
from engine.bot import Bot
from engine.bot.draft import NIL_SAFE_RANK, search_nil_draft
from engine.bot.evaluate import modes_table
from engine.bot.heuristics import draft_keep
from engine.bot.knowledge import read_knowledge, sample_hand
from engine.bot.search import opponent_bid_weight
from engine.cards import ALL_CARDS_MASK, card_mask
from engine.fast import greedy_playout
from engine.game import PlayerView

__all__ = ["calibration", "main", "nil_estimate", "probe_deal", "uniform_hand"]

NIL_DRAFT_SAMPLES = 160
"""Draws per draft turn of the ``search`` drafter (as ``hard``'s ``draft_blind_samples``)."""
THRESHOLDS = (0.2, 0.35, 0.5, 0.65)
BANDS = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1.01)
"""Edges of the estimate bands of the calibration table."""


def calibration(rows: list[tuple[float, bool | None]]) -> list[dict[str, object]]:
    """Per band of estimates (``BANDS``): hands played out, mean estimate, share made."""
    table: list[dict[str, object]] = []
    for low, high in itertools.pairwise(BANDS):
        played = [(e, made) for e, made in rows if low <= e < high and made is not None]
        if not played:
            continue
        table.append(
            {
                "band": [low, min(high, 1.0)],
                "hands": len(played),
                "mean_estimate": round(statistics.fmean(e for e, _ in played), 3),
                "made": round(sum(bool(m) for _, m in played) / len(played), 3),
            }
        )
    return table


def _nil_keep(view: PlayerView, drafter: str, rng: random.Random) -> bool:
    offered = int(view.offered) if view.offered is not None else 0
    if drafter == "search":
        keep = search_nil_draft(view, rng, NIL_DRAFT_SAMPLES)
        if keep is not None:
            return keep
        drafter = "heuristic"
    if drafter == "simple":
        rank = offered % 13
        return rank <= NIL_SAFE_RANK // 2 if offered >= 39 else rank <= NIL_SAFE_RANK
    me = view.seat if view.seat is not None else 0
    hand = view.hand_mask
    seen = hand | card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    unseen = ALL_CARDS_MASK & ~seen & ~(1 << offered)
    to_come = 13 - view.draft_turns[me] - 1
    return draft_keep(hand, offered, unseen, to_come, True, nil_only=True)


def uniform_hand(mask: int, count: int, rng: random.Random) -> int:
    """``count`` cards of ``mask`` drawn uniformly (a mask)."""
    cards = [card for card in range(52) if mask >> card & 1]
    chosen = 0
    for card in rng.sample(cards, min(count, len(cards))):
        chosen |= 1 << card
    return chosen


def nil_estimate(view: PlayerView, rng: random.Random, samples: int, flat: bool = False) -> float:
    """The share of sampled deals on which seat ``view.seat`` bidding nil takes no trick,
    drawn and played as ``hard`` bids (fog on); with ``flat`` the opponent's hand is drawn
    uniformly from the unseen cards instead of as a drafted hand."""
    know = read_knowledge(view)
    me = know.me
    leader = 0 if view.first_bidder == me else 1
    opp_bid = view.bids[know.opp]
    nil_modes = modes_table((0, 13 if opp_bid is None else max(1, opp_bid)))
    weight = opponent_bid_weight(view, know)
    opp_fog = know.pile_seen
    survived = 0
    for _ in range(samples):
        other = (
            uniform_hand(know.unseen, know.opp_size, rng)
            if flat
            else sample_hand(know, rng, weight, tries=8)
        )
        fog = know.unseen & ~other
        taken = greedy_playout(
            know.hand, other, leader, -1, False, 0, 0, nil_modes, 0, fog, opp_fog
        )
        survived += taken[0] == 0
    return survived / samples


def probe_deal(
    index: int, base: int, setter: str, drafter: str, play_from: float = 0.0
) -> tuple[float, float, bool | None]:
    """Play deal ``index``; (seat 0's survival estimate before its bid, the flat estimate,
    nil made), with ``None`` for made when neither estimate reached ``play_from`` (the hand
    is not played)."""
    rules = RuleSet.preset("classic")
    state = GameState(rules)
    seed = hashlib.sha256(f"nilprobe/{base}/{index}".encode()).digest()
    state.apply(None, Deal(seed))
    nil_bot = Bot("hard", seed=int.from_bytes(seed[:8], "big"))
    other = Bot(setter, seed=int.from_bytes(seed[8:16], "big"))
    rng = random.Random(int.from_bytes(seed[16:24], "big"))
    estimate = flat = -1.0
    while state.current_player is not None:
        seat = state.current_player
        view = state.view_for(seat)
        if seat == 1:
            state.apply(1, other.choose(view))
        elif view.phase is Phase.DRAFT:
            state.apply(0, Keep() if _nil_keep(view, drafter, rng) else Discard())
        elif view.phase is Phase.BIDDING:
            estimate = nil_estimate(view, rng, 600)
            flat = nil_estimate(view, rng, 600, flat=True)
            if max(estimate, flat) < play_from:
                return estimate, flat, None
            state.apply(0, Bid(0))
        else:
            state.apply(0, nil_bot.choose(view))
    return estimate, flat, state.hand_results[-1].tricks[0] == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setter", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--drafter", default="heuristic", choices=("simple", "heuristic", "search"))
    parser.add_argument("--play-from", type=float, default=0.0)
    args = parser.parse_args()
    started = time.perf_counter()
    rows = []
    flat_rows = []
    for index in range(args.deals):
        estimate, flat, made = probe_deal(
            index, args.seed, args.setter, args.drafter, args.play_from
        )
        rows.append((estimate, made))
        flat_rows.append((flat, made))
        print(f"deal {index}: estimate {estimate:.3f} flat {flat:.3f} made {made}", flush=True)
    buckets = {}
    for threshold in THRESHOLDS:
        chosen = [made for estimate, made in rows if estimate >= threshold]
        buckets[str(threshold)] = {
            "share": round(len(chosen) / len(rows), 3),
            "hands": len(chosen),
            "made": sum(bool(m) for m in chosen),
        }
    summary = {
        "bench": "nil_probe",
        "deals": len(rows),
        "setter": args.setter,
        "drafter": args.drafter,
        "seed": args.seed,
        "play_from": args.play_from,
        "played": sum(made is not None for _, made in rows),
        "nils_made": sum(bool(made) for _, made in rows),
        "mean_estimate": round(statistics.fmean(e for e, _ in rows), 4),
        "by_estimate": buckets,
        "calibration": calibration(rows),
        "calibration_flat": calibration(flat_rows),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
