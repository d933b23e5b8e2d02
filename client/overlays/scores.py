"""The score sheet (Tab): every hand, you first; a window, or a column of its own beside
the table when the terminal is wide enough."""

from __future__ import annotations

from client.draw import Dims, Line, clip, pad
from client.i18n import _, pgettext
from client.model.core import Model, Overlay
from client.overlays.common import closes_or_passes

__all__ = ["BEFORE_GAME_OVER", "OPENS_WITH", "keys", "lines", "open_window", "sheet_lines", "title"]


OPENS_WITH = "tab"  # the table's key for this window
BEFORE_GAME_OVER = False


def open_window(model: Model) -> None:
    """Open the score sheet."""
    model.open(Overlay.SCORES)


def title(model: Model) -> str:
    return _("Score sheet")


def lines(model: Model, size: Dims) -> list[Line]:
    return sheet_lines(model)


def keys(model: Model, key: str) -> bool:
    return closes_or_passes(model, key)


_WIDTHS = (4, 2, 4, 5, 5, 6)  # the columns of one seat: bid, tricks, bags, penalty, points, total


def sheet_lines(model: Model) -> list[Line]:
    """Every hand, you first: bid, tricks taken, bags added, bag penalty, the hand's
    points (penalty included) and the running total, so each line explains itself."""
    me = model.my_seat if model.my_seat is not None else 0
    order = (me, 1 - me)
    penalty = model.view.rules.bag_penalty if model.view else 100
    cell = " {} {:>2} {:>4} {:>5} {:>5} {:>6}"  # the bid comes padded by its width
    first, second = (clip(model.seat_name(s), 30) for s in order)
    # the column heads are padded by their width on screen (a Japanese head is two wide)
    heads = (pgettext("score sheet", "bid"), _("tk"), _("bags"), _("pen"), _("pts"), _("total"))
    head_cells = "".join(" " + pad(h, w, right=True) for h, w in zip(heads, _WIDTHS, strict=True))
    lines: list[Line] = [
        [("class:head", f" {'':>4} {pad(first, 31)} │ {second}")],
        [
            (
                "class:head",
                " "
                + pad(pgettext("score sheet", "hand"), 4, right=True)
                + " │".join([head_cells] * 2),
            )
        ],
    ]
    for result in model.results[-12:]:
        cells = []
        for seat in order:
            bid = result.bids[seat]
            bid_text = _("bn") if result.blind_nil[seat] else (_("nil") if bid == 0 else str(bid))
            pen = -result.bag_penalties[seat] * penalty
            cells.append(
                cell.format(
                    pad(bid_text, _WIDTHS[0], right=True),
                    result.tricks[seat],
                    f"+{result.bags_added[seat]}",
                    pen if pen else "",
                    f"{result.points[seat]:+d}",
                    result.scores[seat],
                )
            )
        ok = "✓" if model.verified.get(result.hand_number) else "✗"
        if model.settings.ascii_cards:
            ok = "ok" if ok == "✓" else "!!"
        lines.append([("", f" {result.hand_number:>4}" + " │".join(cells) + f" {ok}")])
    if not model.results:
        lines.append([("class:dim", " " + _("no hand finished yet"))])
    else:
        lines.append([])
        lines.append(
            [
                (
                    "class:dim",
                    " "
                    + _("tk tricks · bags overtricks · pen bag penalty · pts the hand's points"),
                )
            ]
        )
    return lines
