"""``spades bot URL --table CODE [--level L]``: the bot as an ordinary protocol client.

    finished = await play("ws://127.0.0.1:8765/", "AB12CD34", level="easy")

It says hello, joins the table and plays using nothing but the protocol. It keeps its
view the way every client does (:mod:`client.state`): the ``snapshot`` of the join sets
it, each ``events``, ``hand_result`` and ``your_turn`` of the table is folded into it,
and on a ``your_turn`` the bot chooses from the folded view (in a thread) and answers
with its version. A snapshot is asked for (``join_table`` again) only when the fold
finds the stream out of step, or the server refuses an action; a rematch's new game
comes as a snapshot of its own. Like the terminal client it adds its entropy to every
shuffle of a hand it sits in: on protocol 1.3 it commits first and reveals only once
``entropy_commitments`` lists its commitment. It checks every hand it saw whole
(:mod:`protocol.verify`: the seed, its value, the deck against every card it saw, each
card the other seat played against that seat's draft pairs, the blind-nil draws) and logs
exactly what failed; ``BotStats.problems`` keeps it. A ``redirect`` (a cluster node)
is followed: it connects to the node named, says hello with its token, joins again.

At game over it agrees to a rematch until it has played ``games`` games, then leaves.

Errors: :class:`BotClientError` (the seat could not be taken or kept) is the only one.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import secrets
import sys
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect

from client.state import OutOfStep, fold
from engine import PlayerView
from engine.bot import LEVELS, Bot
from protocol import convert
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from protocol.errors import DecodeError
from protocol.verify import HandCollector, seat_commitment

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
    verified: int = 0  # hands whose every check passed
    problems: dict[int, list[str]] = field(default_factory=dict)  # failed checks, by hand
    withheld: int = 0  # reveals the other seat withheld (1.3)
    redirects: int = 0


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
        self.minor = m.PROTOCOL_MINOR  # the connection's, from welcome
        self.values: dict[int, bytes] = {}  # our entropy, by hand
        self.collector: HandCollector | None = None  # the evidence of the hand under way

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
                await self.observe(event)
        elif isinstance(message, m.HandResult):
            self.check(message)
        elif isinstance(message, m.YourTurn):
            await self.move_if_asked()

    async def observe(self, event: m.EventMessage) -> None:
        """Keep the hand's evidence; on a new hand, send our value (1.3: commit first)."""
        seat = self.view.seat if self.view is not None else None
        if isinstance(event, m.HandStartedEvent) and seat is not None:
            self.collector = HandCollector(seat=seat, value="")
            value = self.values[event.hand_number] = secrets.token_bytes(32)
            request: m.Entropy | m.EntropyCommit
            if self.minor >= 3:
                digest = seat_commitment(event.commitment, seat, value)
                request = m.EntropyCommit(
                    code=self.table, hand_number=event.hand_number, commitment=digest
                )
            else:
                request = m.Entropy(
                    code=self.table, hand_number=event.hand_number, value=value.hex()
                )
            await self.ws.send(encode(request))
        if self.collector is not None:
            self.collector.add(event)

    async def reveal(self, message: m.EntropyCommitments) -> None:
        """1.3: every commitment is out: reveal our value if ours is among them."""
        collector, seat = self.collector, self.view.seat if self.view is not None else None
        value = self.values.get(message.hand_number)
        if collector is None or seat is None or value is None or collector.commitment is None:
            return
        collector.relayed(message)
        if message.commitments[seat] != seat_commitment(collector.commitment, seat, value):
            log.warning(
                "table %s hand %d: our commitment was not relayed; this hand is not "
                "protected by our value",
                self.table,
                message.hand_number,
            )
            return
        reveal = m.Entropy(code=self.table, hand_number=message.hand_number, value=value.hex())
        await self.ws.send(encode(reveal))

    def check(self, result: m.HandResult) -> None:
        """Every check of a hand seen whole; what failed is logged and kept."""
        collector, self.collector = self.collector, None
        if collector is None or collector.commitment is None:
            return  # joined during the hand: not seen whole
        value = self.values.pop(result.hand_number, None)
        collector.value = "" if value is None else value.hex()
        problems = collector.check(result)
        other = 1 - collector.seat
        commitments = result.entropy_commitments
        if commitments and commitments[other] and not result.entropy[other]:
            self.stats.withheld += 1
            log.warning(
                "table %s hand %d: the other seat withheld its reveal",
                self.table,
                result.hand_number,
            )
        if problems:
            self.stats.problems[result.hand_number] = problems
            for problem in problems:
                log.warning(
                    "table %s hand %d: shuffle check failed: %s",
                    self.table,
                    result.hand_number,
                    problem,
                )
        else:
            self.stats.verified += 1

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
    when the server refuses the hello or the join, sends something unreadable, or
    redirects more than :data:`MAX_REDIRECTS` times in a row."""
    stats = stats if stats is not None else BotStats()
    bot = Bot(level, seed=seed)
    progress = _Progress(games)
    token: str | None = None
    hops = 0
    while True:
        async with connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None) as ws:
            me = _Seat(ws, table, bot, stats)
            hello = m.Hello(
                protocol_version=m.PROTOCOL_VERSION,
                protocol_minor=m.PROTOCOL_MINOR,
                name=name,
                token=token,
            )
            await ws.send(encode(hello))
            await ws.send(encode(m.JoinTable(code=me.table, seat=seat, id=1)))
            sat = stats.snapshots
            moved = await _serve(ws, me, progress)
        if moved is None:
            return progress.finished
        if stats.snapshots > sat:
            hops = 0  # it sat at the table there: the next move starts a new count
        if hops == MAX_REDIRECTS:
            raise BotClientError(f"more than {MAX_REDIRECTS} redirects in a row")
        url, token = moved
        hops += 1
        stats.redirects += 1
        log.info("table %s lives at %s: following the redirect", table, url)


MAX_REDIRECTS = 5
"""Redirects followed in a row before the bot gives up (a table moves at most once)."""


@dataclass
class _Progress:
    games: int
    finished: int = 0
    token: str | None = None


async def _serve(ws: ClientConnection, me: _Seat, progress: _Progress) -> tuple[str, str] | None:
    """Play on one connection; returns ``(url, token)`` when redirected, None when done."""
    async for data in ws:
        try:
            message = decode_server(data)  # type: ignore[arg-type]
        except DecodeError as error:
            raise BotClientError(f"the server sent something unreadable: {error}") from None
        if isinstance(message, m.Welcome):
            me.minor, progress.token = message.protocol_minor, message.token
        elif isinstance(message, m.Redirect):
            return message.url, progress.token or ""
        elif isinstance(message, m.ErrorMessage):
            if message.request in ("join_table", "hello") and message.code != "rate_limited":
                raise BotClientError(f"{message.code}: {message.message}")
            log.info("server refused %s: %s", message.request, message.code)
            if message.request == "action":  # the view it acted on was not the server's
                await me.resync(message.code)
        elif isinstance(message, m.Snapshot) and message.table.code == me.table:
            await me.snapshot(message)
        elif isinstance(message, m.EntropyCommitments) and message.table == me.table:
            await me.reveal(message)
        elif isinstance(message, m.Events | m.HandResult | m.YourTurn):
            if message.table == me.table:
                await me.folded(message)
        elif isinstance(message, m.GameOver) and message.table == me.table:
            progress.finished += 1
            log.info("game over at %s (winner: seat %s)", message.table, message.winner)
            if progress.finished >= progress.games:
                await ws.send(encode(m.Leave(code=message.table)))
                return None
            await ws.send(encode(m.Rematch(code=message.table)))
    return None


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
