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
from prompt_toolkit.utils import get_cwidth

from client.cardwords import card_text
from client.draw import wrap
from client.i18n import N_, _, language
from client.rules import level_text, preset_text
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
    "KIND_WORDS",
    "VERDICT_WORDS",
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
# the verdicts and the kinds of decision in words (the engine's values are codes)
VERDICT_WORDS: dict[Verdict, str] = {
    Verdict.GOOD: N_("good"),
    Verdict.INACCURACY: N_("inaccuracy"),
    Verdict.MISTAKE: N_("mistake"),
    Verdict.BLUNDER: N_("blunder"),
    Verdict.FORCED: N_("forced"),
}
KIND_WORDS: dict[DecisionKind, str] = {
    DecisionKind.BLIND_NIL: N_("blind nil"),
    DecisionKind.DRAFT: N_("draft"),
    DecisionKind.EXCHANGE: N_("exchange"),
    DecisionKind.BID: N_("bid"),
    DecisionKind.PLAY: N_("play"),
}


def _left(text: str, width: int) -> str:
    """``text`` then spaces to ``width`` terminal columns (Japanese letters take two)."""
    return text + " " * max(0, width - get_cwidth(text))


def _right(text: str, width: int) -> str:
    return " " * max(0, width - get_cwidth(text)) + text


def _verdict(verdict: Verdict) -> str:
    return _(VERDICT_WORDS[verdict])


def _card(card: Card, ascii_only: bool) -> str:
    """``card`` in the letters of the language in use (German ``D♠``, ASCII ``DP``)."""
    return card_text(card, language(), ascii_only)


def _action(action: PlayerAction, ascii_only: bool, offered: Card | None = None) -> str:
    if isinstance(action, Play):
        return _card(action.card, ascii_only)
    if isinstance(action, Bid):
        return _("bid nil") if action.tricks == 0 else _("bid {n}").format(n=action.tricks)
    if isinstance(action, Keep | Discard):
        if offered is None:
            return _("keep") if isinstance(action, Keep) else _("discard")
        words = _("keep {card}") if isinstance(action, Keep) else _("discard {card}")
        return words.format(card=_card(offered, ascii_only))
    if isinstance(action, Exchange):
        given = " ".join(_card(card, ascii_only) for card in action.cards)
        return _("give {cards}").format(cards=given) if given else _("give nothing")
    assert isinstance(action, BlindNil)
    return _("blind nil") if action.declare else _("no blind nil")


def _where(decision: DecisionAnalysis) -> str:
    if decision.trick:
        return _("trick {n}").format(n=decision.trick)
    if decision.kind is DecisionKind.BID:
        return ""  # the action says "bid 4"
    return _(KIND_WORDS[decision.kind])


def _decision_line(decision: DecisionAnalysis, ascii_only: bool, with_hand: bool) -> str:
    """One line: where, what was done, points lost, the best choice, verdict, hindsight."""
    made = _action(decision.action, ascii_only, decision.offered)
    where = _where(decision)
    hand = _("hand {n}").format(n=decision.hand_number) if with_hand else ""
    place = ", ".join(part for part in (hand, where) if part)
    line = f"{_right(place, 17)} {_left(made + _MARKS[decision.verdict], 14)}"
    knew = decision.knew
    if knew is None:
        return line + "      " + _verdict(Verdict.FORCED)
    best_word = _("best")
    if knew.loss < 0.05:
        line += f" {'':>6}  {_left(best_word, 13)} {_left(_verdict(decision.verdict), 10)}"
    else:
        best = _action(knew.best_action, ascii_only)
        line += (
            f" {-knew.loss:+6.1f}  {best_word} {_left(best, 8)} "
            f"{_left(_verdict(decision.verdict), 10)}"
        )
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
        return _("blind nil")
    if hand.bid is None:
        return _("no bid")
    return _("nil") if hand.bid == 0 else _("bid {n}").format(n=hand.bid)


def _hand_lines(hand: HandAnalysis, ascii_only: bool, every: bool) -> list[str]:
    took = "-" if hand.tricks is None else str(hand.tricks)
    head = _("Hand {hand}: {bid}, took {took}").format(
        hand=hand.hand_number, bid=_bid_text(hand), took=took
    )
    if hand.points is not None:
        head += " " + _("({points}, opponent {opponent})").format(
            points=f"{hand.points:+d}", opponent=f"{hand.opponent_points:+d}"
        )
    lines = [head]
    facts = []
    if hand.expected_tricks is not None:
        facts.append(_("tricks expected {n}").format(n=f"{hand.expected_tricks:.1f}"))
    if hand.dd_tricks is not None:
        facts.append(_("cards shown {n}").format(n=hand.dd_tricks))
    luck = hand.luck
    if luck is not None and hand.average_dd_tricks is not None:
        facts.append(
            _("luck {luck} (average {average})").format(
                luck=f"{luck:+.1f}", average=f"{hand.average_dd_tricks:.1f}"
            )
        )
    facts.append(_("accuracy {percent}").format(percent=_percent(hand.accuracy)))
    lines.append("  " + " · ".join(facts))
    shown = [
        d
        for d in hand.decisions
        if every or d.verdict in (Verdict.INACCURACY, Verdict.MISTAKE, Verdict.BLUNDER)
    ]
    lines.extend(_decision_line(d, ascii_only, False) for d in shown)
    return lines


def format_analysis(analysis: GameAnalysis, ascii_only: bool = False, every: bool = False) -> str:
    """The report as text, in the language in use (at most 80 columns a line in English;
    the closing notes are wrapped to 80 columns in every language)."""
    seat = analysis.seat
    preset = preset_text(analysis.preset) if analysis.preset else _("custom rules")
    mine, theirs = analysis.scores[seat], analysis.scores[1 - seat]
    if analysis.winner is None:
        outcome = _("unfinished, {mine} to {theirs}")
    elif analysis.winner == seat:
        outcome = _("won {mine} to {theirs}")
    else:
        outcome = _("lost {mine} to {theirs}")
    counts = analysis.verdict_counts()
    title = _("Analysis of seat {seat} ({preset}, level {level}): {outcome}")
    accuracy = _("Accuracy {percent}").format(percent=_percent(analysis.accuracy))
    lines = [
        title.format(
            seat=seat,
            preset=preset,
            level=level_text(analysis.level),
            outcome=outcome.format(mine=mine, theirs=theirs),
        ),
        accuracy
        + " · "
        + " · ".join(f"{_verdict(verdict)} {counts[verdict]}" for verdict in Verdict),
        "",
        _("Costliest decisions (expected points lost with what you knew):"),
    ]
    lines.extend(_decision_line(d, ascii_only, True) for d in analysis.costliest)
    if not analysis.costliest:
        lines.append("  " + _("none: every decision was the best one found"))
    for hand in analysis.hands:
        lines.append("")
        lines.extend(_hand_lines(hand, ascii_only, every))
    thresholds = ", ".join(
        f"{_verdict(verdict)} {limit:g}" for verdict, limit in VERDICT_THRESHOLDS
    )
    notes = [
        _(
            "Points are the hand's margin (yours minus the opponent's). Verdicts by expected "
            "points lost: {thresholds}; accuracy 100·exp(-loss/{scale})."
        ).format(thresholds=thresholds, scale=f"{ACCURACY_SCALE:g}"),
        _(
            "DD: your tricks with all cards shown (double dummy) after the card played, and "
            "the better card's when there was one. Luck: the hand's double-dummy tricks "
            "against the average drafted hand's."
        ),
    ]
    lines.append("")
    for note in notes:
        lines.extend(wrap(note, 80))
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
        raise ValueError(_("a record is a JSON object"))
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
    with ProgressBar(title=_("Analysing the game"), output=output, input=input) as bar:
        counter: ProgressBarCounter[int] = bar(label=_("decisions"), total=1)

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
            reply = answer(_("Analyse which seat, 0 or 1? [0] ")).strip() or "0"
            if reply not in ("0", "1"):
                print(_("There is no seat {seat}.").format(seat=reply))
                answer(_("Press Enter to go back. "))
                return
            seat = int(reply)
        chosen = seat
        analysis = with_progress_bar(
            lambda progress: analyze_record(record, chosen, level, progress)
        )
        print(format_analysis(analysis, ascii_only))
    except EngineError as error:
        print(_("The game cannot be analysed: {error}").format(error=error))
    answer(_("Press Enter to go back. "))


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
