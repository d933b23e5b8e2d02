"""Drawing primitives shared by every screen and window: sizes, styles, text and cards.

A drawing is a list of :data:`Line` (prompt_toolkit style-and-text pairs, one list per
row); :func:`join` makes it the ``StyleAndTextTuples`` a ``FormattedTextControl``
shows. :class:`Dims` cuts the terminal up at a size; the size is always passed in by
the caller (the layout reads it from the terminal), never kept in the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from client.i18n import _, ngettext
from client.model.core import Model
from client.text import to_ascii
from engine import Card, PlayerView

__all__ = [
    "MAIN_WIDTH",
    "MIN_COLUMNS",
    "MIN_DIMS",
    "MIN_ROWS",
    "SHEET_WIDTH",
    "SIDE_WIDTH",
    "STYLE",
    "SUIT_CLASS",
    "Dims",
    "Line",
    "beside",
    "bid_text",
    "big_card",
    "card",
    "card_style",
    "cards",
    "clip",
    "count",
    "finish",
    "fragments_text",
    "join",
    "large_card",
    "line_width",
    "pad",
    "prefix",
    "small_card",
    "wrap",
]

MAIN_WIDTH = 53
SIDE_WIDTH = 26
# the smallest terminal that shows everything: the title, 20 rows of table (the
# opponent, the trick or panel, your four suit rows, the pile) and side bar, the prompt
# and the key line; below it the client draws only a notice and no game key acts
MIN_COLUMNS = 80
MIN_ROWS = 24
SHEET_WIDTH = 74  # the score sheet's width (in its window, or in a column of its own)


@dataclass(frozen=True)
class Dims:
    """How the screen is cut up at a terminal size: the table's width, the side bar's,
    the score sheet's column (0: none, it is a window on Tab), the rows below the title,
    and whether the table is drawn large (big trick cards, a taller centre panel)."""

    columns: int
    rows: int
    main: int
    side: int
    sheet: int
    body: int
    large: bool

    @classmethod
    def of(cls, columns: int, rows: int) -> Dims:
        """The layout for ``columns`` x ``rows`` (at least the minimum size)."""
        columns, rows = max(columns, MIN_COLUMNS), max(rows, MIN_ROWS)
        left = columns - MAIN_WIDTH - 1
        sheet = SHEET_WIDTH if left >= SIDE_WIDTH + 1 + SHEET_WIDTH else 0
        side = min(left - (sheet + 1 if sheet else 0), 60)
        return cls(columns, rows, MAIN_WIDTH, side, sheet, rows - 3, rows >= 30)

    @property
    def centre(self) -> int:
        """Rows of the centre panel (the draft card, bidding, the trick)."""
        return 13 if self.large else 9


MIN_DIMS = Dims.of(MIN_COLUMNS, MIN_ROWS)


STYLE = Style.from_dict(
    {
        "title": "bg:#1c3a5e #ffffff bold",
        "title.warn": "bg:#1c3a5e #ffaf00 bold",
        "side": "",
        "dim": "#8a8a8a",
        "head": "bold",
        "good": "#5fd75f bold",
        "bad": "#ff5f5f bold",
        "turn": "#ffd75f bold",
        "prompt": "bold #ffd75f",
        "status": "bg:#303030 #d0d0d0",
        "flash": "bg:#5f0000 #ffffff bold",
        "card.s": "#e4e4e4",
        "card.h": "#ff5f5f",
        "card.c": "#87d787",
        "card.d": "#5fafff",
        "card.legal": "bold",
        "card.illegal": "#4e4e4e",
        "card.cursor": "reverse bold",
        "card.picked": "underline bold bg:#5f5f00",
        "bigcard": "bg:#ffffff #000000 bold",
        "bigcard.h": "bg:#ffffff #d70000 bold",
        "bigcard.d": "bg:#ffffff #0060d0 bold",
        "bigcard.c": "bg:#ffffff #008700 bold",
        "overlay": "bg:#202020 #e4e4e4",
        "overlay.title": "bg:#202020 #ffd75f bold",
        "overlay.sel": "reverse",
        "log": "#bcbcbc",
    }
)

SUIT_CLASS = "cdhs"

Line = list[tuple[str, str]]


def finish(model: Model, fragments: StyleAndTextTuples) -> StyleAndTextTuples:
    """The last step of drawing: with the ASCII setting every fragment goes through
    :func:`~client.text.to_ascii`, so nothing outside ASCII reaches the terminal."""
    if not model.settings.ascii_cards:
        return fragments
    return [(item[0], to_ascii(item[1]), *item[2:]) for item in fragments]


def fragments_text(fragments: StyleAndTextTuples) -> str:
    """The plain text of formatted fragments (what the terminal shows, without styles)."""
    return "".join(fragment[1] for fragment in fragments)


def join(lines: Sequence[Line]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for index, line in enumerate(lines):
        if index:
            out.append(("", "\n"))
        out.extend(line)
    return out


def line_width(line: Line) -> int:
    return sum(get_cwidth(text) for _, text in line)


def pad(text: str, width: int, right: bool = False) -> str:
    text = clip(text, width)
    gap = " " * max(0, width - get_cwidth(text))
    return gap + text if right else text + gap


def clip(text: str, width: int) -> str:
    if get_cwidth(text) <= width:
        return text
    out = ""
    for char in text:
        if get_cwidth(out + char) > width - 1:
            return out + "…"
        out += char
    return out


def _wrap_wide(text: str, width: int) -> list[str]:
    """Wrap text with double-width characters (Japanese): a line may break between any
    two of them as well as at a space; a run of narrow letters is kept whole."""
    tokens = re.findall(r" +|[^ \u1100-\U0010ffff]+|.", text)
    lines: list[str] = []
    current = ""
    for token in tokens:
        if get_cwidth(current + token) <= width:
            current += token
            continue
        if current.strip():
            lines.append(current.rstrip())
        current = token.lstrip()
        while get_cwidth(current) > width:
            head = clip_exact(current, width)
            lines.append(head)
            current = current[len(head) :]
    if current.strip() or not lines:
        lines.append(current.rstrip())
    return lines


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines at most ``width`` columns wide, broken at spaces (and between
    double-width characters)."""
    if any(get_cwidth(char) > 1 for char in text):
        return _wrap_wide(text, width)
    words = text.split(" ")
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if get_cwidth(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while get_cwidth(word) > width:  # a word wider than the line (Japanese has no spaces)
            head = clip_exact(word, width)
            lines.append(head)
            word = word[len(head) :]
        current = word
    if current or not lines:
        lines.append(current)
    return lines


def clip_exact(text: str, width: int) -> str:
    """The longest start of ``text`` that is at most ``width`` columns wide (no mark)."""
    out = ""
    for char in text:
        if get_cwidth(out + char) > width:
            break
        out += char
    return out or text[:1]


def card_style(card: Card) -> str:
    return f"class:card.{SUIT_CLASS[card.suit]}"


def card(model: Model, one: Card, extra: str = "") -> tuple[str, str]:
    return (f"{card_style(one)} {extra}".strip(), model.card_text(one))


def cards(model: Model, shown: Sequence[Card], empty: str = "—") -> Line:
    if not shown:
        return [("class:dim", empty)]
    line: Line = []
    for index, one in enumerate(shown):
        if index:
            line.append(("", " "))
        line.append(card(model, one))
    return line


def bid_text(view: PlayerView, seat: int) -> str:
    if view.blind_nil[seat]:
        return _("blind nil")
    bid = view.bids[seat]
    if bid is None:
        return "—"
    return _("nil") if bid == 0 else str(bid)


def big_card(model: Model, card: Card | None) -> list[Line]:
    ascii_only = model.settings.ascii_cards
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"
    if card is None:
        rank, suit, style = "?", "?", "class:bigcard"
    else:
        text = model.card_text(card)
        rank, suit = text[:-1], text[-1]
        style = "class:bigcard" if card.suit == 3 else f"class:bigcard.{SUIT_CLASS[card.suit]}"
    inner = 7
    return [
        [("", tl + h * inner + tr)],
        [("", v), (style, pad(rank, inner)), ("", v)],
        [("", v), (style, " " * inner), ("", v)],
        [("", v), (style, pad(f"   {suit}", inner)), ("", v)],
        [("", v), (style, " " * inner), ("", v)],
        [("", v), (style, pad(rank, inner, right=True)), ("", v)],
        [("", bl + h * inner + br)],
    ]


def small_card(model: Model, card: Card | None, dim: bool = False) -> list[Line]:
    ascii_only = model.settings.ascii_cards
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"
    if card is None:
        return [
            [("class:dim", tl + h * 5 + tr)],
            [("class:dim", v + " " * 5 + v)],
            [("class:dim", bl + h * 5 + br)],
        ]
    text = model.card_text(card)
    frame = "class:dim" if dim else ""
    face = card_style(card) + (" class:dim" if dim else " bold")
    return [
        [(frame, tl + h * 5 + tr)],
        [(frame, v), (face, pad(" " + text, 5)), (frame, v)],
        [(frame, bl + h * 5 + br)],
    ]


def large_card(model: Model, card: Card | None, dim: bool = False) -> list[Line]:
    """A trick card drawn large (7 rows), for a terminal of 30 rows or more."""
    if card is not None and not dim:
        return big_card(model, card)
    ascii_only = model.settings.ascii_cards
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"
    face = ""
    if card is not None:
        face = model.card_text(card)
    inner = [pad(face, 7), " " * 7, pad(face, 7, right=True)] if face else [" " * 7] * 3
    middle = [inner[0], " " * 7, inner[1], " " * 7, inner[2]]
    return [
        [("class:dim", tl + h * 7 + tr)],
        *[[("class:dim", v + text + v)] for text in middle],
        [("class:dim", bl + h * 7 + br)],
    ]


def beside(left: list[Line], right: list[Line], gap: int = 3) -> list[Line]:
    width = max((line_width(line) for line in left), default=0)
    out: list[Line] = []
    for index in range(max(len(left), len(right))):
        a = left[index] if index < len(left) else []
        b = right[index] if index < len(right) else []
        out.append([*a, ("", " " * (width - line_width(a) + gap)), *b])
    return out


def count(number: int) -> str:
    """``1 card``, ``2 cards`` (in the language in use)."""
    return ngettext("{n} card", "{n} cards", number).format(n=number)


def prefix(lines: list[Line]) -> list[Line]:
    return [[("", "  "), *line] for line in lines]
