"""The model's base: its parts, what the screen shows, and what goes out to the server.

    model.say("line")            # the log;  model.notify("text"): the flash line
    model.open(Overlay.HELP)     # a window on top;  model.close()
    model.act(Bid(3))            # a move of the pending turn (the screens call it)

:class:`ModelBase` is everything of the model but the server's messages, which
:class:`client.model.core.Model` folds in.

The model is made of small parts, each with its own methods: :class:`Link` (the
connection and the session), :class:`Lobby` (open tables, the create form),
:class:`Table` (the table, its folded view, the pending turn, results and checks),
:class:`Chat`, :class:`Selection` (the cursor, typed card or bid, exchange picks) and
:class:`Settings`. The model itself holds what the screen is showing (the screen, the
window on top, the flash line, the log) and the trick pause. It knows nothing of
prompt_toolkit or sockets: every message to the server goes out through ``send``; the
network task reports through :meth:`Model.connection_reached`,
:meth:`Model.connection_lost` and :meth:`Model.connection_failed`. Keys are not handled
here: each screen and window owns its keys (:mod:`client.keys`), and
:class:`client.model.ClientModel` is this model with ``press``.

The client decides nothing the server decides: the cards that may be played, the bids
that may be made, whether blind nil may be declared, all come from ``your_turn.legal``.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from client.cardwords import card_text
from client.i18n import _, language
from client.model.account import AccountPart
from client.model.chat import Chat
from client.model.connection import Link, Status
from client.model.form import CreateForm
from client.model.lobby import Lobby
from client.model.seek import PlayNow
from client.model.selection import Selection, hand_order
from client.model.settings import Settings
from client.model.table import Table
from client.text import safe_text
from engine import Card, Phase, Play, PlayerAction, PlayerView
from engine import HandResult as EngineHandResult
from protocol import messages as m

__all__ = ["LOG_LINES", "RESULT_KEY_GRACE", "Intent", "ModelBase", "Overlay", "Screen"]

LOG_LINES = 200
# the hand window ignores keys this long after it opens: a key pressed for the table just
# as the last trick cleared must not close it before it was seen
RESULT_KEY_GRACE = 0.5


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
    ACCOUNT = "account"  # sign in or register (client/screens/account.py)
    PROFILE = "profile"  # an account's profile (client/screens/profile.py)
    BOARD = "board"  # a preset's leaderboard (client/screens/profile.py)
    MANAGE = "manage"  # change password, sign out everywhere, delete (screens/account_manage)
    PLAY_NOW = "play_now"  # seek an opponent (client.screens.playnow)


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


Schedule = Callable[[float, Callable[[], None]], None]


class ModelBase:
    """The client's state and its methods; :class:`~client.model.core.Model` adds the
    server's messages."""

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
        token: str | None = None,
        local: bool = False,
    ) -> None:
        self.name = name
        self.url = url
        self.clock = clock
        self.bot_level: Literal["easy", "normal", "hard"] = bot_level
        self.local = local  # the server runs inside this process (plain ``spades``)
        self.settings = settings or Settings()
        self.intent = intent or Intent()
        self.link = Link(token)
        self.lobby = Lobby()
        self.account = AccountPart()
        self.play_now = PlayNow()
        self.game = Table()
        self.chat = Chat()
        self.selection = Selection()
        self.screen = Screen.CONNECTING
        self.overlay: Overlay | None = None
        self.settings_row = 0
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.flash = ""
        self.refusal = ""  # the flash line that says why a card was refused (kept on Enter)
        self.sent: list[m.ClientMessage] = []
        self.quit_requested = False
        self.analysis_wanted = False
        self.result_opened_at = -RESULT_KEY_GRACE
        # the trick pause: messages wait in ``held`` while a finished trick is on show
        self.pausing = False
        self.pause_number = 0  # which pause a timer's callback belongs to
        self.held: list[m.ServerMessage] = []
        self.resyncing = False  # a snapshot was asked for: its your_turn is the turn
        # where ``s`` saves the record (the working directory when None)
        self.record_dir: Path | None = None
        # what the app and the network give the model (see :meth:`attach`)
        self.sender = send
        self.on_quit: Callable[[], None] | None = None
        self.on_token: Callable[[str], None] | None = None
        # game over, key a: the screen analyses the record (``spades analyze``) with this
        self.on_analysis: Callable[[str, int | None], None] | None = None
        # a profile's game, Enter: the screen shows the record's replay (``spades replay``)
        self.on_replay: Callable[[str], None] | None = None
        # ``schedule(delay, callback)`` calls back later (the app uses the event loop;
        # tests fire it by hand); without it tricks clear at once
        self.schedule: Schedule | None = None

    def attach(
        self,
        *,
        send: Callable[[m.ClientMessage], None] | None = None,
        on_quit: Callable[[], None] | None = None,
        on_token: Callable[[str], None] | None = None,
        on_analysis: Callable[[str, int | None], None] | None = None,
        schedule: Schedule | None = None,
        on_replay: Callable[[str], None] | None = None,
    ) -> None:
        """Give the model what the running program provides (each one left out stays)."""
        self.sender = send or self.sender
        self.on_quit = on_quit or self.on_quit
        self.on_token = on_token or self.on_token
        self.on_analysis = on_analysis or self.on_analysis
        self.on_replay = on_replay or self.on_replay
        self.schedule = schedule or self.schedule

    def address(self, url: str, *, local: bool = False) -> None:
        """The server's address (shown to the player); ``local``: it runs in this process."""
        self.url = url
        self.local = local

    # ---- reading -------------------------------------------------------------------

    @property
    def table(self) -> m.TableInfo | None:
        return self.game.info

    @property
    def view(self) -> PlayerView | None:
        return self.game.view

    @property
    def turn(self) -> m.YourTurn | None:
        return self.game.turn

    @property
    def legal(self) -> tuple[PlayerAction, ...]:
        return self.game.legal

    @property
    def pending(self) -> m.Act | None:
        return self.game.pending

    @property
    def results(self) -> list[EngineHandResult]:
        return self.game.results

    @property
    def verified(self) -> dict[int, bool]:
        return self.game.verified

    @property
    def my_entropy(self) -> dict[int, bytes]:
        return self.game.my_entropy

    @property
    def entropy_included(self) -> dict[int, bool]:
        return self.game.entropy_included

    @property
    def game_over(self) -> m.GameOver | None:
        return self.game.game_over

    @property
    def record_json(self) -> str | None:
        return self.game.record_json

    @property
    def saved_record(self) -> Path | None:
        return self.game.saved_record

    @property
    def connection(self) -> Status:
        return self.link.status

    @property
    def token(self) -> str | None:
        return self.link.token

    @property
    def given_up(self) -> bool:
        return self.link.given_up

    @property
    def connect_error(self) -> str:
        return self.link.error

    @property
    def welcomed_once(self) -> bool:
        return self.link.welcomed_once

    @property
    def form(self) -> CreateForm:
        return self.lobby.form

    @property
    def tables(self) -> tuple[m.TableSummary, ...]:
        return self.lobby.tables

    @property
    def cursor(self) -> Card | None:
        return self.selection.cursor

    @property
    def typed(self) -> str:
        return self.selection.typed

    @property
    def bid_entry(self) -> str:
        return self.selection.bid_entry

    @property
    def picks(self) -> set[Card]:
        return self.selection.picks

    @property
    def code(self) -> str | None:
        return self.game.code

    @property
    def my_seat(self) -> int | None:
        return self.game.my_seat

    @property
    def my_turn(self) -> bool:
        return self.game.turn is not None

    @property
    def phase(self) -> Phase | None:
        return self.game.phase

    def seat_name(self, seat: int, *, you: bool = True) -> str:
        if you and seat == self.my_seat:
            return _("You")
        if self.table is not None:
            info = self.table.seats[seat]
            if info.kind == "empty":
                return _("(empty)")
            if info.kind == "bot":
                return _("Bot")
            name = safe_text(info.name or "").strip()
            if name:
                return name
        return _("Seat {seat}").format(seat=seat)

    def hold_left(self, seat: int) -> float | None:
        return self.game.hold_left(seat, self.clock())

    def turn_seconds_left(self) -> float | None:
        return self.game.turn_seconds_left(self.clock())

    def card_text(self, card: Card) -> str:
        return card_text(card, language(), self.settings.ascii_cards)

    def legal_cards(self) -> set[Card]:
        return self.game.legal_cards()

    def hand_cards(self) -> list[Card]:
        return hand_order(self.view.hand) if self.view is not None else []

    def in_live_game(self) -> bool:
        """Seated at a table whose game is under way (leaving it has a cost)."""
        table = self.table
        if table is None or table.your_seat is None or table.status != "playing":
            return False
        return not self.game.is_over()

    def seat_is_held(self) -> bool:
        """Whether the server holds a seat of ours while the link is down."""
        table = self.table
        return table is not None and table.your_seat is not None and table.status == "playing"

    # ---- what the screen shows -----------------------------------------------------

    def say(self, line: str) -> None:
        """Add ``line`` to the log."""
        self.log.append(line)

    def unsay(self, line_start: str) -> None:
        """Take back the last log line if it starts with ``line_start``."""
        if self.log and self.log[-1].startswith(line_start):
            self.log.pop()

    def notify(self, text: str) -> None:
        """Put ``text`` on the flash line ("" clears it)."""
        self.flash = text

    def refuse(self, text: str) -> None:
        """Put ``text`` on the flash line as the reason a card was refused: Enter then
        keeps it in view (it says why nothing was played)."""
        self.flash = self.refusal = text

    def open(self, overlay: Overlay | None) -> None:
        """Show ``overlay`` on top of the screen (None closes the window)."""
        self.overlay = overlay
        if overlay is Overlay.RESULT:
            self.result_opened_at = self.clock()

    def close(self) -> None:
        self.overlay = None

    def move_settings_row(self, step: int) -> None:
        self.settings_row = (self.settings_row + step) % len(Settings.ITEMS)

    def change_setting(self, direction: int) -> None:
        self.settings.change(Settings.ITEMS[self.settings_row][0], direction)

    def want_analysis(self, wanted: bool) -> None:
        self.analysis_wanted = wanted

    def request_quit(self) -> None:
        """Quit the client now (no question asked)."""
        self.quit_requested = True
        if self.on_quit is not None:
            self.on_quit()

    # ---- sending -------------------------------------------------------------------

    def send(self, message: m.ClientMessage) -> None:
        self.sent.append(message)
        if len(self.sent) > 1000:
            del self.sent[:500]
        if self.sender is not None:
            self.sender(message)

    def act(self, action: PlayerAction) -> bool:
        """Send ``action`` if the pending turn allows it; True when sent."""
        act = self.game.act(action)
        if isinstance(act, str):
            self.flash = act
            return False
        self.selection.clear_typed()
        self.flash = ""
        if isinstance(action, Play):
            self.selection.point(None)
        self.send(act)
        return True

    def resync(self) -> None:
        """Ask for a fresh snapshot of the table (the view fell out of step)."""
        table = self.table
        if table is None:
            return
        self.resyncing = True
        if table.your_seat is None:
            self.send(m.WatchTable(code=table.code))
        else:
            self.send(m.JoinTable(code=table.code))

    # ---- the network task's reports ------------------------------------------------

    def connection_reached(self) -> None:
        """The socket is open; the hello goes out next."""
        self.link.reached()

    def connection_lost(self) -> None:
        """The socket dropped; the network task reconnects with the session token."""
        self.link.lost()

    def connection_closed(self) -> None:
        """The network task stopped for good."""
        self.link.closed()

    def connection_failed(self, reason: str, *, final: bool, attempt: int = 0, of: int = 0) -> None:
        """Reaching the server failed for ``reason``; ``final``: the client stops trying."""
        self.link.failed(reason, final=final, attempt=attempt, of=of)
        if final and not self.welcomed_once:
            self.screen = Screen.CONNECTING
