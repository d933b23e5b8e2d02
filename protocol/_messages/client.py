"""Every message a client sends the server, and :data:`CLIENT_ADAPTER`, which validates
them (``decode_client`` in :mod:`protocol.codec` calls it).

A part of :mod:`protocol.messages`: :data:`ClientMessage` is their union (tagged by
``type``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field, TypeAdapter

from protocol._messages.accounts import (
    ChangePassword,
    DeleteAccount,
    GetLeaderboard,
    GetProfile,
    Register,
    SignIn,
    SignOutEverywhere,
)
from protocol._messages.common import (
    BotLevel,
    Count,
    EntropyHex,
    MessageBase,
    RequestId,
    Seat,
    Sha256Hex,
    TableCode,
)
from protocol._messages.seeks import CancelSeek, Seek
from protocol._messages.structures import ActionMessage

__all__ = [
    "CLIENT_ADAPTER",
    "Act",
    "AddBot",
    "Chat",
    "ClientMessage",
    "CreateTable",
    "Entropy",
    "EntropyCommit",
    "GetAnalysis",
    "GetRecord",
    "Hello",
    "JoinTable",
    "Leave",
    "ListTables",
    "Ping",
    "Rematch",
    "WatchTable",
]


class Hello(MessageBase):
    """First message on every connection. Send ``token`` (from an earlier ``welcome``)
    to resume: you get your seats back, also on a new connection."""

    type: Literal["hello"] = "hello"
    protocol_version: int = Field(ge=0, le=1_000)
    """The protocol version you speak: 1."""
    protocol_minor: int = Field(default=0, ge=0, le=1_000)
    """1.1: the minor version you speak: 3 for 1.3, the current version (2: 1.2, 1: 1.1;
    left out or 0: 1.0). The connection speaks the lower of yours and the server's, named in
    ``welcome.protocol_minor``.
    """
    name: str = Field(min_length=1, max_length=24)
    """Your display name, 1..24 characters (spaces are collapsed; the server applies the text
    rules of :mod:`protocol.text` and answers ``bad_name``)."""
    token: str | None = Field(default=None, max_length=64)
    """The ``token`` of an earlier ``welcome``, to resume as that player."""
    id: RequestId | None = None
    """Your request id, echoed in the answer (any integer 0..2**53)."""


class ListTables(MessageBase):
    """Ask for the open tables (answer: ``table_list``), a page at a time: the server answers
    at most 50 tables; while a page is full, ask again with ``offset`` 50 further on. The
    list may be up to a second old."""

    type: Literal["list_tables"] = "list_tables"
    offset: int = Field(default=0, ge=0, le=1_000_000)
    """How many open tables to skip (paging; 0: the first page)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class CreateTable(MessageBase):
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
    rated: bool = False
    """A rated game (accounts only; a preset without overrides): the host says so here."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class JoinTable(MessageBase):
    """Sit at the table with this code, in ``seat`` or in any free seat."""

    type: Literal["join_table"] = "join_table"
    code: TableCode
    """The table code."""
    seat: Seat | None = None
    """The seat you want (nil: any free seat)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class WatchTable(MessageBase):
    """Watch a table as a spectator: you see what a spectator may, never a hand."""

    type: Literal["watch_table"] = "watch_table"
    code: TableCode
    """The table code."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class AddBot(MessageBase):
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


class Act(MessageBase):
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


class Chat(MessageBase):
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


class Leave(MessageBase):
    """Leave a table (a seat or spectating)."""

    type: Literal["leave"] = "leave"
    code: TableCode
    """The table code."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Rematch(MessageBase):
    """After game over: ask for (or agree to) another game at the same table."""

    type: Literal["rematch"] = "rematch"
    code: TableCode
    """The table code."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class GetRecord(MessageBase):
    """Fetch a finished game's record (available only after its game is over)."""

    type: Literal["get_record"] = "get_record"
    record_id: str = Field(min_length=1, max_length=64)
    """The ``record_id`` of a ``game_over`` (or ``TableInfo``)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class GetAnalysis(MessageBase):
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


class Entropy(MessageBase):
    """1.1: your seat's random value for the shuffle of hand ``hand_number``.

    Send it after the ``hand_started`` event of that hand and before the draft starts (the
    ``shuffled`` event); once per seat and hand. The server mixes it into the shuffle, so
    that the server alone cannot choose the deck. In 1.3 it is the reveal: send it only
    after ``entropy_commitments`` lists your ``entropy_commit`` (a value sent at once is
    taken until then, but a host who plays the other seat could choose the deck around it:
    see *The fair shuffle*).
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


class EntropyCommit(MessageBase):
    """1.3: your seat's commitment to its random value for the shuffle of hand
    ``hand_number``, sent before the value itself (see *The fair shuffle*).

    Send it after the ``hand_started`` event of that hand, once per seat and hand; the
    answer is ``entropy_accepted`` (``stage: commit``). When every seat's commitment is in
    (or the wait is over) the table gets ``entropy_commitments``; only then send the value
    with ``entropy`` (the reveal), which the server checks against this commitment.
    """

    type: Literal["entropy_commit"] = "entropy_commit"
    code: TableCode
    """The table code."""
    hand_number: Count
    """The hand it is for (from ``hand_started``)."""
    commitment: Sha256Hex
    """``SHA-256(b"spades/commit/v1" + C + seat as 1 byte + v)`` in lowercase hex, where
    ``C`` is the 32 bytes of the hand's ``hand_started.commitment`` and ``v`` your value,
    exactly 32 bytes from a secure random source."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class Ping(MessageBase):
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
    | EntropyCommit
    | Ping
    | GetAnalysis
    # accounts (protocol/_messages/accounts.py)
    | Register
    | SignIn
    | ChangePassword
    | SignOutEverywhere
    | DeleteAccount
    | GetProfile
    | GetLeaderboard
    # play now (protocol._messages.seeks)
    | Seek
    | CancelSeek,
    Field(discriminator="type"),
]

CLIENT_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
