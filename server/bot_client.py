"""``spades bot URL --table CODE [--level L]``: the bot as an ordinary protocol client.

It says hello, joins the table and then plays using nothing but the protocol. Design:
the client does not rebuild its view from events. When a ``your_turn`` arrives it sends
``join_table`` for the same table again; for a player already seated there the server
answers with a fresh ``snapshot`` of that seat (and changes nothing). The snapshot's view
becomes an engine :class:`~engine.PlayerView` (``protocol.convert.view_from_message``),
the bot chooses in a thread, and the action goes out with the snapshot's version and the
next sequence number. One extra round trip per move, no state to get out of step.

At game over it agrees to a rematch until it has played ``games`` games, then leaves.
"""

from __future__ import annotations

import asyncio
import logging

from websockets.asyncio.client import connect

from engine.bot import Bot
from protocol import convert
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from protocol.errors import DecodeError

__all__ = ["BotClientError", "play"]

log = logging.getLogger("server.bot_client")


class BotClientError(Exception):
    """The bot could not take or keep its seat (unknown table, seat taken, ...)."""


async def play(
    url: str,
    table: str,
    *,
    level: str = "normal",
    name: str = "robot",
    seat: int | None = None,
    games: int = 1,
    seed: int | None = None,
) -> int:
    """Sit at ``table`` and play ``games`` games; returns the number of games finished."""
    bot = Bot(level, seed=seed)
    seq = 0
    finished = 0
    waiting_turn: int | None = None  # version of the your_turn we answer
    async with connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None) as ws:
        await ws.send(encode(m.Hello(protocol_version=m.PROTOCOL_VERSION, name=name)))
        await ws.send(encode(m.JoinTable(code=table, seat=seat, id=1)))
        async for data in ws:
            try:
                message = decode_server(data)  # type: ignore[arg-type]
            except DecodeError as error:
                raise BotClientError(f"the server sent something unreadable: {error}") from None
            if isinstance(message, m.ErrorMessage):
                if message.request in ("join_table", "hello") and message.code != "rate_limited":
                    raise BotClientError(f"{message.code}: {message.message}")
                log.info("server refused %s: %s", message.request, message.code)
            elif isinstance(message, m.YourTurn) and message.table == table.upper():
                waiting_turn = message.version
                await ws.send(encode(m.JoinTable(code=table)))
            elif isinstance(message, m.Snapshot) and waiting_turn is not None:
                view = convert.view_from_message(message.view, message.table.rules)
                if view.version != waiting_turn or not view.my_turn:
                    continue
                waiting_turn = None
                action = await asyncio.to_thread(bot.choose, view)
                seq += 1
                await ws.send(
                    encode(
                        m.Act(
                            code=message.table.code,
                            action=convert.action_message(action),
                            version=view.version,
                            seq=seq,
                        )
                    )
                )
            elif isinstance(message, m.GameOver):
                finished += 1
                log.info("game over at %s (winner: seat %s)", message.table, message.winner)
                if finished >= games:
                    await ws.send(encode(m.Leave(code=message.table)))
                    break
                await ws.send(encode(m.Rematch(code=message.table)))
    return finished
