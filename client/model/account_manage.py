"""The account's own upkeep in the model: change the password, sign out everywhere,
delete the account. Its window is :mod:`client.screens.account_manage`.

    form = ManageForm()
    form.choose()            # the menu's choice: a password form or a yes/no question
    form.submit(host)        # Enter on a form: change_password, or the delete's question
    form.confirm(host)       # y on a question: sign_out_everywhere or delete_account

The server's answer (``account_done``) is folded by :class:`client.model.account.AccountPart`,
which calls :meth:`ManageForm.reset`. Raises nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from protocol import messages as m

__all__ = ["CHOICES", "ManageForm", "Step"]

Step = Literal["menu", "password", "sign_out", "delete", "delete_confirm"]
CHOICES: tuple[Step, Step, Step] = ("password", "sign_out", "delete")


class _Sender(Protocol):
    def send(self, message: m.ClientMessage) -> None: ...


@dataclass
class ManageForm:
    """Where the player is in the window: its menu, a masked form or a question."""

    step: Step = "menu"
    choice: int = 0  # the menu's line: an index into CHOICES
    row: int = 0  # the form's field: 0 the current password, 1 the new one
    entries: list[str] = field(default_factory=lambda: ["", ""])

    def reset(self) -> None:
        """Back to the menu with nothing typed (a password never lingers)."""
        self.step, self.row, self.entries = "menu", 0, ["", ""]

    def move(self, delta: int) -> None:
        """↑/↓: the menu's line, or the form's field."""
        if self.step == "menu":
            self.choice = (self.choice + delta) % len(CHOICES)
        elif self.step == "password":
            self.row = 1 - self.row

    def choose(self) -> None:
        self.step, self.row, self.entries = CHOICES[self.choice], 0, ["", ""]

    def fields(self) -> int:
        """How many masked fields the step has (0: the menu or a question)."""
        return {"password": 2, "delete": 1}.get(self.step, 0)

    def type_char(self, char: str) -> None:
        if self.fields() and len(self.entries[self.row]) < 128:
            self.entries[self.row] += char

    def erase(self) -> None:
        if self.fields():
            self.entries[self.row] = self.entries[self.row][:-1]

    def submit(self, host: _Sender) -> None:
        """Enter on a form: an empty field takes the cursor; else send, or ask first."""
        empty = [row for row in range(self.fields()) if not self.entries[row]]
        if empty:
            if self.entries[self.row]:
                self.row = empty[0]
            return
        if self.step == "password":
            host.send(m.ChangePassword(old_password=self.entries[0], new_password=self.entries[1]))
            self.entries = ["", ""]
            self.row = 0
        elif self.step == "delete":
            self.step = "delete_confirm"

    def confirm(self, host: _Sender) -> None:
        """y on a question: the request goes; the answer brings the menu back."""
        if self.step == "sign_out":
            host.send(m.SignOutEverywhere())
            self.reset()
        elif self.step == "delete_confirm":
            host.send(m.DeleteAccount(password=self.entries[0]))
            self.reset()
