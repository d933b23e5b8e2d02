"""The lobby part of the model: the open tables, the chosen row, the table code being
typed (join or watch by code) and the create form."""

from __future__ import annotations

from client.model.form import CreateForm
from protocol import messages as m

__all__ = ["Lobby"]

CODE_LENGTH = 16


class Lobby:
    """What the lobby screen and its windows show and edit."""

    def __init__(self) -> None:
        self.tables: tuple[m.TableSummary, ...] = ()
        self.row = 0
        self.code_entry = ""
        self.form = CreateForm()

    def listed(self, tables: tuple[m.TableSummary, ...]) -> None:
        """A fresh ``table_list``: the chosen row stays within it."""
        self.tables = tables
        self.row = min(self.row, max(0, len(tables) - 1))

    def move(self, step: int) -> None:
        self.row = min(max(0, len(self.tables) - 1), max(0, self.row + step))

    def chosen(self) -> m.TableSummary | None:
        return self.tables[self.row] if self.tables else None

    def clear_code(self) -> None:
        self.code_entry = ""

    def type_code(self, char: str) -> None:
        if len(char) == 1 and (char.isalnum() or char == "-"):
            self.code_entry = (self.code_entry + char.upper())[:CODE_LENGTH]

    def erase_code(self) -> None:
        self.code_entry = self.code_entry[:-1]

    def typed_code(self) -> str:
        return self.code_entry.strip().upper()
