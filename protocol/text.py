"""What text the server accepts from players (names and chat), so nothing on a screen can
be forged or scrambled by another player.

    name = clean_name("  Ada   Lovelace ")    # "Ada Lovelace", or raises TextError
    line = clean_chat("good game!")           # the line to relay, or raises TextError

The rules (``docs/protocol.md`` lists them for client writers):

- Text is normalised to NFC; leading and trailing spaces are dropped, and in a name runs
  of spaces become one.
- Refused anywhere: control characters (C0 and C1: ESC, CSI 0x9B, CR, LF, BS, TAB...),
  format characters (bidi overrides and isolates such as RLO, zero-width spaces and
  joiners, soft hyphen, BOM), separators other than the plain space (line and paragraph
  separators, other widths of space), surrogates, private-use and unassigned code
  points, and characters that draw nothing (Hangul fillers, braille blank...).
- A combining mark must follow a visible character, and at most
  :data:`MAX_MARKS_PER_CHARACTER` may stack on one.
- A name needs a visible letter or digit, and may not be (ignoring case, spaces,
  punctuation and look-alike letters) a word the client's own screens use for
  someone: see :data:`RESERVED_NAMES`; nor start with ``bot`` followed by a bracket, as
  the server names its bots.
"""

from __future__ import annotations

import unicodedata

from protocol.errors import ProtocolError

__all__ = [
    "MAX_MARKS_PER_CHARACTER",
    "RESERVED_NAMES",
    "TextError",
    "clean_chat",
    "clean_name",
]

MAX_MARKS_PER_CHARACTER = 2
"""Combining marks allowed on one character (more stack into an unreadable smear)."""

RESERVED_NAMES = frozenset({"you", "bot", "server"})
"""Names the client's screens use for someone (compared after :func:`_skeleton`)."""

_BLANK = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # braille pattern blank
    "\u17b4\u17b5"  # Khmer inherent vowels (render as nothing)
    "\u180e"  # Mongolian vowel separator
)
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_MARKS = frozenset({"Mn", "Me"})

# letters that look like Latin ones, folded for the reserved-word check only
_LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d",
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "0": "o", "1": "l", "|": "l", "$": "s", "5": "s",
    }
)  # fmt: skip


class TextError(ProtocolError, ValueError):
    """The text breaks a rule; ``str(error)`` says which, naming the code point."""


def _check_characters(text: str, what: str) -> None:
    marks = 0
    previous_visible = False
    for char in text:
        category = unicodedata.category(char)
        point = f"U+{ord(char):04X}"
        if char == " ":
            marks, previous_visible = 0, False
            continue
        if category in _REFUSED_CATEGORIES or category == "Zs" or char in _BLANK:
            kind = "an invisible or control character"
            raise TextError(f"{what} may not contain {kind} ({point})")
        if category in _MARKS:
            marks += 1
            if not previous_visible:
                raise TextError(f"{what} may not start a word with a combining mark ({point})")
            if marks > MAX_MARKS_PER_CHARACTER:
                raise TextError(
                    f"{what} may stack at most {MAX_MARKS_PER_CHARACTER} combining marks "
                    f"on one character ({point})"
                )
            continue
        marks, previous_visible = 0, True


def _skeleton(name: str) -> str:
    """``name`` folded for comparison: compatibility forms, case, look-alike letters, and
    only letters and digits kept."""
    folded = unicodedata.normalize("NFKD", name).casefold().translate(_LOOKALIKES)
    return "".join(c for c in folded if c.isalnum() and unicodedata.category(c) not in _MARKS)


def clean_name(name: str) -> str:
    """The name to use for ``name``: NFC, spaces collapsed. Raises :class:`TextError`."""
    text = " ".join(unicodedata.normalize("NFC", name).split(" "))
    text = " ".join(part for part in text.split(" ") if part)
    if not text:
        raise TextError("a name needs a visible letter or digit")
    _check_characters(text, "a name")
    if not any(unicodedata.category(c)[0] in "LN" for c in text):
        raise TextError("a name needs a visible letter or digit")
    skeleton = _skeleton(text)
    if skeleton in RESERVED_NAMES or (skeleton.startswith("bot") and "(" in text):
        raise TextError(f"the name {text!r} is one the game uses itself; choose another")
    return text


def clean_chat(text: str) -> str:
    """The chat line to relay for ``text``: NFC, outer spaces dropped. Raises
    :class:`TextError` (also for an empty line)."""
    line = unicodedata.normalize("NFC", text).strip(" ")
    if not line:
        raise TextError("chat text is empty")
    _check_characters(line, "chat")
    return line
