"""The terminal client's windows, one module per window drawn over the screen:

``help`` (?), ``scores`` (Tab), ``settings`` (o), ``chat`` (m), ``pile`` (p), ``rules`` (r)
and ``question`` (the yes/no of leaving or quitting a game in progress). The lobby's
windows live with their screens (:mod:`client.screens.create`,
:mod:`client.screens.lobby`), the hand's result with :mod:`client.screens.hand_result`.

Each window's module has ``title(model)``, ``lines(model, size)`` and ``keys(model, key)``
(False: the window closed and the key goes on to the screen). :func:`window` says which
one an :class:`~client.model.Overlay` is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from client.draw import Dims, Line
from client.model.core import Model, Overlay
from client.overlays import chat, help, pile, question, rules, scores, settings
from client.screens import account, account_manage, create, hand_result, lobby, playnow, profile

__all__ = ["Window", "window"]


@dataclass(frozen=True)
class Window:
    """A window's three parts."""

    title: Callable[[Model], str]
    lines: Callable[[Model, Dims], list[Line]]
    keys: Callable[[Model, str], bool]


_WINDOWS: dict[Overlay, Window] = {
    Overlay.HELP: Window(help.title, help.lines, help.keys),
    Overlay.SCORES: Window(scores.title, scores.lines, scores.keys),
    Overlay.SETTINGS: Window(settings.title, settings.lines, settings.keys),
    Overlay.CHAT: Window(chat.title, chat.lines, chat.keys),
    Overlay.PILE: Window(pile.title, pile.lines, pile.keys),
    Overlay.RULES: Window(rules.title, rules.lines, rules.keys),
    Overlay.LEAVE: Window(question.title, question.lines, question.keys),
    Overlay.QUIT: Window(question.title, question.lines, question.keys),
    Overlay.RESULT: Window(hand_result.title, hand_result.lines, hand_result.window_keys),
    Overlay.CREATE: Window(create.title, create.lines, create.keys),
    Overlay.JOIN: Window(lobby.code_title, lobby.code_lines, lobby.code_keys),
    Overlay.WATCH: Window(lobby.code_title, lobby.code_lines, lobby.code_keys),
    Overlay.ACCOUNT: Window(account.title, account.lines, account.keys),
    Overlay.PROFILE: Window(profile.profile_title, profile.profile_lines, profile.profile_keys),
    Overlay.BOARD: Window(profile.board_title, profile.board_lines, profile.board_keys),
    Overlay.MANAGE: Window(account_manage.title, account_manage.lines, account_manage.keys),
    Overlay.PLAY_NOW: Window(playnow.title, playnow.lines, playnow.keys),
}


def window(overlay: Overlay) -> Window:
    return _WINDOWS[overlay]
