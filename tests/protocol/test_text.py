"""The text rules for names and chat (protocol.text): nothing on a screen can be forged."""

from __future__ import annotations

import pytest

from protocol.text import TextError, clean_chat, clean_name

FORGING = [
    "\x1b[2J",  # ESC: a CSI sequence
    "\x1b]0;pwned\x07",  # OSC: set the window title
    "a\x9bb",  # C1 CSI
    "ok\rSERVER: you win",  # CR rewrites the line
    "ok\x08\x08no",  # BS
    "gg\nSERVER: opponent left; you win",  # a forged line
    "\u202egniw",  # RLO
    "a\u2066b\u2069",  # bidi isolates
    "a\u200bb",  # zero-width space
    "a\u200db",  # zero-width joiner
    "a\ufeffb",  # BOM
    "a\u2028b",  # line separator
    "a\u00a0b",  # no-break space (not the plain space)
    "a\tb",
    "\ue000",  # private use
    "\u0378",  # unassigned
]


@pytest.mark.parametrize("text", FORGING)
def test_chat_refuses_control_format_and_invisible_characters(text: str) -> None:
    with pytest.raises(TextError, match=r"U\+[0-9A-F]{4}"):
        clean_chat(text)


@pytest.mark.parametrize("text", FORGING)
def test_names_refuse_what_chat_refuses(text: str) -> None:
    with pytest.raises(TextError):
        clean_name(text)


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # Hangul filler: renders empty
        "\u2800",  # braille blank
        "\u3164\u3164 \u2800",
        "...",  # no letter or digit
        "e\u0301\u0301\u0301\u0301",  # stacked combining marks
        "\u0301abc",  # a mark on nothing
        "You",
        "you",
        "Y O U",
        "Yоu",  # Cyrillic o
        "Bot",
        "BOT!",
        "bot (hard)",
        "Server",
        "S E R V E R",
    ],
)
def test_names_that_render_empty_or_impersonate_the_ui_are_refused(name: str) -> None:
    with pytest.raises(TextError):
        clean_name(name)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("José", "José"),
        ("Jose\u0301", "José"),  # NFC
        ("Zoë", "Zoë"),
        ("李雷", "李雷"),
        ("Ángel ♠", "Ángel ♠"),
        ("robot", "robot"),
        ("Youssef", "Youssef"),
        ("admin", "admin"),  # a common login name (the client's default name)
        ("nobody", "nobody"),
        ("e\u0301\u0300", "e\u0301\u0300".replace("e\u0301", "é")),
    ],
)
def test_ordinary_names_pass_normalised(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


def test_ordinary_chat_passes_with_outer_spaces_dropped() -> None:
    assert clean_chat("  good game, well played ♠  ") == "good game, well played ♠"
    assert clean_chat("naïve café 😀") == "naïve café 😀"
    with pytest.raises(TextError, match="empty"):
        clean_chat("   ")
