"""The requests that are not the lobby's nor a game's: chat (and ``/report``), records,
analyses, ping.

    services = Services(config, store, bots, rooms, moderation, metrics, now, spawn)
    services.chat(session, player, message)        # raises RequestError; may be Elsewhere

Chat is cleaned like a name (nothing that forges a screen), limited in length and rate,
refused for a muted player, and sent to the table's whole audience; a line starting with
``/report`` goes to the host only (logged and kept with the table's recent chat), within
the budgets of :mod:`server.ops.report_budget`. An analysis is worked out once per
record, seat and level however many ask, one at a time, through the bounded queue of
:mod:`server.gateway.analyses`, and cached in the store. Records and analyses are sent
within a byte budget per address (:mod:`server.gateway.egress`; ``rate_limited``
beyond it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol import messages as m
from protocol.codec import encode
from protocol.text import TextError, clean_chat
from server.bots import BotRunner
from server.config import ServerConfig
from server.errors import RequestError
from server.gateway.analyses import AnalysisQueue
from server.gateway.egress import ByteBudget
from server.gateway.session import Session
from server.lobby.players import Player
from server.lobby.registry import Elsewhere, Rooms
from server.logs import event
from server.ops.moderation import REPORT_PREFIX, is_report, new_report
from server.rooms import requests
from server.rooms.frames import Frame
from server.rooms.room import Room
from server.store import Storage

__all__ = ["Services"]

log = logging.getLogger("server")


class _Moderation(Protocol):
    muted: set[str]
    recent_chat: Any

    def report_refusal(
        self, player_id: str, now: float, address: str, table: str, seated: bool
    ) -> str | None: ...

    def report(self, report: dict[str, Any]) -> None: ...

    def heard(self, table: str, name: str, text: str) -> None: ...


class _Metrics(Protocol):
    def refused(self, kind: str) -> None: ...


@dataclass
class Services:
    """Chat, reports, records, analyses and ping (see the module)."""

    config: ServerConfig
    store: Storage
    bots: BotRunner
    rooms: Rooms
    moderation: _Moderation
    metrics: _Metrics
    now: Callable[[], float]
    spawn: Callable[[Awaitable[None]], object]
    analyses: AnalysisQueue = field(init=False)
    egress: ByteBudget = field(init=False)

    def __post_init__(self) -> None:
        config = self.config
        self.egress = ByteBudget(
            config.reply_bytes_per_second_per_address, config.reply_bytes_burst_per_address
        )
        self.analyses = AnalysisQueue(config, self.store, self.bots, sent=self._sent)

    # ---- chat -----------------------------------------------------------------------

    def chat(self, session: Session, player: Player, message: m.Chat) -> Elsewhere | None:
        room = self.rooms.find(message.code)
        if isinstance(room, Elsewhere):
            return room
        index = requests.speaker(room, session, player.id)
        try:
            text = clean_chat(message.text)  # the name rules: nothing that forges a screen
        except TextError as error:
            raise RequestError("bad_message", str(error)) from None
        limit = self.config.chat_max_chars
        if len(text) > limit:
            raise RequestError("chat_too_long", f"chat is limited to {limit} characters")
        if not session.chat_rate.take():
            self.metrics.refused("chat")
            raise RequestError("rate_limited", "too much chat; slow down")
        if is_report(text):  # for the host only: the table never sees it
            refusal = self.moderation.report_refusal(
                player.id, self.now(), session.address, room.code, index is not None
            )
            if refusal is not None:
                self.metrics.refused("report")
                raise RequestError("rate_limited", refusal)
            self._report(session, player, room, index, text[len(REPORT_PREFIX) :].strip())
            return None
        if player.id in self.moderation.muted:
            raise RequestError("muted", "the host has muted your chat on this server")
        self.moderation.heard(room.code, player.name, text)
        room.broadcast(
            Frame(encode(m.ChatMessage(table=room.code, seat=index, name=player.name, text=text)))
        )
        return None

    def _report(
        self, session: Session, player: Player, room: Room, index: int | None, text: str
    ) -> None:
        """Log and keep a ``/report`` (with the table's recent chat); tell only the reporter."""
        other = room.seats[1 - index] if index is not None else None
        reported = (
            (other.player_id, other.name)
            if other is not None and other.kind == "human"
            else (None, None)
        )
        recent = list(self.moderation.recent_chat.get(room.code, ()))
        report = new_report(room.code, player.id, player.name, reported, text, recent)
        self.moderation.report(report)
        log.warning(
            "table %s: %s (%s) reports %s: %s",
            room.code,
            player.name,
            player.id,
            reported[1] or "-",
            text,
            extra=event("report", **report),
        )
        session.send(
            m.ChatMessage(
                table=room.code,
                seat=None,
                name="server",
                text="Your report was sent to the host of this server. Thank you.",
            )
        )

    # ---- records and analyses -------------------------------------------------------

    def _check_egress(self, session: Session) -> None:
        """Refuse a large answer while the address has spent its byte budget."""
        now = self.now()
        if not self.egress.allows(session.address, now):
            self.metrics.refused("reply_bytes")
            wait = self.egress.seconds_until_allowed(session.address, now)
            raise RequestError(
                "rate_limited",
                f"your address was sent its share of records and analyses for now; "
                f"try again in {wait:.0f} s",
            )

    def _sent(self, address: str, size: int) -> None:
        self.egress.spend(address, size, self.now())

    def get_record(self, session: Session, player: Player, message: m.GetRecord) -> None:
        self._check_egress(session)
        text = self._record_json(message.record_id)
        if text is None:
            raise RequestError("record_not_available", "no finished game has this record id (yet)")
        session.send(m.RecordMessage(record_id=message.record_id, record_json=text, id=message.id))
        self._sent(session.address, len(text))

    def get_analysis(self, session: Session, player: Player, message: m.GetAnalysis) -> None:
        """Protocol 1.1 (the gateway refuses it from a 1.0 connection). Raises
        ``record_not_available``, ``rate_limited`` or ``server_full`` (see
        :mod:`server.gateway.analyses`)."""
        self._check_egress(session)
        key = (message.record_id, message.seat, message.level)
        # an analysis is kept only while its record is (retention deletes both): a cached
        # one needs no read of the record, the most common request of a flood
        cached = self.store.analysis_json(*key)
        if cached is not None:
            session.send(_analysis_message(message, cached))
            self._sent(session.address, len(cached))
            return
        record_json = self._record_json(message.record_id)
        if record_json is None:
            raise RequestError("record_not_available", "no finished game has this record id (yet)")
        self.analyses.ask(session, player.id, message, record_json, self._seats_of(key[0]))

    def _record_json(self, record_id: str) -> str | None:
        """A stored record, or a live table's game given up unplayed (kept in memory)."""
        text = self.store.record_json(record_id)
        return text if text is not None else self.rooms.unkept_record(record_id)

    def _seats_of(self, record_id: str) -> set[str]:
        """The players seated at the table whose last game is ``record_id`` (if in memory)."""
        seats: set[str] = set()
        for room in self.rooms:
            if room.table.record_id == record_id:
                seats.update(s.player_id for s in room.seats if s.player_id is not None)
        return seats

    def cancel(self) -> None:
        """The server is closing: analyses under way are called off."""
        self.analyses.cancel()

    def ping(self, session: Session, player: Player, message: m.Ping) -> None:
        session.send(m.Pong(nonce=message.nonce, id=message.id))


def _analysis_message(message: m.GetAnalysis, text: str) -> m.AnalysisMessage:
    return m.AnalysisMessage(
        record_id=message.record_id,
        seat=message.seat,
        level=message.level,
        analysis_json=text,
        id=message.id,
    )
