"""Rule sets: every switch and number of RULES.md, with the two presets.

Build one from a preset and overrides, or from a dict (as it travels in a record)::

    rules = RuleSet.preset("five-hundred", target_score=400)
    same = RuleSet.from_dict(rules.to_dict())

Every constructor validates its values and raises :class:`~engine.errors.RuleError`
naming the bad field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.errors import RuleError

__all__ = ["PRESETS", "FirstBidder", "RuleSet"]

FirstBidder = Literal["first_drafter", "second_drafter"]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules of one game; defaults are the ``classic`` preset.

    Fields (RULES.md names them all):

    - ``target_score``: the game ends after a hand in which a seat reached it.
    - ``first_bidder``: ``"first_drafter"`` or ``"second_drafter"``; that seat also leads
      the first trick.
    - ``see_card_after_keep``: the drafter sees the card that goes to the pile after a keep.
    - ``nil`` and ``nil_bonus``: whether a bid of 0 is allowed, and what it wins or loses.
    - ``blind_nil``, ``blind_nil_bonus``, ``blind_nil_exchange``: blind nil before the draft,
      its bonus, and how many cards it may exchange after the draft.
    - ``blind_nil_min_deficit``: a seat may declare blind nil only when trailing by at
      least this many points (``None``: always).
    - ``bag_limit`` and ``bag_penalty``: sandbagging.
    - ``failed_nil_tricks_are_bags``: a failed nil's (or blind nil's) tricks count as bags.
    - ``lose_score``: a seat at or below it loses at once (``None``: off).
    """

    target_score: int = 300
    first_bidder: FirstBidder = "first_drafter"
    see_card_after_keep: bool = True
    nil: bool = True
    nil_bonus: int = 100
    blind_nil: bool = False
    blind_nil_bonus: int = 200
    blind_nil_exchange: int = 3
    blind_nil_min_deficit: int | None = None
    bag_limit: int = 10
    bag_penalty: int = 100
    failed_nil_tricks_are_bags: bool = False
    lose_score: int | None = None

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.type in ("bool",) and not isinstance(value, bool):
                raise RuleError(f"{field.name} must be true or false, not {value!r}")
            if field.type in ("int", "int | None") and (
                isinstance(value, bool) or not isinstance(value, int | None)
            ):
                raise RuleError(f"{field.name} must be a whole number, not {value!r}")
        if self.first_bidder not in ("first_drafter", "second_drafter"):
            raise RuleError(
                f"first_bidder must be 'first_drafter' or 'second_drafter', "
                f"not {self.first_bidder!r}"
            )
        if not 1 <= self.target_score <= 100_000:
            raise RuleError(f"target_score must be 1..100000, not {self.target_score}")
        for name in ("nil_bonus", "blind_nil_bonus", "bag_penalty"):
            value = getattr(self, name)
            if not 0 <= value <= 10_000:
                raise RuleError(f"{name} must be 0..10000, not {value}")
        if not 0 <= self.blind_nil_exchange <= 13:
            raise RuleError(f"blind_nil_exchange must be 0..13, not {self.blind_nil_exchange}")
        if not 1 <= self.bag_limit <= 1_000:
            raise RuleError(f"bag_limit must be 1..1000, not {self.bag_limit}")
        if self.blind_nil_min_deficit is not None and not (
            0 <= self.blind_nil_min_deficit <= 100_000
        ):
            raise RuleError(
                f"blind_nil_min_deficit must be 0..100000 or none, not {self.blind_nil_min_deficit}"
            )
        if self.lose_score is not None:
            if not -100_000 <= self.lose_score < self.target_score:
                raise RuleError(
                    f"lose_score must be below target_score ({self.target_score}) "
                    f"and at least -100000, not {self.lose_score}"
                )
            if self.lose_score >= 0:
                raise RuleError(
                    f"lose_score must be negative (both seats start at 0), not {self.lose_score}"
                )

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSet:
        """The preset ``name`` (``"classic"`` or ``"five-hundred"``) with ``overrides``.

        Raises :class:`~engine.errors.RuleError` for an unknown preset or field, or a bad value.
        """
        try:
            base = PRESETS[name]
        except KeyError:
            known = ", ".join(sorted(PRESETS))
            raise RuleError(f"unknown rule preset {name!r}; known presets: {known}") from None
        return base.replace(**overrides)

    def replace(self, **overrides: Any) -> RuleSet:
        """A copy with ``overrides``; raises :class:`~engine.errors.RuleError` when bad."""
        known = {field.name for field in dataclasses.fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise RuleError(f"unknown rule field(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every field, as a JSON-ready dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild from :meth:`to_dict`; missing fields take their defaults.

        Raises :class:`~engine.errors.RuleError` on unknown fields or bad values.
        """
        if not isinstance(data, dict):
            raise RuleError("rules must be a mapping of field names to values")
        return cls().replace(**data)

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, or ``None``."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    @property
    def first_bidder_is_first_drafter(self) -> bool:
        return self.first_bidder == "first_drafter"


PRESETS: Final[dict[str, RuleSet]] = {
    "classic": RuleSet(),
    "five-hundred": RuleSet(
        target_score=500,
        first_bidder="second_drafter",
        see_card_after_keep=False,
        blind_nil=True,
    ),
}
