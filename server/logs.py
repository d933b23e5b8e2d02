"""The server's log lines: human lines by default, one JSON object a line on request.

    configure_logging("json", "INFO")     # or "human"; both write to stderr
    log.info("connection %d: opened from %s", cid, peer,
             extra=event("connection.open", conn=cid, address=peer))

A JSON line is ``{"time", "level", "logger", "event", "message", ...fields}``: ``event``
names what happened (``connection.open``, ``connection.close``, ``table.start``,
``table.end``, ``report``, ...; ``error`` for an error line that names no event,
``log`` for any other line), the fields are the ``extra=event(...)`` values, and an
exception's traceback is ``exception``. Only the standard library's :mod:`logging` is used,
so any handler a host adds (syslog, journald) gets the same records.

What never goes into a log line: a session token (the server only ever logs player ids),
a card (no line names a card, hidden or not: the game's record is where cards are kept),
and chat, except the lines a player asks to be reported with ``/report``. The
``websockets`` library's loggers stay at INFO or above (at DEBUG they print frames).
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Final, TextIO

__all__ = ["HUMAN_FORMAT", "LOG_FORMATS", "JsonFormatter", "configure_logging", "event"]

HUMAN_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FORMATS: Final = ("human", "json")

_FIELDS: Final = "spades_fields"
_EVENT: Final = "spades_event"


def event(name: str, **fields: Any) -> dict[str, Any]:
    """The ``extra=`` of a log call: the event's name and its fields (JSON-ready values)."""
    return {_EVENT: name, _FIELDS: fields}


class JsonFormatter(logging.Formatter):
    """One JSON object a line; see the module docstring for its keys."""

    def format(self, record: logging.LogRecord) -> str:
        default = "error" if record.levelno >= logging.ERROR else "log"
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": getattr(record, _EVENT, default),
            "message": record.getMessage(),
        }
        for key, value in getattr(record, _FIELDS, {}).items():
            line.setdefault(key, value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(
    log_format: str = "human", level: str = "INFO", stream: TextIO | None = None
) -> None:
    """Send every log record at ``level`` or above to ``stream`` (stderr) in ``log_format``
    (``"human"`` or ``"json"``). Raises ``ValueError`` for another format."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format {log_format!r}: choose one of {', '.join(LOG_FORMATS)}")
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(HUMAN_FORMAT)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    chosen = getattr(logging, str(level).upper(), logging.INFO)
    root.setLevel(chosen)
    # websockets logs frames' contents at DEBUG (a hello's token, a snapshot's hand):
    # never below INFO, whatever the server's level
    logging.getLogger("websockets").setLevel(max(chosen, logging.INFO))
