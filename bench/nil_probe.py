"""Nil probe: how often a hand drafted for nil survives, and how well the bot foresees it.

    python3 bench/nil_probe.py --deals 40 --setter hard --drafter heuristic

Each deal is one classic hand. Seat 0 drafts only for nil (``--drafter simple``: keep a
low card on offer, else take the next card, as :func:`engine.bot.draft.draw_nil_draft`
draws the cards to come; ``heuristic``: the blind-nil drafter of
:func:`engine.bot.heuristics.draft_keep`, which keeps the card on offer when it is less
dangerous than the average unseen card), then bids nil and plays as the ``hard`` bot; seat
1 is the ``--setter`` level, drafting, bidding and playing as it would. Before its bid,
seat 0's survival estimate is taken the way :func:`engine.bot.search.search_bid` takes it
(the share of sampled deals on which a ducking playout takes no trick). This bounds from
above what any drafting for nil can give: no level can draft for nil more single-mindedly.

The last line printed is one JSON object: deals, nils made, the mean estimate, and for
each estimate threshold the share of hands at or above it and the nils made among them.
"""

from __future__ import annotations

import argparse
import hashlib
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
from engine.bot.draft import NIL_SAFE_RANK
from engine.bot.evaluate import modes_table
from engine.bot.heuristics import draft_keep
from engine.bot.knowledge import read_knowledge, sample_hand
from engine.bot.search import opponent_bid_weight
from engine.cards import ALL_CARDS_MASK, card_mask
from engine.fast import greedy_playout
from engine.game import PlayerView

__all__ = ["main", "nil_estimate", "probe_deal"]

THRESHOLDS = (0.2, 0.35, 0.5, 0.65)


def _nil_keep(view: PlayerView, drafter: str) -> bool:
    offered = int(view.offered) if view.offered is not None else 0
    if drafter == "simple":
        rank = offered % 13
        return rank <= NIL_SAFE_RANK // 2 if offered >= 39 else rank <= NIL_SAFE_RANK
    me = view.seat if view.seat is not None else 0
    hand = view.hand_mask
    seen = hand | card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    unseen = ALL_CARDS_MASK & ~seen & ~(1 << offered)
    to_come = 13 - view.draft_turns[me] - 1
    return draft_keep(hand, offered, unseen, to_come, True, nil_only=True)


def nil_estimate(view: PlayerView, rng: random.Random, samples: int) -> float:
    """The share of sampled deals on which seat ``view.seat`` bidding nil takes no trick,
    drawn and played as ``hard`` bids (fog on)."""
    know = read_knowledge(view)
    me = know.me
    leader = 0 if view.first_bidder == me else 1
    opp_bid = view.bids[know.opp]
    nil_modes = modes_table((0, 13 if opp_bid is None else max(1, opp_bid)))
    weight = opponent_bid_weight(view, know)
    opp_fog = know.pile_seen
    survived = 0
    for _ in range(samples):
        other = sample_hand(know, rng, weight, tries=8)
        fog = know.unseen & ~other
        taken = greedy_playout(
            know.hand, other, leader, -1, False, 0, 0, nil_modes, 0, fog, opp_fog
        )
        survived += taken[0] == 0
    return survived / samples


def probe_deal(index: int, base: int, setter: str, drafter: str) -> tuple[float, bool]:
    """Play deal ``index``; (seat 0's survival estimate before its bid, nil made)."""
    rules = RuleSet.preset("classic")
    state = GameState(rules)
    seed = hashlib.sha256(f"nilprobe/{base}/{index}".encode()).digest()
    state.apply(None, Deal(seed))
    nil_bot = Bot("hard", seed=int.from_bytes(seed[:8], "big"))
    other = Bot(setter, seed=int.from_bytes(seed[8:16], "big"))
    rng = random.Random(int.from_bytes(seed[16:24], "big"))
    estimate = -1.0
    while state.current_player is not None:
        seat = state.current_player
        view = state.view_for(seat)
        if seat == 1:
            state.apply(1, other.choose(view))
        elif view.phase is Phase.DRAFT:
            state.apply(0, Keep() if _nil_keep(view, drafter) else Discard())
        elif view.phase is Phase.BIDDING:
            estimate = nil_estimate(view, rng, 600)
            state.apply(0, Bid(0))
        else:
            state.apply(0, nil_bot.choose(view))
    return estimate, state.hand_results[-1].tricks[0] == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setter", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--drafter", default="heuristic", choices=("simple", "heuristic"))
    args = parser.parse_args()
    started = time.perf_counter()
    rows = []
    for index in range(args.deals):
        estimate, made = probe_deal(index, args.seed, args.setter, args.drafter)
        rows.append((estimate, made))
        print(f"deal {index}: estimate {estimate:.3f} made {made}", flush=True)
    buckets = {}
    for threshold in THRESHOLDS:
        chosen = [made for estimate, made in rows if estimate >= threshold]
        buckets[str(threshold)] = {
            "share": round(len(chosen) / len(rows), 3),
            "hands": len(chosen),
            "made": sum(chosen),
        }
    summary = {
        "bench": "nil_probe",
        "deals": len(rows),
        "setter": args.setter,
        "drafter": args.drafter,
        "seed": args.seed,
        "nils_made": sum(made for _, made in rows),
        "mean_estimate": round(statistics.fmean(e for e, _ in rows), 4),
        "by_estimate": buckets,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
