"""The client's model, made of small parts (one module each):

- :mod:`client.model.connection`: :class:`Link`, the link to the server and the session.
- :mod:`client.model.lobby`: :class:`Lobby`, the open tables and the table code being typed;
  :mod:`client.model.form`: :class:`CreateForm`, the create-table form.
- :mod:`client.model.table`: :class:`Table`, the table, its folded view, the pending turn,
  the hands' results and shuffle checks.
- :mod:`client.model.chat`: :class:`Chat`; :mod:`client.model.selection`:
  :class:`Selection` (cursor, typed card or bid, exchange picks);
  :mod:`client.model.settings`: :class:`Settings`.
- :mod:`client.model.core`: :class:`Model`, which holds the parts, folds the server's
  messages into them and sends; :mod:`client.model.describe`: the log's words.

:class:`ClientModel` is the model with its keys: :meth:`ClientModel.press` hands a key
to the window or screen on show (:mod:`client.keys`, one module per screen and window
under :mod:`client.screens` and :mod:`client.overlays`).

    model = ClientModel("alice", send=connection.send)
    model.handle(message)   # each server message
    model.press("enter")    # each key: a name (left, enter, escape...) or a character
"""

from __future__ import annotations

from client.model.chat import Chat
from client.model.connection import Link
from client.model.core import RESULT_KEY_GRACE, Intent, Model, Overlay, Screen
from client.model.form import BOT_LEVELS, CreateForm
from client.model.lobby import Lobby
from client.model.selection import SUIT_ORDER, Selection, hand_order
from client.model.settings import Settings
from client.model.table import Table

__all__ = [
    "BOT_LEVELS",
    "RESULT_KEY_GRACE",
    "SUIT_ORDER",
    "Chat",
    "ClientModel",
    "CreateForm",
    "Intent",
    "Link",
    "Lobby",
    "Model",
    "Overlay",
    "Screen",
    "Selection",
    "Settings",
    "Table",
    "hand_order",
]


class ClientModel(Model):
    """The model with its keys (see :mod:`client.keys`)."""

    def press(self, key: str) -> None:
        """Handle one key: a name (``left``, ``enter``, ``escape``, ``tab``, ``backspace``,
        ``space``, ``up``, ``down``, ``right``) or one printable character."""
        from client import keys  # the screens import the model's modules: import at use

        keys.press(self, key)

    def interrupt(self) -> None:
        """Ctrl-C: quit at once, except during a live game, where it asks first (a
        second Ctrl-C is the answer yes)."""
        from client import keys

        keys.interrupt(self)
