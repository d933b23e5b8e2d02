"""The web client's files, by the name the tests load (:mod:`server.net.web`)."""

from __future__ import annotations

from server.net.web import WEB_FILES, respond, select_subprotocol

__all__ = ["WEB_FILES", "respond", "select_subprotocol"]
