"""The play-now window (p in the lobby, its first choice): pick the rules and rated or
casual, Enter seeks an opponent of a close rating; b takes the bot offered after 20 s
alone; Esc stops seeking. The pair's table replaces the lobby when it is made."""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import _
from client.model.core import Model, Overlay
from client.rules import preset_text
from client.text import safe_text

__all__ = ["keys", "lines", "open_window", "title"]


def title(model: Model) -> str:
    return _("Play now")


def open_window(model: Model) -> None:
    """The lobby's p: the window, as it was left (a seek under way stays on show)."""
    model.play_now.reopen()
    model.open(Overlay.PLAY_NOW)


def lines(model: Model, size: Dims) -> list[Line]:
    seek = model.play_now
    kind = _("rated") if seek.rated else _("casual")
    out: list[Line] = [
        [("", " " + _("Rules") + ": "), ("class:head", preset_text(seek.preset))],
        [("", " " + _("Game") + ": "), ("class:head", kind)],
        [],
    ]
    if seek.searching:
        out.append([("class:turn", " " + _("Looking for an opponent of your level…"))])
        if seek.offer is not None:
            words = _("Nobody close yet: play the bot ({level}) instead? Press b.")
            out.append([("", " " + words.format(level=_(seek.offer.level)))])
        out.append([("class:dim", " " + _("Esc stops looking"))])
    elif seek.status == "paired" and seek.paired is not None:
        opponent = safe_text(seek.paired.opponent)
        out.append([("class:turn", " " + _("Paired with {name}.").format(name=opponent))])
    else:
        if seek.status == "refused":
            why = (
                _("Rated games need an account: sign in, or play a casual game.")
                if seek.refusal == "rated_needs_account"
                else _("The server could not start a seek ({code}).").format(code=seek.refusal)
            )
            out.append([("class:bad", " " + why)])
        hint = _("←/→ rules · r rated or casual · Enter find an opponent · Esc back")
        out.append([("class:dim", " " + hint)])
    return out


def keys(model: Model, key: str) -> bool:
    seek = model.play_now
    if key == "escape":
        request = seek.cancel()
        if request is not None:
            model.send(request)
        model.close()
    elif seek.searching:
        if key == "b":
            for wanted in seek.take_offer():
                model.send(wanted)
            model.close()
    elif key in ("left", "right"):
        seek.choose(-1 if key == "left" else 1)
    elif key == "r":
        seek.toggle_rated()
    elif key == "enter":
        model.send(seek.start())
    return True
