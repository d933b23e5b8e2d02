"""The hand result: the window that opens when a hand is scored (Enter goes on), and the
same figures in the table's centre while the next hand is dealt.

Each line shows both seats (you first): bid, tricks, bags, bag penalty, points, total;
the head says whether the shuffle was verified against its commitment (and whether
your own entropy went into it).
"""

from __future__ import annotations

from collections.abc import Callable

from client.draw import Dims, Line, clip, pad
from client.i18n import _
from client.model.core import RESULT_KEY_GRACE, Model
from client.screens.frame import idle_keys
from engine import HandResult as EngineHandResult
from engine import PlayerView

__all__ = ["centre", "keys", "lines", "prompt", "result_lines", "title", "window_keys"]


def prompt(model: Model) -> str:
    return _("Waiting for the next hand…")


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    if not model.results:
        return [[("", "   " + _("Waiting for the next hand…"))]]
    return result_lines(model, model.results[-1])[: size.centre]


def title(model: Model) -> str:
    return _("Hand over") if model.results else _("Hand result")


def lines(model: Model, size: Dims) -> list[Line]:
    """The window's body: the last hand's result, then how to go on."""
    if not model.results:
        return []
    out = result_lines(model, model.results[-1])
    out.append([])
    out.append([("class:turn", "   " + _("Enter to continue"))])
    return out


def keys(model: Model, key: str) -> bool:
    """The table's keys between hands (no turn is pending)."""
    return idle_keys(model, key)


def window_keys(model: Model, key: str) -> bool:
    """The window's keys: Enter, Space or Esc close it (not in its first half second: a
    key meant for the table must not close it unseen); any other key closes it and goes
    on to the table (the next hand may be waiting for it)."""
    closing = key in ("escape", "enter", "space")
    if closing and model.clock() - model.result_opened_at < RESULT_KEY_GRACE:
        return True
    model.close()
    return closing


def result_lines(model: Model, result: EngineHandResult) -> list[Line]:
    me = model.my_seat if model.my_seat is not None else 0
    order = (me, 1 - me)  # you first, then the opponent (as in the side bar)

    def row(label: str, a: str, b: str, style: str = "") -> Line:
        return [(style, f"   {pad(label, 16)}{pad(a, 10, True)}{pad(b, 10, True)}")]

    def pair(label: str, text: Callable[[int], str], style: str = "") -> Line:
        return row(label, text(order[0]), text(order[1]), style)

    def bid(seat: int) -> str:
        if result.blind_nil[seat]:
            return _("blind nil")
        value = result.bids[seat]
        return _("nil") if value == 0 else str(value)

    ok = model.verified.get(result.hand_number, False)
    check = (
        ("class:good", " " + _("shuffle verified ✓"))
        if ok
        else ("class:bad", " " + _("shuffle NOT verified ✗"))
    )
    if ok and model.entropy_included.get(result.hand_number, False):
        check = ("class:good", " " + _("shuffle verified, your entropy included ✓"))
    if model.settings.ascii_cards:
        check = (check[0], check[1].replace("✓", "OK").replace("✗", "!!"))
    penalty = model.view.rules.bag_penalty if model.view else 100
    return [
        [
            ("class:head", "   " + _("Hand {number} result ·").format(number=result.hand_number)),
            check,
        ],
        pair("", lambda s: clip(model.seat_name(s), 9), "class:head"),
        pair(_("bid"), bid),
        pair(_("tricks"), lambda s: str(result.tricks[s])),
        pair(_("bags added"), lambda s: f"+{result.bags_added[s]}"),
        pair(_("bag penalty"), lambda s: str(-result.bag_penalties[s] * penalty)),
        pair(_("points"), lambda s: f"{result.points[s]:+d}"),
        pair(_("total (bags)"), lambda s: f"{result.scores[s]} ({result.bags[s]})", "class:head"),
    ]
