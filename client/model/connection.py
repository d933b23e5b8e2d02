"""The connection part of the model: how the link to the server stands, and the session.

The network task (:mod:`client.net`) reports through :class:`~client.model.Model`'s
methods (``connection_reached``, ``connection_lost``, ``connection_failed``); the
``welcome`` message fills in the session.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["Link", "Status"]

Status = Literal["connecting", "connected", "reconnecting", "closed"]


class Link:
    """The link's status, the session (token, player id) and why reaching the server failed."""

    def __init__(self, token: str | None = None) -> None:
        self.status: Status = "connecting"
        self.token = token
        self.player_id: str | None = None
        self.welcomed_once = False
        self.error = ""  # why the last attempt to reach the server failed
        self.attempt = (0, 0)  # (attempt, of) while the server was never reached
        self.given_up = False  # the client stopped trying: ``error`` says why

    def welcomed(self, token: str, player_id: str) -> bool:
        """A ``welcome``: the session is ``token``; True for the first of this process."""
        first = not self.welcomed_once
        self.welcomed_once = True
        self.token = token
        self.player_id = player_id
        self.status = "connected"
        return first

    def reached(self) -> None:
        """The socket is open (the welcome is still to come)."""
        self.error = ""

    def lost(self) -> None:
        if self.status != "closed":
            self.status = "reconnecting" if self.welcomed_once else "connecting"

    def failed(self, reason: str, *, final: bool, attempt: int = 0, of: int = 0) -> None:
        self.error = reason
        self.attempt = (attempt, of)
        if final:
            self.given_up = True
            self.status = "closed"

    def closed(self) -> None:
        self.status = "closed"

    def forget_session(self) -> None:
        """The server did not know our token: the next hello starts a new session."""
        self.token = None
        self.welcomed_once = False
