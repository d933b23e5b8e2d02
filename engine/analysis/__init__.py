"""Game analysis: every decision of one seat judged, and where the points went.

    from engine.analysis import analyze_record
    analysis = analyze_record(record, seat=0, level="normal", progress=lambda d, t: ...)
    for hand in analysis.hands:
        hand.accuracy, hand.costliest, hand.expected_tricks, hand.luck
    for decision in analysis.decisions:
        decision.verdict, decision.knew, decision.hindsight

Each decision (blind nil, draft keep/discard, exchange, bid, card) gets two judgements:

- **with what you knew** (:class:`Knew`): from the seat's :class:`~engine.game.PlayerView`
  only, over deals consistent with it (the bot's sampler and playouts): the expected
  points of the choice made and of the best choice, and the loss;
- **with all cards shown** (:class:`Hindsight`, cards and bids): the exact double-dummy
  result of the choice made against the best one, in tricks and points.

The verdict (good, inaccuracy, mistake, blunder) follows the expected points lost, with
the thresholds of :data:`VERDICT_THRESHOLDS`. Points are the hand's margin (the seat's
points minus the opponent's). Pure: no I/O, no clock; sampling is seeded from public
facts, so an analysis is reproducible. Errors are :class:`AnalysisError` (an
:class:`~engine.errors.EngineError`) and :class:`~engine.errors.RecordError`.
"""

from engine.analysis.judge import judge_bid_hindsight, judge_known, judge_play_hindsight
from engine.analysis.model import (
    ACCURACY_SCALE,
    ANALYSIS_LEVELS,
    DEFAULT_LEVEL,
    VERDICT_THRESHOLDS,
    AnalysisError,
    AnalysisLevel,
    DecisionAnalysis,
    DecisionKind,
    GameAnalysis,
    HandAnalysis,
    Hindsight,
    Knew,
    Verdict,
    accuracy_of,
    analysis_to_dict,
    verdict_for,
)
from engine.analysis.review import Progress, analyze_record, known_seed

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
    "Progress",
    "Verdict",
    "accuracy_of",
    "analysis_to_dict",
    "analyze_record",
    "judge_bid_hindsight",
    "judge_known",
    "judge_play_hindsight",
    "known_seed",
    "verdict_for",
]
