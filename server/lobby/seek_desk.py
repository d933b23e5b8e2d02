"""Play now on one node: the ``seek`` and ``cancel_seek`` handlers, the pairing rounds,
the bot offer, and the table a pair sits down at.

    desk = SeekDesk(lobby, MemoryPool(), GuestRatings(), spawn=spawn, wrote=work.schedule)
    desk.seek(session, player, message)      # the router's handler of ``seek``
    desk.cancel(session, player, message)    # ... of ``cancel_seek``
    desk.gone(session)                       # a connection closed: its seek ends
    await desk.round()                       # one pass: pair, offer the bot (run() loops)

The desk keeps the seekers whose connections are on this node; the pool (memory, or
Redis in a cluster) holds everyone's. A new seek is tried at once, then once per round
(every second) with its window widened by the wait; after
:data:`~server.lobby.seeks.BOT_OFFER_SECONDS` alone the player is offered the nearest bot
level once (``seek_bot_offer``; the seek stays open). When this node makes a pair, the
table is made here (``open_table``: the create-table path) with its own seeker seated; a
partner on this node is seated too, a partner on another node is told through the pool
and joins by the code (redirected here). Requests are refused with
:class:`~server.errors.RequestError`; a pool that cannot be reached is logged, and the
seek is tried again next round.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import cast

from protocol import messages as m
from server.errors import RequestError
from server.lobby import handlers
from server.lobby.handlers import Lobby
from server.lobby.players import Link, Player
from server.lobby.seeks import (
    BOT_OFFER_SECONDS,
    DEFAULT_BOT_ANCHORS,
    DEFAULT_RATING,
    Paired,
    PairingPolicy,
    RatingSource,
    SeekEntry,
    SeekError,
    SeekPool,
    nearest_bot,
)
from server.logs import event
from server.rooms import requests
from server.rooms.room import Room
from server.store import StoreError

__all__ = ["ROUND_SECONDS", "SeekDesk"]

log = logging.getLogger("server")

ROUND_SECONDS = 1.0
"""How often every seeker on this node is tried again (the window widens meanwhile)."""


@dataclass
class _Seeker:
    entry: SeekEntry
    session: Link
    player: Player
    offered: bool = False


class SeekDesk:
    """Play now for this node's connections (see the module).

    ``clock`` is the wall clock the pool's times are in (tests pass their own);
    ``bot_anchors`` the bot levels' ratings (preset -> level -> rating); ``wrote`` is
    called after a pairing wrote to the store outside a request (the unit of work's
    ``schedule``)."""

    def __init__(
        self,
        lobby: Lobby,
        pool: SeekPool,
        ratings: RatingSource,
        *,
        spawn: Callable[[Awaitable[None]], object],
        wrote: Callable[[], None] = lambda: None,
        bot_anchors: Mapping[str, Mapping[str, float]] = DEFAULT_BOT_ANCHORS,
        policy: PairingPolicy | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.lobby, self.pool, self.ratings = lobby, pool, ratings
        self.spawn, self.wrote, self.clock = spawn, wrote, clock
        self.bot_anchors = bot_anchors
        self.policy = policy or PairingPolicy()
        self.seekers: dict[str, _Seeker] = {}  # player id -> their seek on this node
        self._busy: set[str] = set()  # seekers being tried now (one try at a time)
        self._unpooled: set[str] = set()  # seekers here the pool could not take yet
        self.paired = 0  # pairs made on this node
        pool.listen(self._paired_elsewhere)

    # ---- requests ---------------------------------------------------------------------

    def seek(self, session: Link, player: Player, message: m.Seek) -> None:
        """``seek``: into the pool (replacing this player's earlier seek), answered by
        ``seeking``. Raises ``rated_needs_account`` for a rated seek of a guest."""
        rating = self.ratings.rating_of(player.id, message.preset)
        if message.rated and rating is None:
            raise RequestError(
                "rated_needs_account", "a rated game needs a signed-in player; seek a casual one"
            )
        entry = SeekEntry(
            player_id=player.id,
            name=player.name,
            preset=message.preset,
            rated=message.rated,
            rating=DEFAULT_RATING if rating is None else rating,
            guest=rating is None,
            since=self.clock(),
            node=self.pool.node_id,
        )
        self.seekers[player.id] = _Seeker(entry, session, player)
        session.send(
            m.Seeking(preset=message.preset, rated=message.rated, rating=rating, id=message.id)
        )
        self.spawn(self._enter(entry))

    def cancel(self, session: Link, player: Player, message: m.CancelSeek) -> None:
        """``cancel_seek``: out of the pool; answered by ``seek_cancelled`` in any case."""
        self._drop(player.id)
        session.send(m.SeekCancelled(id=message.id))

    def gone(self, session: Link) -> None:
        """A connection closed: the seeks it made end."""
        for player_id in [p for p, s in self.seekers.items() if s.session is session]:
            self._drop(player_id)

    def _drop(self, player_id: str) -> None:
        if self.seekers.pop(player_id, None) is not None:
            self.spawn(self._remove(player_id))

    async def _remove(self, player_id: str) -> None:
        if player_id in self.seekers:
            return  # sought again meanwhile: that seek replaced this one
        try:
            await self.pool.remove(player_id)
        except SeekError as error:
            log.error("cannot take player %s out of the seek pool: %s", player_id, error)

    # ---- pairing ----------------------------------------------------------------------

    async def _enter(self, entry: SeekEntry) -> None:
        try:
            await self.pool.add(entry)
        except SeekError as error:
            log.error("cannot put a seek in the pool (tried again next round): %s", error)
            self._unpooled.add(entry.player_id)
            return
        self._unpooled.discard(entry.player_id)
        await self.attempt(entry.player_id)

    async def run(self) -> None:
        """Rounds for the server's life (cancel the task to stop)."""
        while True:
            await asyncio.sleep(ROUND_SECONDS)
            try:
                await self.round()
            except Exception:  # a bug in one round must not end play now for good
                log.exception("play now: a pairing round failed")

    async def round(self) -> None:
        """Try every seeker here once more, and offer the bot to those alone long enough.

        Each queue is read once per round (not once per seeker): the pairs are chosen
        from that reading, the oldest seekers first, and each is claimed on its own."""
        now = self.clock()
        for player_id in list(self._unpooled):  # a pool that failed them (Redis busy)
            seeker = self.seekers.get(player_id)
            self._unpooled.discard(player_id)
            if seeker is not None:
                await self._enter(seeker.entry)
        queues: dict[str, list[_Seeker]] = {}
        for seeker in list(self.seekers.values()):
            if not seeker.offered and now - seeker.entry.since >= BOT_OFFER_SECONDS:
                self._offer_bot(seeker)
            queues.setdefault(seeker.entry.pool_key, []).append(seeker)
        for pool_key, group in queues.items():
            await self._pair_queue(pool_key, group, now)

    async def _pair_queue(self, pool_key: str, group: list[_Seeker], now: float) -> None:
        try:
            entries = await self.pool.queue(pool_key)
        except SeekError as error:
            log.error("cannot read the %s seeks: %s", pool_key, error)
            return
        present = {entry.player_id: entry for entry in entries}
        taken: set[str] = set()
        for seeker in sorted(group, key=lambda s: s.entry.since):
            entry = seeker.entry
            if entry.player_id in taken or self.seekers.get(entry.player_id) is not seeker:
                continue
            if present.get(entry.player_id) != entry:
                # out of the pool: paired by another node (its notice is on the way or
                # was missed, which a try finds), or not in yet
                await self.attempt(entry.player_id)
                continue
            others = [e for e in entries if e.player_id not in taken]
            match = self.policy.best_match(entry, others, now)
            if match is not None and await self._claim(seeker, match):
                taken.update((entry.player_id, match.player_id))

    def _offer_bot(self, seeker: _Seeker) -> None:
        entry = seeker.entry
        found = nearest_bot(self.bot_anchors, entry.preset, entry.rating)
        seeker.offered = True
        if found is not None:
            level, rating = found
            preset = cast("m.SeekPreset", entry.preset)
            bot = cast("m.BotLevel", level)
            seeker.session.send(m.SeekBotOffer(preset=preset, level=bot, rating=rating))

    async def attempt(self, player_id: str) -> bool:
        """Try to pair this node's seeker ``player_id`` now: whether a pair was made."""
        seeker = self.seekers.get(player_id)
        if seeker is None or player_id in self._busy:
            return False
        try:
            candidates = await self.pool.candidates(seeker.entry, self.policy.most)
        except SeekError as error:
            log.error("cannot pair player %s: %s", player_id, error)
            return False
        match = self.policy.best_match(seeker.entry, candidates, self.clock())
        return match is not None and await self._claim(seeker, match)

    async def _claim(self, seeker: _Seeker, match: SeekEntry) -> bool:
        """Take ``seeker`` and ``match`` out of the pool and seat them: whether done."""
        entry = seeker.entry
        if entry.player_id in self._busy or self.seekers.get(entry.player_id) is not seeker:
            return False
        self._busy.add(entry.player_id)
        try:
            if not await self.pool.claim(entry, match):
                return False
        except SeekError as error:
            log.error("cannot pair player %s: %s", entry.player_id, error)
            return False
        finally:
            self._busy.discard(entry.player_id)
        await self._sit_down(entry, match)
        return True

    async def _sit_down(self, mine: SeekEntry, other: SeekEntry) -> None:
        """``mine`` (a seeker here) and ``other`` were taken out of the pool: the table."""
        seeker = self.seekers.get(mine.player_id)
        here = other.node == self.pool.node_id
        partner = self.seekers.get(other.player_id) if here else None
        if seeker is None or seeker.entry != mine:
            # gone (or sought again) while the pair was made: the other waits on
            if not here or partner is not None:
                await self._back(other)
            return
        if here and (partner is None or partner.entry != other):
            await self._back(mine)
            return
        room = self._open(seeker, other)
        if room is None:
            self.seekers.pop(mine.player_id, None)
            await self._back(other)
            return
        self.seekers.pop(mine.player_id, None)
        self.seekers.pop(other.player_id, None)
        self.paired += 1
        log.info(
            "play now: %s paired (table %s)",
            mine.pool_key,
            room.code,
            extra=event("seek.paired", table=room.code, preset=mine.preset),
        )
        seeker.session.send(_paired_message(room.code, other.name, mine, seated=True))
        if partner is not None:
            self._seat(partner, room, mine.name)
            return
        paired = Paired(other.player_id, room.code, mine.name, mine.preset, mine.rated)
        # told in its own task: the notice waits for the table's lease, the rounds do not
        self.spawn(self._tell(paired, other.node))

    async def _tell(self, paired: Paired, node: str) -> None:
        try:
            await self.pool.tell(paired, node)
        except SeekError as error:
            log.error("cannot tell node %s of table %s: %s", node, paired.table, error)

    def _open(self, seeker: _Seeker, other: SeekEntry) -> Room | None:
        """The pair's table (the create-table path), ``seeker`` seated; ``None`` if the
        server refused it (the seeker is told why)."""
        store = self.lobby.rooms.store
        writes = store.write_attempts
        entry = seeker.entry
        request = m.CreateTable(preset=entry.preset, private=True, rated=entry.rated)
        try:
            return handlers.open_table(self.lobby, seeker.session, seeker.player, request)
        except RequestError as error:
            refusal = m.ErrorMessage(code=error.code, message=error.message, request="seek")
            seeker.session.send(refusal)
        except StoreError as error:
            log.error("play now: cannot make the table: %s", error)
        finally:
            if store.write_attempts != writes:
                self.wrote()
        return None

    def _seat(self, partner: _Seeker, room: Room, opponent: str) -> None:
        entry = partner.entry
        partner.session.send(_paired_message(room.code, opponent, entry, seated=True))
        store = self.lobby.rooms.store
        writes = store.write_attempts
        try:
            join = m.JoinTable(code=room.code)
            requests.join(room, partner.session, entry.player_id, entry.name, join)
        except RequestError as error:
            log.warning("play now: a seeker could not sit at %s (%s)", room.code, error.code)
        finally:
            if store.write_attempts != writes:
                self.wrote()

    async def _back(self, entry: SeekEntry) -> None:
        """Put a seek whose pair fell through back in the pool (with its wait so far)."""
        try:
            await self.pool.add(entry)
        except SeekError as error:
            log.error("cannot put a seek back in the pool: %s", error)
            if entry.player_id in self.seekers:
                self._unpooled.add(entry.player_id)

    def _paired_elsewhere(self, paired: Paired) -> None:
        """Another node made a pair with a seeker here: they join its table by code."""
        seeker = self.seekers.pop(paired.player_id, None)
        if seeker is None:
            return
        message = _paired_message(paired.table, paired.opponent, seeker.entry, seated=False)
        seeker.session.send(message)


def _paired_message(code: str, opponent: str, entry: SeekEntry, seated: bool) -> m.SeekPaired:
    preset = cast("m.SeekPreset", entry.preset)
    return m.SeekPaired(
        table=code, opponent=opponent, preset=preset, rated=entry.rated, seated=seated
    )
