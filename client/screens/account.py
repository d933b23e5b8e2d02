"""The account window (a in the lobby): sign in, or register a new account; Tab
switches between the two, ↑/↓ the field, Enter sends. Signed in, it offers the profile
(p) and the leaderboard (b)."""

from __future__ import annotations

from client.draw import Dims, Line, pad
from client.i18n import _
from client.model.core import Model, Overlay
from client.rules import preset_text
from protocol import messages as m

__all__ = [
    "FORM_LABEL_COLUMNS",
    "keys",
    "lines",
    "lobby_lines",
    "open_window",
    "rated_lines",
    "rated_wanted",
    "title",
]

# the create-table window's label column (client/screens/create.py pads its labels to
# it): the rated line's label is padded alike, in terminal columns (client.draw.pad
# measures with prompt_toolkit's get_cwidth), so that its value stands under theirs
FORM_LABEL_COLUMNS = 44


def rated_wanted(model: Model) -> bool:
    """Whether the create window asks for a rated game (signed in, and R left on)."""
    return model.account.signed_in is not None and model.account.rated


def rated_lines(model: Model) -> list[Line]:
    """The create window's line about rating (none for a guest)."""
    if model.account.signed_in is None:
        return []
    text = _("rated (R changes)") if model.account.rated else _("casual (R changes)")
    return [[("", f" {pad(_('Game'), FORM_LABEL_COLUMNS)} {text}")]]


def lobby_lines(model: Model) -> list[Line]:
    """The lobby's account lines: who is signed in and the keys of the account windows."""
    account = model.account
    if account.signed_in is None:
        return [[("class:dim", "  " + _("Guest · a sign in or register · b leaderboard"))]]
    ratings = " · ".join(
        f"{preset_text(line.preset)} {line.rating}{'?' if line.provisional else ''}"
        for line in account.ratings
    )
    return [
        [("", "  " + _("{name}: {ratings}").format(name=account.signed_in, ratings=ratings))],
        [("class:dim", "  " + _("m my profile · b leaderboard"))],
    ]


def open_window(model: Model) -> None:
    """The lobby's a: the form (sign in first), or the profile when signed in."""
    account = model.account
    if account.signed_in is not None:
        model.send(m.GetProfile(name=account.signed_in))
        model.open(Overlay.PROFILE)
        return
    account.start("sign_in", "")
    model.open(Overlay.ACCOUNT)


def title(model: Model) -> str:
    return _("Register") if model.account.mode == "register" else _("Sign in")


def lines(model: Model, size: Dims) -> list[Line]:
    account = model.account
    labels = (_("name"), _("password"))
    shown = (account.entries[0], "•" * len(account.entries[1]))
    out: list[Line] = []
    for row in (0, 1):
        style = "class:overlay.sel" if row == account.row else ""
        cursor = "▏" if row == account.row else ""
        out.append([(style, f" {pad(labels[row], 10)} {pad(shown[row] + cursor, 30)}")])
    out.append([])
    if account.error:
        out.append([("class:bad", " " + account.error)])
    other = _("register a new account") if account.mode == "sign_in" else _("sign in instead")
    out.append([("class:dim", " " + _("↑/↓ field · Enter send · Tab {other}").format(other=other))])
    return out


def keys(model: Model, key: str) -> bool:
    account = model.account
    if key == "escape":
        model.close()
    elif key in ("up", "down"):
        account.next_field()
    elif key == "tab":
        account.start("register" if account.mode == "sign_in" else "sign_in", account.entries[0])
    elif key == "enter":
        if account.row == 0:
            account.next_field()
        else:
            account.submit(model)
    elif key == "backspace":
        account.erase()
    elif key == "space":
        account.type_char(" ")
    elif len(key) == 1:
        account.type_char(key)
    return True
