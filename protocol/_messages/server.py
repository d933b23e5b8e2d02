"""Every message the server sends a client, and :data:`SERVER_ADAPTER`, which validates
them (``decode_server`` in :mod:`protocol.codec` calls it).

A part of :mod:`protocol.messages`: :data:`ServerMessage` is their union (tagged by
``type``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field, TypeAdapter

from protocol._messages.accounts import AccountDone, Leaderboard, Profile, SignedIn
from protocol._messages.common import (
    BotLevel,
    CardText,
    Count,
    MessageBase,
    Phase,
    RequestId,
    Seat,
    Sha256Hex,
    TableCode,
)
from protocol._messages.error_codes import ErrorCode
from protocol._messages.events import EventMessage
from protocol._messages.seeks import SeekBotOffer, SeekCancelled, Seeking, SeekPaired
from protocol._messages.structures import (
    ActionMessage,
    HandResult,
    ScoreLine,
    TableInfo,
    TableSummary,
    View,
)

__all__ = [
    "SERVER_ADAPTER",
    "Ack",
    "AnalysisMessage",
    "ChatMessage",
    "EntropyAccepted",
    "EntropyCommitments",
    "ErrorMessage",
    "Events",
    "GameOver",
    "Left",
    "Pong",
    "RecordMessage",
    "Redirect",
    "ServerMessage",
    "Snapshot",
    "TableList",
    "TableUpdate",
    "Welcome",
    "YourTurn",
]


class Welcome(MessageBase):
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
    """Your name as the server keeps it: when it reads like a connected player's name
    (case, look-alike letters), the server adds a number (``alice 2``)."""
    token: str
    """Your secret resume token: keep it, and send it in ``hello`` to resume."""
    resumed: bool
    """True when ``hello`` carried a valid token: you are the same player as before."""
    tables: tuple[TableCode, ...] = ()
    """Codes of the tables where you sit; a snapshot of each follows."""
    id: RequestId | None = None
    """The ``id`` of your ``hello``."""
    protocol_minor: int = 0
    """1.1: the minor version this connection speaks (3: 1.3, 2: 1.2, 1: 1.1, 0: 1.0)."""
    server_time: float | None = None
    """1.1: the server's clock when it sent this, Unix seconds: deadlines such as
    ``hold_deadline`` are on this clock.
    """
    entropy_seconds: float | None = None
    """1.1: how long the server waits for the seats' ``entropy`` after ``hand_started``
    before it shuffles without the missing values.
    """


class TableList(MessageBase):
    type: Literal["table_list"] = "table_list"
    tables: tuple[TableSummary, ...]
    """The open tables (private ones are not listed)."""
    id: RequestId | None = None
    """The ``id`` of your ``list_tables``."""


class YourTurn(MessageBase):
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


class Snapshot(MessageBase):
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


class TableUpdate(MessageBase):
    """The table's seats or settings changed (someone joined, dropped, came back...)."""

    type: Literal["table_update"] = "table_update"
    table: TableInfo
    """The table as it is now."""


class Events(MessageBase):
    """What just happened at a table, as you may see it; ``version`` is the state
    version after the last of them."""

    type: Literal["events"] = "events"
    table: TableCode
    """The table code."""
    version: Count
    """The state version after the last of these events."""
    events: tuple[EventMessage, ...]
    """What happened, in order, as you may see it."""


class GameOver(MessageBase):
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


class Ack(MessageBase):
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


class ErrorMessage(MessageBase):
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


class ChatMessage(MessageBase):
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


class RecordMessage(MessageBase):
    """A finished game's full record as JSON text (see the engine's record format)."""

    type: Literal["record"] = "record"
    record_id: str
    """The record id asked for."""
    record_json: str
    """The record, JSON text in the engine's ``spades-record/1`` format."""
    id: RequestId | None = None
    """The ``id`` of your ``get_record``."""


class AnalysisMessage(MessageBase):
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


class EntropyAccepted(MessageBase):
    """1.1: your ``entropy`` for this hand is in; it goes into the shuffle."""

    type: Literal["entropy_accepted"] = "entropy_accepted"
    table: TableCode
    """The table code."""
    hand_number: Count
    """The hand it is for."""
    stage: Literal["value", "commit"] = "value"
    """1.3: ``commit`` answers your ``entropy_commit``, ``value`` your ``entropy``."""
    id: RequestId | None = None
    """The ``id`` of your ``entropy`` (or ``entropy_commit``)."""


class EntropyCommitments(MessageBase):
    """1.3: every seat's entropy commitment for this hand, relayed to the whole table
    (seats and spectators) once each seat the server waits for has committed, or the wait
    is over. A seat reveals its value (``entropy``) only after this message."""

    type: Literal["entropy_commitments"] = "entropy_commitments"
    table: TableCode
    """The table code."""
    hand_number: Count
    """The hand."""
    commitments: tuple[Sha256Hex | None, Sha256Hex | None]
    """Seat 0's and seat 1's commitment; nil for a seat that takes no part in this hand
    (a bot, an older connection that sent no value, a seat that did not commit in time).
    A 1.1 or 1.2 seat's value sent at once is relayed as its commitment, hashed the same
    way."""
    reveal_seconds: float
    """How long the server waits for the reveals, from now."""


class Pong(MessageBase):
    type: Literal["pong"] = "pong"
    nonce: int
    """The ``nonce`` of your ``ping``."""
    id: RequestId | None = None
    """The ``id`` of your ``ping``."""


class Left(MessageBase):
    """You left ``table``."""

    type: Literal["left"] = "left"
    table: TableCode
    """The table code."""
    id: RequestId | None = None
    """The ``id`` of your ``leave`` (nil when the table closed under you)."""


class Redirect(MessageBase):
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
    | EntropyCommitments
    | Pong
    | Left
    | AnalysisMessage
    | Redirect
    # accounts (protocol/_messages/accounts.py)
    | SignedIn
    | AccountDone
    | Profile
    | Leaderboard
    # play now (protocol._messages.seeks)
    | Seeking
    | SeekBotOffer
    | SeekPaired
    | SeekCancelled,
    Field(discriminator="type"),
]

SERVER_ADAPTER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
