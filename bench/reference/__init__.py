"""Reference opponents for measuring the bot (not bot levels): ISMCTS and PIMC players.

    from bench.reference import make_reference
    player = make_reference("pimc", seed=7)          # or "ismcts"
    action = player.choose(view)

Both take only the seat's :class:`~engine.game.PlayerView`, are reproducible from their
seed, and at full effort spend about the CPU time of ``hard`` as served.
:func:`make_reference` raises :class:`~bench.reference.common.ReferencePlayerError` (the
root error of this package) for an unknown name.
"""

from __future__ import annotations

from typing import Final

from bench.reference.common import ReferencePlayer, ReferencePlayerError
from bench.reference.ismcts import IsmctsPlayer
from bench.reference.pimc import PimcPlayer

__all__ = [
    "REFERENCES",
    "IsmctsPlayer",
    "PimcPlayer",
    "ReferencePlayer",
    "ReferencePlayerError",
    "make_reference",
]

REFERENCES: Final = ("ismcts", "pimc")


def make_reference(
    name: str, seed: int | None = None, iterations: int | None = None
) -> ReferencePlayer:
    """The reference player ``name`` (one of :data:`REFERENCES`)."""
    if name == "ismcts":
        return IsmctsPlayer(seed=seed, iterations=iterations)
    if name == "pimc":
        return PimcPlayer(seed=seed, iterations=iterations)
    raise ReferencePlayerError(f"unknown reference player {name!r}; known: {REFERENCES}")
