"""The client's model: the server's messages folded into the model's parts.

    model = Model("alice", send=connection.send)
    model.handle(message)        # every server message

A ``snapshot`` replaces the table's view; ``events``, ``hand_result`` and ``your_turn``
are folded into it (:mod:`client.state`, the one fold of the Python clients); a gap in
the stream asks the server for a snapshot. While a finished trick is on show (the
trick pause) messages wait, in order. The state itself and every method the screens
call are :class:`~client.model.base.ModelBase`'s.

The client decides nothing the server decides: the cards that may be played, the bids
that may be made, whether blind nil may be declared, all come from ``your_turn.legal``.
"""

from __future__ import annotations

from pathlib import Path

from client.errors import error_text
from client.i18n import _
from client.model.base import RESULT_KEY_GRACE, Intent, ModelBase, Overlay, Screen
from client.model.describe import describe, story
from client.model.table import OutOfStep
from client.text import safe_text
from engine import Phase, Play
from protocol import messages as m
from protocol.convert import view_from_message
from protocol.errors import ProtocolError

__all__ = ["RESULT_KEY_GRACE", "Intent", "Model", "Overlay", "Screen"]


class Model(ModelBase):
    """The client's model. Feed it server messages; it sends through ``send``."""

    def handle(self, message: m.ServerMessage) -> None:
        """Fold one server message into the model. While a finished trick is on show
        (the trick pause) messages wait, in order, until :meth:`end_pause`."""
        if isinstance(message, m.EntropyCommitments):  # the reveal cannot wait for a pause
            self._on_entropy_commitments(message)
            return
        if self.pausing:
            self.held.append(message)
            if isinstance(message, m.Events) and self.table and message.table == self.table.code:
                # the server waits only a little for our shuffle entropy: send it now,
                # not after the pause (a rematch's hand 1 never comes during a pause)
                for event in message.events:
                    if isinstance(event, m.HandStartedEvent) and event.hand_number > 1:
                        self.game.committed(event.hand_number, event.commitment)
                        self._send_entropy(message.table, event.hand_number)
            return
        if self.account.receive(self, message):  # client/model/account.py
            return
        handler = getattr(self, f"_on_{message.type}", None)
        if handler is not None:
            handler(message)

    def end_pause(self) -> None:
        """The trick pause is over: clear the trick and handle what waited."""
        self.pausing = False
        while self.held and not self.pausing:
            self.handle(self.held.pop(0))

    def _start_pause(self) -> bool:
        delay = self.settings.trick_pause
        if self.schedule is None or delay <= 0:
            return False
        self.pausing = True
        self.pause_number += 1
        number = self.pause_number
        self.schedule(delay, lambda: self._pause_timer(number))
        return True

    def _pause_timer(self, number: int) -> None:
        # a pause ended early by Enter must not let its timer cut a later pause short
        if self.pausing and number == self.pause_number:
            self.end_pause()

    def _on_welcome(self, message: m.Welcome) -> None:
        first = self.link.welcomed(message.token, message.player_id)
        self.game.minor = message.protocol_minor
        if self.on_token is not None:
            self.on_token(message.token)
        self.name = safe_text(message.name)
        if not first:
            self.say(_("Reconnected.") if message.resumed else _("Reconnected (new session)."))
            if self.pending is not None:
                self.send(self.pending)
            if message.resumed and message.tables:
                return
            if self.table is not None and not message.resumed:
                self.game.forget_view()
                self.screen = Screen.LOBBY
                self.send(m.ListTables())
            return
        if message.resumed and message.tables:
            return
        intent = self.intent
        if intent.kind == "create":
            self.send(
                m.CreateTable(
                    preset=intent.preset,
                    overrides=intent.overrides,
                    private=intent.private,
                    bot=intent.bot,
                    seat=intent.seat,
                )
            )
        elif intent.kind == "join" and intent.code:
            self.send(m.JoinTable(code=intent.code, seat=intent.seat))
        elif intent.kind == "watch" and intent.code:
            self.send(m.WatchTable(code=intent.code))
        else:
            self.screen = Screen.LOBBY
            self.send(m.ListTables())

    # play now: the seek's answers (client.model.seek folds them)
    def _on_seek(self, message: m.ServerMessage) -> None:
        request = self.play_now.fold(message)
        if request is not None:
            self.send(request)
        if isinstance(message, m.SeekPaired) and self.overlay is Overlay.PLAY_NOW:
            self.overlay = None

    _on_seeking = _on_seek_bot_offer = _on_seek_paired = _on_seek_cancelled = _on_seek

    def _on_table_list(self, message: m.TableList) -> None:
        self.lobby.listed(message.tables)
        if self.screen is Screen.CONNECTING:
            self.screen = Screen.LOBBY

    def _set_table(self, table: m.TableInfo) -> None:
        if self.game.set_info(table, self.clock()):
            self.say(_("At table {code}.").format(code=table.code))
            if self.overlay in (Overlay.LEAVE, Overlay.QUIT):  # asked about another table
                self.overlay = None

    def _on_snapshot(self, message: m.Snapshot) -> None:
        self._set_table(message.table)
        try:
            view = view_from_message(message.view, message.table.rules)
        except ProtocolError as error:
            self.flash = _("bad snapshot: {error}").format(error=error)
            return
        self.screen = Screen.TABLE
        if self.game.take_view(view, message.table.code):  # a resume, or a game under way
            for line in story(view, self.seat_name, self.settings.ascii_cards):
                self.say(line)
        if view.commitment is not None and view.phase is Phase.DEAL:
            self._send_entropy(message.table.code, view.hand_number)  # the shuffle waits
        if self.resyncing and message.your_turn is not None and self.turn is None:
            # asked for after a gap: no separate your_turn follows this snapshot (on a
            # resume one does, so only this answer's turn is taken from it)
            self._on_your_turn(message.your_turn)
        self.resyncing = False

    def _on_table_update(self, message: m.TableUpdate) -> None:
        old = self.table
        if old is not None and old.code != message.table.code:
            return
        self._set_table(message.table)
        if old is not None:
            for seat in (0, 1):
                before, now = old.seats[seat], message.table.seats[seat]
                if before.kind == "empty" and now.kind != "empty":
                    self.say(_("{name} sat down.").format(name=self.seat_name(seat)))
                elif before.connected and not now.connected and now.kind == "human":
                    self.say(
                        _("{name} dropped; the seat is held.").format(name=self.seat_name(seat))
                    )
                elif not before.connected and now.connected and now.kind == "human":
                    self.say(_("{name} is back.").format(name=self.seat_name(seat)))

    def _on_events(self, message: m.Events) -> None:
        if self.table is None or message.table != self.table.code:
            return
        view = self.view
        if view is not None and message.version != view.version + 1:
            self._out_of_step(f"events for version {message.version}, holding {view.version}")
            return
        events = message.events
        for index, event in enumerate(events[:-1]):
            if isinstance(event, m.TrickWonEvent):
                # a trick was finished: show it, and let what follows (the next lead,
                # the hand's score) wait for the pause; the version moves on with the rest
                head = events[: index + 1]
                self._log_events(head, message.table)
                try:
                    self.game.fold_part(head)
                except OutOfStep as error:
                    self._out_of_step(str(error))
                    return
                rest = message.model_copy(update={"events": events[index + 1 :]})
                if self._start_pause():
                    self.held.insert(0, rest)
                else:
                    self._on_events(rest)
                return
        self._log_events(events, message.table)
        self._fold(message)
        if self.turn is not None and self.turn.version < message.version:
            self.game.clear_turn()
            self.selection.clear_typed()
        if events and isinstance(events[-1], m.TrickWonEvent):
            self._start_pause()

    def _log_events(self, events: tuple[m.EventMessage, ...], table: str) -> None:
        """Log ``events``, and give each new hand our entropy."""
        for event in events:
            line = describe(event, self.seat_name, self.my_seat, self.settings.ascii_cards)
            if line:
                self.say(line)
            if isinstance(event, m.HandStartedEvent):
                if event.hand_number == 1:  # a new game at this table (a rematch)
                    self.game.new_game()
                self.game.committed(event.hand_number, event.commitment)
                self._send_entropy(table, event.hand_number)

    def _fold(self, message: m.Events | m.HandResult | m.YourTurn) -> bool:
        try:
            self.game.fold(message)
        except OutOfStep as error:
            self._out_of_step(str(error))
            return False
        return True

    def _out_of_step(self, why: str) -> None:
        self.flash = _("out of step ({why}); asking the server for the table").format(why=why)
        self.resync()

    def _on_your_turn(self, message: m.YourTurn) -> None:
        if self.table is None or message.table != self.table.code:
            return
        if self.view is not None and not self._fold(message):
            return
        self.game.set_turn(message, self.clock())
        self.selection.new_turn()
        view = self.view
        if view is not None and message.phase == "draft" and view.offered is None:
            self.resync()  # an older server: the card on offer travels only in a snapshot
        legal = self.legal_cards()
        if message.phase == "play":
            if self.cursor not in legal:
                ordered = [c for c in self.hand_cards() if c in legal]
                self.selection.point(ordered[0] if ordered else None)
            if len(legal) == 1 and self.settings.auto_play_one:
                (only,) = legal
                self.say(
                    _("Auto Play One: {card} was your only legal card.").format(
                        card=self.card_text(only)
                    )
                )
                if self.act(Play(only)):  # said on the status line too, not only logged
                    self.flash = _("Auto Play One played {card}, your only legal card.").format(
                        card=self.card_text(only)
                    )
        elif message.phase == "exchange":
            cards = self.hand_cards()
            self.selection.point(cards[0] if cards else None)

    def _on_hand_result(self, message: m.HandResult) -> None:
        result, ok = self.game.add_result(message)
        self.say(
            _("Hand {number}: {first} {first_points}, {second} {second_points}").format(
                number=result.hand_number,
                first=self.seat_name(0),
                first_points=f"{result.points[0]:+d}",
                second=self.seat_name(1),
                second_points=f"{result.points[1]:+d}",
            )
            + (self._verified_words(result.hand_number) if ok else _(" · shuffle NOT verified ✗"))
        )
        for problem in self.game.problems.get(result.hand_number, []):
            self.say(_("Shuffle check failed: {problem}").format(problem=problem))
        for seat in self.game.withheld.get(result.hand_number, []):
            self.say(
                _("{name} committed to a shuffle value and did not reveal it.").format(
                    name=self.seat_name(seat)
                )
            )
        if self.overlay is None or self.overlay is Overlay.RESULT:
            self.open(Overlay.RESULT)

    def _verified_words(self, hand_number: int) -> str:
        if self.entropy_included.get(hand_number, False):
            return _(" · shuffle verified, your entropy included ✓")
        return _(" · shuffle verified ✓")

    def _send_entropy(self, table: str, hand_number: int) -> None:
        """Mix a value of our own into the hand's shuffle (sent after its commitment)."""
        request = self.game.entropy_request(table, hand_number)
        if request is not None:
            self.send(request)

    def _on_entropy_commitments(self, message: m.EntropyCommitments) -> None:
        """1.3: every commitment is out; reveal our value (if ours is among them)."""
        reveal = self.game.reveal(message)
        if reveal is not None:
            self.send(reveal)

    def _on_game_over(self, message: m.GameOver) -> None:
        self.game.over(message)
        self.selection.clear_typed()
        if message.winner is None:
            self.say(_("The game is over."))

    def _on_ack(self, message: m.Ack) -> None:
        self.game.acked(message.seq)

    def _on_error(self, message: m.ErrorMessage) -> None:
        self.play_now.fold(message)  # a refused seek is shown in its window
        if message.code == "bad_token":
            # the server forgot us (it keeps no session that never sat down, e.g. a
            # spectator's, across a restart): start a new one; nothing for the player to do
            self.link.forget_session()
            self.say(_("The server did not know our session: starting a new one."))
            self.send(
                m.Hello(
                    protocol_version=m.PROTOCOL_VERSION,
                    protocol_minor=m.PROTOCOL_MINOR,
                    name=self.name,
                )
            )
            return
        text = error_text(message.code, safe_text(message.message))
        self.flash = f"{text} ({message.code})"
        if message.code == "illegal_action":
            self.refusal = self.flash
        self.say(f"! {text}")
        if message.request == "action" or message.code in (
            "illegal_action",
            "not_your_turn",
            "stale_version",
            "game_over",
        ):
            self.game.refused()
            last, view = self.game.last_turn, self.view
            if (
                message.code in ("illegal_action", "bad_message", "rate_limited")
                and self.turn is None
                and last is not None
                and view is not None
                and last.version == view.version
            ):  # nothing changed on the server: the turn is still ours, choose again
                self._on_your_turn(last)
        if message.code == "unsupported_version":
            self.connection_failed(
                _("the server refused our protocol version: {text}").format(text=text), final=True
            )
            return
        if message.code == "banned":  # coming back would only be refused again
            self.connection_failed(
                _("the host of this server banned you: {text}").format(text=text), final=True
            )
            return
        if not self.welcomed_once and message.code not in ("bad_token", "rate_limited"):
            # refused before any welcome: no session will come of this connection
            self.connection_failed(
                _("the server refused our hello: {text}").format(text=text), final=True
            )
            return
        if self.screen is Screen.CONNECTING and message.code in ("unknown_table", "table_full"):
            self.screen = Screen.LOBBY
            self.send(m.ListTables())

    def _on_chat(self, message: m.ChatMessage) -> None:
        # another player's words: never drawn raw (no escapes, no new lines, no bidi)
        line = f"{safe_text(message.name)}: {safe_text(message.text)}"
        if self.chat.receive(line, ours=self._chat_from_us_or_server(message)):
            self.say(f"💬 {line}" if not self.settings.ascii_cards else f"> {line}")

    def _chat_from_us_or_server(self, message: m.ChatMessage) -> bool:
        """Our own line's echo, or the server's (its name is reserved: nobody forges it)."""
        if message.seat is None:
            return message.name in ("server", self.name)
        table = self.table
        return table is not None and table.your_seat == message.seat

    def send_chat(self) -> None:
        """The chat window's Enter: ``/mute``, ``/unmute`` here, anything else to the table."""
        text = self.chat.take()
        if not text or self.table is None:
            return
        said = self.chat.command(text)
        if said is not None:
            self.say(said)
        else:
            self.send(m.Chat(code=self.table.code, text=text[:200]))

    def _on_record(self, message: m.RecordMessage) -> None:
        if self.analysis_wanted and self.on_analysis is not None:
            self.analysis_wanted = False
            self.on_analysis(message.record_json, self.table.your_seat if self.table else None)
        directory = self.record_dir if self.record_dir is not None else Path.cwd()
        # the file name is ours: only the id's letters, digits, - and _ go into it
        record_id = "".join(
            c for c in message.record_id if c.isascii() and (c.isalnum() or c in "-_")
        )
        path = directory / f"spades-{record_id or 'record'}.json"
        try:
            path.write_text(message.record_json, encoding="utf-8")
        except OSError as error:
            self.game.recorded(message.record_json, None)
            self.flash = _("cannot save the record: {error}").format(error=error)
            return
        self.game.recorded(message.record_json, path)
        self.say(_("Record saved: {file}").format(file=path.name))

    def _on_left(self, message: m.Left) -> None:
        if self.table is not None and self.table.code == message.table:
            self.game.left()
            self.selection.clear_typed()
            self.overlay = None
            self.screen = Screen.LOBBY
            self.say(_("Left table {code}.").format(code=message.table))
            self.send(m.ListTables())
