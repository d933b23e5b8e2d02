"""The game over screen: who won, the rematch (r), leaving (l), the record (s) and its
analysis (a)."""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from client.draw import MAIN_WIDTH, Dims, Line, clip
from client.i18n import _
from client.model.core import Model
from engine import PlayerView
from protocol import messages as m

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    table = model.table
    if table is not None and table.your_seat is None:
        return _("Game over: l leave · s save the record · a analysis · Tab score sheet")
    return _("Game over: r rematch · l leave · s save the record · a analysis · Tab scores")


def keys(model: Model, key: str) -> bool:
    table = model.table
    if table is None:
        return False
    if key == "r" and table.your_seat is None:
        model.notify(_("Watching: there is no rematch to ask for."))
    elif key == "r":
        model.send(m.Rematch(code=table.code))
        model.say(_("You asked for a rematch."))
    elif key == "l":
        model.send(m.Leave(code=table.code))
    elif key in ("s", "a"):
        record_id = model.game_over.record_id if model.game_over else table.record_id
        if record_id:
            model.send(m.GetRecord(record_id=record_id))
            model.want_analysis(key == "a")  # analysed once the record is here
        else:
            model.notify(_("No record yet."))
    else:
        return False
    return True


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    over = model.game_over
    winner = over.winner if over is not None else view.winner
    scores = (over.scores[0].score, over.scores[1].score) if over else view.scores
    me = view.seat if view.seat is not None else 0
    if winner is None:
        head = _("The game is over.")
    elif winner == view.seat:  # the winner's name and score first
        head = _("You win {won} to {lost}!").format(won=scores[winner], lost=scores[1 - winner])
    else:
        head = _("{name} wins {won} to {lost}.").format(
            name=model.seat_name(winner), won=scores[winner], lost=scores[1 - winner]
        )
    if over is not None and over.reason == "forfeit":
        head += " " + _("(by forfeit)")
    table = model.table
    asked = ""
    if table is not None and any(table.rematch):
        asked = (
            _("Rematch asked by:")
            + " "
            + ", ".join(model.seat_name(s) for s in (0, 1) if table.rematch[s])
        )
    lines: list[Line] = [
        [("class:turn", clip("   " + _("GAME OVER") + f" · {head}", MAIN_WIDTH))],
        [],
        [
            (
                "",
                f"   {clip(model.seat_name(me), 16)} {scores[me]}  ·  "
                f"{clip(model.seat_name(1 - me), 16)} {scores[1 - me]}",
            )
        ],
        [("class:dim", f"   {clip(asked, MAIN_WIDTH - 4)}")] if asked else [],
        [],
    ]
    if table is not None and table.your_seat is not None:
        lines.append([("", "   " + _("r rematch · l leave the table · Tab score sheet"))])
    else:  # a spectator has no rematch to ask for
        lines.append([("", "   " + _("l leave · Tab score sheet"))])
    saved = model.saved_record
    if saved is None:
        lines.append([("", "   " + _("s saves the game's record to a file"))])
    else:  # the file name whole, on a line of its own, to copy
        lines.append([("", "   " + _("record saved, to replay it:"))])
        command = f"   spades replay {saved.name}"
        if get_cwidth(command) <= MAIN_WIDTH:
            lines.append([("class:head", command)])
        else:
            lines.append([("class:head", "   spades replay \\")])
            lines.append([("class:head", f" {saved.name}")])
    return lines
