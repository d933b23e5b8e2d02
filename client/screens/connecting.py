"""The connecting screen: reaching the server, the attempts that failed and why."""

from __future__ import annotations

from client.draw import MAIN_WIDTH, Dims, Line, wrap
from client.model.core import Model

__all__ = ["keys", "main", "prompt"]


def prompt(model: Model) -> str:
    return "Connecting…"


def main(model: Model, size: Dims) -> list[Line]:
    url = f" to {model.url}" if model.url else ""
    link = model.link
    if link.given_up:
        return [
            [("", "")],
            [("class:bad", f"  Could not connect{url}")],
            [("", "")],
            *[[("", "  " + part)] for part in wrap(link.error, MAIN_WIDTH - 3)],
            [("", "")],
            [("class:dim", "  q or Ctrl-C quits")],
        ]
    lines: list[Line] = [[("", "")], [("class:head", f"  Connecting{url}…")]]
    if link.error:
        attempt, of = link.attempt
        lines.append([("", "")])
        for part in wrap(link.error, MAIN_WIDTH - 3):
            lines.append([("class:bad", "  " + part)])
        lines.append([("class:dim", f"  attempt {attempt} of {of} failed; trying again…")])
    return lines


def keys(model: Model, key: str) -> bool:
    if key == "q":
        model.request_quit()
        return True
    return False
