"""Play now: the seek messages (a seek, its cancel, and what the server answers).

A part of :mod:`protocol.messages`. A client sends ``seek`` (a preset, rated or casual);
the server answers ``seeking``, then ``seek_paired`` when an opponent of a close rating
is found (the window widens with the wait), and after 20 s alone ``seek_bot_offer`` (the
bot level nearest the player's rating; the seek stays open). ``cancel_seek`` ends it,
answered by ``seek_cancelled``. A connection that closes ends its seek.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from protocol._messages.common import BotLevel, MessageBase, RequestId, TableCode

__all__ = [
    "CancelSeek",
    "Seek",
    "SeekBotOffer",
    "SeekCancelled",
    "SeekPaired",
    "SeekPreset",
    "Seeking",
]

SeekPreset = Literal["classic", "five-hundred"]
"""The presets a seek may name (a game with other rules is made with ``create_table``)."""

Rating = Annotated[float, Field(ge=0, le=10_000)]


class Seek(MessageBase):
    """Play now: find an opponent of a close rating for a game of ``preset``.

    Answered by ``seeking``. A second ``seek`` replaces the first. A rated seek needs a
    signed-in player (``rated_needs_account`` otherwise); a guest seeks casual games,
    paired as if rated 1500 with a wide window."""

    type: Literal["seek"] = "seek"
    preset: SeekPreset = "classic"
    """``classic`` or ``five-hundred``."""
    rated: bool = False
    """A rated game (both players signed in) or a casual one."""
    id: RequestId | None = None
    """Your request id, echoed in ``seeking``."""


class CancelSeek(MessageBase):
    """Stop seeking (answered by ``seek_cancelled``, also when there was no seek)."""

    type: Literal["cancel_seek"] = "cancel_seek"
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Seeking(MessageBase):
    """Your seek is in the pool: wait for ``seek_paired`` (or ``seek_bot_offer``)."""

    type: Literal["seeking"] = "seeking"
    preset: SeekPreset
    """The preset sought."""
    rated: bool
    """Rated or casual."""
    rating: Rating | None = None
    """The rating you are paired by (nil: a guest, paired as 1500)."""
    id: RequestId | None = None
    """The ``id`` of your ``seek``."""


class SeekBotOffer(MessageBase):
    """Nobody close enough came in 20 s: the bot level nearest your rating is offered.

    Your seek stays open. To take the offer, send ``cancel_seek`` then ``create_table``
    with this ``preset``, ``bot: level`` and the seek's ``rated``."""

    type: Literal["seek_bot_offer"] = "seek_bot_offer"
    preset: SeekPreset
    """The preset sought."""
    level: BotLevel
    """The bot level offered."""
    rating: Rating
    """That level's fixed rating for the preset."""


class SeekPaired(MessageBase):
    """An opponent was found; the table is made.

    ``seated``: you already sit at it (its ``snapshot`` comes with this message). Else
    send ``join_table`` with ``table`` (it may be run by another node of the cluster:
    you are then redirected)."""

    type: Literal["seek_paired"] = "seek_paired"
    table: TableCode
    """The new table's code."""
    opponent: str = Field(min_length=1, max_length=24)
    """The opponent's name."""
    preset: SeekPreset
    """The preset of the game."""
    rated: bool
    """Rated or casual."""
    seated: bool
    """Whether you already sit at the table (else join it)."""


class SeekCancelled(MessageBase):
    """Your seek is over without a game (you cancelled it)."""

    type: Literal["seek_cancelled"] = "seek_cancelled"
    id: RequestId | None = None
    """The ``id`` of your ``cancel_seek``."""
