"""Text from elsewhere, made safe to draw: names, chat, server messages, record fields.

    safe_text("hi\\x1b]0;pwn\\x07\\nSERVER: you win")   # -> "hi ]0;pwn  SERVER: you win"
    to_ascii("♠ Spades · hand 2 — ✓")                 # -> "S Spades - hand 2 - ok"

Another player chooses its name and its chat, and a record file may be crafted: none of
that may move the cursor, change the terminal's title, reorder the line it sits in, hide
itself or start a line of its own. :func:`safe_text` keeps printable characters only;
:func:`to_ascii` is the ``--ascii`` filter every drawn screen goes through.
"""

from __future__ import annotations

import unicodedata

__all__ = ["safe_text", "to_ascii"]

# combining marks allowed on one base character (more is "zalgo" stacking that spills
# over the lines above and below)
MAX_MARKS = 2

# the few non-ASCII characters the client draws itself, and what --ascii draws instead
ASCII_GLYPHS: dict[str, str] = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "·": "-",
    "—": "-",
    "–": "-",
    "…": "...",
    "●": "*",
    "○": "o",
    "▲": "^",
    "▼": "v",
    "◆": "*",
    "│": "|",
    "─": "-",
    "┌": "+",
    "┐": "+",
    "└": "+",
    "┘": "+",
    "├": "+",
    "┤": "+",
    "▒": "#",
    "▏": "_",
    "✓": "ok",
    "✗": "!!",
    "←": "<-",
    "→": "->",
    "↑": "^",
    "↓": "v",
    "⏱": "t",
    "💬": ">",
    "×": "x",
    "±": "+-",
    # German words keep their spelling's ASCII form (NFKD would make "Könige" "Konige")
    "ä": "ae",
    "ö": "oe",
    "ü": "ue",
    "Ä": "Ae",
    "Ö": "Oe",
    "Ü": "Ue",
    "ß": "ss",
}


def safe_text(text: str, *, newlines: bool = False) -> str:
    """``text`` with nothing a terminal would act on: control characters (C0, DEL, C1,
    ESC and with it every CSI/OSC sequence's introducer), line and paragraph separators
    become spaces; format characters (bidi overrides and isolates, zero-width
    characters, BOM), surrogates, private-use and unassigned code points are dropped;
    combining marks are kept to :data:`MAX_MARKS` per base character. ``newlines``
    keeps ``\\n`` (for multi-line text the client itself composed)."""
    out: list[str] = []
    marks = 0
    for char in text:
        if newlines and char == "\n":
            out.append(char)
            marks = MAX_MARKS  # no mark may sit on a line break
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            out.append(" ")
            marks = MAX_MARKS
        elif category in ("Cf", "Cs", "Co", "Cn"):
            continue
        elif category in ("Mn", "Me"):
            if marks < MAX_MARKS:
                out.append(char)
                marks += 1
        else:
            out.append(char)
            marks = 0
    return "".join(out)


def to_ascii(text: str) -> str:
    """``text`` in ASCII only: the client's own symbols by their ASCII stand-ins, letters
    by their base letter where there is one, anything else as ``?``."""
    out: list[str] = []
    for char in text:
        if char.isascii():
            out.append(char)
            continue
        glyph = ASCII_GLYPHS.get(char)
        if glyph is None:
            base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            glyph = base or ("" if unicodedata.combining(char) else "?")
        out.append(glyph)
    return "".join(out)
