"""Bid calibration: what the bid expects against what the seat then takes.

    python3 bench/bid_probe.py --deals 40 --seed 5 --log probe.jsonl
    python3 bench/bid_probe.py --deals 40 --seed 5 --set bid_shift=0 --set bid_spread=0.8
    python3 bench/bid_probe.py --seed 5 --only 1 3 17      # these deals of the sample
    python3 bench/bid_probe.py --preset five-hundred --scores 150 300 --play-nils-only
                                                           # seat 0 trails: blind nil?

Each deal is one hand (``--preset``), both seats played by the same level (``--level``,
default ``hard``, with ``--set FIELD=VALUE`` overrides of its search config; ``easy``'s
bids are judged by ``hard``'s sampled deals). Before each seat's
bid the bid's estimate is taken as :func:`engine.bot.search.search_bid` takes it: the
sampled deals' trick counts (:func:`engine.bot.search.bid_draws`), their mean plus the
config's ``bid_shift`` (the expected tricks), and the share of the spread counts at or
above the chosen bid (the chance the bid expects to make it). Then the hand is played
out and the tricks taken are compared.

The last line printed is one JSON object: seat-hands, the mean expected tricks minus the
tricks taken, the mean bid minus the tricks taken, the mean chance the bids expected to
be made against the share made, bags a hand, nil bids and nils made. ``--log`` writes a
line per seat-hand with the sampled counts, so other configs can be judged offline.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.strength import parse_tweaks
from engine import Deal, GameState, Phase, RuleSet
from engine.actions import Bid, BlindNil
from engine.bot import LEVEL_CONFIGS, Bot
from engine.bot.bid_raise import bid_make_chance
from engine.bot.knowledge import read_knowledge
from engine.bot.search import SearchConfig, bid_draws

__all__ = ["main", "make_chance", "probe_deal"]


def make_chance(draws: dict[tuple[int, int, int], int], bid: int, config: SearchConfig) -> float:
    """The chance the bid model gives ``bid`` (nil: 0) of being made over ``draws`` (the
    bot's own reading, :func:`engine.bot.bid_raise.bid_make_chance`)."""
    return bid_make_chance(Counter(draws), bid, config)


def probe_deal(
    index: int,
    base: int,
    level: str,
    tweaks: dict[str, object],
    preset: str,
    play_nils_only: bool = False,
    scores: tuple[int, int] | None = None,
    force_blind: int | None = None,
) -> list[dict[str, object]]:
    """Play deal ``index``; one record per seat (bid, expectations, tricks taken).

    With ``play_nils_only`` a hand without a nil bid stops after the bids (no ``taken``).
    ``scores`` starts the hand at that score (seat 0, seat 1) instead of 0 to 0, so that
    a seat trails and may declare blind nil; seat ``force_blind`` declares it whenever it
    may (the bot's own choice is not asked), to measure how often a blind nil is made.
    """
    rules = RuleSet.preset(preset)
    state = GameState(rules)
    if scores is not None:
        state.scores = [scores[0], scores[1]]
    seed = hashlib.sha256(f"bidprobe/{base}/{index}".encode()).digest()
    state.apply(None, Deal(seed))
    bots = [Bot(level, seed=int.from_bytes(seed[8 * s : 8 * s + 8], "big")) for s in (0, 1)]
    for bot in bots:
        if tweaks and bot.config is not None:
            bot.config = replace(bot.config, **tweaks)  # type: ignore[arg-type]
    probe_rng = random.Random(int.from_bytes(seed[16:24], "big"))
    records: list[dict[str, object]] = [{}, {}]
    while state.current_player is not None:
        seat = state.current_player
        view = state.view_for(seat)
        bot = bots[seat]
        if view.phase is Phase.BLIND_NIL and seat == force_blind:
            forced = BlindNil(True)
            state.apply(seat, forced if forced in view.legal_actions() else BlindNil(False))
            continue
        if view.phase is Phase.BIDDING:
            config = bot.config or LEVEL_CONFIGS["hard"]  # easy's bid judged by hard's
            draws = bid_draws(view, read_knowledge(view), probe_rng, config)
            action = bot.choose(view)
            bid = action.tricks if isinstance(action, Bid) else 0
            total = sum(draws.values())
            mean = sum(n * c for (n, _, _), c in draws.items()) / total
            records[seat] = {
                "deal": index,
                "seat": seat,
                "bid": bid,
                "expected": round(mean + config.bid_shift, 3),
                "make_chance": round(make_chance(dict(draws), bid or 0, config), 3),
                "draws": [[n, z, g, c] for (n, z, g), c in sorted(draws.items())],
            }
            state.apply(seat, action)
            continue
        if view.phase is Phase.PLAY:
            for other in (0, 1):
                if view.blind_nil[other] and not records[other]:
                    records[other] = {"deal": index, "seat": other, "bid": 0, "blind": True}
            if play_nils_only and 0 not in view.bids and not any(view.blind_nil):
                return records
        state.apply(seat, bot.choose(view))
    result = state.hand_results[-1]  # the hand was played out
    for seat in (0, 1):
        records[seat]["taken"] = result.tricks[seat]
        records[seat]["bags"] = result.bags_added[seat]
    return records


def summarise(rows: list[dict[str, object]]) -> dict[str, object]:
    """The calibration figures over the seat-hands ``rows``."""

    def num(row: dict[str, object], key: str) -> float:
        value = row[key]
        assert isinstance(value, (int, float))
        return float(value)

    bids = [num(r, "bid") for r in rows]
    blind = [r for r in rows if r.get("blind")]
    nils = [r for r in rows if num(r, "bid") == 0 and not r.get("blind")]
    nil_figures = {
        "nil_bids": len(nils),
        "nil_rate": round(len(nils) / len(rows), 4),
        "nils_made": sum(num(r, "taken") == 0 for r in nils),
        "nil_expected_make": [num(r, "make_chance") for r in nils],
        "blind_nils": len(blind),
        "blind_nils_made": sum(num(r, "taken") == 0 for r in blind),
    }
    trick_bids = [r for r in rows if num(r, "bid") > 0]
    if any("taken" not in r for r in rows):  # only the hands with a nil were played
        return {
            "seat_hands": len(rows),
            "mean_bid": round(statistics.fmean(b for b in bids if b > 0), 3),
            "expected_make_chance": round(
                statistics.fmean(num(r, "make_chance") for r in rows if num(r, "bid") > 0), 3
            ),
            **nil_figures,
        }
    made = [num(r, "taken") >= num(r, "bid") for r in trick_bids]
    return {
        "seat_hands": len(rows),
        "expected_minus_taken": round(
            statistics.fmean(num(r, "expected") - num(r, "taken") for r in trick_bids), 3
        ),
        "bid_minus_taken": round(
            statistics.fmean(num(r, "bid") - num(r, "taken") for r in trick_bids), 3
        ),
        "mean_bid": round(statistics.fmean(num(r, "bid") for r in trick_bids), 3),
        "expected_make_chance": round(
            statistics.fmean(num(r, "make_chance") for r in trick_bids), 3
        ),
        "bids_made": round(sum(made) / len(made), 3),
        "bags_per_hand": round(statistics.fmean(num(r, "bags") for r in trick_bids), 3),
        **nil_figures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--log", type=Path)
    parser.add_argument(
        "--only", type=int, nargs="+", metavar="DEAL", help="play only these deal numbers"
    )
    parser.add_argument(
        "--play-nils-only",
        action="store_true",
        help="stop each hand after the bids unless a seat bid nil (nil figures only)",
    )
    parser.add_argument(
        "--scores",
        type=int,
        nargs=2,
        metavar=("SEAT0", "SEAT1"),
        help="start every hand at this score (a trailing seat may declare blind nil)",
    )
    parser.add_argument(
        "--force-blind",
        type=int,
        choices=(0, 1),
        help="this seat declares blind nil whenever the rules let it (its success rate)",
    )
    args = parser.parse_args()
    tweaks = parse_tweaks(tuple(args.set))
    started = time.perf_counter()
    rows: list[dict[str, object]] = []
    for index in args.only or range(args.deals):
        records = probe_deal(
            index,
            args.seed,
            args.level,
            tweaks,
            args.preset,
            args.play_nils_only,
            None if args.scores is None else (args.scores[0], args.scores[1]),
            args.force_blind,
        )
        rows.extend(records)
        if args.log is not None:
            with args.log.open("a") as log:
                for record in records:
                    log.write(json.dumps(record) + "\n")
        brief = [(r["bid"], r.get("expected"), r.get("taken")) for r in records]
        print(f"deal {index}: (bid, expected, taken) {brief}", file=sys.stderr, flush=True)
    summary = {
        "bench": "bid_probe",
        "level": args.level,
        "set": args.set,
        "preset": args.preset,
        "deals": args.deals,
        "seed": args.seed,
        "scores": args.scores,
        "force_blind": args.force_blind,
        **summarise(rows),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
