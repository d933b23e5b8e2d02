"""The connecting screen: reaching the server, the attempts that failed and why."""

from __future__ import annotations

from client.draw import MAIN_WIDTH, Dims, Line, wrap
from client.i18n import _
from client.model.core import Model

__all__ = ["keys", "main", "prompt"]


def prompt(model: Model) -> str:
    return _("Connecting…")


def main(model: Model, size: Dims) -> list[Line]:
    link = model.link
    if link.given_up:
        failed = (
            _("Could not connect to {url}").format(url=model.url)
            if model.url
            else _("Could not connect")
        )
        return [
            [("", "")],
            [("class:bad", f"  {failed}")],
            [("", "")],
            *[[("", "  " + part)] for part in wrap(link.error, MAIN_WIDTH - 3)],
            [("", "")],
            [("class:dim", "  " + _("q or Ctrl-C quits"))],
        ]
    going = _("Connecting to {url}…").format(url=model.url) if model.url else _("Connecting…")
    lines: list[Line] = [[("", "")], [("class:head", f"  {going}")]]
    if link.error:
        attempt, of = link.attempt
        lines.append([("", "")])
        for part in wrap(link.error, MAIN_WIDTH - 3):
            lines.append([("class:bad", "  " + part)])
        lines.append(
            [
                (
                    "class:dim",
                    "  "
                    + _("attempt {attempt} of {of} failed; trying again…").format(
                        attempt=attempt, of=of
                    ),
                )
            ]
        )
    return lines


def keys(model: Model, key: str) -> bool:
    if key == "q":
        model.request_quit()
        return True
    return False
