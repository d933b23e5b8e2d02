"""``spades bot URL --table CODE [--level L]``: the bot as an ordinary protocol client.

    finished = await play("ws://127.0.0.1:8765/", "AB12CD34", level="easy")

It says hello, joins the table and plays using nothing but the protocol. It keeps its
view the way every client does (:mod:`client.state`): the ``snapshot`` of the join sets
it, each ``events``, ``hand_result`` and ``your_turn`` of the table is folded into it,
and on a ``your_turn`` the bot chooses from the folded view (in a thread) and answers
with its version. A snapshot is asked for (``join_table`` again) only when the fold
finds the stream out of step, or the server refuses an action; a rematch's new game
comes as a snapshot of its own. Like the terminal client it adds its entropy to every
shuffle of a hand it sits in.

At game over it agrees to a rematch until it has played ``games`` games, then leaves.

Errors: :class:`BotClientError` (the seat could not be taken or kept) is the only one.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import secrets
import sys
from dataclasses import dataclass

from websockets.asyncio.client import ClientConnection, connect

from client.state import OutOfStep, fold
from engine import PlayerView
from engine.bot import LEVELS, Bot
from protocol import convert
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from protocol.errors import DecodeError

__all__ = ["BotClientError", "BotStats", "add_bot_arguments", "play", "run_bot"]

log = logging.getLogger("client.bot_client")


class BotClientError(Exception):
    """The bot could not take or keep its seat (unknown table, seat taken, ...)."""


@dataclass
class BotStats:
    """What a :func:`play` run did: its moves, the snapshots it got and how many of
    them it asked for because its view fell out of step (``resyncs``)."""

    moves: int = 0
    snapshots: int = 0
    resyncs: int = 0


class _Seat:
    """One bot's seat at one table: the folded view and what to send."""

    def __init__(self, ws: ClientConnection, table: str, bot: Bot, stats: BotStats) -> None:
        self.ws = ws
        self.table = table.upper()
        self.bot = bot
        self.stats = stats
        self.view: PlayerView | None = None
        self.seq = 0
        self.resyncing = False  # a snapshot was asked for: fold nothing until it comes

    async def resync(self, why: str) -> None:
        """Ask for a fresh snapshot of the seat (a seated player's ``join_table`` changes
        nothing but answers with one)."""
        log.info("table %s: out of step (%s); asking for a snapshot", self.table, why)
        self.stats.resyncs += 1
        self.view = None
        self.resyncing = True
        await self.ws.send(encode(m.JoinTable(code=self.table)))

    async def snapshot(self, message: m.Snapshot) -> None:
        self.stats.snapshots += 1
        self.resyncing = False
        self.view = convert.view_from_message(message.view, message.table.rules)
        await self.move_if_asked()

    async def folded(self, message: m.Events | m.HandResult | m.YourTurn) -> None:
        if self.view is None:
            return  # a snapshot is on its way; it holds all of this
        try:
            self.view = fold(self.view, message)
        except OutOfStep as error:
            await self.resync(str(error))
            return
        if isinstance(message, m.Events):
            for event in message.events:
                if isinstance(event, m.HandStartedEvent) and self.view.seat is not None:
                    value = secrets.token_bytes(32).hex()
                    entropy = m.Entropy(code=self.table, hand_number=event.hand_number, value=value)
                    await self.ws.send(encode(entropy))
        elif isinstance(message, m.YourTurn):
            await self.move_if_asked()

    async def move_if_asked(self) -> None:
        view = self.view
        if view is None or not view.my_turn:
            return
        action = await asyncio.to_thread(self.bot.choose, view)
        self.seq += 1
        self.stats.moves += 1
        act = m.Act(
            code=self.table,
            action=convert.action_message(action),
            version=view.version,
            seq=self.seq,
        )
        await self.ws.send(encode(act))


async def play(
    url: str,
    table: str,
    *,
    level: str = "normal",
    name: str = "robot",
    seat: int | None = None,
    games: int = 1,
    seed: int | None = None,
    stats: BotStats | None = None,
) -> int:
    """Sit at ``table`` and play ``games`` games; returns the number of games finished
    (``stats``, when given, is filled in as it goes). Raises :class:`BotClientError`
    when the server refuses the hello or the join, or sends something unreadable."""
    stats = stats if stats is not None else BotStats()
    bot = Bot(level, seed=seed)
    finished = 0
    async with connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None) as ws:
        me = _Seat(ws, table, bot, stats)
        hello = m.Hello(
            protocol_version=m.PROTOCOL_VERSION, protocol_minor=m.PROTOCOL_MINOR, name=name
        )
        await ws.send(encode(hello))
        await ws.send(encode(m.JoinTable(code=me.table, seat=seat, id=1)))
        async for data in ws:
            try:
                message = decode_server(data)  # type: ignore[arg-type]
            except DecodeError as error:
                raise BotClientError(f"the server sent something unreadable: {error}") from None
            if isinstance(message, m.ErrorMessage):
                if message.request in ("join_table", "hello") and message.code != "rate_limited":
                    raise BotClientError(f"{message.code}: {message.message}")
                log.info("server refused %s: %s", message.request, message.code)
                if message.request == "action":  # the view it acted on was not the server's
                    await me.resync(message.code)
            elif isinstance(message, m.Snapshot) and message.table.code == me.table:
                await me.snapshot(message)
            elif isinstance(message, m.Events | m.HandResult | m.YourTurn):
                if message.table == me.table:
                    await me.folded(message)
            elif isinstance(message, m.GameOver) and message.table == me.table:
                finished += 1
                log.info("game over at %s (winner: seat %s)", message.table, message.winner)
                if finished >= games:
                    await ws.send(encode(m.Leave(code=message.table)))
                    break
                await ws.send(encode(m.Rematch(code=message.table)))
    return finished


def add_bot_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the bot client's arguments: ``URL --table CODE [--level L] [--name N]
    [--seat S] [--games G]``."""
    parser.add_argument("url", help="server URL, e.g. ws://127.0.0.1:8765/")
    parser.add_argument("--table", required=True, help="code of the table to sit at")
    parser.add_argument("--level", default="normal", choices=LEVELS)
    parser.add_argument("--name", default="robot", help="the name to sit under (default 'robot')")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=None, help="seat to take")
    parser.add_argument("--games", type=int, default=1, help="games to play, agreeing to rematches")


def run_bot(args: argparse.Namespace) -> int:
    """``spades bot``: fill a seat with the bot over the protocol; the exit status (1
    when the seat could not be taken or the server not reached)."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(
            play(
                args.url,
                args.table,
                level=args.level,
                name=args.name,
                seat=args.seat,
                games=args.games,
            )
        )
    except BotClientError as error:
        print(f"spades bot: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"spades bot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
