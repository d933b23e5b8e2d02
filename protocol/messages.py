"""Every message of protocol version 1, as strict, immutable pydantic models.

A message is a msgpack map with a ``"type"`` key naming it. Messages a client sends form
the :data:`ClientMessage` union, those the server sends the :data:`ServerMessage` union;
:data:`CLIENT_ADAPTER` and :data:`SERVER_ADAPTER` validate them. Unknown fields, wrong
types and out-of-range values are rejected. Sequences are msgpack arrays, optional fields
may be ``nil``. Cards are strings: rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` then suit
``C``, ``D``, ``H``, ``S`` (``"10H"``, ``"QS"``); seats are ``0`` and ``1``.

``docs/protocol.md`` documents every message; its field reference is generated from
these models.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "CLIENT_ADAPTER",
    "ERROR_CODES",
    "PROTOCOL_VERSION",
    "SERVER_ADAPTER",
    "SUPPORTED_VERSIONS",
    "Ack",
    "Act",
    "ActionMessage",
    "AddBot",
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
    "ErrorCode",
    "ErrorMessage",
    "EventMessage",
    "Events",
    "ExchangeAction",
    "ExchangeEvent",
    "GameOver",
    "GameOverEvent",
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
    "Rematch",
    "Rules",
    "ScoreLine",
    "SeatInfo",
    "ServerMessage",
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
]

PROTOCOL_VERSION: Final = 1
SUPPORTED_VERSIONS: Final = (1,)

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
]
ERROR_CODES: Final[tuple[str, ...]] = ErrorCode.__args__  # type: ignore[attr-defined]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---------------------------------------------------------------------------------------
# Shared structures


class Rules(_Message):
    """Every field of a rule set (see RULES.md); the same names as ``engine.RuleSet``."""

    target_score: int
    first_bidder: Literal["first_drafter", "second_drafter"]
    see_card_after_keep: bool
    nil: bool
    nil_bonus: int
    blind_nil: bool
    blind_nil_bonus: int
    blind_nil_exchange: int
    blind_nil_min_deficit: int | None
    bag_limit: int
    bag_penalty: int
    failed_nil_tricks_are_bags: bool
    lose_score: int | None


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


class ExchangeAction(_Message):
    """Blind-nil exchange: give these cards from your hand (none is allowed)."""

    kind: Literal["exchange"] = "exchange"
    cards: tuple[CardText, ...] = Field(default=(), max_length=13)


class BidAction(_Message):
    """Bid ``tricks`` (0 is nil)."""

    kind: Literal["bid"] = "bid"
    tricks: int = Field(ge=0, le=13)


class PlayAction(_Message):
    """Play ``card`` to the current trick."""

    kind: Literal["play"] = "play"
    card: CardText


ActionMessage = Annotated[
    KeepAction | DiscardAction | BlindNilAction | ExchangeAction | BidAction | PlayAction,
    Field(discriminator="kind"),
]


class TrickData(_Message):
    """A finished trick: the leader, the two cards in play order, the winner."""

    leader: Seat
    cards: tuple[CardText, CardText]
    winner: Seat


class HandResult(_Message):
    """One hand's outcome, per seat where a pair, with its revealed shuffle seed.

    ``bids`` holds ``nil`` for a seat that bid blind nil (``blind_nil`` true). Anyone can
    check the shuffle: ``SHA-256(bytes.fromhex(seed)).hexdigest() == commitment``.
    """

    type: Literal["hand_result"] = "hand_result"
    table: TableCode
    hand_number: Count
    first_drafter: Seat
    bids: tuple[int | None, int | None]
    blind_nil: tuple[bool, bool]
    tricks: tuple[int, int]
    points: tuple[Score, Score]
    bags_added: tuple[int, int]
    bag_penalties: tuple[int, int]
    scores: tuple[Score, Score]
    bags: tuple[int, int]
    commitment: HexText
    seed: HexText
    entropy: tuple[HexText, ...] = ()


class View(_Message):
    """Everything one seat (or a spectator, ``seat: nil``) knows about the game.

    The private fields (``hand``, ``offered``, ``draft_*``, ``exchange_given``,
    ``exchange_received``) only ever hold this seat's own cards and are empty for a
    spectator. ``offered`` is the card on offer when it is this seat's draft turn.
    """

    seat: Seat | None
    phase: Phase
    version: Count
    hand_number: Count
    scores: tuple[Score, Score]
    bags: tuple[int, int]
    first_drafter: Seat | None
    first_bidder: Seat | None
    current_player: Seat | None
    commitment: HexText | None
    hand: tuple[CardText, ...] = Field(max_length=13)
    offered: CardText | None
    draft_kept: tuple[CardText, ...] = Field(max_length=13)
    draft_discarded: tuple[CardText, ...] = Field(max_length=13)
    draft_taken: tuple[CardText, ...] = Field(max_length=13)
    draft_seen_after_keep: tuple[CardText, ...] = Field(max_length=13)
    exchange_given: tuple[CardText, ...] = Field(max_length=13)
    exchange_received: tuple[CardText, ...] = Field(max_length=13)
    hand_sizes: tuple[int, int]
    draft_turns: tuple[int, int]
    stock_left: int
    pile_size: int
    blind_nil: tuple[bool | None, bool | None]
    exchange_counts: tuple[int | None, int | None]
    bids: tuple[int | None, int | None]
    tricks: tuple[TrickData, ...] = Field(max_length=13)
    current_trick: tuple[CardText, ...] = Field(max_length=2)
    leader: Seat | None
    tricks_won: tuple[int, int]
    spades_broken: bool
    hand_results: tuple[HandResult, ...]
    winner: Seat | None


class SeatInfo(_Message):
    """Who sits in a seat. ``kind`` is ``empty``, ``human`` or ``bot``.

    ``hold_seconds_left`` counts down while a dropped human's seat is held.
    """

    kind: Literal["empty", "human", "bot"]
    name: str | None = None
    connected: bool = False
    bot_level: BotLevel | None = None
    hold_seconds_left: float | None = None
    bot_standing_in: bool = False


class TableSummary(_Message):
    """A line of the lobby's table list."""

    code: TableCode
    preset: str | None
    rules: Rules
    seats: tuple[SeatInfo, SeatInfo]
    status: Literal["waiting", "playing", "finished"]
    spectators: Count


class TableInfo(_Message):
    """A table as its seats and spectators see it.

    ``your_seat`` is ``nil`` for a spectator. ``on_hold_expiry`` says what happens when a
    dropped seat's hold runs out: the bot stands in (``bot``), the game waits (``wait``), or
    the absent seat forfeits (``forfeit``). ``rematch`` says which seats asked for one.
    """

    code: TableCode
    private: bool
    preset: str | None
    rules: Rules
    seats: tuple[SeatInfo, SeatInfo]
    status: Literal["waiting", "playing", "finished"]
    your_seat: Seat | None
    on_hold_expiry: Literal["bot", "wait", "forfeit"]
    hold_seconds: int
    turn_seconds: int | None
    rematch: tuple[bool, bool]
    record_id: str | None = None


class ScoreLine(_Message):
    """Final score of one seat."""

    seat: Seat
    name: str | None
    score: Score
    bags: int


# ---------------------------------------------------------------------------------------
# Events inside an ``events`` message (tagged by ``kind``)


class HandStartedEvent(_Message):
    """A hand was shuffled; ``commitment`` is SHA-256 of the hidden seed."""

    kind: Literal["hand_started"] = "hand_started"
    hand_number: Count
    first_drafter: Seat
    first_bidder: Seat
    commitment: HexText


class BlindNilEvent(_Message):
    kind: Literal["blind_nil"] = "blind_nil"
    seat: Seat
    declared: bool


class DraftTurnEvent(_Message):
    """A draft turn. ``kept``, ``card`` and ``other_card`` are only filled in for the
    drafting seat itself; everyone else learns only that a turn was taken."""

    kind: Literal["draft_turn"] = "draft_turn"
    seat: Seat
    turns_left: int
    kept: bool | None = None
    card: CardText | None = None
    other_card: CardText | None = None


class ExchangeEvent(_Message):
    """A blind-nil exchange; ``given`` and ``received`` only for the exchanging seat."""

    kind: Literal["exchange"] = "exchange"
    seat: Seat
    count: int
    given: tuple[CardText, ...] = ()
    received: tuple[CardText, ...] = ()


class BidEvent(_Message):
    kind: Literal["bid"] = "bid"
    seat: Seat
    tricks: int


class CardPlayedEvent(_Message):
    kind: Literal["card_played"] = "card_played"
    seat: Seat
    card: CardText


class TrickWonEvent(_Message):
    kind: Literal["trick_won"] = "trick_won"
    number: int
    trick: TrickData


class HandScoredEvent(_Message):
    kind: Literal["hand_scored"] = "hand_scored"
    hand_number: Count
    points: tuple[Score, Score]
    scores: tuple[Score, Score]


class GameOverEvent(_Message):
    kind: Literal["game_over"] = "game_over"
    winner: Seat
    scores: tuple[Score, Score]


EventMessage = Annotated[
    HandStartedEvent
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
    name: str = Field(min_length=1, max_length=24)
    token: str | None = Field(default=None, max_length=64)
    id: RequestId | None = None


class ListTables(_Message):
    """Ask for the open tables (answer: ``table_list``)."""

    type: Literal["list_tables"] = "list_tables"
    id: RequestId | None = None


class CreateTable(_Message):
    """Create a table and sit at it.

    ``preset`` names a rule preset (``classic`` or ``five-hundred``), ``overrides``
    changes any of its fields (names as in ``Rules``). ``bot`` puts the bot at that level
    in the other seat. ``seat`` picks your seat (default: 0).
    """

    type: Literal["create_table"] = "create_table"
    preset: str = Field(default="classic", max_length=32)
    overrides: dict[str, int | bool | str | None] = Field(default_factory=dict, max_length=20)
    private: bool = False
    bot: BotLevel | None = None
    seat: Seat | None = None
    on_hold_expiry: Literal["bot", "wait", "forfeit"] = "bot"
    hold_seconds: int = Field(default=60, ge=0, le=3600)
    turn_seconds: int | None = Field(default=None, ge=1, le=3600)
    id: RequestId | None = None


class JoinTable(_Message):
    """Sit at the table with this code, in ``seat`` or in any free seat."""

    type: Literal["join_table"] = "join_table"
    code: TableCode
    seat: Seat | None = None
    id: RequestId | None = None


class WatchTable(_Message):
    """Watch a table as a spectator: you see what a spectator may, never a hand."""

    type: Literal["watch_table"] = "watch_table"
    code: TableCode
    id: RequestId | None = None


class AddBot(_Message):
    """Put the bot at ``level`` in an empty seat of your table (any empty seat if nil)."""

    type: Literal["add_bot"] = "add_bot"
    code: TableCode
    level: BotLevel = "normal"
    seat: Seat | None = None
    id: RequestId | None = None


class Act(_Message):
    """One game action at your table.

    ``version`` is the state version of the latest view or event you saw: an action
    made against an older version is refused with ``stale_version``. ``seq`` is your own
    increasing sequence number per table: an action resent with a ``seq`` the server
    already applied is acknowledged again (``ack``), not applied twice.
    """

    type: Literal["action"] = "action"
    code: TableCode
    action: ActionMessage
    version: Count
    seq: int = Field(ge=0, le=2**53)
    id: RequestId | None = None


class Chat(_Message):
    """Say something at your table (at most 200 characters)."""

    type: Literal["chat"] = "chat"
    code: TableCode
    text: str = Field(min_length=1, max_length=1000)
    id: RequestId | None = None


class Leave(_Message):
    """Leave a table (a seat or spectating)."""

    type: Literal["leave"] = "leave"
    code: TableCode
    id: RequestId | None = None


class Rematch(_Message):
    """After game over: ask for (or agree to) another game at the same table."""

    type: Literal["rematch"] = "rematch"
    code: TableCode
    id: RequestId | None = None


class GetRecord(_Message):
    """Fetch a finished game's record (available only after its game is over)."""

    type: Literal["get_record"] = "get_record"
    record_id: str = Field(min_length=1, max_length=64)
    id: RequestId | None = None


class Ping(_Message):
    """Answered by ``pong`` with the same ``nonce``."""

    type: Literal["ping"] = "ping"
    nonce: int = Field(default=0, ge=0, le=2**53)
    id: RequestId | None = None


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
    | Ping,
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
    server_versions: tuple[int, ...]
    player_id: str
    name: str
    token: str
    resumed: bool
    tables: tuple[TableCode, ...] = ()
    id: RequestId | None = None


class TableList(_Message):
    type: Literal["table_list"] = "table_list"
    tables: tuple[TableSummary, ...]
    id: RequestId | None = None


class Snapshot(_Message):
    """The whole table as you may see it: sent on joining, watching, resuming, and
    whenever you fall out of step. Replace your state with it."""

    type: Literal["snapshot"] = "snapshot"
    table: TableInfo
    view: View
    id: RequestId | None = None


class TableUpdate(_Message):
    """The table's seats or settings changed (someone joined, dropped, came back...)."""

    type: Literal["table_update"] = "table_update"
    table: TableInfo


class Events(_Message):
    """What just happened at a table, as you may see it; ``version`` is the state
    version after the last of them."""

    type: Literal["events"] = "events"
    table: TableCode
    version: Count
    events: tuple[EventMessage, ...]


class YourTurn(_Message):
    """It is your turn at ``table``; ``legal`` lists every legal action.

    In the ``exchange`` phase ``legal`` is empty: give any ``exchange_max`` or fewer
    cards of your hand.
    """

    type: Literal["your_turn"] = "your_turn"
    table: TableCode
    version: Count
    phase: Phase
    legal: tuple[ActionMessage, ...]
    exchange_max: int | None = None
    seconds_left: float | None = None


class GameOver(_Message):
    """The game is over. ``record_id`` fetches its full record with ``get_record``."""

    type: Literal["game_over"] = "game_over"
    table: TableCode
    winner: Seat | None
    reason: Literal["score", "forfeit"]
    scores: tuple[ScoreLine, ScoreLine]
    record_id: str


class Ack(_Message):
    """An action with this ``seq`` was applied (sent again for a resent action)."""

    type: Literal["ack"] = "ack"
    table: TableCode
    seq: int
    version: Count
    id: RequestId | None = None


class ErrorMessage(_Message):
    """A request was refused; nothing changed. ``code`` is stable (see the list in the
    docs), ``message`` a sentence for people, ``request`` the type of the message it
    answers (nil if it could not be read) and ``id`` that message's ``id``."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    request: str | None = None
    id: RequestId | None = None


class ChatMessage(_Message):
    """Someone said something at a table."""

    type: Literal["chat"] = "chat"
    table: TableCode
    seat: Seat | None
    name: str
    text: str


class RecordMessage(_Message):
    """A finished game's full record as JSON text (see the engine's record format)."""

    type: Literal["record"] = "record"
    record_id: str
    record_json: str
    id: RequestId | None = None


class Pong(_Message):
    type: Literal["pong"] = "pong"
    nonce: int
    id: RequestId | None = None


class Left(_Message):
    """You left ``table``."""

    type: Literal["left"] = "left"
    table: TableCode
    id: RequestId | None = None


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
    | Pong
    | Left,
    Field(discriminator="type"),
]

CLIENT_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
SERVER_ADAPTER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
