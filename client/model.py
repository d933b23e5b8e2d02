"""The client's model: everything the screen shows, and what each key does to it.

The model holds the latest view and table info from the server, the legal actions of
the pending ``your_turn``, what the player has selected or typed, the settings and a
log. It knows nothing of prompt_toolkit or sockets: :meth:`ClientModel.handle` takes a
server message, :meth:`ClientModel.press` takes a key name, and every message to the
server goes out through the ``send`` callable. The layout only reads the model.

The client decides nothing the server decides: the cards that may be played, the bids
that may be made, whether blind nil may be declared, all come from ``your_turn.legal``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from client.rules import field_value_text
from client.state import apply_events
from client.text import safe_text
from engine import (
    PRESETS,
    Bid,
    BlindNil,
    Card,
    Discard,
    EngineError,
    Exchange,
    Keep,
    Phase,
    Play,
    PlayerAction,
    PlayerView,
    RuleSet,
    verify,
)
from engine import HandResult as EngineHandResult
from protocol import messages as m
from protocol.convert import (
    action_from_message,
    action_message,
    hand_result_from_message,
    view_from_message,
)
from protocol.errors import ProtocolError

__all__ = [
    "BOT_LEVELS",
    "ClientModel",
    "CreateForm",
    "Intent",
    "Overlay",
    "Screen",
    "Settings",
    "hand_order",
]

BOT_LEVELS: tuple[Literal["easy", "normal", "hard"], ...] = ("easy", "normal", "hard")
SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: colours alternate
CARD_KEYS = frozenset("0123456789tjqkacdhsTJQKACDHS")
LOG_LINES = 200
# the hand window ignores keys this long after it opens: a key pressed for the table just
# as the last trick cleared must not close it before it was seen
RESULT_KEY_GRACE = 0.5


def hand_order(cards: Sequence[Card]) -> list[Card]:
    """Display order: grouped by suit, spades first, high cards first within a suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))


class Screen(enum.StrEnum):
    CONNECTING = "connecting"
    LOBBY = "lobby"
    TABLE = "table"


class Overlay(enum.StrEnum):
    HELP = "help"
    SCORES = "scores"
    SETTINGS = "settings"
    CHAT = "chat"
    RESULT = "result"
    CREATE = "create"
    JOIN = "join"
    WATCH = "watch"
    PILE = "pile"  # the cards this seat saw go to the pile
    RULES = "rules"  # the table's rules in words
    LEAVE = "leave"  # yes/no: leave a game in progress (forfeits it)
    QUIT = "quit"  # yes/no: quit the client during a game in progress


@dataclass
class Settings:
    """The player's settings (the ``o`` key)."""

    auto_play_one: bool = True
    ascii_cards: bool = False
    confirm_before_play: bool = True
    trick_pause: float = 1.0  # seconds a finished trick stays on the table (0: none)

    ITEMS: tuple[tuple[str, str], ...] = (
        ("auto_play_one", "Auto Play One (play a forced card by itself)"),
        ("ascii_cards", "Card style: ASCII letters (CDHS) instead of ♣♦♥♠"),
        ("confirm_before_play", "Confirm before play (a typed card waits for Enter)"),
        ("trick_pause", "Trick pause: a finished trick stays on the table"),
    )
    PAUSES: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)

    def change(self, name: str, direction: int = 1) -> None:
        """Toggle a switch, or step the trick pause by ``direction`` through PAUSES."""
        if name == "trick_pause":
            steps = self.PAUSES
            at = min(range(len(steps)), key=lambda i: abs(steps[i] - self.trick_pause))
            self.trick_pause = steps[(at + direction) % len(steps)]
            return
        setattr(self, name, not getattr(self, name))


@dataclass
class Intent:
    """What to do once connected: the lobby, or create / join / watch a table."""

    kind: Literal["lobby", "create", "join", "watch"] = "lobby"
    preset: str = "classic"
    overrides: dict[str, int | bool | str | None] = field(default_factory=dict)
    private: bool = False
    bot: Literal["easy", "normal", "hard"] | None = None
    code: str | None = None
    seat: int | None = None


# fields of the create form: (name, kind, step); kind is bool / int / optint / choice
_RULE_STEPS: dict[str, int] = {
    "target_score": 50,
    "nil_bonus": 10,
    "blind_nil_bonus": 10,
    "blind_nil_exchange": 1,
    "blind_nil_min_deficit": 50,
    "bag_limit": 1,
    "bag_penalty": 10,
    "lose_score": 50,
}


@dataclass
class CreateForm:
    """The lobby's create-table form: a preset, the table options and every rule field."""

    preset: str = "classic"
    private: bool = False
    bot: Literal["easy", "normal", "hard"] | None = "normal"
    rules: RuleSet = field(default_factory=RuleSet)
    row: int = 0
    typed: str = ""
    error: str = ""

    def rows(self) -> list[str]:
        return ["preset", "private", "bot", *(f.name for f in dataclasses.fields(RuleSet))]

    def value_text(self, name: str) -> str:
        if name == "preset":
            return self.preset
        if name == "private":
            return "yes" if self.private else "no"
        if name == "bot":
            return self.bot or "none (wait for a player)"
        return field_value_text(name, getattr(self.rules, name))

    def overrides(self) -> dict[str, int | bool | str | None]:
        base = PRESETS[self.preset].to_dict()
        mine = self.rules.to_dict()
        return {k: v for k, v in mine.items() if base[k] != v}

    def change(self, direction: int) -> None:
        """Step the current row's value by ``direction`` (+1 or -1)."""
        name = self.rows()[self.row]
        self.error = ""
        self.typed = ""
        if name == "preset":
            names = sorted(PRESETS)
            self.preset = names[(names.index(self.preset) + direction) % len(names)]
            self.rules = PRESETS[self.preset]
            return
        if name == "private":
            self.private = not self.private
            return
        if name == "bot":
            options: list[Literal["easy", "normal", "hard"] | None] = [None, *BOT_LEVELS]
            self.bot = options[(options.index(self.bot) + direction) % len(options)]
            return
        value = getattr(self.rules, name)
        new: object
        if isinstance(value, bool):
            new = not value
        elif name == "first_bidder":
            new = "second_drafter" if value == "first_drafter" else "first_drafter"
        elif name == "lose_score":
            new = -self.rules.target_score if value is None else value + direction * 50
            if isinstance(new, int) and new >= 0:
                new = None
        elif name == "blind_nil_min_deficit":
            new = 0 if value is None else value + direction * 50
            if isinstance(new, int) and new < 0:
                new = None
        else:
            new = value + direction * _RULE_STEPS.get(name, 1)
        self._set(name, new)

    def _set(self, name: str, value: object) -> None:
        try:
            self.rules = self.rules.replace(**{name: value})
        except EngineError as error:
            self.error = str(error)

    def type_char(self, char: str) -> None:
        name = self.rows()[self.row]
        if name not in _RULE_STEPS or not (char.isdigit() or char == "-"):
            return
        self.typed = (self.typed + char)[-7:]
        try:
            number = int(self.typed)
        except ValueError:
            return
        self._set(name, number)

    def backspace(self) -> None:
        name = self.rows()[self.row]
        self.typed = self.typed[:-1]
        if name in _RULE_STEPS and self.typed not in ("", "-"):
            self._set(name, int(self.typed))


class ClientModel:
    """The client's state. Feed it server messages and keys; it sends through ``send``."""

    def __init__(
        self,
        name: str = "player",
        *,
        settings: Settings | None = None,
        intent: Intent | None = None,
        send: Callable[[m.ClientMessage], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        bot_level: Literal["easy", "normal", "hard"] = "normal",
        url: str = "",
    ) -> None:
        self.name = name
        self.url = url
        self.settings = settings or Settings()
        self.intent = intent or Intent()
        self.sender = send
        self.clock = clock
        self.bot_level: Literal["easy", "normal", "hard"] = bot_level
        self.sent: list[m.ClientMessage] = []
        # connection
        self.connection: Literal["connecting", "connected", "reconnecting", "closed"] = "connecting"
        self.token: str | None = None
        self.player_id: str | None = None
        self.welcomed_once = False
        self.connect_error = ""  # why the last attempt to reach the server failed
        self.connect_attempt = (0, 0)  # (attempt, of) while the server was never reached
        self.given_up = False  # the client stopped trying: connect_error says why
        self.screen = Screen.CONNECTING
        # lobby
        self.tables: tuple[m.TableSummary, ...] = ()
        self.lobby_row = 0
        self.form = CreateForm()
        self.code_entry = ""
        # table
        self.table: m.TableInfo | None = None
        self.table_time = 0.0
        self.view: PlayerView | None = None
        self.turn: m.YourTurn | None = None
        self.turn_time = 0.0
        self.last_turn: m.YourTurn | None = None
        self.legal: tuple[PlayerAction, ...] = ()
        self.seq: dict[str, int] = {}
        # the server remembers applied seq numbers per seat: a new process that resumes
        # the seat must not reuse them, so numbering starts at the wall clock (ms)
        self.seq_base = int(time.time() * 1000)
        self.pending: m.Act | None = None
        self.results: list[EngineHandResult] = []
        self.verified: dict[int, bool] = {}
        self.commitments: dict[int, str] = {}
        # our seat's entropy per hand (protocol 1.1), and whether each shuffle used it
        self.my_entropy: dict[int, bytes] = {}
        self.entropy_included: dict[int, bool] = {}
        self.game_over: m.GameOver | None = None
        self.record_json: str | None = None
        self.record_dir: Path | None = None
        self.saved_record: Path | None = None
        # game over, key a: the screen analyses the record (``spades analyze``) with this
        self.on_analysis: Callable[[str, int | None], None] | None = None
        self.analysis_wanted = False
        # input state
        self.cursor: Card | None = None
        self.typed = ""
        self.bid_entry = ""
        self.picks: set[Card] = set()
        self.overlay: Overlay | None = None
        self.settings_row = 0
        self.chat_entry = ""
        # output
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.chat: deque[str] = deque(maxlen=LOG_LINES)
        # /mute in the chat window: the others' chat is no longer shown (nothing is sent)
        self.chat_muted = False
        self.chat_hidden = 0  # lines not shown while muted
        self.flash = ""
        self.quit_requested = False
        self.on_quit: Callable[[], None] | None = None
        self.on_token: Callable[[str], None] | None = None
        # the trick pause: ``schedule(delay, callback)`` calls back later (the app uses
        # the event loop; tests fire it by hand); without it tricks clear at once
        self.schedule: Callable[[float, Callable[[], None]], None] | None = None
        self.size = (80, 24)  # the terminal's (columns, rows), kept up to date by the app
        self.tables_seen: set[str] = set()  # tables with a snapshot in this process
        self.local = False  # the server runs inside this process (plain ``spades``)
        self.pausing = False
        self.pause_number = 0  # which pause a timer's callback belongs to
        self.held: list[m.ServerMessage] = []
        self.result_opened_at = -RESULT_KEY_GRACE

    # ---- small helpers -------------------------------------------------------------

    @property
    def code(self) -> str | None:
        return self.table.code if self.table else None

    @property
    def my_seat(self) -> int | None:
        return self.view.seat if self.view is not None else None

    @property
    def my_turn(self) -> bool:
        return self.turn is not None

    @property
    def phase(self) -> Phase | None:
        return self.view.phase if self.view is not None else None

    def seat_name(self, seat: int, *, you: bool = True) -> str:
        if you and seat == self.my_seat:
            return "You"
        if self.table is not None:
            info = self.table.seats[seat]
            if info.kind == "empty":
                return "(empty)"
            if info.kind == "bot":
                return "Bot"
            name = safe_text(info.name or "").strip()
            if name:
                return name
        return f"Seat {seat}"

    def hold_left(self, seat: int) -> float | None:
        """Seconds left in the hold of a dropped seat, counting down since the update."""
        if self.table is None:
            return None
        left = self.table.seats[seat].hold_seconds_left
        if left is None:
            return None
        return max(0.0, left - (self.clock() - self.table_time))

    def turn_seconds_left(self) -> float | None:
        """Seconds left on the table's turn timer for the pending turn (None: no timer)."""
        if self.turn is None or self.turn.seconds_left is None:
            return None
        return max(0.0, self.turn.seconds_left - (self.clock() - self.turn_time))

    def say(self, line: str) -> None:
        self.log.append(line)

    def card_text(self, card: Card) -> str:
        return card.pretty(self.settings.ascii_cards)

    def send(self, message: m.ClientMessage) -> None:
        self.sent.append(message)
        if len(self.sent) > 1000:
            del self.sent[:500]
        if self.sender is not None:
            self.sender(message)

    def legal_cards(self) -> set[Card]:
        return {a.card for a in self.legal if isinstance(a, Play)}

    def hand_cards(self) -> list[Card]:
        return hand_order(self.view.hand) if self.view is not None else []

    # ---- server messages -----------------------------------------------------------

    def handle(self, message: m.ServerMessage) -> None:
        """Fold one server message into the model. While a finished trick is on show
        (the trick pause) messages wait, in order, until :meth:`end_pause`."""
        if self.pausing:
            self.held.append(message)
            if isinstance(message, m.Events) and self.table and message.table == self.table.code:
                # the server waits only a little for our shuffle entropy: send it now,
                # not after the pause (a rematch's hand 1 never comes during a pause)
                for event in message.events:
                    if isinstance(event, m.HandStartedEvent) and event.hand_number > 1:
                        self._send_entropy(message.table, event.hand_number)
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
        first = not self.welcomed_once
        self.welcomed_once = True
        self.token = message.token
        if self.on_token is not None:
            self.on_token(message.token)
        self.player_id = message.player_id
        self.name = safe_text(message.name)
        self.connection = "connected"
        if not first:
            self.say("Reconnected." if message.resumed else "Reconnected (new session).")
            if self.pending is not None:
                self.send(self.pending)
            if message.resumed and message.tables:
                return
            if self.table is not None and not message.resumed:
                self.table = None
                self.view = None
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

    def _on_table_list(self, message: m.TableList) -> None:
        self.tables = message.tables
        self.lobby_row = min(self.lobby_row, max(0, len(self.tables) - 1))
        if self.screen is Screen.CONNECTING:
            self.screen = Screen.LOBBY

    def _set_table(self, table: m.TableInfo) -> None:
        if self.table is None or self.table.code != table.code:
            self.say(f"At table {table.code}.")
            if self.overlay in (Overlay.LEAVE, Overlay.QUIT):  # asked about another table
                self.overlay = None
        self.table = table
        self.table_time = self.clock()

    def _on_snapshot(self, message: m.Snapshot) -> None:
        self._set_table(message.table)
        try:
            view = view_from_message(message.view, message.table.rules)
        except ProtocolError as error:
            self.flash = f"bad snapshot: {error}"
            return
        first_sight = message.table.code not in self.tables_seen
        self.tables_seen.add(message.table.code)
        self.view = view
        self.screen = Screen.TABLE
        if first_sight:  # a resume in a new process, or watching a game under way
            self._rebuild_log(view)
        if view.commitment is not None:
            self.commitments.setdefault(view.hand_number, view.commitment)
            if view.phase is Phase.DEAL:  # resumed while the shuffle waits for entropy
                self._send_entropy(message.table.code, view.hand_number)
        self.results = list(view.hand_results)
        for result in self.results:
            self._verify(result)
        if self.turn is not None and (
            self.turn.version < view.version or view.current_player != view.seat
        ):
            self._clear_turn()
        if view.phase is not Phase.GAME_OVER:
            self.game_over = None

    def _rebuild_log(self, view: PlayerView) -> None:
        """The log of what happened so far, from a snapshot's history (the finished
        hands, then this hand's bids and tricks), for a client that did not see it."""
        name = self.seat_name
        for result in view.hand_results:
            self.say(
                f"Hand {result.hand_number}: {name(0)} {result.points[0]:+d}, "
                f"{name(1)} {result.points[1]:+d}"
            )
        if view.hand_results and view.hand_number > len(view.hand_results):
            self.say(f"Hand {view.hand_number} under way.")
        for seat in (0, 1):
            if view.blind_nil[seat]:
                self.say(f"{name(seat)} declared BLIND NIL!")
            elif view.bids[seat] is not None:
                bid = view.bids[seat]
                self.say(f"{name(seat)} bid {'nil' if bid == 0 else bid}.")
        for number, trick in enumerate(view.tricks, 1):
            first, second = (self.card_text(card) for card in trick.cards)
            self.say(
                f"{name(trick.leader)} led {first}, {name(1 - trick.leader)} played {second}: "
                f"{name(trick.winner)} won trick {number}."
            )

    def _on_table_update(self, message: m.TableUpdate) -> None:
        old = self.table
        if old is not None and old.code != message.table.code:
            return
        self._set_table(message.table)
        if old is not None:
            for seat in (0, 1):
                before, now = old.seats[seat], message.table.seats[seat]
                if before.kind == "empty" and now.kind != "empty":
                    self.say(f"{self.seat_name(seat)} sat down.")
                elif before.connected and not now.connected and now.kind == "human":
                    self.say(f"{self.seat_name(seat)} dropped; the seat is held.")
                elif not before.connected and now.connected and now.kind == "human":
                    self.say(f"{self.seat_name(seat)} is back.")

    def _on_events(self, message: m.Events) -> None:
        if self.table is None or message.table != self.table.code:
            return
        events = message.events
        for index, event in enumerate(events[:-1]):
            if isinstance(event, m.TrickWonEvent):
                # a trick was finished: show it, and let what follows (the next lead,
                # the hand's score) wait for the pause; the view's version moves on
                # with the last part
                head = message.model_copy(update={"events": events[: index + 1]})
                rest = message.model_copy(update={"events": events[index + 1 :]})
                self._apply_events(head, version=None)
                if self._start_pause():
                    self.held.insert(0, rest)
                else:
                    self._on_events(rest)
                return
        self._apply_events(message, version=message.version)
        if events and isinstance(events[-1], m.TrickWonEvent):
            self._start_pause()

    def _apply_events(self, message: m.Events, version: int | None) -> None:
        for event in message.events:
            line = self._describe(event)
            if line:
                self.say(line)
            if isinstance(event, m.HandStartedEvent):
                if event.hand_number == 1:  # a new game at this table (a rematch)
                    self.game_over = None
                    self.results = []
                    self.verified = {}
                    self.my_entropy = {}
                self.commitments[event.hand_number] = event.commitment
                self._send_entropy(message.table, event.hand_number)
        if self.view is not None:
            try:
                self.view = apply_events(self.view, message.events, version)
            except (EngineError, ValueError) as error:  # drift: wait for the next snapshot
                self.flash = f"out of step ({error}); waiting for the server"
        if self.turn is not None and self.turn.version < message.version:
            self._clear_turn()

    def _on_your_turn(self, message: m.YourTurn) -> None:
        if self.table is None or message.table != self.table.code:
            return
        self.turn = message
        self.turn_time = self.clock()
        self.legal = tuple(action_from_message(a) for a in message.legal)
        self.typed = ""
        self.bid_entry = ""
        self.picks = set()
        legal = self.legal_cards()
        view = self.view
        offered = message.offered
        if view is not None and offered is not None and message.phase == "draft":
            with contextlib.suppress(EngineError):
                view = self.view = dataclasses.replace(view, offered=Card.parse(offered))
        if view is not None and (
            view.version != message.version or (message.phase == "draft" and view.offered is None)
        ):
            # the card on offer travels only in a snapshot: ask for a fresh one
            self.send(m.JoinTable(code=message.table))
        if message.phase == "play":
            if self.cursor not in legal:
                ordered = [c for c in self.hand_cards() if c in legal]
                self.cursor = ordered[0] if ordered else None
            if len(legal) == 1 and self.settings.auto_play_one:
                (only,) = legal
                self.say(f"Auto Play One: {self.card_text(only)} was your only legal card.")
                if self._act(Play(only)):  # said on the status line too, not only logged
                    self.flash = (
                        f"Auto Play One played {self.card_text(only)}, your only legal card."
                    )
        elif message.phase == "exchange":
            cards = self.hand_cards()
            self.cursor = cards[0] if cards else None
        elif message.phase == "bidding":
            bids = sorted(a.tricks for a in self.legal if isinstance(a, Bid))
            self.bid_entry = ""
            if bids and self.view is not None:
                self.bid_entry = ""

    def _on_hand_result(self, message: m.HandResult) -> None:
        result = hand_result_from_message(message)
        self.results = [r for r in self.results if r.hand_number != result.hand_number]
        self.results.append(result)
        ok = self._verify(result)
        if self.view is not None:
            self.view = dataclasses.replace(
                self.view, scores=result.scores, bags=result.bags, hand_results=tuple(self.results)
            )
        self.say(
            f"Hand {result.hand_number}: {self.seat_name(0)} {result.points[0]:+d}, "
            f"{self.seat_name(1)} {result.points[1]:+d}"
            + (self._verified_words(result.hand_number) if ok else " · shuffle NOT verified ✗")
        )
        if self.overlay is None or self.overlay is Overlay.RESULT:
            self.overlay = Overlay.RESULT
            self.result_opened_at = self.clock()

    def _verified_words(self, hand_number: int) -> str:
        if self.entropy_included.get(hand_number, False):
            return " · shuffle verified, your entropy included ✓"
        return " · shuffle verified ✓"

    def _send_entropy(self, table: str, hand_number: int) -> None:
        """Mix a value of our own into the hand's shuffle (sent after its commitment)."""
        if self.view is None or self.view.seat is None or hand_number in self.my_entropy:
            return
        value = self.my_entropy[hand_number] = secrets.token_bytes(32)
        self.send(m.Entropy(code=table, hand_number=hand_number, value=value.hex()))

    def _verify(self, result: EngineHandResult) -> bool:
        seen = self.commitments.get(result.hand_number, result.commitment)
        ok = seen == result.commitment and verify(result.commitment, result.seed, result.entropy)
        self.verified[result.hand_number] = ok
        seat = self.view.seat if self.view is not None else None
        mine = self.my_entropy.get(result.hand_number)
        self.entropy_included[result.hand_number] = (
            ok
            and seat is not None
            and mine is not None
            and len(result.entropy) == 2
            and result.entropy[seat] == mine
        )
        return ok

    def _on_game_over(self, message: m.GameOver) -> None:
        self.game_over = message
        self._clear_turn()
        if message.winner is None:
            self.say("The game is over.")

    def _on_ack(self, message: m.Ack) -> None:
        if self.pending is not None and self.pending.seq == message.seq:
            self.pending = None

    def _on_error(self, message: m.ErrorMessage) -> None:
        if message.code == "bad_token":
            # the server forgot us (it keeps no session that never sat down, e.g. a
            # spectator's, across a restart): start a new one; nothing for the player to do
            self.token = None
            self.welcomed_once = False
            self.say("The server did not know our session: starting a new one.")
            self.send(
                m.Hello(
                    protocol_version=m.PROTOCOL_VERSION,
                    protocol_minor=m.PROTOCOL_MINOR,
                    name=self.name,
                )
            )
            return
        text = safe_text(message.message)
        self.flash = f"{text} ({message.code})"
        self.say(f"! {text}")
        if message.request == "action" or message.code in (
            "illegal_action",
            "not_your_turn",
            "stale_version",
            "game_over",
        ):
            self.pending = None
            last, view = self.last_turn, self.view
            if (
                message.code in ("illegal_action", "bad_message", "rate_limited")
                and self.turn is None
                and last is not None
                and view is not None
                and last.version == view.version
            ):  # nothing changed on the server: the turn is still ours, choose again
                self._on_your_turn(last)
        if message.code == "unsupported_version":
            self.connection_failed(f"the server refused our protocol version: {text}", final=True)
            return
        if message.code == "banned":  # coming back would only be refused again
            self.connection_failed(f"the host of this server banned you: {text}", final=True)
            return
        if not self.welcomed_once and message.code not in ("bad_token", "rate_limited"):
            # refused before any welcome: no session will come of this connection
            self.connection_failed(f"the server refused our hello: {text}", final=True)
            return
        if self.screen is Screen.CONNECTING and message.code in ("unknown_table", "table_full"):
            self.screen = Screen.LOBBY
            self.send(m.ListTables())

    def _on_chat(self, message: m.ChatMessage) -> None:
        if self.chat_muted and not self._chat_from_us_or_server(message):
            self.chat_hidden += 1
            return
        # another player's words: never drawn raw (no escapes, no new lines, no bidi)
        line = f"{safe_text(message.name)}: {safe_text(message.text)}"
        self.chat.append(line)
        self.say(f"💬 {line}" if not self.settings.ascii_cards else f"> {line}")

    def _chat_from_us_or_server(self, message: m.ChatMessage) -> bool:
        """Our own line's echo, or the server's (its name is reserved: nobody forges it)."""
        if message.seat is None:
            return message.name in ("server", self.name)
        table = self.table
        return table is not None and table.your_seat == message.seat

    def _chat_command(self, text: str) -> bool:
        """``/mute`` and ``/unmute`` are for this client only; ``True`` when ``text`` was one."""
        command = text.casefold()
        if command not in ("/mute", "/unmute"):
            return False
        self.chat_muted = command == "/mute"
        if self.chat_muted:
            self.say("Chat from the others is hidden here; /unmute in chat shows it again.")
        else:
            self.say(f"Chat shown again ({self.chat_hidden} lines were hidden).")
            self.chat_hidden = 0
        return True

    def _on_record(self, message: m.RecordMessage) -> None:
        self.record_json = message.record_json
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
            self.flash = f"cannot save the record: {error}"
            return
        self.saved_record = path
        self.say(f"Record saved: {path.name}")

    def _on_left(self, message: m.Left) -> None:
        if self.table is not None and self.table.code == message.table:
            self.table = None
            self.view = None
            self.game_over = None
            self._clear_turn()
            self.results = []
            self.overlay = None
            self.screen = Screen.LOBBY
            self.say(f"Left table {message.table}.")
            self.send(m.ListTables())

    def connection_lost(self) -> None:
        """The socket dropped; the network task reconnects with the session token."""
        if self.connection != "closed":
            self.connection = "reconnecting" if self.welcomed_once else "connecting"

    def connection_failed(self, reason: str, *, final: bool, attempt: int = 0, of: int = 0) -> None:
        """Reaching the server failed for ``reason``; ``final``: the client stops trying."""
        self.connect_error = reason
        self.connect_attempt = (attempt, of)
        if final:
            self.given_up = True
            self.connection = "closed"
            self.screen = Screen.CONNECTING if not self.welcomed_once else self.screen

    def seat_is_held(self) -> bool:
        """Whether the server holds a seat of ours while the link is down."""
        table = self.table
        return table is not None and table.your_seat is not None and table.status == "playing"

    def _describe(self, event: m.EventMessage) -> str:
        name = self.seat_name
        ascii_only = self.settings.ascii_cards

        def card(text: str) -> str:
            return Card.parse(text).pretty(ascii_only)

        if isinstance(event, m.HandStartedEvent):
            return f"Hand {event.hand_number}: {name(event.first_drafter)} draft first."
        if isinstance(event, m.ShuffledEvent):
            return ""  # the draft (or blind-nil) prompt that follows says enough
        if isinstance(event, m.BlindNilEvent):
            if event.declared:
                return f"{name(event.seat)} declared BLIND NIL!"
            return f"{name(event.seat)}: no blind nil."
        if isinstance(event, m.DraftTurnEvent):
            if event.card is None:
                return ""  # the opponent's draft turns say nothing; the counts show them
            if event.kept:
                seen = f" ({card(event.other_card)} went to the pile)" if event.other_card else ""
                return f"You kept {card(event.card)}{seen}."
            taken = card(event.other_card) if event.other_card else "?"
            return f"You discarded {card(event.card)} and took {taken}."
        if isinstance(event, m.ExchangeEvent):
            if event.given or event.received:
                given = " ".join(card(c) for c in event.given)
                got = " ".join(card(c) for c in event.received)
                return f"You gave {given or 'nothing'} and got {got or 'nothing'}."
            return f"{name(event.seat)} exchanged {event.count} card(s)."
        if isinstance(event, m.BidEvent):
            return f"{name(event.seat)} bid {'nil' if event.tricks == 0 else event.tricks}."
        if isinstance(event, m.CardPlayedEvent):
            return f"{name(event.seat)} played {card(event.card)}."
        if isinstance(event, m.TrickWonEvent):
            return f"{name(event.trick.winner)} won trick {event.number}."
        if isinstance(event, m.HandScoredEvent):
            return ""  # the hand_result message that follows says it in full
        if event.winner is None:
            return "Game over."
        won, lost = event.scores[event.winner], event.scores[1 - event.winner]
        verb = "win" if event.winner == self.my_seat else "wins"
        return f"Game over: {name(event.winner)} {verb} {won} to {lost}."  # winner first

    # ---- acting --------------------------------------------------------------------

    def _clear_turn(self) -> None:
        self.turn = None
        self.legal = ()
        self.typed = ""

    def _act(self, action: PlayerAction) -> bool:
        """Send ``action`` if the pending turn allows it; True when sent."""
        turn, table = self.turn, self.table
        if turn is None or table is None:
            self.flash = "It is not your turn."
            return False
        if isinstance(action, Exchange):
            limit = turn.exchange_max or 0
            held = set(self.view.hand) if self.view is not None else set()
            if len(action.cards) > limit or not set(action.cards) <= held:
                self.flash = f"Pick at most {limit} of your cards."
                return False
        elif action not in self.legal:
            self.flash = "That is not a legal move now."
            return False
        seq = self.seq.get(table.code, self.seq_base) + 1
        self.seq[table.code] = seq
        act = m.Act(code=table.code, action=action_message(action), version=turn.version, seq=seq)
        self.pending = act
        self.last_turn = turn
        self._clear_turn()
        self.flash = ""
        self.cursor = None if isinstance(action, Play) else self.cursor
        self.send(act)
        return True

    # ---- keys ----------------------------------------------------------------------

    def press(self, key: str) -> None:
        """Handle one key: a name (``left``, ``enter``, ``escape``, ``tab``, ``backspace``,
        ``space``, ``up``, ``down``, ``right``) or one printable character."""
        if self.overlay is not None:
            self._press_overlay(self.overlay, key)
            return
        if key == "?":
            self.overlay = Overlay.HELP
            return
        if self.screen is Screen.LOBBY:
            self._press_lobby(key)
            return
        if self.screen is not Screen.TABLE:
            if key == "q":
                self.request_quit()
            return
        if key == "tab":
            self.overlay = Overlay.SCORES
        elif key == "o":
            self.overlay = Overlay.SETTINGS
        elif key == "m":
            self.overlay = Overlay.CHAT
            self.chat_entry = ""
        elif key == "escape":
            self.typed = ""
            self.flash = ""
        elif key == "x":
            self._press_leave()
        else:
            self._press_table(key)

    def request_quit(self) -> None:
        """Quit the client now (no question asked)."""
        self.quit_requested = True
        if self.on_quit is not None:
            self.on_quit()

    def in_live_game(self) -> bool:
        """Seated at a table whose game is under way (leaving it has a cost)."""
        table = self.table
        if table is None or table.your_seat is None or table.status != "playing":
            return False
        return self.game_over is None and self.phase is not Phase.GAME_OVER

    def interrupt(self) -> None:
        """Ctrl-C: quit at once, except during a live game, where it asks first (a
        second Ctrl-C is the answer yes)."""
        if self.overlay is Overlay.QUIT or not self.in_live_game():
            self.request_quit()
            return
        self.typed = ""
        self.overlay = Overlay.QUIT

    def _press_leave(self) -> None:
        if self.table is None:
            return
        self.typed = ""  # a half-typed card never combines with the answer
        if self.in_live_game():
            self.overlay = Overlay.LEAVE
        else:
            self.send(m.Leave(code=self.table.code))

    def _press_question(self, overlay: Overlay, key: str) -> None:
        """The yes/no prompts: only y answers yes; n or Esc answers no; any other key
        leaves the question up and says which keys answer it."""
        if key == "y":
            self.overlay = None
            self.flash = ""
            if overlay is Overlay.QUIT:
                self.request_quit()
            elif self.table is not None:
                self.send(m.Leave(code=self.table.code))
        elif key in ("n", "escape"):
            self.overlay = None
            self.flash = ""
        else:
            self.flash = "Answer the question: y = yes, n = no."

    def _press_overlay(self, overlay: Overlay, key: str) -> None:
        if overlay in (Overlay.LEAVE, Overlay.QUIT):
            self._press_question(overlay, key)
            return
        if overlay is Overlay.RESULT:
            closing = key in ("escape", "enter", "space")
            if closing and self.clock() - self.result_opened_at < RESULT_KEY_GRACE:
                return  # an Enter meant for the table must not close the window unseen
            self.overlay = None
            if not closing:
                self.press(key)  # the next hand may be waiting for this key
            return
        if overlay is Overlay.HELP and key == "r":
            self.overlay = Overlay.RULES
            return
        if overlay in (Overlay.HELP, Overlay.SCORES, Overlay.PILE, Overlay.RULES):
            if key in ("escape", "enter", "space", "q", "?", "tab", "p"):
                self.overlay = None
            elif key in ("o", "m", "x", "r", "l"):  # go on to what the key normally does
                self.overlay = None
                self.press(key)
            return
        if overlay is Overlay.SETTINGS:
            rows = len(Settings.ITEMS)
            if key in ("escape", "o", "q"):
                self.overlay = None
            elif key == "up":
                self.settings_row = (self.settings_row - 1) % rows
            elif key == "down":
                self.settings_row = (self.settings_row + 1) % rows
            elif key in ("enter", "space", "left", "right"):
                name = Settings.ITEMS[self.settings_row][0]
                self.settings.change(name, -1 if key == "left" else 1)
            return
        if overlay is Overlay.CHAT:
            if key == "escape":
                self.overlay = None
            elif key == "enter":
                text = self.chat_entry.strip()
                if text and self.table is not None and not self._chat_command(text):
                    self.send(m.Chat(code=self.table.code, text=text[:200]))
                self.chat_entry = ""
                self.overlay = None
            elif key == "backspace":
                self.chat_entry = self.chat_entry[:-1]
            elif key == "space":
                self.chat_entry += " "
            elif len(key) == 1 and key.isprintable():
                self.chat_entry = (self.chat_entry + key)[:200]
            return
        if overlay is Overlay.CREATE:
            self._press_create(key)
            return
        # JOIN / WATCH: a table code
        if key == "escape":
            self.overlay = None
        elif key == "enter":
            code = self.code_entry.strip().upper()
            if code:
                if overlay is Overlay.JOIN:
                    self.send(m.JoinTable(code=code))
                else:
                    self.send(m.WatchTable(code=code))
                self.overlay = None
        elif key == "backspace":
            self.code_entry = self.code_entry[:-1]
        elif len(key) == 1 and (key.isalnum() or key == "-"):
            self.code_entry = (self.code_entry + key.upper())[:16]

    def _press_create(self, key: str) -> None:
        form = self.form
        rows = len(form.rows())
        if key == "escape":
            self.overlay = None
        elif key == "up":
            form.row = (form.row - 1) % rows
            form.typed = ""
        elif key == "down":
            form.row = (form.row + 1) % rows
            form.typed = ""
        elif key == "left":
            form.change(-1)
        elif key in ("right", "space"):
            form.change(+1)
        elif key == "backspace":
            form.backspace()
        elif key == "enter":
            self.send(
                m.CreateTable(
                    preset=form.preset,
                    overrides=form.overrides(),
                    private=form.private,
                    bot=form.bot,
                )
            )
            self.overlay = None
        elif len(key) == 1:
            form.type_char(key)

    def _press_lobby(self, key: str) -> None:
        if key == "q":
            self.request_quit()
        elif key == "up":
            self.lobby_row = max(0, self.lobby_row - 1)
        elif key == "down":
            self.lobby_row = min(max(0, len(self.tables) - 1), self.lobby_row + 1)
        elif key in ("enter", "w") and self.tables:
            summary = self.tables[self.lobby_row]
            code = summary.code
            full = all(seat.kind != "empty" for seat in summary.seats)
            if key == "enter" and not full:
                self.send(m.JoinTable(code=code))
            else:
                self.send(m.WatchTable(code=code))
        elif key == "c":
            self.overlay = Overlay.CREATE
            self.form.error = ""
        elif key == "j":
            self.overlay = Overlay.JOIN
            self.code_entry = ""
        elif key == "v":
            self.overlay = Overlay.WATCH
            self.code_entry = ""
        elif key == "r":
            self.send(m.ListTables())

    def _press_table(self, key: str) -> None:
        table = self.table
        if table is None:
            return
        over = self.game_over is not None or self.phase is Phase.GAME_OVER
        if key == "p" and not over:
            self.overlay = Overlay.PILE
            return
        if key == "r" and not over:
            self.overlay = Overlay.RULES
            return
        if over:
            if key == "r" and table.your_seat is None:
                self.flash = "Watching: there is no rematch to ask for."
            elif key == "r":
                self.send(m.Rematch(code=table.code))
                self.say("You asked for a rematch.")
            elif key == "l":
                self.send(m.Leave(code=table.code))
            elif key in ("s", "a"):
                record_id = self.game_over.record_id if self.game_over else table.record_id
                if record_id:
                    self.send(m.GetRecord(record_id=record_id))
                    self.analysis_wanted = key == "a"  # analysed once the record is here
                else:
                    self.flash = "No record yet."
            return
        if table.status == "waiting" and key == "b" and table.your_seat is not None:
            self.send(m.AddBot(code=table.code, level=self.bot_level))
            return
        turn = self.turn
        if turn is None:
            if key == "enter" and self.pausing:
                self.end_pause()  # seen the trick: go on without waiting out the pause
            elif key == "enter":
                self.flash = "Not your turn yet."
            elif key in ("left", "right", "up", "down"):
                self._move(key, self.hand_cards())
            return
        phase = turn.phase
        if phase == "blind_nil":
            if key in ("y", "b"):
                if BlindNil(True) in self.legal:
                    self._act(BlindNil(True))
                else:
                    self.flash = "You may not declare blind nil now."
            elif key in ("n", "enter"):
                self._act(BlindNil(False))
        elif phase == "draft":
            if key == "k":
                self._act(Keep())
            elif key == "d":
                self._act(Discard())
        elif phase == "bidding":
            self._press_bid(key)
        elif phase == "exchange":
            self._press_exchange(key)
        elif phase == "play":
            self._press_play(key)

    def _bids(self) -> list[int]:
        return sorted(a.tricks for a in self.legal if isinstance(a, Bid))

    def _press_bid(self, key: str) -> None:
        bids = self._bids()
        if not bids:
            return
        if key.isdigit() and len(key) == 1:
            entry = self.bid_entry + key if self.bid_entry not in ("", "0") else key
            if int(entry) > 13:
                entry = key
            self.bid_entry = entry
        elif key == "n":
            if 0 in bids:
                self.bid_entry = "0"
            else:
                self.flash = "Nil is off in these rules."
        elif key == "backspace":
            self.bid_entry = self.bid_entry[:-1]
        elif key in ("up", "right", "down", "left"):
            current = int(self.bid_entry) if self.bid_entry else None
            step = 1 if key in ("up", "right") else -1
            if current is None:
                value = bids[0] if step > 0 else bids[-1]
            else:
                value = min(max(current + step, bids[0]), bids[-1])
            self.bid_entry = str(value)
        elif key == "enter":
            if not self.bid_entry:
                self.flash = "Type your bid (0-13, n for nil), then Enter."
                return
            value = int(self.bid_entry)
            if value not in bids:
                self.flash = f"You may bid {bids[0]} to {bids[-1]}."
                return
            self._act(Bid(value))

    def _move(self, key: str, cards: list[Card]) -> None:
        if not cards:
            return
        if self.cursor not in cards:
            self.cursor = cards[0]
            return
        assert self.cursor is not None
        index = cards.index(self.cursor)
        if key in ("left", "right"):
            index = (index + (1 if key == "right" else -1)) % len(cards)
            self.cursor = cards[index]
            return
        # up / down: the first card of the next / previous suit group
        suits = []
        for card in cards:
            if card.suit not in suits:
                suits.append(card.suit)
        at = suits.index(self.cursor.suit)
        target = suits[(at + (1 if key == "down" else -1)) % len(suits)]
        self.cursor = next(c for c in cards if c.suit == target)

    def _typed_card(self, key: str) -> Card | None:
        """Feed a key to the typed-card buffer; the card once one is complete."""
        if key not in CARD_KEYS:
            return None
        self.typed = (self.typed + key.lower())[-3:]
        if self.typed[-1] in "cdhs" and len(self.typed) >= 2:
            text, self.typed = self.typed, ""
            for start in range(len(text) - 1):
                try:
                    return Card.parse(text[start:])
                except EngineError:
                    continue
            self.flash = f"{text!r} is not a card; type e.g. qs or 10h"
        return None

    def _press_play(self, key: str) -> None:
        legal = self.legal_cards()
        ordered = [c for c in self.hand_cards() if c in legal]
        if key in ("left", "right", "up", "down"):
            self._move(key, ordered)
            return
        if key in ("enter", "space"):
            if self.typed:  # a half-typed card: Enter must not play the cursor's card
                self.flash = f"Finish typing the card ({self.typed}…) or Esc to clear it."
                return
            if self.cursor is None or self.cursor not in legal:
                choose = "Choose a card that may be played (bright), then Enter."
                # a refusal stays on screen: it says why nothing was played
                self.flash = (
                    f"{self.flash} · {choose}"
                    if "may not" in self.flash or ("not hold" in self.flash)
                    else choose
                )
                return
            self._act(Play(self.cursor))
            return
        if key == "backspace":
            self.typed = self.typed[:-1]
            return
        if key not in CARD_KEYS:
            return
        card = self._typed_card(key)
        if card is None:
            if not self.typed:  # a complete text that is not a card: nothing is chosen
                self.cursor = None
            return
        view = self.view
        # after any refusal no card is chosen, so Enter cannot play one the player
        # did not pick; an arrow key or a legal typed card chooses again
        if view is None or card not in view.hand:
            self.cursor = None
            self.flash = f"You do not hold {self.card_text(card)}."
            return
        if card not in legal:
            self.cursor = None
            self.flash = f"{self.card_text(card)} may not be played now: {self._why_illegal()}"
            return
        self.cursor = card
        self.flash = ""
        if not self.settings.confirm_before_play:
            self._act(Play(card))

    def _why_illegal(self) -> str:
        view = self.view
        if view is not None and view.current_trick:
            suit = view.current_trick[0].suit
            return f"follow suit ({Card.of(0, suit).pretty(self.settings.ascii_cards)[-1]})"
        return "spades are not broken"

    def _press_exchange(self, key: str) -> None:
        cards = self.hand_cards()
        limit = self.turn.exchange_max if self.turn and self.turn.exchange_max else 0
        if key in ("left", "right", "up", "down"):
            self._move(key, cards)
            return
        if key == "enter":
            self._act(Exchange(tuple(sorted(self.picks))))
            return
        card: Card | None
        if key == "space":
            card = self.cursor
        else:
            card = self._typed_card(key)
            if card is not None and card not in cards:
                self.flash = f"You do not hold {self.card_text(card)}."
                return
        if card is None:
            return
        self.cursor = card
        if card in self.picks:
            self.picks.discard(card)
        elif len(self.picks) >= limit:
            self.flash = f"At most {limit} cards; Space on a picked card drops it."
        else:
            self.picks.add(card)
