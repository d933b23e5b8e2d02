"""The rules window (r at the table, or r in help): this table's rules in words."""

from __future__ import annotations

from client.draw import Dims, Line, wrap
from client.i18n import _, language
from client.model.core import Model, Overlay
from client.overlays.common import closes_or_passes
from client.rules import describe_rules, rules_document
from protocol.convert import rules_from_message

__all__ = ["BEFORE_GAME_OVER", "OPENS_WITH", "keys", "lines", "open_window", "title"]


OPENS_WITH = "r"  # the table's key for this window
# not once the game is over (r asks for a rematch then)
BEFORE_GAME_OVER = True


def open_window(model: Model) -> None:
    """Open the rules."""
    model.open(Overlay.RULES)


def title(model: Model) -> str:
    return _("Rules at this table")


def lines(model: Model, size: Dims) -> list[Line]:
    table = model.table
    rules = table.rules if table is not None else None
    if rules is None:
        return [[("class:dim", " " + _("No table: the rules are those of the table you sit at."))]]
    lines: list[Line] = []
    for paragraph in describe_rules(rules_from_message(rules)):
        for part in wrap(paragraph, 72):
            lines.append([("", " " + part)])
    full = _("({document} has them in full)").format(document=rules_document(language()))
    lines.append([("class:dim", " " + full)])
    return lines


def keys(model: Model, key: str) -> bool:
    return closes_or_passes(model, key)
