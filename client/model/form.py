"""The lobby's create-table form: a preset, the table options and every rule field.

    form = CreateForm()
    form.change(+1)          # the current row's value one step on (the preset: the next one)
    form.type_char("4")      # digits type a number into a numeric rule
    form.overrides()         # the rules that differ from the preset, for ``create_table``

A rule the engine refuses (:class:`~engine.RuleSet` raises) leaves the form as it was
and puts the reason in ``error``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Literal

from client.i18n import _
from client.rules import field_value_text
from engine import PRESETS, EngineError, RuleSet

__all__ = ["BOT_LEVELS", "CreateForm"]

BOT_LEVELS: tuple[Literal["easy", "normal", "hard"], ...] = ("easy", "normal", "hard")

# fields of the create form: (name, kind, step); kind is bool / int / optint / choice
_RULE_STEPS: dict[str, int] = {
    "target_score": 50,
    "nil_bonus": 10,
    "blind_nil_bonus": 10,
    "blind_nil_exchange": 1,
    "blind_nil_min_deficit": 50,
    "bag_limit": 1,
    "bag_penalty": 10,
    "lose_score": 50,
}


@dataclass
class CreateForm:
    """The lobby's create-table form: a preset, the table options and every rule field."""

    preset: str = "classic"
    private: bool = False
    bot: Literal["easy", "normal", "hard"] | None = "normal"
    rules: RuleSet = field(default_factory=RuleSet)
    row: int = 0
    typed: str = ""
    error: str = ""

    def move(self, step: int) -> None:
        """Go ``step`` rows down (up when negative), round the form."""
        self.row = (self.row + step) % len(self.rows())
        self.typed = ""

    def choose_preset(self, name: str) -> None:
        """Start from preset ``name`` (its rules). Raises ``KeyError`` for an unknown one."""
        self.rules = PRESETS[name]
        self.preset = name

    def clear_error(self) -> None:
        self.error = ""

    def rows(self) -> list[str]:
        return ["preset", "private", "bot", *(f.name for f in dataclasses.fields(RuleSet))]

    def value_text(self, name: str) -> str:
        if name == "preset":
            return self.preset
        if name == "private":
            return _("yes") if self.private else _("no")
        if name == "bot":
            return _(self.bot) if self.bot else _("none (wait for a player)")
        return field_value_text(name, getattr(self.rules, name))

    def overrides(self) -> dict[str, int | bool | str | None]:
        base = PRESETS[self.preset].to_dict()
        mine = self.rules.to_dict()
        return {k: v for k, v in mine.items() if base[k] != v}

    def change(self, direction: int) -> None:
        """Step the current row's value by ``direction`` (+1 or -1)."""
        name = self.rows()[self.row]
        self.error = ""
        self.typed = ""
        if name == "preset":
            names = sorted(PRESETS)
            self.preset = names[(names.index(self.preset) + direction) % len(names)]
            self.rules = PRESETS[self.preset]
            return
        if name == "private":
            self.private = not self.private
            return
        if name == "bot":
            options: list[Literal["easy", "normal", "hard"] | None] = [None, *BOT_LEVELS]
            self.bot = options[(options.index(self.bot) + direction) % len(options)]
            return
        value = getattr(self.rules, name)
        new: object
        if isinstance(value, bool):
            new = not value
        elif name == "first_bidder":
            new = "second_drafter" if value == "first_drafter" else "first_drafter"
        elif name == "lose_score":
            new = -self.rules.target_score if value is None else value + direction * 50
            if isinstance(new, int) and new >= 0:
                new = None
        elif name == "blind_nil_min_deficit":
            new = 0 if value is None else value + direction * 50
            if isinstance(new, int) and new < 0:
                new = None
        else:
            new = value + direction * _RULE_STEPS.get(name, 1)
        self._set(name, new)

    def _set(self, name: str, value: object) -> None:
        try:
            self.rules = self.rules.replace(**{name: value})
        except EngineError as error:
            self.error = str(error)

    def type_char(self, char: str) -> None:
        name = self.rows()[self.row]
        if name not in _RULE_STEPS or not (char.isdigit() or char == "-"):
            return
        self.typed = (self.typed + char)[-7:]
        try:
            number = int(self.typed)
        except ValueError:
            return
        self._set(name, number)

    def backspace(self) -> None:
        name = self.rows()[self.row]
        self.typed = self.typed[:-1]
        if name in _RULE_STEPS and self.typed not in ("", "-"):
            self._set(name, int(self.typed))
