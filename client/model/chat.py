"""The chat part of the model: the lines shown, the line being typed, and ``/mute``.

``/mute`` and ``/unmute`` act here only (nothing is sent): the others' chat is no
longer shown, and how many lines were hidden is counted.
"""

from __future__ import annotations

from collections import deque

from client.i18n import _, ngettext

__all__ = ["LINES", "Chat"]

LINES = 200
MAX_TEXT = 200


class Chat:
    """The chat window's lines and entry."""

    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=LINES)
        self.entry = ""
        self.muted = False
        self.hidden = 0  # lines not shown while muted

    def receive(self, line: str, *, ours: bool) -> bool:
        """Show ``line`` (already made safe); False when muted hides it (``ours``: our
        own echo or the server's, never hidden)."""
        if self.muted and not ours:
            self.hidden += 1
            return False
        self.lines.append(line)
        return True

    def command(self, text: str) -> str | None:
        """Handle ``/mute`` or ``/unmute``: the line for the log, or None when ``text``
        is not one of them."""
        command = text.casefold()
        if command not in ("/mute", "/unmute"):
            return None
        self.mute(command == "/mute")
        if self.muted:
            return _("Chat from the others is hidden here; /unmute in chat shows it again.")
        hidden, self.hidden = self.hidden, 0
        return ngettext(
            "Chat shown again ({n} line was hidden).",
            "Chat shown again ({n} lines were hidden).",
            hidden,
        ).format(n=hidden)

    def mute(self, muted: bool) -> None:
        self.muted = muted

    def type(self, char: str) -> None:
        self.entry = (self.entry + char)[:MAX_TEXT]

    def erase(self) -> None:
        self.entry = self.entry[:-1]

    def clear(self) -> None:
        self.entry = ""

    def take(self) -> str:
        """The typed line, stripped, and an empty entry."""
        text, self.entry = self.entry.strip(), ""
        return text
