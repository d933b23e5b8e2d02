"""Names compared as people read them: a skeleton that look-alike names share.

    skeleton("ｔｒоII")                # "troii": the same as skeleton("troll")
    same_name("alice", "ΑLICE")        # True
    reserved("ʙot") / reserved("Bot（easy）")   # True: the game's own words
    NameIndex()                         # connected players by skeleton (uniqueness)

A new player whose name looks like a connected player's is welcomed with a number added
(``alice 2``; ``welcome.name`` says which): two connected players never look alike.

The skeleton is NFKC (fullwidth and other compatibility forms, mathematical letters),
then the look-alike letters of other scripts mapped to the Latin letter they imitate
(uppercase ones first, since ``Υ`` looks like ``Y`` but ``υ`` like ``u``), then casefold,
then the lowercase look-alikes, accents dropped, and only letters and digits kept.
``I``, ``l``, ``1`` and ``|`` (and ``i``, which casefold makes of ``I``) all become
``i``: a ban on ``troll`` holds for ``troII``.

Why our own table and not a library's: Unicode's full confusables table (as the
``confusable_homoglyphs`` package ships it) is not in this project's package index, and
the table below covers the scripts a player's name can imitate Latin with (Cyrillic,
Greek, small capitals, fullwidth by NFKC, I/l/1). A name that slips through is a
nuisance only: moderation acts by player id (``spades admin players`` shows them).
Raises nothing.
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import Protocol

__all__ = ["RESERVED_WORDS", "NameIndex", "reserved", "same_name", "skeleton"]

RESERVED_WORDS = frozenset({"you", "bot", "server"})
"""Words the game's screens use for someone: no player's name may look like one."""

# capitals of other scripts that look like a Latin capital (before casefold, since
# their lowercase forms look like other letters)
_UPPER = str.maketrans(
    {
        "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m",
        "Ν": "n", "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x", "Ϲ": "c", "Ϳ": "j",
        "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p",
        "С": "c", "Т": "t", "Х": "x", "У": "y", "Ѕ": "s", "І": "i", "Ј": "j", "Ԛ": "q",
        "Ԝ": "w", "Ү": "y", "Ӏ": "i", "I": "i", "l": "i", "1": "i", "|": "i", "0": "o",
    }
)  # fmt: skip

# lowercase look-alikes (after casefold), small capitals and IPA letters among them
_LOWER = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "х": "x", "у": "y", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d",
        "һ": "h", "ԛ": "q", "ԝ": "w", "ь": "b", "ӏ": "i", "ү": "y", "ɡ": "g", "ɑ": "a",
        "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
        "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
        "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "i", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
        "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
        "ı": "i", "l": "i", "1": "i", "0": "o",
    }
)  # fmt: skip

_MARKS = frozenset({"Mn", "Me", "Mc"})
_BRACKETS = frozenset("([{<")


def skeleton(name: str) -> str:
    """What ``name`` looks like, folded (see the module); ``""`` for no letter or digit."""
    text = unicodedata.normalize("NFKC", name).translate(_UPPER).casefold().translate(_LOWER)
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if c.isalnum() and unicodedata.category(c) not in _MARKS)


def same_name(first: str, second: str) -> bool:
    """Whether two names look alike (equal skeletons)."""
    return skeleton(first) == skeleton(second)


_RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED_WORDS)
_BOT = skeleton("bot")


def reserved(name: str) -> bool:
    """Whether ``name`` looks like a word of the game's (``you``, ``bot``, ``server``) or
    like a bot's seat name (``bot`` then a bracket: ``bot (easy)``)."""
    folded = skeleton(name)
    if folded in _RESERVED_SKELETONS:
        return True
    return folded.startswith(_BOT) and any(
        c in _BRACKETS for c in unicodedata.normalize("NFKC", name)
    )


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class NameIndex:
    """Who holds each skeleton among connected players: ``claim`` when welcoming,
    ``release`` at goodbye.

        index.holder("alice")        # the connected player whose name looks alike, or None
        index.unique("alice")        # "alice", or "alice 2" when an alice is connected
        index.claim(player); index.release(player)
    """

    TRIES = 64  # numbered names tried in a row before a random number is drawn

    def __init__(self) -> None:
        self._by_skeleton: dict[str, object] = {}
        self._next: dict[str, int] = {}  # by skeleton: the number to try first

    def __len__(self) -> int:
        return len(self._by_skeleton)

    def holder(self, name: str) -> object | None:
        return self._by_skeleton.get(skeleton(name))

    def unique(self, name: str, max_length: int = 24) -> str:
        """``name``, or ``name`` with a number (``"alice 2"``, cut to ``max_length``) when
        a connected player's name looks like it: never one that looks like another's."""
        base = skeleton(name)
        if base not in self._by_skeleton:
            return name
        number = self._next.get(base, 2)
        for attempt in range(self.TRIES * 2):
            if attempt >= self.TRIES:  # a crowd of one name: any free number will do
                number = secrets.randbelow(10**6) + 2
            suffix = f" {number}"
            candidate = name[: max_length - len(suffix)].rstrip() + suffix
            if skeleton(candidate) not in self._by_skeleton:
                self._next[base] = number + 1
                return candidate
            number += 1
        return candidate  # a million look-alikes connected: cannot happen under the caps

    def claim(self, player: _Named) -> None:
        self._by_skeleton[skeleton(player.name)] = player

    def release(self, player: _Named) -> None:
        key = skeleton(player.name)
        if self._by_skeleton.get(key) is player:
            del self._by_skeleton[key]
