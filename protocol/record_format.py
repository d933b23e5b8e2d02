"""The game record format ``spades-record/1`` as strict pydantic models, and its JSON Schema.

A record is what ``get_record`` returns as ``record_json`` (the engine writes it:
``engine.game_record``). These models describe that JSON exactly; the schema a stranger
needs is generated from them::

    schema = record_json_schema()                 # a JSON Schema (draft 2020-12) dict
    GameRecordModel.model_validate(json.loads(text))   # or pydantic.ValidationError

``docs/spades-record-1.schema.json`` and the record section of ``docs/protocol.md`` are
generated from these models (``python3 -m protocol.schema --write``); a test checks that
real records of finished and forfeited games validate, so the schema cannot go stale.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from protocol.messages import Rules

__all__ = [
    "ACTION_TEXT_PATTERN",
    "RECORD_SCHEMA_ID",
    "GameRecordModel",
    "RecordHand",
    "record_json_schema",
]

_CARD = r"(10|[2-9JQKA])[CDHS]"
_HEX_OR_DASH = r"([0-9a-f]{2})+|-"
ACTION_TEXT_PATTERN: Final = (
    rf"^(deal ([0-9a-f]{{2}})+( ({_HEX_OR_DASH})){{0,2}}"
    rf"|commit ([0-9a-f]{{2}})+"
    rf"|shuffle ({_HEX_OR_DASH}) ({_HEX_OR_DASH})"
    r"|blind-nil|no-blind-nil|keep|discard"
    rf"|exchange( {_CARD}){{0,13}}"
    r"|bid (nil|[1-9]|1[0-3])"
    rf"|play {_CARD})$"
)
"""The text form of every action a record holds (``engine.actions``)."""

RECORD_SCHEMA_ID: Final = "spades-record-1.schema.json"

Hex = Annotated[str, Field(pattern=r"^([0-9a-f]{2})*$")]
ActionText = Annotated[str, Field(pattern=ACTION_TEXT_PATTERN)]
Seat = Annotated[int, Field(ge=0, le=1)]
Pair = tuple[int, int]
StockText = Annotated[str, Field(pattern=rf"^({_CARD}( {_CARD}){{51}})?$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class RecordHand(_Strict):
    """One hand. ``seed``, ``entropy`` and ``commitment`` are there for every hand, also one
    cut short by a forfeit; the fields from ``bids`` on only once the hand was scored."""

    hand_number: int = Field(ge=1)
    """The hand, from 1."""
    stock: StockText
    """The 52 cards of the stock, top card first, space-separated (empty if the game ended
    before the stock was drawn)."""
    actions: list[tuple[Seat | None, ActionText]]
    """This hand's actions as ``[seat, text]``, seat ``null`` for chance (the deal)."""
    first_drafter: Seat
    """The seat that drafted first."""
    seed: Hex
    """The shuffle seed, hex (32 bytes or more)."""
    entropy: list[Hex] = Field(max_length=2)
    """The seat entropy mixed in, hex: none (a one-step ``deal`` without entropy, or a game
    that ended before the shuffle), or seat 0's then seat 1's (``""``: that seat sent none)."""
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    """SHA-256 of the seed, hex: what ``hand_started`` published."""
    bids: tuple[int | None, int | None] | None = None
    """Each seat's bid; null for a blind nil (absent until the hand is scored)."""
    blind_nil: tuple[bool, bool] | None = None
    """Whether each seat bid blind nil (absent until the hand is scored)."""
    tricks: Pair | None = None
    """Tricks each seat took (absent until the hand is scored)."""
    points: Pair | None = None
    """Points each seat scored in the hand (absent until the hand is scored)."""
    bags_added: Pair | None = None
    """Bags each seat added (absent until the hand is scored)."""
    bag_penalties: Pair | None = None
    """Bag penalties each seat paid (absent until the hand is scored)."""
    scores: Pair | None = None
    """Totals after the hand (absent until the hand is scored)."""
    bags: Pair | None = None
    """Bags after the hand (absent until the hand is scored)."""


class GameRecordModel(_Strict):
    """A whole game: rules, every action in order, each hand, the outcome.

    Replaying ``actions`` from a new game under ``rules`` rebuilds it exactly
    (``engine.replay``). Action texts: ``deal <seed> [<e0> [<e1>]]`` (a one-step deal),
    ``commit <seed>`` then ``shuffle <e0|-> <e1|->`` (a two-step deal: the seats' entropy
    came after the commitment; ``-`` is a seat that sent none), ``blind-nil``,
    ``no-blind-nil``, ``keep``, ``discard``, ``exchange <cards>``, ``bid <n|nil>``,
    ``play <card>``.
    """

    format: Literal["spades-record/1"]
    """Always ``spades-record/1``."""
    rules: Rules
    """The rule set (the ``Rules`` structure of the protocol)."""
    actions: list[tuple[Seat | None, ActionText]]
    """Every action of the game in order, ``[seat, text]``; seat ``null`` for chance."""
    hands: list[RecordHand]
    """Every hand that started, in order."""
    scores: Pair
    """Final (or current) scores."""
    bags: Pair
    """Final (or current) bags."""
    winner: Seat | None
    """The winning seat; null when the game did not end on the score (a forfeit)."""
    finished: bool
    """True when the game ended on the score."""
    version: int = Field(ge=0)
    """The state version: how many actions the game saw."""


def record_json_schema() -> dict[str, Any]:
    """The JSON Schema of ``spades-record/1``, generated from :class:`GameRecordModel`."""
    schema = GameRecordModel.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": RECORD_SCHEMA_ID,
        "title": "spades-record/1",
        **{key: value for key, value in schema.items() if key != "title"},
    }
