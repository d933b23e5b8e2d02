"""The bots' fixed ratings ("anchors"), one per level and preset, from the measured ladder.

    BOT_ANCHORS["classic"]["normal"]       # -> Rating(1500.0, 60.0, 0.06)
    anchors_from_ladder(LADDER)            # how they were derived (docs/accounts.md)

Each rung of docs/bot.md's ladder is one ``bench/strength.py`` SPRT run that decided H1:
the stronger level's game wins and losses over its pairs. A win rate ``p`` between two
levels is a rating difference of ``400 * log10(p / (1 - p))`` (the logistic curve Glicko
uses when both deviations are small). ``normal`` is pinned at 1500, a new account's
start, so a newcomer meets ``normal`` as an even game; ``easy`` sits below it by the
normal-vs-easy rung, ``hard`` above it by the hard-vs-normal rung. An anchor never moves
(a game against a bot updates only the account); its deviation is the spread of the
rung's 95% interval, rounded, so a newcomer's first results against a bot count a little
less than against a well-known human.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from server.accounts.glicko2 import Rating

__all__ = [
    "ANCHOR_DEVIATION",
    "BOT_ANCHORS",
    "LADDER",
    "PINNED_LEVEL",
    "PINNED_RATING",
    "PRESETS",
    "Rung",
    "anchors_from_ladder",
    "rating_gap",
]

PRESETS = ("classic", "five-hundred")
PINNED_LEVEL = "normal"
PINNED_RATING = 1500.0
ANCHOR_DEVIATION = 60.0
"""An anchor's deviation: its rung's win-rate interval (about +-0.1) is about +-60 points
near the ladder's win rates."""


@dataclass(frozen=True)
class Rung:
    """A measured rung: ``stronger`` won ``wins`` of ``wins + losses`` games against ``weaker``."""

    preset: str
    stronger: str
    weaker: str
    wins: int
    losses: int


LADDER: tuple[Rung, ...] = (
    # docs/bot.md, "The ladder": bench/strength.py --sprt 0.6 0.7 --seed 17 --pairs 300 (H1)
    Rung("classic", "normal", "easy", 33, 7),
    Rung("five-hundred", "normal", "easy", 42, 6),
    # hard as served (cards by the tree): --sprt 0.5 0.6 --seed 19 --workers 2 (H1); the
    # seed-17 rungs (23-11, 29-5) measured hard before the tree
    Rung("classic", "hard", "normal", 31, 11),
    Rung("five-hundred", "hard", "normal", 26, 8),
)


def rating_gap(wins: int, losses: int) -> float:
    """The rating difference a win rate of ``wins / (wins + losses)`` means (raises
    ``ValueError`` when either is 0: a clean sweep has no finite gap)."""
    if wins <= 0 or losses <= 0:
        raise ValueError("a rung needs both wins and losses to give a finite gap")
    return 400.0 * math.log10(wins / losses)


def anchors_from_ladder(ladder: tuple[Rung, ...]) -> dict[str, dict[str, Rating]]:
    """Per preset, each level's rating: the pinned level at :data:`PINNED_RATING`, every
    other level by its rung's gap from a level already placed (raises ``ValueError`` for a
    level no rung connects)."""
    out: dict[str, dict[str, Rating]] = {}
    for preset in PRESETS:
        placed = {PINNED_LEVEL: PINNED_RATING}
        rungs = [rung for rung in ladder if rung.preset == preset]
        progress = True
        while progress:
            progress = False
            for rung in rungs:
                gap = rating_gap(rung.wins, rung.losses)
                if rung.weaker in placed and rung.stronger not in placed:
                    placed[rung.stronger] = placed[rung.weaker] + gap
                    progress = True
                elif rung.stronger in placed and rung.weaker not in placed:
                    placed[rung.weaker] = placed[rung.stronger] - gap
                    progress = True
        missing = {"easy", "normal", "hard"} - placed.keys()
        if missing:
            raise ValueError(f"{preset}: no rung places {', '.join(sorted(missing))}")
        out[preset] = {
            level: Rating(float(round(value)), ANCHOR_DEVIATION, 0.06)
            for level, value in placed.items()
        }
    return out


BOT_ANCHORS: Mapping[str, Mapping[str, Rating]] = MappingProxyType(
    {preset: MappingProxyType(levels) for preset, levels in anchors_from_ladder(LADDER).items()}
)
"""preset -> bot level -> its fixed rating (read-only)."""
