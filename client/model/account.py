"""The account part of the model: who is signed in, the sign-in / register form, the last
profile and leaderboard asked for, and the profile's game chosen to open.

    account.receive(model, message)   # True: an accounts message, folded here
    account.submit(model)             # the form's Enter: sign_in or register
    account.choose(+1)                # the profile's next game
    account.open_game(model, "replay")    # its record fetched (get_record), then shown

A profile's game opens as the browser's profile opens it (its ``#r=`` link): the record is
fetched with ``get_record``, then handed to the model's ``on_replay(record_json)`` (the
terminal replay viewer, ``spades replay``) or ``on_analysis(record_json, seat)``
(``spades analyze`` of the profile's seat), both given by the app
(:func:`client.ui.build_application`). The last records fetched are kept, so the replay
and then the analysis of one game fetch once.

Words come from :mod:`client.i18n`; a refusal of an account request is shown by its
error code (the server's sentence stays English). Raises nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from client.errors import error_text as server_error_text
from client.i18n import _
from client.model.account_manage import ManageForm
from client.text import safe_text
from protocol import messages as m

__all__ = ["ACCOUNT_REQUESTS", "AccountPart", "GameAsked", "Host", "error_text"]

KEPT_RECORDS = 4  # records kept for the profile's games (each a few tens of kB)

ACCOUNT_REQUESTS = frozenset(
    {
        "register",
        "sign_in",
        "change_password",
        "sign_out_everywhere",
        "delete_account",
        "get_profile",
        "get_leaderboard",
    }
)


class _Session(Protocol):
    token: str | None


class Host(Protocol):
    """What the part needs of the model."""

    name: str

    @property
    def link(self) -> _Session:
        """The session (its token: the next hello says the account's)."""
        ...

    on_token: Callable[[str], None] | None

    # ``spades analyze`` on a record, for a seat (the app sets it; None: no terminal)
    on_analysis: Callable[[str, int | None], None] | None
    # ``spades replay`` on a record (the app sets it; None: no terminal)
    on_replay: Callable[[str], None] | None

    def send(self, message: m.ClientMessage) -> None: ...

    def say(self, line: str) -> None: ...

    def notify(self, text: str) -> None: ...

    def close(self) -> None: ...


def error_text(code: str) -> str:
    """The player's words for an account request's refusal."""
    texts = {
        "bad_credentials": _("Wrong name or password."),
        "name_taken": _("An account with a name like this exists already."),
        "bad_password": _("A password has at least 8 characters."),
        "bad_name": _("This name cannot be used."),
        "not_signed_in": _("Sign in to an account first."),
        "unknown_account": _("No account has this name."),
        "rate_limited": _("Too many attempts. Try again later."),
    }
    return texts.get(code, _("The server refused this ({code}).").format(code=code))


def _refusal_text(message: m.ErrorMessage) -> str:
    """An account code's words, else the general refusals' (client/errors.py)."""
    if message.code in _ACCOUNT_CODES:
        return error_text(message.code)
    return server_error_text(message.code, message.message)


_ACCOUNT_CODES = frozenset(
    {
        "bad_credentials",
        "name_taken",
        "bad_password",
        "bad_name",
        "not_signed_in",
        "unknown_account",
        "rate_limited",
    }
)


@dataclass(frozen=True)
class GameAsked:
    """A profile's game whose record is on its way: to show as ``purpose``."""

    record_id: str
    seat: int
    purpose: Literal["replay", "analysis"]


@dataclass
class AccountPart:
    """The account's state in the model (see the module)."""

    signed_in: str | None = None  # the account's name
    ratings: tuple[m.RatingLine, ...] = ()
    profile: m.Profile | None = None
    board: m.Leaderboard | None = None
    board_preset: Literal["classic", "five-hundred"] = "classic"
    mode: Literal["sign_in", "register"] = "sign_in"
    row: int = 0  # 0: name, 1: password
    entries: list[str] = field(default_factory=lambda: ["", ""])
    error: str = ""
    rated: bool = True  # the create window's choice (R), for a signed-in player
    manage: ManageForm = field(default_factory=ManageForm)  # change password, delete…
    chosen: int = 0  # the profile's game the keys open (0: the newest)
    asked: GameAsked | None = None  # a record fetched for a profile's game
    records: dict[str, str] = field(default_factory=dict)  # record id -> its JSON

    # ---- the form ----------------------------------------------------------------------

    def start(self, mode: Literal["sign_in", "register"], name: str) -> None:
        self.mode, self.row, self.error = mode, 0, ""
        self.entries = [name, ""]

    def clear_error(self) -> None:
        """The last refusal read: gone from the windows."""
        self.error = ""

    def next_field(self) -> None:
        self.row = 1 - self.row

    def toggle_rated(self) -> None:
        self.rated = not self.rated

    def other_board(self) -> None:
        """The leaderboard of the other preset."""
        self.board_preset = "five-hundred" if self.board_preset == "classic" else "classic"

    def type_char(self, char: str) -> None:
        if len(self.entries[self.row]) < (24 if self.row == 0 else 128):
            self.entries[self.row] += char

    def erase(self) -> None:
        self.entries[self.row] = self.entries[self.row][:-1]

    def submit(self, host: Host) -> None:
        name, password = self.entries[0].strip(), self.entries[1]
        if not name or not password:
            self.error = _("Type a name and a password.")
            return
        if self.mode == "register":
            host.send(m.Register(name=name, password=password))
        else:
            host.send(m.SignIn(name=name, password=password))
        self.error = ""

    # ---- the profile's games -----------------------------------------------------------

    def choose(self, step: int) -> None:
        """The previous (-1) or next (+1) game of the profile on show."""
        games = self.profile.games if self.profile is not None else ()
        if games:
            self.chosen = min(max(self.chosen + step, 0), len(games) - 1)

    def chosen_game(self) -> m.ProfileGame | None:
        games = self.profile.games if self.profile is not None else ()
        return games[self.chosen] if 0 <= self.chosen < len(games) else None

    def open_game(self, host: Host, purpose: Literal["replay", "analysis"]) -> None:
        """Show the chosen game's replay or analysis (its record fetched first, once)."""
        game = self.chosen_game()
        if game is None:
            host.notify(_("No games yet."))
            return
        asked = GameAsked(game.record_id, game.seat, purpose)
        record = self.records.get(game.record_id)
        if record is not None:
            self._show(host, asked, record)
            return
        self.asked = asked
        host.send(m.GetRecord(record_id=game.record_id))
        host.notify(_("Fetching the game's record…"))

    def _show(self, host: Host, asked: GameAsked, record_json: str) -> None:
        if asked.purpose == "replay":
            if host.on_replay is None:
                host.notify(_("The replay needs a terminal."))
            else:
                host.notify("")
                host.on_replay(record_json)
        elif host.on_analysis is None:
            host.notify(_("The analysis needs a terminal."))
        else:
            host.notify("")
            host.on_analysis(record_json, asked.seat)

    def _record(self, host: Host, message: m.RecordMessage) -> bool:
        """A record asked for a profile's game: kept and shown (False: not ours)."""
        asked = self.asked
        if asked is None or message.record_id != asked.record_id:
            return False
        self.asked = None
        self.records[message.record_id] = message.record_json
        while len(self.records) > KEPT_RECORDS:
            self.records.pop(next(iter(self.records)))
        self._show(host, asked, message.record_json)
        return True

    # ---- the server's answers ----------------------------------------------------------

    def receive(self, host: Host, message: m.ServerMessage) -> bool:
        """Fold an accounts message (or an account request's refusal); False otherwise."""
        if isinstance(message, m.SignedIn):
            self.signed_in = safe_text(message.name)
            self.ratings = message.ratings
            self.entries = ["", ""]
            host.name = self.signed_in
            host.link.token = message.token
            if host.on_token is not None:
                host.on_token(message.token)
            host.say(_("Signed in as {name}.").format(name=self.signed_in))
            host.close()
        elif isinstance(message, m.AccountDone):
            if message.token is not None:
                host.link.token = message.token
                if host.on_token is not None:
                    host.on_token(message.token)
            self.manage.reset()
            self.error = ""
            if message.done == "deleted":
                self.signed_in, self.ratings, self.profile = None, (), None
                host.link.token = None  # the account's sessions are gone: come back a guest
                host.close()
                host.notify(_("Account deleted. You play as a guest now."))
            elif message.done == "signed_out":
                host.notify(_("Signed out everywhere else."))
            else:
                host.notify(_("Password changed."))
        elif isinstance(message, m.Profile):
            if self.profile is None or self.profile.name != message.name:
                self.chosen = 0  # another account's games: start from the newest
            self.profile = message
            self.chosen = min(self.chosen, max(0, len(message.games) - 1))
            if safe_text(message.name) == self.signed_in:
                self.ratings = message.ratings  # ours, fresh
        elif isinstance(message, m.Leaderboard):
            self.board = message
        elif isinstance(message, m.ErrorMessage) and message.request in ACCOUNT_REQUESTS:
            self.error = _refusal_text(message)
            host.notify(self.error)
        elif isinstance(message, m.RecordMessage):
            return self._record(host, message)
        elif (
            isinstance(message, m.ErrorMessage)
            and message.request == "get_record"
            and self.asked is not None
        ):
            self.asked = None  # the profile's game cannot be fetched: say why
            host.notify(server_error_text(message.code, message.message))
        else:
            return False
        return True
