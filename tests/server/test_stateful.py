"""A hypothesis state machine against a live server: random sequences of connect, hello,
join, act, drop, resume and bad input, with the invariants checked after every step.

The server runs on an event loop in a thread for the whole module; each run of the
machine sits two new players at a new table. The authoritative expectation for a seat is
the engine's own view of the server's game (read on the server's loop).
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from engine import Phase
from protocol import convert
from protocol import messages as m
from protocol.codec import decode_server
from server import RunningServer, start_server
from tests.server.helpers import FAST, TEST_CONFIG, Client

T = TypeVar("T")

EXPECTED_ERRORS = {"not_your_turn", "stale_version", "illegal_action", "bad_message"}


class Live:
    """One server for the module, on an event loop in a daemon thread."""

    _instance: Live | None = None

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: RunningServer = self.run(start_server(replace(TEST_CONFIG, hold_seconds=3600)))

    @classmethod
    def get(cls) -> Live:
        if cls._instance is None:
            cls._instance = Live()
        return cls._instance

    def run(self, coro: Awaitable[T], timeout: float = 30.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)  # type: ignore[arg-type]


class ServerGames(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.live = Live.get()
        url = self.live.server.url
        self.rng = random.Random(0)
        alice = self.live.run(Client.hello(url, "alice"))
        bob = self.live.run(Client.hello(url, "bob"))
        snap = self.live.run(
            alice.request(
                m.CreateTable(overrides=FAST, on_hold_expiry="wait", hold_seconds=3600),
                m.Snapshot,
            )
        )
        self.code = snap.table.code
        self.live.run(bob.request(m.JoinTable(code=self.code), m.Snapshot))
        self.clients: list[Client | None] = [alice, bob]
        self.tokens = [alice.token, bob.token]
        self.seqs = [0, 0]  # sequence numbers go on across connections
        self.seen = [0, 0]  # raw frames of each client already checked
        self.dropped_view: list[Any] = [None, None]
        self.versions = [0, 0]  # the highest version each seat has been shown
        self.strangers: list[Client] = []
        self.allowed_errors = 0

    # ---- the truth ------------------------------------------------------------------

    def truth(self, seat: int) -> tuple[m.View, str]:
        async def read() -> tuple[m.View, str]:
            table = self.live.server.hub.tables[self.code]
            return convert.view_message(table.state.view_for(seat), self.code), table.status

        return self.live.run(read())

    def version(self) -> int:
        return self.truth(0)[0].version

    def other_hand(self, seat: int) -> set[str]:
        return set(self.truth(1 - seat)[0].hand)

    # ---- rules ----------------------------------------------------------------------

    @rule(seed=st.integers(0, 2**16))
    def act(self, seed: int) -> None:
        view, status = self.truth(0)
        mover = view.current_player
        if mover is None or status != "playing":
            return
        client = self.clients[mover]
        if client is None:
            return
        before = self.version()
        state_view = self.live.run(self._engine_view(mover))
        rng = random.Random(seed)
        if state_view.phase is Phase.EXCHANGE:
            hand = list(state_view.hand)
            count = rng.randint(0, min(state_view.rules.blind_nil_exchange, len(hand)))
            action: m.ActionMessage = m.ExchangeAction(
                cards=tuple(str(c) for c in rng.sample(hand, count))
            )
        else:
            action = convert.action_message(rng.choice(state_view.legal_actions()))
        self.seqs[mover] += 1
        act = m.Act(code=self.code, action=action, version=before, seq=self.seqs[mover])
        ack = self.live.run(client.request(act, m.Ack))
        assert ack.version > before
        assert self.version() >= ack.version

    async def _engine_view(self, seat: int) -> Any:
        return self.live.server.hub.tables[self.code].state.view_for(seat)

    @rule(seat=st.sampled_from([0, 1]))
    def drop(self, seat: int) -> None:
        client = self.clients[seat]
        if client is None:
            return
        self.dropped_view[seat] = self.truth(seat)[0]
        self.live.run(client.drop())
        self.clients[seat] = None

    @rule(seat=st.sampled_from([0, 1]))
    def resume(self, seat: int) -> None:
        if self.clients[seat] is not None:
            return
        url = self.live.server.url

        async def back() -> tuple[Client, m.Snapshot]:
            client = await Client.hello(url, "again", token=self.tokens[seat])
            snap = await client.expect(m.Snapshot, lambda s: s.table.code == self.code)
            return client, snap

        client, snap = self.live.run(back())
        assert client.welcome is not None and client.welcome.resumed
        assert self.code in client.welcome.tables
        expected, _ = self.truth(seat)
        assert snap.view == expected
        if self.dropped_view[seat].version == expected.version:
            assert snap.view == self.dropped_view[seat]  # nothing happened while away
        self.clients[seat] = client
        self.seen[seat] = 0

    @rule(seat=st.sampled_from([0, 1]), kind=st.sampled_from(["out_of_turn", "stale", "illegal"]))
    def bad_action(self, seat: int, kind: str) -> None:
        client = self.clients[seat]
        view, status = self.truth(seat)
        if client is None or status != "playing" or view.current_player is None:
            return
        before = self.version()
        mover = view.current_player
        if kind == "out_of_turn":
            client = self.clients[1 - mover]
            version, code = before, "not_your_turn"
        elif kind == "stale":
            client = self.clients[mover]
            version, code = before + 3, "stale_version"
        else:
            client = self.clients[mover]
            version, code = before, "illegal_action"
        if client is None:
            return
        action: m.ActionMessage = m.BidAction(tricks=13)
        if kind == "illegal" and view.phase == "bidding":
            action = m.KeepAction()
        if kind == "illegal" and view.phase == "exchange":
            action = m.ExchangeAction(cards=("AS", "AS", "AS", "AS", "AS", "AS", "AS"))
        sender = self.clients.index(client)
        self.seqs[sender] += 1
        message = m.Act(code=self.code, action=action, version=version, seq=self.seqs[sender])
        error = self.live.run(client.request(message, m.ErrorMessage))
        if kind == "illegal" and view.phase == "exchange":
            assert error.code in ("illegal_action", "bad_message"), error
        else:
            assert error.code == code, error
        assert self.version() == before

    @rule(seat=st.sampled_from([0, 1]), data=st.binary(max_size=40))
    def garbage(self, seat: int, data: bytes) -> None:
        client = self.clients[seat]
        if client is None:
            return
        before = self.version()

        async def send() -> m.ErrorMessage:
            await client.send_raw(data)
            return await client.expect(m.ErrorMessage)

        error = self.live.run(send())
        assert error.code == "bad_message", error
        assert self.version() == before

    @rule(seat=st.sampled_from([0, 1]))
    def hello_again(self, seat: int) -> None:
        client = self.clients[seat]
        if client is None:
            return
        hello = m.Hello(protocol_version=1, name="twice")
        error = self.live.run(client.request(hello, m.ErrorMessage))
        assert error.code == "already_welcomed"

    @rule(watch=st.booleans())
    def stranger(self, watch: bool) -> None:
        """A new connection says hello and tries to join (full) or watches (no hands)."""
        client = self.live.run(Client.hello(self.live.server.url, "stranger"))
        self.strangers.append(client)
        if watch:
            snap = self.live.run(client.request(m.WatchTable(code=self.code), m.Snapshot))
            assert snap.table.your_seat is None
            assert snap.view.hand == () and snap.view.offered is None
        else:
            error = self.live.run(client.request(m.JoinTable(code=self.code), m.ErrorMessage))
            assert error.code == "table_full"
            error = self.live.run(
                client.request(
                    m.Act(code=self.code, action=m.KeepAction(), version=0, seq=1),
                    m.ErrorMessage,
                )
            )
            assert error.code == "not_seated"

    # ---- invariants -----------------------------------------------------------------

    @invariant()
    def seats_see_the_truth(self) -> None:
        for seat, client in enumerate(self.clients):
            if client is None:
                continue
            snap = self.live.run(client.snapshot(self.code))
            expected, _ = self.truth(seat)
            assert snap.view == expected
            assert snap.view.version >= self.versions[seat]  # never goes back
            self.versions[seat] = snap.view.version

    @invariant()
    def no_leak_and_no_unexpected_error(self) -> None:
        for seat, client in enumerate(self.clients):
            if client is None:
                continue
            hidden = self.other_hand(seat)
            for data in client.raw[self.seen[seat] :]:
                message = decode_server(data)
                if isinstance(message, m.ErrorMessage):
                    assert message.code in EXPECTED_ERRORS | {"already_welcomed"}, message
                    assert not [c for c in hidden if c in message.message.split()], message
                elif isinstance(message, m.Events):
                    for event in message.events:
                        if isinstance(event, m.DraftTurnEvent) and event.seat != seat:
                            assert event.card is None and event.other_card is None, event
                        if isinstance(event, m.ExchangeEvent) and event.seat != seat:
                            assert event.given == () and event.received == (), event
                elif isinstance(message, m.YourTurn):
                    assert message.offered is None or message.phase == "draft", message
                elif isinstance(message, m.Snapshot):
                    assert message.table.your_seat == seat
            self.seen[seat] = len(client.raw)

    def teardown(self) -> None:
        async def close() -> None:
            for client in [*self.clients, *self.strangers]:
                if client is not None:
                    await client.close()

        self.live.run(close())


TestServerGames = ServerGames.TestCase
TestServerGames.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
