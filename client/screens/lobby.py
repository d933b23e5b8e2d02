"""The lobby: the open tables (↑/↓, Enter joins, w watches, r refreshes), and the window
where a table code is typed to join (j) or watch (v) a table not listed."""

from __future__ import annotations

from client.draw import MAIN_WIDTH, Dims, Line, pad
from client.i18n import _
from client.model.core import Model, Overlay
from client.rules import preset_text, status_text
from client.screens import playnow
from client.screens.account import lobby_lines
from client.screens.account import open_window as open_account
from client.screens.profile import open_board, open_profile
from client.text import safe_text
from protocol import messages as m

__all__ = ["code_keys", "code_lines", "code_title", "keys", "main", "prompt"]


ACCOUNT_KEYS = {"a": open_account, "m": open_profile, "b": open_board}


def prompt(model: Model) -> str:
    rest = _("↑/↓ choose · Enter join · w watch · c create · j code · r refresh")
    return _("p play now") + " · " + rest


def main(model: Model, size: Dims) -> list[Line]:
    play_now = [("class:turn", "  " + _("Play now: press p to find an opponent"))]
    lines: list[Line] = [play_now, [], [("class:head", "  " + _("Open tables"))], []]
    if not model.lobby.tables:
        lines.append([("class:dim", "  " + _("No open tables yet. Press c to create one"))])
        lines.append([("class:dim", "  " + _("(with the bot, or wait for a friend)."))])
    for index, summary in enumerate(model.lobby.tables[:14]):
        seats = (" " + _("vs") + " ").join(
            (
                safe_text(s.name or "")
                or (
                    _("bot") + f" {_(s.bot_level) if s.bot_level else ''}"
                    if s.kind == "bot"
                    else "?"
                )
            )
            if s.kind != "empty"
            else _("(free)")
            for s in summary.seats
        )
        preset = preset_text(safe_text(summary.preset or "")) or _("custom")
        text = (
            f"  {pad(summary.code, 9)} {pad(preset, 13)}"
            f"{pad(seats, 20)} {status_text(summary.status)}"
        )
        style = "class:overlay.sel" if index == model.lobby.row else ""
        lines.append([(style, pad(text, MAIN_WIDTH))])
    lines.extend([[], *lobby_lines(model)])  # the account: a sign in, m my profile, b leaderboard
    return lines


def keys(model: Model, key: str) -> bool:
    lobby = model.lobby
    chosen = lobby.chosen()
    if key == "q":
        model.request_quit()
    elif key == "p":
        playnow.open_window(model)
    elif key in ("up", "down"):
        lobby.move(-1 if key == "up" else 1)
    elif key in ("enter", "w") and chosen is not None:
        full = all(seat.kind != "empty" for seat in chosen.seats)
        if key == "enter" and not full:
            model.send(m.JoinTable(code=chosen.code))
        else:
            model.send(m.WatchTable(code=chosen.code))
    elif key == "c":
        lobby.form.clear_error()
        model.open(Overlay.CREATE)
    elif key in ("j", "v"):
        lobby.clear_code()
        model.open(Overlay.JOIN if key == "j" else Overlay.WATCH)
    elif key == "r":
        model.send(m.ListTables())
    elif key in ACCOUNT_KEYS:  # a account, m my profile, b leaderboard (client/screens/profile.py)
        ACCOUNT_KEYS[key](model)
    else:
        return False
    return True


def code_title(model: Model) -> str:
    return _("Join a table") if model.overlay is Overlay.JOIN else _("Watch a table")


def code_lines(model: Model, size: Dims) -> list[Line]:
    go = _("Enter to join") if model.overlay is Overlay.JOIN else _("Enter to watch")
    return [
        [("", " " + _("table code:") + " "), ("class:head", model.lobby.code_entry + "▏")],
        [("class:dim", " " + go)],
    ]


def code_keys(model: Model, key: str) -> bool:
    """The join / watch window: type a table code, Enter goes there."""
    lobby = model.lobby
    if key == "escape":
        model.close()
    elif key == "enter":
        code = lobby.typed_code()
        if code:
            joining = model.overlay is Overlay.JOIN
            model.send(m.JoinTable(code=code) if joining else m.WatchTable(code=code))
            model.close()
    elif key == "backspace":
        lobby.erase_code()
    else:
        lobby.type_code(key)
    return True
