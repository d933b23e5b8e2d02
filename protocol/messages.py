"""Every message of protocol version 1.3 (and of 1.0 to 1.2), as strict, immutable
pydantic models.

A message is a msgpack map with a ``"type"`` key naming it. Messages a client sends form
the :data:`ClientMessage` union, those the server sends the :data:`ServerMessage` union;
:data:`CLIENT_ADAPTER` and :data:`SERVER_ADAPTER` validate them. Unknown fields, wrong
types and out-of-range values are rejected. Sequences are msgpack arrays, optional fields
may be ``nil``. Cards are strings: rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` then suit
``C``, ``D``, ``H``, ``S`` (``"10H"``, ``"QS"``); seats are ``0`` and ``1``.

``docs/protocol.md`` documents every message; its field reference is generated from
these models.

The current version is 1.3 (:data:`PROTOCOL_MINOR`), a minor version of 1: a client says
``protocol_version: 1`` and ``protocol_minor: 3`` in ``hello``. Version 1.1 (``protocol_minor:
1``) added seat entropy and more. Every field 1.1 added has a default, so these models
also read 1.0 messages;
:data:`ADDED_IN_1_1` lists what a connection that speaks 1.0 never gets (see
:func:`protocol.codec.wire_dict`). Version 1.2 (``protocol_minor: 2``) adds one message,
:class:`Redirect` (:data:`ADDED_IN_1_2`); a server never sends it to a 1.0 or 1.1
connection, which gets an ``unknown_table`` error naming the URL instead. Version 1.3
(``protocol_minor: 3``) adds seat entropy by commit and reveal (:data:`ADDED_IN_1_3`);
:func:`added_after` gives what a connection of a minor version never gets.

The models live in the parts of :mod:`protocol._messages`, split the way the data flows
(shared value types, error codes, shared structures, events, client to server, server to
client, what each minor version added); this module gathers them, and is the one to
import: ``from protocol import messages as m``, then ``m.Hello``, ``m.ClientMessage``...
"""

from __future__ import annotations

from protocol._messages.accounts import (
    AccountDone,
    BoardEntry,
    ChangePassword,
    DeleteAccount,
    GetLeaderboard,
    GetProfile,
    Leaderboard,
    Profile,
    ProfileGame,
    RatingLine,
    Register,
    SignedIn,
    SignIn,
    SignOutEverywhere,
)
from protocol._messages.client import (
    CLIENT_ADAPTER,
    Act,
    AddBot,
    Chat,
    ClientMessage,
    CreateTable,
    Entropy,
    EntropyCommit,
    GetAnalysis,
    GetRecord,
    Hello,
    JoinTable,
    Leave,
    ListTables,
    Ping,
    Rematch,
    WatchTable,
)
from protocol._messages.common import (
    ENTROPY_HEX_PATTERN,
    ENTROPY_MAX_BYTES,
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    stale_version_message,
)

# the value types of the fields, as ``m.Seat``, ``m.BotLevel``... (the redundant aliases
# re-export them without adding them to the message list in ``__all__``)
from protocol._messages.common import BotLevel as BotLevel
from protocol._messages.common import CardText as CardText
from protocol._messages.common import Count as Count
from protocol._messages.common import HexText as HexText
from protocol._messages.common import Phase as Phase
from protocol._messages.common import RequestId as RequestId
from protocol._messages.common import Score as Score
from protocol._messages.common import Seat as Seat
from protocol._messages.common import Sha256Hex as Sha256Hex
from protocol._messages.common import TableCode as TableCode
from protocol._messages.error_codes import ERROR_CODE_MEANINGS, ERROR_CODES, ErrorCode
from protocol._messages.events import (
    BidEvent,
    BlindNilEvent,
    CardPlayedEvent,
    DraftTurnEvent,
    EventMessage,
    ExchangeEvent,
    GameOverEvent,
    HandScoredEvent,
    HandStartedEvent,
    ShuffledEvent,
    TrickWonEvent,
)

# play now
from protocol._messages.seeks import (
    CancelSeek,
    Seek,
    SeekBotOffer,
    SeekCancelled,
    Seeking,
    SeekPaired,
)
from protocol._messages.seeks import SeekPreset as SeekPreset
from protocol._messages.server import (
    SERVER_ADAPTER,
    Ack,
    AnalysisMessage,
    ChatMessage,
    EntropyAccepted,
    EntropyCommitments,
    ErrorMessage,
    Events,
    GameOver,
    Left,
    Pong,
    RecordMessage,
    Redirect,
    ServerMessage,
    Snapshot,
    TableList,
    TableUpdate,
    Welcome,
    YourTurn,
)
from protocol._messages.structures import (
    ActionMessage,
    BidAction,
    BlindNilAction,
    DiscardAction,
    ExchangeAction,
    HandResult,
    KeepAction,
    PlayAction,
    Rules,
    ScoreLine,
    SeatInfo,
    TableInfo,
    TableSummary,
    TrickData,
    View,
)
from protocol._messages.versions import ADDED_IN_1_1, ADDED_IN_1_2, ADDED_IN_1_3, added_after

__all__ = [
    "ADDED_IN_1_1",
    "ADDED_IN_1_2",
    "ADDED_IN_1_3",
    "CLIENT_ADAPTER",
    "ENTROPY_HEX_PATTERN",
    "ENTROPY_MAX_BYTES",
    "ERROR_CODES",
    "ERROR_CODE_MEANINGS",
    "PROTOCOL_MINOR",
    "PROTOCOL_VERSION",
    "SERVER_ADAPTER",
    "SUPPORTED_VERSIONS",
    "AccountDone",
    "Ack",
    "Act",
    "ActionMessage",
    "AddBot",
    "AnalysisMessage",
    "BidAction",
    "BidEvent",
    "BlindNilAction",
    "BlindNilEvent",
    "BoardEntry",
    "CancelSeek",
    "CardPlayedEvent",
    "ChangePassword",
    "Chat",
    "ChatMessage",
    "ClientMessage",
    "CreateTable",
    "DeleteAccount",
    "DiscardAction",
    "DraftTurnEvent",
    "Entropy",
    "EntropyAccepted",
    "EntropyCommit",
    "EntropyCommitments",
    "ErrorCode",
    "ErrorMessage",
    "EventMessage",
    "Events",
    "ExchangeAction",
    "ExchangeEvent",
    "GameOver",
    "GameOverEvent",
    "GetAnalysis",
    "GetLeaderboard",
    "GetProfile",
    "GetRecord",
    "HandResult",
    "HandScoredEvent",
    "HandStartedEvent",
    "Hello",
    "JoinTable",
    "KeepAction",
    "Leaderboard",
    "Leave",
    "Left",
    "ListTables",
    "Ping",
    "PlayAction",
    "Pong",
    "Profile",
    "ProfileGame",
    "RatingLine",
    "RecordMessage",
    "Redirect",
    "Register",
    "Rematch",
    "Rules",
    "ScoreLine",
    "SeatInfo",
    "Seek",
    "SeekBotOffer",
    "SeekCancelled",
    "SeekPaired",
    "Seeking",
    "ServerMessage",
    "ShuffledEvent",
    "SignIn",
    "SignOutEverywhere",
    "SignedIn",
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
    "added_after",
    "stale_version_message",
]
