"""Every message of protocol version 1.2 (and of 1.0 and 1.1), as strict, immutable
pydantic models.

A message is a msgpack map with a ``"type"`` key naming it. Messages a client sends form
the :data:`ClientMessage` union, those the server sends the :data:`ServerMessage` union;
:data:`CLIENT_ADAPTER` and :data:`SERVER_ADAPTER` validate them. Unknown fields, wrong
types and out-of-range values are rejected. Sequences are msgpack arrays, optional fields
may be ``nil``. Cards are strings: rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` then suit
``C``, ``D``, ``H``, ``S`` (``"10H"``, ``"QS"``); seats are ``0`` and ``1``.

``docs/protocol.md`` documents every message; its field reference is generated from
these models.

The current version is 1.2 (:data:`PROTOCOL_MINOR`), a minor version of 1: a client says
``protocol_version: 1`` and ``protocol_minor: 2`` in ``hello``. Version 1.1 (``protocol_minor:
1``) added seat entropy and more. Every field 1.1 added has a default, so these models
also read 1.0 messages;
:data:`ADDED_IN_1_1` lists what a connection that speaks 1.0 never gets (see
:func:`protocol.codec.wire_dict`). Version 1.2 (``protocol_minor: 2``) adds one message,
:class:`Redirect` (:data:`ADDED_IN_1_2`); a server never sends it to a 1.0 or 1.1
connection, which gets an ``unknown_table`` error naming the URL instead.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "ADDED_IN_1_1",
    "ADDED_IN_1_2",
    "CLIENT_ADAPTER",
    "ENTROPY_HEX_PATTERN",
    "ENTROPY_MAX_BYTES",
    "ERROR_CODES",
    "ERROR_CODE_MEANINGS",
    "PROTOCOL_MINOR",
    "PROTOCOL_VERSION",
    "SERVER_ADAPTER",
    "SUPPORTED_VERSIONS",
    "Ack",
    "Act",
    "ActionMessage",
    "AddBot",
    "AnalysisMessage",
    "BidAction",
    "BidEvent",
    "BlindNilAction",
    "BlindNilEvent",
    "CardPlayedEvent",
    "Chat",
    "ChatMessage",
    "ClientMessage",
    "CreateTable",
    "DiscardAction",
    "DraftTurnEvent",
    "Entropy",
    "EntropyAccepted",
    "ErrorCode",
    "ErrorMessage",
    "EventMessage",
    "Events",
    "ExchangeAction",
    "ExchangeEvent",
    "GameOver",
    "GameOverEvent",
    "GetAnalysis",
    "GetRecord",
    "HandResult",
    "HandScoredEvent",
    "HandStartedEvent",
    "Hello",
    "JoinTable",
    "KeepAction",
    "Leave",
    "Left",
    "ListTables",
    "Ping",
    "PlayAction",
    "Pong",
    "RecordMessage",
    "Redirect",
    "Rematch",
    "Rules",
    "ScoreLine",
    "SeatInfo",
    "ServerMessage",
    "ShuffledEvent",
    "Snapshot",
    "TableInfo",
    "TableList",
    "TableSummary",
    "TableUpdate",
    "TrickData",
    "TrickWonEvent",
    "View",
    "WatchTable",
    "Welcome",
    "YourTurn",
    "stale_version_message",
]

PROTOCOL_VERSION: Final = 1
SUPPORTED_VERSIONS: Final = (1,)
PROTOCOL_MINOR: Final = 2
"""The newest minor version of :data:`PROTOCOL_VERSION` this code speaks (1.2)."""
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

ErrorCode = Literal[
    "bad_message",
    "too_large",
    "unsupported_version",
    "hello_first",
    "already_welcomed",
    "bad_token",
    "bad_name",
    "bad_rules",
    "unknown_table",
    "table_full",
    "seat_taken",
    "not_seated",
    "not_at_table",
    "not_your_turn",
    "illegal_action",
    "stale_version",
    "game_not_started",
    "game_over",
    "rate_limited",
    "chat_too_long",
    "server_full",
    "record_not_available",
    "internal_error",
    "banned",
    "muted",
]
ERROR_CODES: Final[tuple[str, ...]] = ErrorCode.__args__  # type: ignore[attr-defined]

ERROR_CODE_MEANINGS: Final[dict[str, str]] = {
    "bad_message": "The frame is not a valid message: a text frame, not msgpack, not a map, "
    "an unknown `type`, a missing or unknown field, a value of the wrong type or out of "
    "range (also an empty chat line, and an `entropy` value that is not 1 to 32 whole bytes "
    "in lowercase hex, whatever the table). "
    "`request` and `id` are the frame's `type` and `id` whenever they can be read, nil "
    "otherwise.",
    "too_large": "The message is over the size limit (4096 bytes for a client message) and "
    "was refused unread. The server may instead close the connection (WebSocket close "
    "code 1009) when the frame itself is over the limit.",
    "unsupported_version": "`hello` named a protocol version the server does not speak; the "
    "error's message lists the versions it does. Say `hello` again with one of them.",
    "hello_first": "A message other than `hello` came before the connection was welcomed.",
    "already_welcomed": "`hello` came again on a connection that was already welcomed (open "
    "a new connection to be someone else).",
    "bad_token": "The `token` in `hello` is not known to this server. Say `hello` without "
    "a token to start as a new player.",
    "bad_name": "The name breaks the text rules (see Text rules): it has control or "
    "invisible characters, renders empty, or is a word the game uses itself (You, Bot...).",
    "bad_rules": "`create_table` named an unknown preset, or an override that is not a rule "
    "field or has a bad value; the message says which.",
    "unknown_table": "No table has this code (it never existed, or it has closed).",
    "table_full": "Both seats of the table are taken (`join_table` or `add_bot` without a seat).",
    "seat_taken": "The seat asked for (`join_table`, `add_bot`) is not empty.",
    "not_seated": "Only a player seated at the table may do this (`action`, `add_bot`, "
    "`rematch`, `entropy`); you watch it or are not there.",
    "not_at_table": "You neither sit at nor watch this table (`chat`, `leave`).",
    "not_your_turn": "An `action` came while another seat (or the dealer) is to move.",
    "illegal_action": "The action is not legal now (the message says why: follow suit, "
    "spades not broken, a card you do not hold...); also `rematch` before game over, and "
    "`entropy` for another hand, a second time, or after the shuffle.",
    "stale_version": "The action's `version` is not the table's current version: something "
    "happened after the state you decided on. Take the latest state (the events that "
    "followed, or a fresh snapshot) and decide again.",
    "game_not_started": "The table is still waiting for its second seat.",
    "game_over": "The game at this table is over: ask for a `rematch`, or `leave`.",
    "rate_limited": "Too many messages (or chat lines) too quickly; the request was dropped. "
    "Slow down and send it again later: after 20 refusals in a row (the server's default), "
    "the next message over the budget closes the connection (close code 1008).",
    "chat_too_long": "The chat line is longer than the server allows (200 characters by default).",
    "server_full": "The server holds as many connections or tables as it can, or you sit at "
    "as many tables as one player may. Try again later.",
    "record_not_available": "No finished game has this `record_id` (yet).",
    "internal_error": "The server failed on this request (a bug); the request had no effect.",
    "banned": "The host of this server banned this name (at `hello`) or this network address "
    "(at connect, with no request); the connection is closed after it (code 1008). A "
    "connection the host removed without a ban is closed with code 4003 and no error.",
    "muted": "The host muted your chat on this server: `chat` is refused (a `/report` line "
    "still reaches the host).",
}
"""What each error code means, for people: the same keys as :data:`ERROR_CODES`.

An error never changes any game; ``docs/protocol.md`` lists these (generated).
"""


def stale_version_message(current: int, sent: int) -> str:
    """The one wording of a ``stale_version`` error's ``message`` (server and docs alike)."""
    return f"the state is at version {current}, not {sent}"


class _Message(BaseModel):
    # use_attribute_docstrings: the docstring under a field is its description in the
    # JSON Schema, and so in the generated field reference of docs/protocol.md
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )


# ---------------------------------------------------------------------------------------
# Shared structures


class Rules(_Message):
    """Every field of a rule set (see docs/rules.md); the same names as ``engine.RuleSet``."""

    target_score: int
    """The game ends after a hand in which a seat reached this score (the higher score wins; a tie
    plays on).
    """
    first_bidder: Literal["first_drafter", "second_drafter"]
    """Which seat bids first and leads the first trick: the hand's first drafter or the other seat.
    """
    see_card_after_keep: bool
    """After a keep, the drafter sees the card that goes to the pile."""
    nil: bool
    """Whether a bid of 0 (nil) is allowed."""
    nil_bonus: int
    """Points won by a made nil, lost by a failed one."""
    blind_nil: bool
    """Whether seats may declare blind nil before the draft."""
    blind_nil_bonus: int
    """Points won by a made blind nil, lost by a failed one."""
    blind_nil_exchange: int
    """How many cards a blind-nil seat may exchange with the pile after the draft."""
    blind_nil_min_deficit: int | None
    """A seat may declare blind nil only when trailing by at least this much (nil: always)."""
    bag_limit: int
    """Every time a seat's bags reach this many, it loses ``bag_penalty`` points."""
    bag_penalty: int
    """Points lost each time the bags reach ``bag_limit``."""
    failed_nil_tricks_are_bags: bool
    """A failed nil's (or blind nil's) tricks count as bags."""
    lose_score: int | None
    """A seat at or below this score loses at once (nil: off)."""


class KeepAction(_Message):
    """Draft: keep the card on offer."""

    kind: Literal["keep"] = "keep"


class DiscardAction(_Message):
    """Draft: discard the card on offer and take the next stock card."""

    kind: Literal["discard"] = "discard"


class BlindNilAction(_Message):
    """Declare (``declare: true``) or decline blind nil, before the draft."""

    kind: Literal["blind_nil"] = "blind_nil"
    declare: bool
    """True to declare blind nil, false to decline."""


class ExchangeAction(_Message):
    """Blind-nil exchange: give these cards from your hand (none is allowed)."""

    kind: Literal["exchange"] = "exchange"
    cards: tuple[CardText, ...] = Field(default=(), max_length=13)
    """The cards to give, from your hand; at most ``exchange_max`` of ``your_turn``."""


class BidAction(_Message):
    """Bid ``tricks`` (0 is nil)."""

    kind: Literal["bid"] = "bid"
    tricks: int = Field(ge=0, le=13)
    """The bid: 1..13 tricks, or 0 for nil (only when the rules allow nil)."""


class PlayAction(_Message):
    """Play ``card`` to the current trick."""

    kind: Literal["play"] = "play"
    card: CardText
    """A card of your hand that is legal now (see ``your_turn.legal``)."""


ActionMessage = Annotated[
    KeepAction | DiscardAction | BlindNilAction | ExchangeAction | BidAction | PlayAction,
    Field(discriminator="kind"),
]


class TrickData(_Message):
    """A finished trick: the leader, the two cards in play order, the winner."""

    leader: Seat
    """The seat that led the trick."""
    cards: tuple[CardText, CardText]
    """The two cards in play order: the leader's first."""
    winner: Seat
    """The seat that won the trick (and leads the next)."""


class HandResult(_Message):
    """One hand's outcome, per seat where a pair, with its revealed shuffle seed.

    ``bids`` holds ``nil`` for a seat that bid blind nil (``blind_nil`` true). Anyone can
    check the shuffle: ``SHA-256(bytes.fromhex(seed)).hexdigest() == commitment``.
    """

    type: Literal["hand_result"] = "hand_result"
    table: TableCode
    """The table code."""
    hand_number: Count
    """The hand, counted from 1 in each game."""
    first_drafter: Seat
    """The seat that drafted first in this hand."""
    bids: tuple[int | None, int | None]
    """Each seat's bid; nil for a seat that bid blind nil."""
    blind_nil: tuple[bool, bool]
    """Whether each seat bid blind nil."""
    tricks: tuple[int, int]
    """Tricks each seat took."""
    points: tuple[Score, Score]
    """Points each seat scored in this hand, bag penalties included."""
    bags_added: tuple[int, int]
    """Bags (overtricks) each seat added in this hand."""
    bag_penalties: tuple[int, int]
    """How many bag penalties each seat paid in this hand."""
    scores: tuple[Score, Score]
    """Each seat's total score after this hand."""
    bags: tuple[int, int]
    """Each seat's bag count after this hand (after penalties)."""
    commitment: HexText
    """SHA-256 of the seed in lowercase hex, as sent in ``hand_started`` before the hand."""
    seed: HexText
    """The revealed shuffle seed, hex (32 bytes and more)."""
    entropy: tuple[HexText, ...] = ()
    """The seats' entropy mixed into the shuffle, hex: always two entries, seat 0's then
    seat 1's, ``""`` for a seat that sent none (a bot, a 1.0 connection, a silent seat).
    An empty entry still goes into the shuffle key (as a zero length). Empty only in a
    record's old one-step ``deal`` without entropy."""


class View(_Message):
    """Everything one seat (or a spectator, ``seat: nil``) knows about the game.

    The private fields (``hand``, ``offered``, ``draft_*``, ``exchange_given``,
    ``exchange_received``) only ever hold this seat's own cards and are empty for a
    spectator. ``offered`` is the card on offer when it is this seat's draft turn.
    """

    seat: Seat | None
    """Whose view this is: 0 or 1, or nil for a spectator."""
    phase: Phase
    """Where the game stands (``deal`` and ``hand_over`` wait for the server to shuffle)."""
    version: Count
    """The game's state version: how many actions (deals included) it has seen. Send it back in
    ``action``.
    """
    hand_number: Count
    """The current hand, from 1 (0 before the first deal)."""
    scores: tuple[Score, Score]
    """Each seat's score."""
    bags: tuple[int, int]
    """Each seat's bags."""
    first_drafter: Seat | None
    """The seat that drafts first in this hand (nil before the first deal)."""
    first_bidder: Seat | None
    """The seat that bids first and leads the first trick (nil before the first deal)."""
    current_player: Seat | None
    """The seat to move (nil while the server deals or the game is over)."""
    commitment: HexText | None
    """SHA-256 (hex) of this hand's hidden shuffle seed."""
    hand: tuple[CardText, ...] = Field(max_length=13)
    """Your cards, in card order (clubs 2 up to the spade ace)."""
    offered: CardText | None
    """The card on offer: only in the draft, on your turn."""
    draft_kept: tuple[CardText, ...] = Field(max_length=13)
    """Cards you kept in this hand's draft, in turn order."""
    draft_discarded: tuple[CardText, ...] = Field(max_length=13)
    """Cards you discarded in the draft, in turn order."""
    draft_taken: tuple[CardText, ...] = Field(max_length=13)
    """Cards you took after a discard, in turn order."""
    draft_seen_after_keep: tuple[CardText, ...] = Field(max_length=13)
    """Cards you saw go to the pile after a keep (only with ``see_card_after_keep``)."""
    exchange_given: tuple[CardText, ...] = Field(max_length=13)
    """Cards you gave in your blind-nil exchange."""
    exchange_received: tuple[CardText, ...] = Field(max_length=13)
    """Cards you received in your blind-nil exchange."""
    hand_sizes: tuple[int, int]
    """How many cards each seat holds."""
    draft_turns: tuple[int, int]
    """Draft turns each seat has taken (13 each in all)."""
    stock_left: int
    """Cards left in the stock."""
    pile_size: int
    """Cards on the discard pile."""
    blind_nil: tuple[bool | None, bool | None]
    """Each seat's blind-nil declaration: true, false, or nil (not yet, or not played)."""
    exchange_counts: tuple[int | None, int | None]
    """How many cards each seat exchanged (nil: no exchange)."""
    bids: tuple[int | None, int | None]
    """Each seat's bid (nil: not yet, or blind nil)."""
    tricks: tuple[TrickData, ...] = Field(max_length=13)
    """The finished tricks of this hand, in order."""
    current_trick: tuple[CardText, ...] = Field(max_length=2)
    """Cards on the table in the trick being played, in play order."""
    leader: Seat | None
    """The seat that led (or leads) the current trick, in the play phase."""
    tricks_won: tuple[int, int]
    """Tricks each seat has taken in this hand."""
    spades_broken: bool
    """Whether a spade has been played in this hand."""
    hand_results: tuple[HandResult, ...]
    """Every finished hand of this game, in order, seeds revealed."""
    winner: Seat | None
    """The winning seat once the game is over."""


class SeatInfo(_Message):
    """Who sits in a seat. ``kind`` is ``empty``, ``human`` or ``bot``.

    ``hold_seconds_left`` counts down while a dropped human's seat is held.
    """

    kind: Literal["empty", "human", "bot"]
    """``empty``, ``human`` or ``bot``."""
    name: str | None = None
    """The player's name (nil for an empty seat)."""
    connected: bool = False
    """Whether the seat's player is connected now (bots always are)."""
    bot_level: BotLevel | None = None
    """The bot's level, for a bot seat."""
    hold_seconds_left: float | None = None
    """Seconds left of a dropped human's hold when this message was made (nil when not dropped).
    It is not updated: count down from ``hold_deadline`` instead.
    """
    hold_deadline: float | None = None
    """1.1: when a dropped human's hold runs out, in server time (Unix seconds on the server's
    clock; ``welcome.server_time`` gives that clock); nil when not dropped.
    """
    bot_standing_in: bool = False
    """The bot plays for a dropped human whose hold ran out (``on_hold_expiry: bot``)."""


class TableSummary(_Message):
    """A line of the lobby's table list."""

    code: TableCode
    """The table code, to join or watch it."""
    preset: str | None
    """The rule preset the rules equal, or nil for custom rules."""
    rules: Rules
    """The table's rules."""
    seats: tuple[SeatInfo, SeatInfo]
    """Seat 0 and seat 1."""
    status: Literal["waiting", "playing", "finished"]
    """``waiting`` for a second seat, ``playing``, or ``finished``."""
    spectators: Count
    """How many connections watch the table."""


class TableInfo(_Message):
    """A table as its seats and spectators see it.

    ``your_seat`` is ``nil`` for a spectator. ``on_hold_expiry`` says what happens when a
    dropped seat's hold runs out: the bot stands in (``bot``), the game waits (``wait``), or
    the absent seat forfeits (``forfeit``). ``rematch`` says which seats asked for one.
    """

    code: TableCode
    """The table code."""
    private: bool
    """A private table is not listed; it is joined by its code."""
    preset: str | None
    """The rule preset the rules equal, or nil for custom rules."""
    rules: Rules
    """The table's rules."""
    seats: tuple[SeatInfo, SeatInfo]
    """Seat 0 and seat 1."""
    status: Literal["waiting", "playing", "finished"]
    """``waiting`` for a second seat, ``playing``, or ``finished``."""
    your_seat: Seat | None
    """Your seat at this table, nil when you watch."""
    on_hold_expiry: Literal["bot", "wait", "forfeit"]
    """What happens when a dropped seat's hold runs out: ``bot`` stands in, ``wait``, or
    ``forfeit``.
    """
    hold_seconds: int
    """How long a dropped human's seat is held."""
    turn_seconds: int | None
    """Seconds a human has per turn before the bot moves for it (nil: no limit)."""
    rematch: tuple[bool, bool]
    """Which seats asked for a rematch after game over."""
    record_id: str | None = None
    """The finished game's record id (for ``get_record``)."""


class ScoreLine(_Message):
    """Final score of one seat."""

    seat: Seat
    """The seat."""
    name: str | None
    """Its player's name."""
    score: Score
    """Final score."""
    bags: int
    """Bags at the end."""


# ---------------------------------------------------------------------------------------
# Events inside an ``events`` message (tagged by ``kind``)


class HandStartedEvent(_Message):
    """A hand begins: the server has fixed its secret seed and publishes ``commitment``,
    SHA-256 of it. Nothing is drawn yet: the stock is shuffled by the later ``shuffled``
    event, after the seats' ``entropy`` (1.0 connections get no ``shuffled``: for them the
    draft simply follows)."""

    kind: Literal["hand_started"] = "hand_started"
    hand_number: Count
    """The new hand, from 1."""
    first_drafter: Seat
    """The seat that drafts first."""
    first_bidder: Seat
    """The seat that bids first and leads the first trick."""
    commitment: HexText
    """SHA-256 (hex) of the hidden shuffle seed, revealed in ``hand_result``."""


class ShuffledEvent(_Message):
    """1.1: the stock was shuffled from the committed seed and the seats' entropy; the draft
    (or the blind-nil round) starts. ``entropy_from`` says whose entropy went in."""

    kind: Literal["shuffled"] = "shuffled"
    hand_number: Count
    """The hand."""
    entropy_from: tuple[bool, bool]
    """Whether seat 0's and seat 1's entropy were mixed in (false: the seat sent none in time,
    or is a bot).
    """


class BlindNilEvent(_Message):
    kind: Literal["blind_nil"] = "blind_nil"
    seat: Seat
    """The seat that answered."""
    declared: bool
    """True if it declared blind nil."""


class DraftTurnEvent(_Message):
    """A draft turn. ``kept``, ``card`` and ``other_card`` are only filled in for the
    drafting seat itself; everyone else learns only that a turn was taken."""

    kind: Literal["draft_turn"] = "draft_turn"
    seat: Seat
    """The seat that drafted."""
    turns_left: int
    """Draft turns that seat has left (0..12)."""
    kept: bool | None = None
    """You only: true for keep, false for discard."""
    card: CardText | None = None
    """You only: the card that was on offer."""
    other_card: CardText | None = None
    """You only: the card taken after a discard, or seen going to the pile after a keep (nil when
    unseen).
    """


class ExchangeEvent(_Message):
    """A blind-nil exchange; ``given`` and ``received`` only for the exchanging seat."""

    kind: Literal["exchange"] = "exchange"
    seat: Seat
    """The exchanging seat."""
    count: int
    """How many cards it exchanged."""
    given: tuple[CardText, ...] = ()
    """You only: the cards you gave."""
    received: tuple[CardText, ...] = ()
    """You only: the cards you received from the pile."""


class BidEvent(_Message):
    kind: Literal["bid"] = "bid"
    seat: Seat
    """The seat that bid."""
    tricks: int
    """Its bid (0 is nil)."""


class CardPlayedEvent(_Message):
    kind: Literal["card_played"] = "card_played"
    seat: Seat
    """The seat that played."""
    card: CardText
    """The card."""


class TrickWonEvent(_Message):
    kind: Literal["trick_won"] = "trick_won"
    number: int
    """The trick's number in the hand, 1..13."""
    trick: TrickData
    """The finished trick."""


class HandScoredEvent(_Message):
    kind: Literal["hand_scored"] = "hand_scored"
    hand_number: Count
    """The hand."""
    points: tuple[Score, Score]
    """Points each seat scored in it."""
    scores: tuple[Score, Score]
    """Each seat's total after it (a ``hand_result`` with every detail follows)."""


class GameOverEvent(_Message):
    kind: Literal["game_over"] = "game_over"
    winner: Seat
    """The winning seat."""
    scores: tuple[Score, Score]
    """Final scores."""


EventMessage = Annotated[
    HandStartedEvent
    | ShuffledEvent
    | BlindNilEvent
    | DraftTurnEvent
    | ExchangeEvent
    | BidEvent
    | CardPlayedEvent
    | TrickWonEvent
    | HandScoredEvent
    | GameOverEvent,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------------------------------
# Client to server


class Hello(_Message):
    """First message on every connection. Send ``token`` (from an earlier ``welcome``)
    to resume: you get your seats back, also on a new connection."""

    type: Literal["hello"] = "hello"
    protocol_version: int = Field(ge=0, le=1_000)
    """The protocol version you speak: 1."""
    protocol_minor: int = Field(default=0, ge=0, le=1_000)
    """1.1: the minor version you speak: 2 for 1.2, the current version (1: 1.1; left out
    or 0: 1.0). The connection speaks the lower of yours and the server's, named in
    ``welcome.protocol_minor``.
    """
    name: str = Field(min_length=1, max_length=24)
    """Your display name, 1..24 characters (spaces are collapsed; the server applies the text
    rules of :mod:`protocol.text` and answers ``bad_name``)."""
    token: str | None = Field(default=None, max_length=64)
    """The ``token`` of an earlier ``welcome``, to resume as that player."""
    id: RequestId | None = None
    """Your request id, echoed in the answer (any integer 0..2**53)."""


class ListTables(_Message):
    """Ask for the open tables (answer: ``table_list``), a page at a time: the server answers
    at most 50 tables; while a page is full, ask again with ``offset`` 50 further on. The
    list may be up to a second old."""

    type: Literal["list_tables"] = "list_tables"
    offset: int = Field(default=0, ge=0, le=1_000_000)
    """How many open tables to skip (paging; 0: the first page)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class CreateTable(_Message):
    """Create a table and sit at it.

    ``preset`` names a rule preset (``classic`` or ``five-hundred``), ``overrides``
    changes any of its fields (names as in ``Rules``). ``bot`` puts the bot at that level
    in the other seat. ``seat`` picks your seat (default: 0).
    """

    type: Literal["create_table"] = "create_table"
    preset: str = Field(default="classic", max_length=32)
    """``classic`` or ``five-hundred``."""
    overrides: dict[str, int | bool | str | None] = Field(default_factory=dict, max_length=20)
    """Rule fields to change, by their ``Rules`` names."""
    private: bool = False
    """Leave the table out of ``table_list`` (others join by its code)."""
    bot: BotLevel | None = None
    """Put the bot at this level in the other seat (the game starts at once)."""
    seat: Seat | None = None
    """Your seat (nil: seat 0)."""
    on_hold_expiry: Literal["bot", "wait", "forfeit"] = "bot"
    """What happens when a dropped seat's hold runs out: the bot stands in, the game waits, or the
    absent seat forfeits.
    """
    hold_seconds: int | None = Field(default=None, ge=0, le=3600)
    """How long a dropped human's seat is held for them (nil: the server's default, 60 s
    unless its host set another).
    """
    turn_seconds: int | None = Field(default=None, ge=1, le=3600)
    """Per-turn time limit for humans; when it runs out the bot moves for them (nil: none)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class JoinTable(_Message):
    """Sit at the table with this code, in ``seat`` or in any free seat."""

    type: Literal["join_table"] = "join_table"
    code: TableCode
    """The table code."""
    seat: Seat | None = None
    """The seat you want (nil: any free seat)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class WatchTable(_Message):
    """Watch a table as a spectator: you see what a spectator may, never a hand."""

    type: Literal["watch_table"] = "watch_table"
    code: TableCode
    """The table code."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class AddBot(_Message):
    """Put the bot at ``level`` in an empty seat of your table (any empty seat if nil)."""

    type: Literal["add_bot"] = "add_bot"
    code: TableCode
    """Your table's code."""
    level: BotLevel = "normal"
    """The bot's level."""
    seat: Seat | None = None
    """The seat for the bot (nil: any empty seat)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Act(_Message):
    """One game action at your table.

    ``version`` is the state version of the latest view or event you saw: an action
    made against an older version is refused with ``stale_version``. ``seq`` is your own
    increasing sequence number per table: an action resent with a ``seq`` the server
    already applied is acknowledged again (``ack``), not applied twice.
    """

    type: Literal["action"] = "action"
    code: TableCode
    """The table code."""
    action: ActionMessage
    """The action, one of the ``your_turn.legal`` actions (in the exchange: any cards of your hand,
    at most ``exchange_max``).
    """
    version: Count
    """The state version your decision is based on (from ``your_turn``, ``events`` or a snapshot's
    view).
    """
    seq: int = Field(ge=0, le=2**53)
    """Your sequence number for this action: new and increasing for each new action; the same when
    resending it.
    """
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Chat(_Message):
    """Say something at a table you sit at or watch.

    Everyone at the table (seats and spectators) gets it as a server ``chat``. The model
    allows 1000 characters; the server refuses more than its limit (200 by default) with
    ``chat_too_long``.
    """

    type: Literal["chat"] = "chat"
    code: TableCode
    """The table code."""
    text: str = Field(min_length=1, max_length=1000)
    """What you say (the server allows 200 characters by default)."""
    id: RequestId | None = None
    """Your request id, echoed in an error."""


class Leave(_Message):
    """Leave a table (a seat or spectating)."""

    type: Literal["leave"] = "leave"
    code: TableCode
    """The table code."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Rematch(_Message):
    """After game over: ask for (or agree to) another game at the same table."""

    type: Literal["rematch"] = "rematch"
    code: TableCode
    """The table code."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class GetRecord(_Message):
    """Fetch a finished game's record (available only after its game is over)."""

    type: Literal["get_record"] = "get_record"
    record_id: str = Field(min_length=1, max_length=64)
    """The ``record_id`` of a ``game_over`` (or ``TableInfo``)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class GetAnalysis(_Message):
    """Ask for the analysis of one seat's play in a finished game (``spades analyze``):
    every decision of that seat judged, with what it knew and with all cards shown.

    Anyone who may fetch the record may ask (the record shows every card anyway). The
    server works it out in its bot workers at a low priority, so the answer can take some
    seconds (a whole game at ``normal``: about 20 s of one core); it is kept, and asked
    again, comes at once.
    """

    type: Literal["get_analysis"] = "get_analysis"
    record_id: str = Field(min_length=1, max_length=64)
    """The ``record_id`` of a ``game_over`` (or ``TableInfo``)."""
    seat: Seat
    """The seat whose decisions are judged."""
    level: BotLevel = "normal"
    """How many deals each decision is judged on: ``easy``, ``normal`` or ``hard``."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Entropy(_Message):
    """1.1: your seat's random value for the shuffle of hand ``hand_number``.

    Send it after the ``hand_started`` event of that hand and before the draft starts (the
    ``shuffled`` event); once per seat and hand. The server mixes it into the shuffle, so
    that the server alone cannot choose the deck (a host who also plays a seat still can in
    1.2: see *The fair shuffle*).
    """

    type: Literal["entropy"] = "entropy"
    code: TableCode
    """The table code."""
    hand_number: Count
    """The hand it is for (from ``hand_started``)."""
    value: EntropyHex
    """1 to 32 random bytes in lowercase hex, two digits a byte (send 32, from a secure
    random source). Anything else (an odd number of digits, 33 bytes or more, uppercase,
    empty) is refused as ``bad_message`` before the table is looked at."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Ping(_Message):
    """Answered by ``pong`` with the same ``nonce``."""

    type: Literal["ping"] = "ping"
    nonce: int = Field(default=0, ge=0, le=2**53)
    """Any number, echoed in ``pong``."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


ClientMessage = Annotated[
    Hello
    | ListTables
    | CreateTable
    | JoinTable
    | WatchTable
    | AddBot
    | Act
    | Chat
    | Leave
    | Rematch
    | GetRecord
    | Entropy
    | Ping
    | GetAnalysis,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------------------------------
# Server to client


class Welcome(_Message):
    """Answer to ``hello``. Keep ``token`` secret: it resumes your seats after a drop.

    ``tables`` lists the codes of the tables where you hold a seat (snapshots follow).
    """

    type: Literal["welcome"] = "welcome"
    protocol_version: int
    """The version this connection speaks."""
    server_versions: tuple[int, ...]
    """Every protocol version the server speaks."""
    player_id: str
    """Your player id (stable across resumes)."""
    name: str
    """Your name as the server keeps it."""
    token: str
    """Your secret resume token: keep it, and send it in ``hello`` to resume."""
    resumed: bool
    """True when ``hello`` carried a valid token: you are the same player as before."""
    tables: tuple[TableCode, ...] = ()
    """Codes of the tables where you sit; a snapshot of each follows."""
    id: RequestId | None = None
    """The ``id`` of your ``hello``."""
    protocol_minor: int = 0
    """1.1: the minor version this connection speaks (2: 1.2, 1: 1.1, 0: 1.0)."""
    server_time: float | None = None
    """1.1: the server's clock when it sent this, Unix seconds: deadlines such as
    ``hold_deadline`` are on this clock.
    """
    entropy_seconds: float | None = None
    """1.1: how long the server waits for the seats' ``entropy`` after ``hand_started``
    before it shuffles without the missing values.
    """


class TableList(_Message):
    type: Literal["table_list"] = "table_list"
    tables: tuple[TableSummary, ...]
    """The open tables (private ones are not listed)."""
    id: RequestId | None = None
    """The ``id`` of your ``list_tables``."""


class YourTurn(_Message):
    """It is your turn at ``table``; ``legal`` lists every legal action.

    In the ``exchange`` phase ``legal`` is empty: give any ``exchange_max`` or fewer
    cards of your hand. In the ``draft`` phase ``offered`` is the card on offer (it is
    also the ``offered`` of a fresh snapshot's view).
    """

    type: Literal["your_turn"] = "your_turn"
    table: TableCode
    """The table code."""
    version: Count
    """The state version to send back in ``action``."""
    phase: Phase
    """The phase you act in: ``blind_nil``, ``draft``, ``exchange``, ``bidding`` or ``play``."""
    legal: tuple[ActionMessage, ...]
    """Every legal action now (empty in the ``exchange`` phase)."""
    exchange_max: int | None = None
    """Exchange phase only: the most cards you may give."""
    seconds_left: float | None = None
    """Seconds left before the bot moves for you (nil: no time limit)."""
    offered: CardText | None = None
    """Draft phase only: the card on offer, to keep or discard."""


class Snapshot(_Message):
    """The whole table as you may see it: sent on joining, watching, resuming, and
    whenever you fall out of step. Replace your state with it."""

    type: Literal["snapshot"] = "snapshot"
    table: TableInfo
    """The table: seats, names, rules, status."""
    view: View
    """The game as you may see it."""
    your_turn: YourTurn | None = None
    """1.1: when it is your seat's move, what ``your_turn`` would say (``legal`` and all); nil
    otherwise. A snapshot is all a client needs to act.
    """
    id: RequestId | None = None
    """The ``id`` of the request it answers (nil when the server sends it on its own, e.g. on
    resume).
    """


class TableUpdate(_Message):
    """The table's seats or settings changed (someone joined, dropped, came back...)."""

    type: Literal["table_update"] = "table_update"
    table: TableInfo
    """The table as it is now."""


class Events(_Message):
    """What just happened at a table, as you may see it; ``version`` is the state
    version after the last of them."""

    type: Literal["events"] = "events"
    table: TableCode
    """The table code."""
    version: Count
    """The state version after the last of these events."""
    events: tuple[EventMessage, ...]
    """What happened, in order, as you may see it."""


class GameOver(_Message):
    """The game is over. ``record_id`` fetches its full record with ``get_record``."""

    type: Literal["game_over"] = "game_over"
    table: TableCode
    """The table code."""
    winner: Seat | None
    """The winning seat."""
    reason: Literal["score", "forfeit"]
    """``score`` (a seat reached the target) or ``forfeit`` (a seat left or its hold ran out)."""
    scores: tuple[ScoreLine, ScoreLine]
    """Final score lines of seat 0 and seat 1."""
    record_id: str
    """Fetch the game's full record with ``get_record``."""


class Ack(_Message):
    """An action with this ``seq`` was applied (sent again for a resent action)."""

    type: Literal["ack"] = "ack"
    table: TableCode
    """The table code."""
    seq: int
    """The ``seq`` of your action."""
    version: Count
    """The state version right after your action was applied."""
    id: RequestId | None = None
    """The ``id`` of your ``action``."""


class ErrorMessage(_Message):
    """A request was refused; nothing changed. ``code`` is stable (see the list in the
    docs), ``message`` a sentence for people, ``request`` the type of the message it
    answers (nil if it could not be read) and ``id`` that message's ``id``."""

    type: Literal["error"] = "error"
    code: ErrorCode
    """A stable error code from the list in the docs."""
    message: str
    """A sentence for people."""
    request: str | None = None
    """The ``type`` of the refused message (nil if it could not be read)."""
    id: RequestId | None = None
    """The ``id`` of the refused message (nil if it had none or could not be read)."""


class ChatMessage(_Message):
    """Someone said something at a table."""

    type: Literal["chat"] = "chat"
    table: TableCode
    """The table code."""
    seat: Seat | None
    """The speaker's seat (nil for a spectator)."""
    name: str
    """The speaker's name."""
    text: str
    """What was said."""


class RecordMessage(_Message):
    """A finished game's full record as JSON text (see the engine's record format)."""

    type: Literal["record"] = "record"
    record_id: str
    """The record id asked for."""
    record_json: str
    """The record, JSON text in the engine's ``spades-record/1`` format."""
    id: RequestId | None = None
    """The ``id`` of your ``get_record``."""


class AnalysisMessage(_Message):
    """The answer to ``get_analysis``: the analysis as JSON text."""

    type: Literal["analysis"] = "analysis"
    record_id: str
    """The record id asked for."""
    seat: Seat
    """The seat analysed."""
    level: BotLevel
    """The level asked for."""
    analysis_json: str
    """The analysis, JSON text: ``seat``, ``level``, ``accuracy``, ``verdicts`` (count per
    verdict), ``costliest`` (decision indices) and ``hands``, each with its bid, tricks,
    expected and double-dummy tricks, ``luck``, ``accuracy`` and ``decisions`` (``action``,
    ``verdict``, ``knew``: expected points made, best, loss and the best action;
    ``hindsight``: double-dummy tricks made and best), as ``engine.analysis`` writes it."""
    id: RequestId | None = None
    """The ``id`` of your ``get_analysis``."""


class EntropyAccepted(_Message):
    """1.1: your ``entropy`` for this hand is in; it goes into the shuffle."""

    type: Literal["entropy_accepted"] = "entropy_accepted"
    table: TableCode
    """The table code."""
    hand_number: Count
    """The hand it is for."""
    id: RequestId | None = None
    """The ``id`` of your ``entropy``."""


class Pong(_Message):
    type: Literal["pong"] = "pong"
    nonce: int
    """The ``nonce`` of your ``ping``."""
    id: RequestId | None = None
    """The ``id`` of your ``ping``."""


class Left(_Message):
    """You left ``table``."""

    type: Literal["left"] = "left"
    table: TableCode
    """The table code."""
    id: RequestId | None = None
    """The ``id`` of your ``leave`` (nil when the table closed under you)."""


class Redirect(_Message):
    """1.2: the table this request names (or, answering ``hello``, a table you sit at) is
    run by another node of this server's cluster: connect to ``url``, say ``hello`` with
    the same token there, and send the request again. Nothing changed here."""

    type: Literal["redirect"] = "redirect"
    url: Annotated[str, Field(min_length=1, max_length=512, pattern=r"^wss?://")]
    """The public websocket URL of the node that runs the table."""
    table: TableCode
    """The code of the table that lives there."""
    request: str | None = None
    """The ``type`` of the request this answers (``hello`` for a resume)."""
    id: RequestId | None = None
    """The ``id`` of that request."""


ServerMessage = Annotated[
    Welcome
    | TableList
    | Snapshot
    | TableUpdate
    | Events
    | YourTurn
    | HandResult
    | GameOver
    | Ack
    | ErrorMessage
    | ChatMessage
    | RecordMessage
    | EntropyAccepted
    | Pong
    | Left
    | AnalysisMessage
    | Redirect,
    Field(discriminator="type"),
]

CLIENT_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
SERVER_ADAPTER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)

ADDED_IN_1_1: Final[dict[type[BaseModel], frozenset[str]]] = {
    Hello: frozenset({"protocol_minor"}),
    Welcome: frozenset({"protocol_minor", "server_time", "entropy_seconds"}),
    SeatInfo: frozenset({"hold_deadline"}),
    Snapshot: frozenset({"your_turn"}),
    Entropy: frozenset(Entropy.model_fields),
    EntropyAccepted: frozenset(EntropyAccepted.model_fields),
    ShuffledEvent: frozenset(ShuffledEvent.model_fields),
    GetAnalysis: frozenset(GetAnalysis.model_fields),
    AnalysisMessage: frozenset(AnalysisMessage.model_fields),
}
"""Fields each model gained in 1.1 (every field: a message or event new in 1.1).

A connection that speaks 1.0 never gets these fields, these messages or these events.
"""

ADDED_IN_1_2: Final[dict[type[BaseModel], frozenset[str]]] = {
    Redirect: frozenset(Redirect.model_fields),
}
"""What 1.2 added: the ``redirect`` message (a 1.0 or 1.1 connection never gets it)."""
