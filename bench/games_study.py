"""Where whole games are won and lost: each side's points split by where they came from.

    python3 bench/games_study.py bench/journals/hard-normal-500-s19.jsonl [more journals]

Reads the hands a strength journal keeps (``bench/strength.py --journal``) and splits each
side's points in every game into six parts, with the rules' own scoring
(:func:`engine.scoring.score_seat`, the rules from the journal's first line):

- ``made``: 10 a trick bid, for the bids made;
- ``overtricks``: 1 a bag;
- ``sets``: minus 10 a trick bid, for the bids not made;
- ``nil`` and ``blind_nil``: the bonus won or lost;
- ``penalties``: the bag penalties (minus 100 for each 10 bags, at both presets).

A hand whose parts do not add up to the points the journal recorded raises
:class:`StudyError` (a journal of other rules, or damaged). Prints one line per game
(A's result, the final scores, each side's sets and penalties) and, on the last line, a
JSON object: per side, the mean of each part and of the counts (``set_count``,
``penalty_count``, ``bags``) per game, over all games and over the games A won and lost.

Every game of every journal given counts once; the sides are read from the journals'
first lines and must be the same two levels in each (:class:`StudyError` otherwise).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # before bench/engine.py

from engine.rules import RuleSet
from engine.scoring import score_seat

__all__ = ["PARTS", "GameParts", "StudyError", "game_parts", "read_journal", "study_report"]

PARTS = ("made", "overtricks", "sets", "nil", "blind_nil", "penalties")
COUNTS = ("set_count", "penalty_count", "bags")


class StudyError(ValueError):
    """A journal this study cannot read, or a hand its rules do not score as recorded."""


@dataclass
class GameParts:
    """One game: A's result (``a_won``: ``None`` for a game the hand cap stopped even),
    the final scores by side, and each side's points by part and its counts."""

    pair: int
    a_won: bool | None
    scores: dict[str, int]
    parts: dict[str, dict[str, int]] = field(default_factory=dict)


def _seat_parts(
    rules: RuleSet, bid: int | None, blind: bool, tricks: int, bags_before: int
) -> tuple[dict[str, int], int, int]:
    """One seat's hand split into parts and counts, its points, and its bags after."""
    points, bags_added, penalties, bags_after = score_seat(rules, bid, blind, tricks, bags_before)
    parts = dict.fromkeys((*PARTS, *COUNTS), 0)
    if blind or bid == 0:
        bonus = rules.blind_nil_bonus if blind else rules.nil_bonus
        parts["blind_nil" if blind else "nil"] = bonus if tricks == 0 else -bonus
    else:
        assert bid is not None
        if tricks >= bid:
            parts["made"] = 10 * bid
            parts["overtricks"] = tricks - bid
        else:
            parts["sets"] = -10 * bid
            parts["set_count"] = 1
    parts["penalties"] = -penalties * rules.bag_penalty
    parts["penalty_count"] = penalties
    parts["bags"] = bags_added
    return parts, points, bags_after


def game_parts(rules: RuleSet, game: dict[str, Any], side_a: str) -> GameParts:
    """Split one journal game (its kept fields) by side. Raises :class:`StudyError` when a
    hand's parts do not add up to its recorded points."""
    hands = game["hands"]
    sides: Sequence[str] = hands[0]["sides"] if hands else ("", "")
    totals = {side: dict.fromkeys((*PARTS, *COUNTS), 0) for side in sides}
    bags_before = [0, 0]
    for number, hand in enumerate(hands):
        for seat in (0, 1):
            blind = bool(hand["blind_nil"][seat])
            parts, points, bags_before[seat] = _seat_parts(
                rules, hand["bids"][seat], blind, hand["tricks"][seat], bags_before[seat]
            )
            if points != hand["points"][seat] or parts["bags"] != hand["bags_added"][seat]:
                raise StudyError(
                    f"pair {game['pair']}, hand {number + 1}, seat {seat}: the rules score "
                    f"{points} points and {parts['bags']} bags, the journal has "
                    f"{hand['points'][seat]} and {hand['bags_added'][seat]}"
                )
            side_totals = totals[hand["sides"][seat]]
            for key, value in parts.items():
                side_totals[key] += value
    winner = game["winner"]
    a_won = None if winner is None else winner == game["a_seat"]
    scores = {sides[0]: game["scores"][0], sides[1]: game["scores"][1]}
    if game["hands"] and hands[0]["sides"][game["a_seat"]] != side_a:
        raise StudyError(f"pair {game['pair']}: A ({side_a}) is not in seat {game['a_seat']}")
    return GameParts(game["pair"], a_won, scores, totals)


def read_journal(path: Path) -> tuple[str, str, list[GameParts]]:
    """The sides (A, B) of the journal at ``path`` and its games split by part. Raises
    :class:`StudyError` for a file that is not a strength journal, or as
    :func:`game_parts` does."""
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        head = json.loads(lines[0])
        side_a, side_b = head["a"], head["b"]
        rules = RuleSet(**head["rules"])
    except (IndexError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise StudyError(f"{path}: the first line is not a strength journal's") from error
    if side_a == side_b:
        raise StudyError(f"{path}: both sides are {side_a}, so their points cannot be told apart")
    games: list[GameParts] = []
    for line in lines[1:]:
        if line.strip():
            games += [game_parts(rules, game, side_a) for game in json.loads(line)["games"]]
    return side_a, side_b, games


def _means(games: Sequence[GameParts], side: str) -> dict[str, float | None]:
    if not games:
        return dict.fromkeys((*PARTS, *COUNTS, "points"), None)
    means: dict[str, float | None] = {
        key: round(sum(g.parts[side][key] for g in games) / len(games), 2)
        for key in (*PARTS, *COUNTS)
    }
    means["points"] = round(
        sum(sum(g.parts[side][k] for k in PARTS) for g in games) / len(games), 2
    )
    return means


def study_report(side_a: str, side_b: str, games: Sequence[GameParts]) -> dict[str, object]:
    """Per side, the mean per game of each part and count (and of ``points``, their sum),
    over all games and over A's wins and losses."""
    subsets = {
        "all": list(games),
        "a_won": [g for g in games if g.a_won],
        "a_lost": [g for g in games if g.a_won is False],
    }
    return {
        "bench": "games_study",
        "a": side_a,
        "b": side_b,
        "games": {name: len(subset) for name, subset in subsets.items()},
        "per_game": {
            name: {side: _means(subset, side) for side in (side_a, side_b)}
            for name, subset in subsets.items()
        },
    }


def _game_line(game: GameParts, side_a: str, side_b: str) -> str:
    result = {True: "won", False: "lost", None: "even"}[game.a_won]
    a, b = game.parts[side_a], game.parts[side_b]
    return (
        f"pair {game.pair}: {side_a} {result} {game.scores[side_a]}-{game.scores[side_b]}; "
        f"sets {a['set_count']}-{b['set_count']}, penalties {a['penalty_count']}-"
        f"{b['penalty_count']}, bags {a['bags']}-{b['bags']}"
    )


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("journals", nargs="+", type=Path, help="strength journals")
    args = parser.parse_args(None if argv is None else list(argv))
    sides: tuple[str, str] | None = None
    games: list[GameParts] = []
    try:
        for path in args.journals:
            side_a, side_b, more = read_journal(path)
            if sides is not None and sides != (side_a, side_b):
                raise StudyError(
                    f"{path}: {side_a} against {side_b}, not {sides[0]} against {sides[1]}"
                )
            sides = (side_a, side_b)
            games += more
    except (OSError, StudyError) as error:
        print(f"games_study: {error}", file=sys.stderr)
        return 2
    assert sides is not None
    for game in games:
        print(_game_line(game, *sides))
    print(json.dumps(study_report(*sides, games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
