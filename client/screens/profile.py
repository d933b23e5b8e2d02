"""The profile window (p in the lobby: yours; signed in) and the leaderboard window (b in
the lobby; ←/→ the preset). A rating still provisional is shown with "?".

In the profile, ↑/↓ choose one of the last games, Enter opens its replay (the terminal
replay viewer, ``spades replay``) and ``a`` its analysis (``spades analyze``, the
profile's seat), as the browser's profile opens a game from its date: the record is
fetched from the server first (:meth:`~client.model.account.AccountPart.open_game`)."""

from __future__ import annotations

import time

from client.draw import Dims, Line, pad
from client.i18n import _, ngettext
from client.model.core import Model, Overlay
from client.rules import preset_text
from client.screens import account_manage
from client.text import safe_text
from protocol import messages as m

__all__ = [
    "board_keys",
    "board_lines",
    "board_title",
    "open_board",
    "open_profile",
    "profile_keys",
    "profile_lines",
    "profile_title",
    "shown_rating",
]

PRESETS: tuple[str, str] = ("classic", "five-hundred")


def shown_rating(line: m.RatingLine) -> str:
    """``1512``, or ``1512?`` while provisional."""
    return f"{line.rating}{'?' if line.provisional else ''}"


def open_profile(model: Model) -> None:
    name = model.account.signed_in
    if name is None:
        model.notify(_("Sign in to see your profile (a)."))
        return
    model.send(m.GetProfile(name=name))
    model.open(Overlay.PROFILE)


def open_board(model: Model) -> None:
    model.send(m.GetLeaderboard(preset=model.account.board_preset))
    model.open(Overlay.BOARD)


def profile_title(model: Model) -> str:
    profile = model.account.profile
    name = safe_text(profile.name) if profile is not None else ""
    return _("Profile of {name}").format(name=name)


def profile_lines(model: Model, size: Dims) -> list[Line]:
    profile = model.account.profile
    if profile is None:
        return [[("class:dim", " " + _("Asking the server…"))]]
    out: list[Line] = [[("class:head", " " + _("Ratings"))]]
    for line in profile.ratings:
        trend = " ".join(str(point) for point in line.history[-8:])
        out.append(
            [
                ("", f" {pad(preset_text(line.preset), 13)} {pad(shown_rating(line), 6)} "),
                (
                    "class:dim",
                    _("±{dev} · {wins} won, {losses} lost").format(
                        dev=line.deviation, wins=line.wins, losses=line.losses
                    ),
                ),
            ]
        )
        if trend:
            out.append([("class:dim", f"   {trend}")])
    out.append([])
    out.append(
        [
            (
                "class:head",
                " "
                + _("Last games ({wins} won, {losses} lost)").format(
                    wins=profile.wins, losses=profile.losses
                ),
            )
        ]
    )
    room = max(3, size.rows - len(out) - 9)
    chosen = model.account.chosen
    first = max(0, min(chosen - room + 1, len(profile.games) - room))  # the chosen in view
    for index, game in enumerate(profile.games[first : first + room], start=first):
        when = time.strftime("%Y-%m-%d", time.gmtime(game.ended))
        # "win"/"loss", not "won": "won" is already the column of tricks won
        result = _("aborted") if game.won is None else _("win") if game.won else _("loss")
        kind = _("rated") if game.rated else _("casual")
        after = "" if game.rating_after is None else f" → {game.rating_after}"
        mine, theirs = game.scores[game.seat], game.scores[1 - game.seat]
        text = (
            f"{'›' if index == chosen else ' '}{when} {pad(safe_text(game.opponent), 14)} "
            f"{pad(result, 8)} {mine}–{theirs} {kind}{after}"
        )
        out.append([("class:overlay.sel" if index == chosen else "", text)])
    if not profile.games:
        out.append([("class:dim", " " + _("No games yet."))])
    else:
        out.append([("class:dim", " " + _("↑/↓ a game · Enter its replay · a its analysis"))])
    if safe_text(profile.name) == model.account.signed_in:
        out.append([("class:dim", " " + _("x manage account · Esc closes"))])
    return out


def profile_keys(model: Model, key: str) -> bool:
    account = model.account
    games = account.profile.games if account.profile is not None else ()
    if key in ("up", "down"):
        account.choose(-1 if key == "up" else +1)
    elif key == "enter" and games:
        account.open_game(model, "replay")
    elif key == "a" and games:
        account.open_game(model, "analysis")
    elif key in ("escape", "enter", "q"):
        model.close()
    elif key == "b":
        open_board(model)
    elif key == "x":
        account_manage.open_window(model)
    return True


def board_title(model: Model) -> str:
    return _("Leaderboard: {preset}").format(preset=preset_text(model.account.board_preset))


def board_lines(model: Model, size: Dims) -> list[Line]:
    board = model.account.board
    if board is None or board.preset != model.account.board_preset:
        return [[("class:dim", " " + _("Asking the server…"))]]
    out: list[Line] = []
    for entry in board.entries[: max(3, size.rows - 8)]:
        out.append(
            [
                ("", f" {entry.rank:>3}. {pad(safe_text(entry.name), 24)} {entry.rating:>5} "),
                (
                    "class:dim",
                    ngettext("±{dev} · {n} game", "±{dev} · {n} games", entry.games).format(
                        dev=entry.deviation, n=entry.games
                    ),
                ),
            ]
        )
    if not board.entries:
        out.append([("class:dim", " " + _("Nobody has an established rating here yet."))])
    out.append([("class:dim", " " + _("←/→ preset · Esc closes"))])
    return out


def board_keys(model: Model, key: str) -> bool:
    account = model.account
    if key in ("escape", "enter", "q"):
        model.close()
    elif key in ("left", "right"):
        account.other_board()
        open_board(model)
    return True
