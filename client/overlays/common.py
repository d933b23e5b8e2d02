"""What the reading windows (help, scores, pile, rules) share: which keys close them."""

from __future__ import annotations

from client.model.core import Model

__all__ = ["closes_or_passes"]

CLOSE_KEYS = frozenset({"escape", "enter", "space", "q", "?", "tab", "p"})
# keys that close a reading window and go on to do what they do at the table
PASS_KEYS = frozenset({"o", "m", "x", "r", "l"})


def closes_or_passes(model: Model, key: str) -> bool:
    """A reading window's keys: close it, or close it and let the key go on (False)."""
    if key in CLOSE_KEYS:
        model.close()
    elif key in PASS_KEYS:
        model.close()
        return False
    return True
