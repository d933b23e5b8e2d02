"""What an analysis is made of: levels, verdicts and the judged decisions.

Points are always the **hand's point margin** of the analysed seat: its points for the
hand minus the opponent's (bag penalties included when the bags reach the limit), as
:func:`engine.game.score_seat` counts them. A trick that sets the opponent is worth as
much as one that makes your own bid. Judging by the margin rather than the chance to win
the game keeps the figures readable ("this card cost 40 points") and means a desperate
gamble when far behind is shown at what it costs on average.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any, Final

from engine.actions import PlayerAction
from engine.cards import Card
from engine.errors import EngineError

__all__ = [
    "ACCURACY_SCALE",
    "ANALYSIS_LEVELS",
    "DEFAULT_LEVEL",
    "VERDICT_THRESHOLDS",
    "AnalysisError",
    "AnalysisLevel",
    "DecisionAnalysis",
    "DecisionKind",
    "GameAnalysis",
    "HandAnalysis",
    "Hindsight",
    "Knew",
    "Verdict",
    "accuracy_of",
    "analysis_to_dict",
    "verdict_for",
]


class AnalysisError(EngineError):
    """A request the analysis cannot serve: an unknown level, a seat that is not 0 or 1."""


@dataclass(frozen=True, slots=True)
class AnalysisLevel:
    """Effort of the "with what you knew" judgement, in counts (no clock): reproducible.

    - ``play_samples``: deals drawn (consistent with the seat's view) per card decision;
      every distinct legal card is scored on the same deals.
    - ``exact_tricks``: with at most this many tricks left each drawn deal is solved
      exactly; earlier, it is played out by the bot's greedy policy ...
    - ``rollout_exact``: ... whose last ``rollout_exact`` tricks are solved exactly.
    - ``bid_samples``: deals drawn for a bid.
    - ``exchange_draws``: random pile draws for a blind-nil exchange.
    """

    name: str
    play_samples: int
    exact_tricks: int
    rollout_exact: int
    bid_samples: int
    exchange_draws: int


ANALYSIS_LEVELS: Final[dict[str, AnalysisLevel]] = {
    "easy": AnalysisLevel("easy", 24, 3, 2, 100, 16),
    "normal": AnalysisLevel("normal", 120, 5, 4, 300, 48),
    "hard": AnalysisLevel("hard", 400, 7, 5, 1000, 128),
}
"""The levels by name; ``normal`` is the default."""

DEFAULT_LEVEL: Final = "normal"


class DecisionKind(enum.StrEnum):
    """The kinds of decision a seat makes in a hand."""

    BLIND_NIL = "blind_nil"
    DRAFT = "draft"
    EXCHANGE = "exchange"
    BID = "bid"
    PLAY = "play"


class Verdict(enum.StrEnum):
    """A decision's verdict by expected points lost (see :data:`VERDICT_THRESHOLDS`).

    ``FORCED`` marks a decision with a single legal choice (not judged, not counted).
    """

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    FORCED = "forced"


VERDICT_THRESHOLDS: Final[tuple[tuple[Verdict, float], ...]] = (
    (Verdict.BLUNDER, 30.0),
    (Verdict.MISTAKE, 12.0),
    (Verdict.INACCURACY, 4.0),
)
"""Expected points lost (with what the seat knew) from which a verdict applies.

Below 4 points a decision is good (an overtrick is 1 point; sampling noise is a few).
From 4 an inaccuracy (a bag's eventual penalty is 10), from 12 a mistake (about a trick of
a small bid), from 30 a blunder (a set of a bid of two or more, a nil thrown away).
"""

ACCURACY_SCALE: Final = 20.0
"""A decision's accuracy is ``100 * exp(-loss / ACCURACY_SCALE)`` percent."""


def verdict_for(loss: float) -> Verdict:
    """The verdict for ``loss`` expected points lost (``loss >= 0``)."""
    for verdict, threshold in VERDICT_THRESHOLDS:
        if loss >= threshold:
            return verdict
    return Verdict.GOOD


def accuracy_of(losses: list[float]) -> float | None:
    """Mean accuracy in percent of judged decisions with these losses (``None``: none)."""
    if not losses:
        return None
    return sum(100.0 * math.exp(-loss / ACCURACY_SCALE) for loss in losses) / len(losses)


@dataclass(frozen=True, slots=True)
class Knew:
    """The judgement "with what you knew": from the seat's view only.

    ``made`` and ``best`` are expected points (the hand's margin, see the module) of the
    choice made and of the best choice found; ``loss = best - made`` (never negative).
    ``expected_tricks`` is, for a bid, the tricks the seat could expect to take.
    """

    made: float
    best: float
    best_action: PlayerAction
    loss: float
    samples: int
    expected_tricks: float | None = None


@dataclass(frozen=True, slots=True)
class Hindsight:
    """The judgement "with all cards shown": exact double-dummy play of the actual deal.

    For a card: the seat's final tricks and the hand's margin when both seats play
    perfectly from here after the card made and after the best card. For a bid: the
    tricks the hand takes double dummy, the margin of the bid made and the best bid.
    """

    made_tricks: int
    best_tricks: int
    made_points: int
    best_points: int
    best_action: PlayerAction

    @property
    def tricks_lost(self) -> int:
        """Tricks the choice made gave away against the best one (negative: it gained)."""
        return self.best_tricks - self.made_tricks


@dataclass(frozen=True, slots=True)
class DecisionAnalysis:
    """One decision of the analysed seat, judged.

    ``index`` counts the seat's decisions in the game from 0; ``trick`` is the trick
    number (1..13) of a card, else 0; ``offered`` the card on offer of a draft turn;
    ``knew`` is ``None`` when the decision was forced; ``hindsight`` is set for cards
    with a choice and for bids.
    """

    index: int
    hand_number: int
    kind: DecisionKind
    action: PlayerAction
    trick: int
    choices: int
    knew: Knew | None
    hindsight: Hindsight | None
    verdict: Verdict
    offered: Card | None = None

    @property
    def loss(self) -> float:
        """Expected points lost (0 for a forced decision)."""
        return self.knew.loss if self.knew is not None else 0.0


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """One hand for the analysed seat.

    ``dd_tricks`` is what the seat's hand takes double dummy against the hand the
    opponent actually held (all cards shown, both playing perfectly for tricks, from the
    first lead); ``average_dd_tricks`` the same figure averaged over sampled drafted
    deals with the same seat on lead; ``luck = dd_tricks - average_dd_tricks`` (above 0:
    a better hand than usual). ``expected_tricks`` comes from the bid's judgement.
    """

    hand_number: int
    bid: int | None
    blind_nil: bool
    tricks: int | None
    points: int | None
    opponent_points: int | None
    expected_tricks: float | None
    dd_tricks: int | None
    average_dd_tricks: float | None
    accuracy: float | None
    decisions: tuple[DecisionAnalysis, ...]
    costliest: tuple[DecisionAnalysis, ...]

    @property
    def luck(self) -> float | None:
        if self.dd_tricks is None or self.average_dd_tricks is None:
            return None
        return self.dd_tricks - self.average_dd_tricks


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The whole game for one seat: hands, accuracy, the three costliest decisions."""

    seat: int
    level: str
    preset: str | None
    scores: tuple[int, int]
    winner: int | None
    hands: tuple[HandAnalysis, ...]
    accuracy: float | None
    costliest: tuple[DecisionAnalysis, ...]

    @property
    def decisions(self) -> tuple[DecisionAnalysis, ...]:
        return tuple(d for hand in self.hands for d in hand.decisions)

    def verdict_counts(self) -> dict[Verdict, int]:
        """How many decisions got each verdict."""
        counts = dict.fromkeys(Verdict, 0)
        for decision in self.decisions:
            counts[decision.verdict] += 1
        return counts


def _action_text(action: PlayerAction | None) -> str | None:
    return None if action is None else str(action)


def _decision_dict(decision: DecisionAnalysis) -> dict[str, Any]:
    knew = decision.knew
    hindsight = decision.hindsight
    return {
        "index": decision.index,
        "hand_number": decision.hand_number,
        "kind": decision.kind.value,
        "action": str(decision.action),
        "trick": decision.trick,
        "choices": decision.choices,
        "offered": None if decision.offered is None else str(decision.offered),
        "verdict": decision.verdict.value,
        "knew": None
        if knew is None
        else {
            "made": round(knew.made, 2),
            "best": round(knew.best, 2),
            "best_action": _action_text(knew.best_action),
            "loss": round(knew.loss, 2),
            "samples": knew.samples,
            "expected_tricks": None
            if knew.expected_tricks is None
            else round(knew.expected_tricks, 2),
        },
        "hindsight": None
        if hindsight is None
        else {
            "made_tricks": hindsight.made_tricks,
            "best_tricks": hindsight.best_tricks,
            "made_points": hindsight.made_points,
            "best_points": hindsight.best_points,
            "best_action": _action_text(hindsight.best_action),
        },
    }


def analysis_to_dict(analysis: GameAnalysis) -> dict[str, Any]:
    """A JSON-ready form of ``analysis`` (actions and cards in their text forms, figures
    rounded to 0.01), for storing or sending; decisions are listed per hand."""

    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 2)

    return {
        "seat": analysis.seat,
        "level": analysis.level,
        "preset": analysis.preset,
        "scores": list(analysis.scores),
        "winner": analysis.winner,
        "accuracy": rounded(analysis.accuracy),
        "verdicts": {verdict.value: count for verdict, count in analysis.verdict_counts().items()},
        "costliest": [decision.index for decision in analysis.costliest],
        "hands": [
            {
                "hand_number": hand.hand_number,
                "bid": hand.bid,
                "blind_nil": hand.blind_nil,
                "tricks": hand.tricks,
                "points": hand.points,
                "opponent_points": hand.opponent_points,
                "expected_tricks": rounded(hand.expected_tricks),
                "dd_tricks": hand.dd_tricks,
                "average_dd_tricks": hand.average_dd_tricks,
                "luck": rounded(hand.luck),
                "accuracy": rounded(hand.accuracy),
                "costliest": [decision.index for decision in hand.costliest],
                "decisions": [_decision_dict(decision) for decision in hand.decisions],
            }
            for hand in analysis.hands
        ],
    }
