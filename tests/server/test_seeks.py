"""Play now: the pairing policy (pure, the time passed in) and the seek requests against a
real server whose desk reads an injected clock (no sleeping: the test moves the clock and
runs one pairing round)."""

from __future__ import annotations

import asyncio

from protocol import messages as m
from server import RunningServer
from server.lobby.seeks import (
    DEFAULT_BOT_ANCHORS,
    MemoryPool,
    PairingPolicy,
    SeekEntry,
    SeekError,
    nearest_bot,
)
from tests.server.helpers import Client, run


def entry(player: str, rating: float, since: float = 0.0, **more: object) -> SeekEntry:
    fields: dict[str, object] = {"preset": "classic", "rated": True, "guest": False}
    fields.update(more)
    return SeekEntry(player, player, rating=rating, since=since, **fields)  # type: ignore[arg-type]


# ---- the policy -----------------------------------------------------------------------


def test_the_window_widens_with_the_wait_up_to_its_cap() -> None:
    policy = PairingPolicy(base=100, per_second=20, most=600, guest_base=400)
    seeker = entry("a", 1500, since=10.0)
    assert policy.width(seeker, 10.0) == 100
    assert policy.width(seeker, 15.0) == 200
    assert policy.width(seeker, 10.0 + 1000) == 600
    guest = entry("g", 1500, since=10.0, guest=True, rated=False)
    assert policy.width(guest, 10.0) == 400 and policy.width(guest, 30.0) == 500


def test_close_ratings_fit_and_far_ones_wait_until_the_window_reaches() -> None:
    policy = PairingPolicy()
    a, b = entry("a", 1500), entry("b", 1560)
    far = entry("far", 1900)
    assert policy.fits(a, b, 0.0)
    assert not policy.fits(a, far, 0.0) and not policy.fits(a, far, 14.0)
    assert policy.fits(a, far, 15.0)  # 100 + 20 * 15 = 400
    assert policy.best_match(a, [far, b], 0.0) == b
    assert policy.best_match(a, [far], 0.0) is None


def test_the_one_who_waited_longer_sets_the_reach() -> None:
    policy = PairingPolicy()
    old, new = entry("old", 1500, since=0.0), entry("new", 1800, since=20.0)
    assert policy.fits(new, old, 20.0)  # old reaches 500; new only 100


def test_other_presets_kinds_and_oneself_never_fit() -> None:
    policy = PairingPolicy()
    a = entry("a", 1500)
    assert not policy.fits(a, entry("b", 1500, preset="five-hundred"), 0.0)
    assert not policy.fits(a, entry("b", 1500, rated=False), 0.0)
    assert not policy.fits(a, entry("a", 1500), 0.0)


def test_nearest_bot_level_by_rating() -> None:
    anchors = {"classic": {"easy": 1000.0, "normal": 1400.0, "hard": 1800.0}}
    assert nearest_bot(anchors, "classic", 1250.0) == ("normal", 1400.0)
    assert nearest_bot(anchors, "classic", 1150.0) == ("easy", 1000.0)
    assert nearest_bot(anchors, "classic", 2500.0) == ("hard", 1800.0)
    assert nearest_bot(anchors, "five-hundred", 1500.0) is None
    assert set(DEFAULT_BOT_ANCHORS) == {"classic", "five-hundred"}


def test_memory_pool_claims_a_pair_once() -> None:
    async def scenario() -> None:
        pool = MemoryPool()
        a, b, c = entry("a", 1500), entry("b", 1510), entry("c", 1520)
        for one in (a, b, c):
            await pool.add(one)
        assert {e.player_id for e in await pool.candidates(a, 50)} == {"b", "c"}
        assert await pool.claim(a, b)
        assert not await pool.claim(c, b)  # b is gone: c stays
        assert list(pool.entries) == ["c"]
        # a seek made again with another rating moves within its queue
        await pool.add(entry("c", 1900))
        assert await pool.candidates(entry("d", 1500), 300) == []
        assert await pool.candidates(entry("d", 1700), 200) == [entry("c", 1900)]
        await pool.remove("c")
        assert pool.entries == {} and await pool.candidates(entry("d", 1900), 600) == []

    asyncio.run(scenario())


# ---- against a server -----------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Ratings:
    def __init__(self) -> None:
        self.by_player: dict[str, float] = {}

    def rating_of(self, player_id: str, preset: str) -> float | None:
        return self.by_player.get(player_id)


def desk_of(server: RunningServer, clock: Clock, ratings: Ratings | None = None) -> object:
    desk = server.hub.seeks
    desk.clock = clock
    if ratings is not None:
        desk.ratings = ratings
        # the injected ratings stand for accounts: a rated table is theirs to create
        desk.lobby.is_account = lambda player_id: ratings.rating_of(player_id, "") is not None
    return desk


async def seeker(server: RunningServer, name: str, **seek: object) -> Client:
    client = await Client.hello(server.url, name)
    seeking = await client.request(m.Seek(**seek), m.Seeking)  # type: ignore[arg-type]
    assert seeking.preset == seek.get("preset", "classic")
    return client


async def quiet(client: Client) -> list[m.ServerMessage]:
    """Every message before the answer to a ping (what the server sent meanwhile)."""
    nonce = client.new_id()
    await client.send(m.Ping(nonce=nonce))
    got: list[m.ServerMessage] = []
    while True:
        message = await client.recv()
        if isinstance(message, m.Pong) and message.nonce == nonce:
            return got
        got.append(message)


def test_two_seekers_pair_and_sit_at_one_table() -> None:
    async def test(server: RunningServer) -> None:
        desk_of(server, Clock())
        ada = await seeker(server, "ada")
        bo = await seeker(server, "bo")
        paired_bo = await bo.expect(m.SeekPaired)
        paired_ada = await ada.expect(m.SeekPaired)
        assert paired_ada.table == paired_bo.table and paired_ada.seated and paired_bo.seated
        assert {paired_ada.opponent, paired_bo.opponent} == {"ada", "bo"}
        snap = await ada.snapshot(paired_ada.table)
        assert snap.table.private and snap.table.preset == "classic"
        assert {s.name for s in snap.table.seats} == {"ada", "bo"}
        assert snap.table.status == "playing"
        assert server.hub.seeks.seekers == {} and server.hub.seek_pool.entries == {}

    run(test)


def test_ratings_far_apart_wait_and_the_window_widens_until_they_pair() -> None:
    async def test(server: RunningServer) -> None:
        clock, ratings = Clock(), Ratings()
        desk = desk_of(server, clock, ratings)
        ada = await Client.hello(server.url, "ada")
        bo = await Client.hello(server.url, "bo")
        assert ada.welcome is not None and bo.welcome is not None
        ratings.by_player = {ada.welcome.player_id: 1500.0, bo.welcome.player_id: 1800.0}
        await ada.request(m.Seek(rated=True), m.Seeking)
        clock.now += 5  # ada's window: 200
        await bo.request(m.Seek(rated=True), m.Seeking)
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(ada))
        clock.now += 4  # ada has waited 9 s: 280 < 300
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(bo))
        clock.now += 1  # 10 s: 300 reaches bo
        await server.hub.seeks.round()
        paired = await bo.expect(m.SeekPaired)
        assert paired.rated and paired.opponent == "ada"
        assert desk is server.hub.seeks and server.hub.seeks.seekers == {}

    run(test)


def test_after_twenty_seconds_alone_the_nearest_bot_is_offered_once() -> None:
    async def test(server: RunningServer) -> None:
        clock, ratings = Clock(), Ratings()
        desk_of(server, clock, ratings)
        ada = await Client.hello(server.url, "ada")
        assert ada.welcome is not None
        ratings.by_player = {ada.welcome.player_id: 1780.0}
        await ada.request(m.Seek(preset="five-hundred", rated=True), m.Seeking)
        clock.now += 19.9
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekBotOffer) for x in await quiet(ada))
        clock.now += 0.1
        await server.hub.seeks.round()
        offer = await ada.expect(m.SeekBotOffer)
        assert offer.level == "hard" and offer.preset == "five-hundred"
        assert offer.rating == server.hub.seeks.bot_anchors["five-hundred"]["hard"]
        clock.now += 30
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekBotOffer) for x in await quiet(ada))
        assert ada.welcome.player_id in server.hub.seeks.seekers  # still seeking

    run(test)


def test_a_guest_is_offered_the_bot_nearest_1500() -> None:
    async def test(server: RunningServer) -> None:
        clock = Clock()
        desk_of(server, clock)
        ada = await seeker(server, "ada")
        clock.now += 20
        await server.hub.seeks.round()
        offer = await ada.expect(m.SeekBotOffer)
        assert offer.level == "normal"

    run(test)


def test_a_rated_seek_from_a_guest_is_refused_with_its_code() -> None:
    async def test(server: RunningServer) -> None:
        ada = await Client.hello(server.url, "ada")
        await ada.error(m.Seek(rated=True), "rated_needs_account")
        assert server.hub.seeks.seekers == {}

    run(test)


def test_a_cancelled_seek_is_never_paired() -> None:
    async def test(server: RunningServer) -> None:
        desk_of(server, Clock())
        ada = await seeker(server, "ada")
        await ada.request(m.CancelSeek(), m.SeekCancelled)
        await quiet(ada)
        assert server.hub.seek_pool.entries == {}
        bo = await seeker(server, "bo")
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(bo))
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(ada))
        (left,) = server.hub.seek_pool.entries.values()
        assert left.name == "bo"

    run(test)


def test_a_closed_connection_ends_its_seek() -> None:
    async def test(server: RunningServer) -> None:
        desk_of(server, Clock())
        ada = await seeker(server, "ada")
        await quiet(ada)
        assert len(server.hub.seek_pool.entries) == 1
        await ada.close()
        for _ in range(400):
            if not server.hub.seek_pool.entries and not server.hub.seeks.seekers:
                break
            await asyncio.sleep(0.01)
        assert server.hub.seek_pool.entries == {} and server.hub.seeks.seekers == {}
        bo = await seeker(server, "bo")
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(bo))

    run(test)


def test_a_second_seek_replaces_the_first() -> None:
    async def test(server: RunningServer) -> None:
        desk_of(server, Clock())
        ada = await seeker(server, "ada", preset="classic")
        await ada.request(m.Seek(preset="five-hundred"), m.Seeking)
        await quiet(ada)
        (only,) = server.hub.seek_pool.entries.values()
        assert only.preset == "five-hundred"
        bo = await seeker(server, "bo", preset="classic")
        await server.hub.seeks.round()
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(bo))

    run(test)


class FlakyPool(MemoryPool):
    """A pool that refuses its first ``add`` (Redis too busy to answer in time)."""

    def __init__(self) -> None:
        super().__init__()
        self.refusals = 1

    async def add(self, entry: SeekEntry) -> None:
        if self.refusals:
            self.refusals -= 1
            raise SeekError("no connection available")
        await super().add(entry)


def test_a_seek_the_pool_refused_is_put_in_again_next_round_and_pairs() -> None:
    async def test(server: RunningServer) -> None:
        desk_of(server, Clock())
        pool = server.hub.seeks.pool = FlakyPool()
        ada = await seeker(server, "ada")
        await quiet(ada)
        assert pool.entries == {} and pool.refusals == 0
        bo = await seeker(server, "bo")
        assert not any(isinstance(x, m.SeekPaired) for x in await quiet(bo))
        await server.hub.seeks.round()
        paired = await bo.expect(m.SeekPaired)
        assert paired.opponent == "ada" and server.hub.seeks.seekers == {}

    run(test)
