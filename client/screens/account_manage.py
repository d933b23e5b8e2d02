"""The account's upkeep window (x in your profile, signed in): change the password
(current and new, masked), sign out everywhere (asks first), delete the account (the
password, then asks first). ↑/↓ the line or the field, Enter chooses or sends, y / n
answer a question, Esc goes back to the menu and from the menu closes.

    open_window(model)   # the profile's x; a guest is told to sign in
"""

from __future__ import annotations

from client.draw import Dims, Line, pad
from client.i18n import _
from client.model.account_manage import CHOICES
from client.model.core import Model, Overlay

__all__ = ["keys", "lines", "open_window", "title"]


def _choice_words() -> dict[str, str]:
    return {
        "password": _("Change password"),
        "sign_out": _("Sign out everywhere"),
        "delete": _("Delete account"),
    }


def open_window(model: Model) -> None:
    if model.account.signed_in is None:
        model.notify(_("Sign in to an account first."))
        return
    model.account.manage.reset()
    model.account.clear_error()
    model.open(Overlay.MANAGE)


def title(model: Model) -> str:
    step = model.account.manage.step
    if step == "menu":
        return _("Manage account")
    return _choice_words()["delete" if step == "delete_confirm" else step]


def lines(model: Model, size: Dims) -> list[Line]:
    account = model.account
    form = account.manage
    out: list[Line] = []
    if form.step == "menu":
        for index, choice in enumerate(CHOICES):
            style = "class:overlay.sel" if index == form.choice else ""
            out.append([(style, f" {pad(_choice_words()[choice], 40)}")])
    elif form.step in ("password", "delete"):
        labels = (_("Current password"), _("New password"))[: form.fields()]
        for row, label in enumerate(labels):
            style = "class:overlay.sel" if row == form.row else ""
            cursor = "▏" if row == form.row else ""
            shown = "•" * len(form.entries[row]) + cursor
            out.append([(style, f" {pad(label, 18)} {pad(shown, 30)}")])
    elif form.step == "sign_out":
        out.append([("", " " + _("Sign out every other device?"))])
    else:
        question = _("Delete {name} for good? Your games stay.")
        out.append([("class:bad", " " + question.format(name=account.signed_in or ""))])
    out.append([])
    if account.error:
        out.append([("class:bad", " " + account.error)])
    if form.step == "menu":
        hint = _("↑/↓ choose · Enter opens · Esc closes")
    elif form.fields():
        hint = _("↑/↓ field · Enter send · Esc back")
    else:
        hint = _("y yes · n no")
    out.append([("class:dim", " " + hint)])
    return out


def keys(model: Model, key: str) -> bool:
    form = model.account.manage
    if key == "escape" or (not form.fields() and form.step != "menu" and key == "n"):
        if form.step == "menu":
            model.close()
        else:
            form.reset()
        model.account.clear_error()
    elif key in ("up", "down"):
        form.move(-1 if key == "up" else 1)
    elif form.step == "menu":
        if key == "enter":
            form.choose()
            model.account.clear_error()
    elif not form.fields():
        if key == "y":
            form.confirm(model)
    elif key == "enter":
        model.account.clear_error()
        form.submit(model)
    elif key == "backspace":
        form.erase()
    elif key == "space":
        form.type_char(" ")
    elif len(key) == 1:
        form.type_char(key)
    return True
