"""The play-now part of the model: the seek on show, folded from the server's answers.

    seek = PlayNow()
    seek.choose(+1)                 # the preset (classic, five-hundred)
    seek.toggle_rated()             # rated or casual
    request = seek.start()          # the ``seek`` to send
    seek.fold(message)              # ``seeking``, ``seek_bot_offer``, ``seek_paired``...

Nothing here draws or sends: :mod:`client.screens.playnow` draws it and sends what it
returns.
"""

from __future__ import annotations

from typing import Literal, get_args

from protocol import messages as m

__all__ = ["PRESETS", "PlayNow", "SeekStatus"]

PRESETS: tuple[m.SeekPreset, ...] = get_args(m.SeekPreset)

SeekStatus = Literal["choosing", "asked", "seeking", "paired", "refused"]


class PlayNow:
    """The play-now window's state (see the module)."""

    def __init__(self) -> None:
        self.preset: m.SeekPreset = "classic"
        self.rated = False
        self.status: SeekStatus = "choosing"
        self.offer: m.SeekBotOffer | None = None
        self.paired: m.SeekPaired | None = None
        self.refusal: str | None = None  # the code of a refused seek

    def reopen(self) -> None:
        """The window opens again: a seek under way stays, a past one is forgotten."""
        if self.status in ("paired", "refused"):
            self.status, self.paired, self.refusal = "choosing", None, None

    def choose(self, step: int) -> None:
        index = PRESETS.index(self.preset)
        self.preset = PRESETS[(index + step) % len(PRESETS)]

    def toggle_rated(self) -> None:
        self.rated = not self.rated

    def start(self) -> m.Seek:
        self.status, self.offer, self.paired, self.refusal = "asked", None, None, None
        return m.Seek(preset=self.preset, rated=self.rated)

    def cancel(self) -> m.CancelSeek | None:
        """The ``cancel_seek`` to send, if a seek is open; back to choosing."""
        was = self.status
        self.status, self.offer = "choosing", None
        return m.CancelSeek() if was in ("asked", "seeking") else None

    def take_offer(self) -> list[m.ClientMessage]:
        """Play the bot offered instead: cancel the seek, then create the table."""
        offer = self.offer
        if offer is None:
            return []
        self.status, self.offer = "paired", None
        return [
            m.CancelSeek(),
            m.CreateTable(preset=offer.preset, bot=offer.level, rated=self.rated),
        ]

    @property
    def searching(self) -> bool:
        return self.status in ("asked", "seeking")

    def fold(self, message: m.ServerMessage) -> m.ClientMessage | None:
        """Fold a play-now message in; returns a request to send (a ``join_table``)."""
        if isinstance(message, m.Seeking):
            if self.status == "asked":
                self.status = "seeking"
        elif isinstance(message, m.SeekBotOffer):
            if self.searching:
                self.offer = message
        elif isinstance(message, m.SeekPaired):
            self.status, self.paired, self.offer = "paired", message, None
            if not message.seated:
                return m.JoinTable(code=message.table)
        elif isinstance(message, m.ErrorMessage) and message.request == "seek":
            self.status, self.refusal = "refused", message.code
        return None
