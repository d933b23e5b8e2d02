"""Per-level bid tallies of the strength benchmark: bids made, bags, nils and blind nils;
and the pair-points summary of its duplicate pairs.

``tally = dict.fromkeys(BID_KEYS, 0)``; ``tally_hand(tally, bid, blind, result, seat)`` for
each hand and seat; ``bidding_report({level: tally})`` gives the JSON figures;
``pair_points_report(margins)`` the pairs won, drawn and lost on points with A's pair
score and its 95% interval. Raises nothing.
"""

from __future__ import annotations

import math
import statistics

from bench.sprt import points_pair_score, trinomial_counts
from engine import HandResult

__all__ = [
    "BID_KEYS",
    "bidding_report",
    "hand_record",
    "mean_interval",
    "pair_points_report",
    "tally_hand",
]

BID_KEYS = (
    "hands",
    "bids",
    "made",
    "bags",
    "nils",
    "nils_made",
    "blind_nils",
    "blind_made",
    "opp_nils",
    "opp_nils_set",
    "nils_set",
)


def tally_hand(
    tally: dict[str, int], bid: int | None, blind: bool, result: HandResult, seat: int
) -> None:
    """Count one seat's bid and its outcome into ``tally`` (keys :data:`BID_KEYS`)."""
    taken = result.tricks[seat]
    tally["hands"] += 1
    tally["bags"] += result.bags_added[seat]
    if blind:
        tally["blind_nils"] += 1
        tally["blind_made"] += taken == 0
    elif bid == 0:
        tally["nils"] += 1
        tally["nils_made"] += taken == 0
        tally["nils_set"] += taken > 0
    elif bid is not None:
        tally["bids"] += 1
        tally["made"] += taken >= bid
    other = 1 - seat
    if result.blind_nil[other] or result.bids[other] == 0:
        tally["opp_nils"] += 1
        tally["opp_nils_set"] += result.tricks[other] > 0


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def bidding_report(tallies: dict[str, dict[str, int]]) -> dict[str, dict[str, object]]:
    """Per level: made share of non-nil bids, bags per hand, nil and blind nil rates."""
    report: dict[str, dict[str, object]] = {}
    for level, tally in sorted(tallies.items()):
        hands = tally["hands"]
        report[level] = {
            "hands": hands,
            "bids": tally["bids"],
            "bid_made_rate": _ratio(tally["made"], tally["bids"]),
            "bags_per_hand": _ratio(tally["bags"], hands),
            "nil_bids": tally["nils"],
            "nil_bid_rate": _ratio(tally["nils"], hands),
            "nils_made": tally["nils_made"],
            "nils_set": tally["nils_set"],
            "nil_success": _ratio(tally["nils_made"], tally["nils"]),
            "blind_nils": tally["blind_nils"],
            "blind_nil_rate": _ratio(tally["blind_nils"], hands),
            "blind_nils_made": tally["blind_made"],
            "blind_nil_success": _ratio(tally["blind_made"], tally["blind_nils"]),
            "opponent_nils": tally["opp_nils"],
            "opponent_nils_set": _ratio(tally["opp_nils_set"], tally["opp_nils"]),
        }
    return report


def hand_record(result: HandResult, labels: tuple[str, str]) -> dict[str, object]:
    """One hand as a line of the ``--log`` file: per seat its side, bid, blind nil, tricks,
    points and bags added (seat order)."""
    return {
        "sides": list(labels),
        "bids": list(result.bids),
        "blind_nil": list(result.blind_nil),
        "tricks": list(result.tricks),
        "points": list(result.points),
        "bags_added": list(result.bags_added),
    }


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal 95% interval (NaN bounds under two values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan"), float("nan")
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def pair_points_report(margins: list[float]) -> dict[str, object]:
    """Pairs scored by pair points from each pair's ``margins`` (A's points over its two
    games minus B's): pairs, lost / drawn / won counts, A's pair score with its 95%
    interval (clipped to [0, 1]; ``None`` where undefined)."""
    scores = [points_pair_score(margin, 0) for margin in margins]
    lost, drawn, won = trinomial_counts(scores)
    report: dict[str, object] = {"pairs": len(scores), "won": won, "drawn": drawn, "lost": lost}
    if not scores:
        return {**report, "win_rate": None, "win_rate_ci95": [None, None]}
    rate, low, high = mean_interval(scores)
    bounds = [None if math.isnan(x) else round(min(1.0, max(0.0, x)), 4) for x in (low, high)]
    return {**report, "win_rate": round(rate, 4), "win_rate_ci95": bounds}
