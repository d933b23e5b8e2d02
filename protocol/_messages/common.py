"""The shared ground of every message: the version numbers, the value types fields are
made of (cards, seats, table codes, hex), and the strict, immutable base model.

Imported through :mod:`protocol.messages` (``from protocol import messages as m``); this
module is one of its parts. A value that breaks these types fails validation, which the
codec turns into :class:`~protocol.errors.DecodeError` (``bad_message``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ENTROPY_HEX_PATTERN",
    "ENTROPY_MAX_BYTES",
    "PROTOCOL_MINOR",
    "PROTOCOL_VERSION",
    "SUPPORTED_VERSIONS",
    "BotLevel",
    "CardText",
    "Count",
    "EntropyHex",
    "HexText",
    "MessageBase",
    "Phase",
    "RequestId",
    "Score",
    "Seat",
    "Sha256Hex",
    "TableCode",
    "stale_version_message",
]

PROTOCOL_VERSION: Final = 1
SUPPORTED_VERSIONS: Final = (1,)
PROTOCOL_MINOR: Final = 3
"""The newest minor version of :data:`PROTOCOL_VERSION` this code speaks (1.3)."""
ENTROPY_MAX_BYTES: Final = 32
"""The most bytes of entropy a seat may send for one hand."""

CardText = Annotated[str, Field(pattern=r"^(10|[2-9JQKA])[CDHS]$", examples=["QS", "10H"])]
Seat = Annotated[int, Field(ge=0, le=1)]
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Score = Annotated[int, Field(ge=-10_000_000, le=10_000_000)]
TableCode = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9-]+$")]
RequestId = Annotated[int, Field(ge=0, le=2**53)]
BotLevel = Literal["easy", "normal", "hard"]
Phase = Literal[
    "deal", "blind_nil", "draft", "exchange", "bidding", "play", "hand_over", "game_over"
]
HexText = Annotated[str, Field(max_length=128, pattern=r"^[0-9a-f]*$")]
ENTROPY_HEX_PATTERN: Final = r"^(?:[0-9a-f]{2})+$"
"""Whole bytes in lowercase hex, at least one: the form of an ``entropy`` value."""
# its own alias, not HexText with tighter bounds: pydantic applies an alias's constraints
# after the field's, so HexText's max_length=128 would win over a field's max_length=64
EntropyHex = Annotated[
    str,
    Field(min_length=2, max_length=2 * ENTROPY_MAX_BYTES, pattern=ENTROPY_HEX_PATTERN),
]

Sha256Hex = Annotated[str, Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256 digest in lowercase hex (64 digits): a seat's entropy commitment (1.3)."""


def stale_version_message(current: int, sent: int) -> str:
    """The one wording of a ``stale_version`` error's ``message`` (server and docs alike)."""
    return f"the state is at version {current}, not {sent}"


class MessageBase(BaseModel):
    """The base of every message, event and structure: strict types, no unknown field,
    immutable. Construct a subclass with keywords; a bad value raises
    ``pydantic.ValidationError``."""

    # use_attribute_docstrings: the docstring under a field is its description in the
    # JSON Schema, and so in the generated field reference of docs/protocol.md
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )
