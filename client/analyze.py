"""``spades analyze RECORD [--seat N] [--level L] [--all] [--ascii]``: where the points went.

Loads a game record (as ``spades serve`` stores it and the client saves it), judges every
decision of one seat with :func:`engine.analysis.analyze_record` and prints the report:
the game's accuracy and verdict counts, its three costliest decisions, then per hand the
bid against the tricks expected, taken and available with all cards shown, the luck of
the hand, and the decisions that lost points (every decision with ``--all``).

While it works, a progress bar runs on the terminal: prompt_toolkit's own
``shortcuts.ProgressBar`` (prompt_toolkit is already the client's toolkit, so no new
dependency); without a terminal there is no bar.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import ProgressBar
from prompt_toolkit.shortcuts.progress_bar.base import ProgressBarCounter

from engine import Bid, BlindNil, Card, Discard, EngineError, Exchange, Keep, Play, PlayerAction
from engine.analysis import (
    ACCURACY_SCALE,
    DEFAULT_LEVEL,
    VERDICT_THRESHOLDS,
    DecisionAnalysis,
    DecisionKind,
    GameAnalysis,
    HandAnalysis,
    Progress,
    Verdict,
    analyze_record,
)

__all__ = [
    "analyze_file",
    "format_analysis",
    "run_analyze",
    "show_analysis",
    "with_progress_bar",
]

_MARKS = {
    Verdict.GOOD: "",
    Verdict.INACCURACY: "?!",
    Verdict.MISTAKE: "?",
    Verdict.BLUNDER: "??",
    Verdict.FORCED: "",
}


def _card(card: Card, ascii_only: bool) -> str:
    return card.pretty(ascii_only)


def _action(action: PlayerAction, ascii_only: bool, offered: Card | None = None) -> str:
    if isinstance(action, Play):
        return _card(action.card, ascii_only)
    if isinstance(action, Bid):
        return "bid nil" if action.tricks == 0 else f"bid {action.tricks}"
    if isinstance(action, Keep | Discard):
        word = "keep" if isinstance(action, Keep) else "discard"
        return word if offered is None else f"{word} {_card(offered, ascii_only)}"
    if isinstance(action, Exchange):
        given = " ".join(_card(card, ascii_only) for card in action.cards)
        return f"give {given}" if given else "give nothing"
    assert isinstance(action, BlindNil)
    return "blind nil" if action.declare else "no blind nil"


def _where(decision: DecisionAnalysis) -> str:
    if decision.trick:
        return f"trick {decision.trick}"
    if decision.kind is DecisionKind.BID:
        return ""  # the action says "bid 4"
    return decision.kind.value.replace("_", " ")


def _decision_line(decision: DecisionAnalysis, ascii_only: bool, with_hand: bool) -> str:
    """One line: where, what was done, points lost, the best choice, verdict, hindsight."""
    made = _action(decision.action, ascii_only, decision.offered)
    where = _where(decision)
    place = ", ".join(
        part for part in (f"hand {decision.hand_number}" if with_hand else "", where) if part
    )
    line = f"{place:>17} {made + _MARKS[decision.verdict]:<14}"
    knew = decision.knew
    if knew is None:
        return line + "      forced"
    if knew.loss < 0.05:
        line += f" {'':>6}  best{'':9} {decision.verdict.value:<10}"
    else:
        best = _action(knew.best_action, ascii_only)
        line += f" {-knew.loss:+6.1f}  best {best:<8} {decision.verdict.value:<10}"
    hindsight = decision.hindsight
    if hindsight is not None and isinstance(decision.action, Play):
        line += f" DD {hindsight.made_tricks}"
        if hindsight.tricks_lost > 0:
            best = _action(hindsight.best_action, ascii_only)
            line += f" ({best}: {hindsight.best_tricks})"
    return line.rstrip()


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


def _bid_text(hand: HandAnalysis) -> str:
    if hand.blind_nil:
        return "blind nil"
    if hand.bid is None:
        return "no bid"
    return "nil" if hand.bid == 0 else f"bid {hand.bid}"


def _hand_lines(hand: HandAnalysis, ascii_only: bool, every: bool) -> list[str]:
    took = "-" if hand.tricks is None else str(hand.tricks)
    points = (
        "" if hand.points is None else f" ({hand.points:+d}, opponent {hand.opponent_points:+d})"
    )
    lines = [f"Hand {hand.hand_number}: {_bid_text(hand)}, took {took}{points}"]
    facts = []
    if hand.expected_tricks is not None:
        facts.append(f"tricks expected {hand.expected_tricks:.1f}")
    if hand.dd_tricks is not None:
        facts.append(f"cards shown {hand.dd_tricks}")
    luck = hand.luck
    if luck is not None and hand.average_dd_tricks is not None:
        facts.append(f"luck {luck:+.1f} (average {hand.average_dd_tricks:.1f})")
    facts.append(f"accuracy {_percent(hand.accuracy)}")
    lines.append("  " + " · ".join(facts))
    shown = [
        d
        for d in hand.decisions
        if every or d.verdict in (Verdict.INACCURACY, Verdict.MISTAKE, Verdict.BLUNDER)
    ]
    lines.extend(_decision_line(d, ascii_only, False) for d in shown)
    return lines


def format_analysis(analysis: GameAnalysis, ascii_only: bool = False, every: bool = False) -> str:
    """The report as text (at most 80 columns a line); ``every`` lists every decision."""
    seat = analysis.seat
    preset = analysis.preset or "custom rules"
    scores = analysis.scores
    if analysis.winner is None:
        outcome = f"unfinished, {scores[seat]} to {scores[1 - seat]}"
    elif analysis.winner == seat:
        outcome = f"won {scores[seat]} to {scores[1 - seat]}"
    else:
        outcome = f"lost {scores[seat]} to {scores[1 - seat]}"
    counts = analysis.verdict_counts()
    lines = [
        f"Analysis of seat {seat} ({preset}, level {analysis.level}): {outcome}",
        f"Accuracy {_percent(analysis.accuracy)} · "
        + " · ".join(f"{verdict.value} {counts[verdict]}" for verdict in Verdict),
        "",
        "Costliest decisions (expected points lost with what you knew):",
    ]
    lines.extend(_decision_line(d, ascii_only, True) for d in analysis.costliest)
    if not analysis.costliest:
        lines.append("  none: every decision was the best one found")
    for hand in analysis.hands:
        lines.append("")
        lines.extend(_hand_lines(hand, ascii_only, every))
    thresholds = ", ".join(f"{verdict.value} {limit:g}" for verdict, limit in VERDICT_THRESHOLDS)
    lines += [
        "",
        "Points are the hand's margin (yours minus the opponent's). Verdicts by expected",
        f"points lost: {thresholds}; accuracy 100·exp(-loss/{ACCURACY_SCALE:g}).",
        "DD: your tricks with all cards shown (double dummy) after the card played, and",
        "the better card's when there was one. Luck: the hand's double-dummy tricks",
        "against the average drafted hand's.",
    ]
    return "\n".join(lines)


def analyze_file(
    path: str | Path, seat: int, level: str = DEFAULT_LEVEL, progress: Progress | None = None
) -> GameAnalysis:
    """Read the record at ``path`` and analyse ``seat``.

    Raises ``OSError`` if the file cannot be read, ``ValueError`` if it is not JSON, and
    :class:`~engine.errors.EngineError` for a bad record, seat or level.
    """
    record: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object")
    return analyze_record(record, seat, level, progress)


def with_progress_bar(
    work: Callable[[Progress | None], GameAnalysis],
    output: Output | None = None,
    input: Input | None = None,
) -> GameAnalysis:
    """Run ``work(progress)`` under prompt_toolkit's progress bar (on ``output``, else on
    the terminal; without a terminal, no bar: ``work(None)``)."""
    if output is None and not (sys.stdout.isatty() and sys.stdin.isatty()):
        return work(None)
    with ProgressBar(title="Analysing the game", output=output, input=input) as bar:
        counter: ProgressBarCounter[int] = bar(label="decisions", total=1)

        def progress(done: int, total: int) -> None:
            counter.total = total
            counter.items_completed = done
            bar.invalidate()

        result = work(progress)
        counter.done = True
    return result


def show_analysis(
    record: dict[str, Any],
    seat: int | None = None,
    level: str = DEFAULT_LEVEL,
    ascii_only: bool = False,
    ask: Callable[[str], str] = input,
) -> None:
    """Analyse ``record`` on the plain terminal, print the report, wait for Enter.

    Meant for a full-screen screen's key, run with prompt_toolkit's ``run_in_terminal``
    (the screen is suspended meanwhile). ``seat`` ``None`` asks which seat; ``ask`` reads
    an answer (``input``). Errors are printed, not raised.
    """

    def answer(prompt: str) -> str:
        try:
            return ask(prompt)
        except EOFError:  # no terminal input left: take the default
            return ""

    try:
        if seat is None:
            reply = answer("Analyse which seat, 0 or 1? [0] ").strip() or "0"
            if reply not in ("0", "1"):
                print(f"There is no seat {reply}.")
                answer("Press Enter to go back. ")
                return
            seat = int(reply)
        chosen = seat
        analysis = with_progress_bar(
            lambda progress: analyze_record(record, chosen, level, progress)
        )
        print(format_analysis(analysis, ascii_only))
    except EngineError as error:
        print(f"The game cannot be analysed: {error}")
    answer("Press Enter to go back. ")


def run_analyze(
    path: str,
    seat: int = 0,
    level: str = DEFAULT_LEVEL,
    ascii_only: bool = False,
    every: bool = False,
) -> int:
    """The ``spades analyze`` command: print the report; 0 on success, 1 on a bad record."""
    try:
        analysis = with_progress_bar(lambda progress: analyze_file(path, seat, level, progress))
    except (OSError, ValueError, EngineError) as error:
        print(f"spades analyze: {path}: {error}", file=sys.stderr)
        return 1
    print(format_analysis(analysis, ascii_only, every))
    return 0
