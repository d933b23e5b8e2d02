"""One example of each play-now message (``seek`` and its answers), in union order.

A part of :mod:`protocol.examples`: ``client_examples()`` and ``server_examples()`` end
with these.
"""

from __future__ import annotations

from protocol import messages as m
from protocol._examples.game import EXAMPLE_TABLE

__all__ = ["seek_client_examples", "seek_server_examples"]


def seek_client_examples() -> tuple[m.ClientMessage, ...]:
    """``seek``, ``cancel_seek``: the order of the ``ClientMessage`` union."""
    return (
        m.Seek(preset="classic", rated=False, id=15),
        m.CancelSeek(id=16),
    )


def seek_server_examples() -> tuple[m.ServerMessage, ...]:
    """``seeking``, ``seek_bot_offer``, ``seek_paired``, ``seek_cancelled``."""
    return (
        m.Seeking(preset="classic", rated=False, rating=None, id=15),
        m.SeekBotOffer(preset="classic", level="normal", rating=1500.0),
        m.SeekPaired(
            table=EXAMPLE_TABLE, opponent="bo", preset="classic", rated=False, seated=True
        ),
        m.SeekCancelled(id=16),
    )
