"""Protocol 1.1 against a real server: each point of issue 12 has its test here.

- ``bad_message`` echoes the frame's ``type`` and ``id`` when they can be read;
- the snapshot of the seat to move carries its ``your_turn`` (``legal`` and all);
- ``rematch`` is answered with the new game's snapshot, and nobody sees a version gap;
- a dropped seat's hold is a deadline on the server clock that ``welcome`` gives;
- two clients answering at once finish a five-hundred game with zero refusals, while a
  flooder is refused and then closed;
- a 1.0 connection gets none of the 1.1 fields, messages or events.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import msgpack

from engine.bot import Bot
from protocol import convert
from protocol import messages as m
from server import RunningServer
from tests.server.helpers import TEST_CONFIG, Client, play_to_end, run, two_players


def test_bad_message_echoes_a_readable_type_and_id() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "echo")
        cases: list[tuple[object, str | None, int | None]] = [
            ({"type": "ping", "nonce": "x", "id": 7}, "ping", 7),  # the issue's own example
            ({"type": "action", "code": "ABC", "id": 5}, "action", 5),  # fields missing
            ({"type": "no_such_type", "id": 9}, "no_such_type", 9),
            ({"type": "ping", "nonce": 1, "id": True}, "ping", None),  # a boolean is no id
            ({"type": "ping", "nonce": 1, "id": -1}, "ping", None),  # out of range
            ({"type": 3, "id": 4}, None, 4),  # the type is not text
            ({"type": "x" * 40, "id": 8}, None, 8),  # too long to be a type
            ([1, 2, 3], None, None),  # not a map
        ]
        for frame, request, request_id in cases:
            await client.send_raw(msgpack.packb(frame))
            error = await client.expect(m.ErrorMessage)
            assert (error.code, error.request, error.id) == ("bad_message", request, request_id)
        await client.send_raw(b"\xc1\xff")  # not msgpack
        error = await client.expect(m.ErrorMessage)
        assert (error.code, error.request, error.id) == ("bad_message", None, None)
        # still a working connection
        pong = await client.request(m.Ping(nonce=3), m.Pong)
        assert pong.nonce == 3
        await client.close()

    run(test)


def test_snapshot_of_the_seat_to_move_carries_its_legal_actions() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        turn_tasks = [asyncio.create_task(c.expect(m.YourTurn)) for c in (first, second)]
        done, pending = await asyncio.wait(turn_tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        mover_index = 0 if turn_tasks[0] in done else 1
        mover, waiter = (first, second) if mover_index == 0 else (second, first)
        turn = turn_tasks[mover_index].result()

        # join_table on one's own table: the snapshot has the turn, the waiter's has none
        snap = await mover.snapshot(code)
        assert snap.your_turn == turn
        assert snap.your_turn is not None and snap.your_turn.legal
        assert (await waiter.snapshot(code)).your_turn is None

        # after stale_version, the snapshot fetched to recover is enough to act on
        stale = m.Act(code=code, action=turn.legal[0], version=turn.version + 3, seq=1)
        await mover.error(stale, "stale_version")
        snap = await mover.snapshot(code)
        assert snap.your_turn is not None and snap.view.version == snap.your_turn.version
        action = snap.your_turn.legal[0]
        ack = await mover.request(
            m.Act(code=code, action=action, version=snap.your_turn.version, seq=2), m.Ack
        )
        assert ack.version == snap.view.version + 1
        # the seat that moved has no turn now; the other seat's snapshot carries it
        assert (await mover.snapshot(code)).your_turn is None
        other_turn = await waiter.expect(m.YourTurn)
        snap = await waiter.snapshot(code)
        assert snap.your_turn == other_turn
        # a spectator's snapshot never has a turn
        spectator = await Client.hello(server.url, "watcher")
        watched = await spectator.request(m.WatchTable(code=code), m.Snapshot)
        assert watched.your_turn is None
        for client in (first, second, spectator):
            await client.close()

    run(test)


def _versions_after(messages: list[m.ServerMessage]) -> list[int]:
    out = []
    for message in messages:
        if isinstance(message, m.Snapshot):
            out.append(message.view.version)
        elif isinstance(message, m.Events):
            out.append(message.version)
    return out


async def _drain(client: Client, until: type, timeout: float = 20.0) -> list[m.ServerMessage]:
    got: list[m.ServerMessage] = []
    while True:
        message = await client.recv(timeout)
        got.append(message)
        if isinstance(message, until):
            return got


def test_rematch_is_answered_with_the_new_games_snapshot() -> None:
    async def test(server: RunningServer) -> None:
        # against the bot (which always agrees): one request starts the new game
        client = await Client.hello(server.url, "solo")
        snap = await client.request(
            m.CreateTable(preset="classic", overrides={"target_score": 30}, bot="easy"),
            m.Snapshot,
        )
        code = snap.table.code
        over = await play_to_end(client, random.Random(5))
        assert isinstance(over, m.GameOver)
        reply = await client.request(m.Rematch(code=code), m.Snapshot)
        assert reply.view.version == 0 and reply.view.phase == "deal"
        assert reply.table.status == "playing" and reply.view.hand_results == ()
        # then the new game's events, from version 1, with no gap
        after = await _drain(client, m.Events)
        assert _versions_after(after)[-1] == 1
        await client.close()

        # two humans: the first asker waits; when the second agrees both get the new
        # game's snapshot (version 0) before its first events
        first, second, code = await two_players(
            server, overrides={"target_score": 30, "lose_score": -30}
        )
        spectator = await Client.hello(server.url, "watcher")
        await spectator.request(m.WatchTable(code=code), m.Snapshot)
        results = await asyncio.gather(
            play_to_end(first, random.Random(1)), play_to_end(second, random.Random(2))
        )
        assert all(isinstance(result, m.GameOver) for result in results)
        waiting = await first.request(m.Rematch(code=code), m.Snapshot)
        assert waiting.table.status == "finished" and waiting.table.rematch == (True, False)
        update = await second.expect(m.TableUpdate, lambda u: any(u.table.rematch))
        assert update.table.rematch == (True, False)
        new_game = await second.request(m.Rematch(code=code), m.Snapshot)
        assert new_game.view.version == 0 and new_game.table.status == "playing"
        for client in (first, second):
            got = await _drain(client, m.Events)
            versions = _versions_after(got)
            assert versions == [0, 1] if client is first else versions == [1], got
        # the spectator too: the new game's snapshot, then its events from version 1
        await spectator.expect(m.GameOver)
        got = await _drain(spectator, m.Events)
        assert _versions_after(got)[-2:] == [0, 1], got
        for client in (first, second, spectator):
            await client.close()

    run(test, timeout=120.0)


def test_hold_is_a_deadline_on_the_server_clock_from_welcome() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server, hold_seconds=40)
        assert first.welcome is not None
        assert first.welcome.protocol_minor == m.PROTOCOL_MINOR  # the client's own
        assert first.welcome.server_time is not None
        assert first.welcome.entropy_seconds == TEST_CONFIG.entropy_seconds
        before = time.time()
        await second.drop()
        update = await first.expect(m.TableUpdate, lambda u: not u.table.seats[1].connected)
        after = time.time()
        seat = update.table.seats[1]
        assert seat.hold_deadline is not None
        # (rounded to the millisecond; the server's wall/monotonic offset is read once at
        # start-up, so allow a little for a machine that paused it then)
        assert before + 40 - 0.05 <= seat.hold_deadline <= after + 40 + 0.05
        # the deadline is the same in every later message: it does not count down
        snap = await first.snapshot(code)
        assert snap.table.seats[1].hold_deadline == seat.hold_deadline
        listed = await first.request(m.ListTables(), m.TableList)
        (line,) = [t for t in listed.tables if t.code == code]
        assert line.seats[1].hold_deadline == seat.hold_deadline
        # back again: no deadline
        again = await Client.hello(server.url, "bob", token=second.token)
        update = await first.expect(m.TableUpdate, lambda u: u.table.seats[1].connected)
        assert update.table.seats[1].hold_deadline is None
        for client in (first, again):
            await client.close()

    run(test)


async def _instant_bot(client: Client, code: str, seed: int) -> tuple[int, m.GameOver]:
    """Answer every your_turn at once, fetching a snapshot first (the documented way for
    a client without its own rules engine); returns the refusals seen and the game over."""
    bot = Bot("easy", seed=seed)
    refusals = 0
    while True:
        message = await client.recv(60.0)
        if isinstance(message, m.GameOver):
            return refusals, message
        if isinstance(message, m.ErrorMessage):
            refusals += 1
        elif isinstance(message, m.YourTurn):
            snap = await client.snapshot(code)
            turn = snap.your_turn
            if turn is None:  # not ours any more (cannot happen: only we move now)
                continue
            view = convert.view_from_message(snap.view, snap.table.rules)
            action = convert.action_message(bot.choose(view))
            client.seq += 1
            await client.send(m.Act(code=code, action=action, version=turn.version, seq=client.seq))


def test_two_instant_clients_are_never_refused_but_a_flooder_is_closed() -> None:
    async def test(server: RunningServer) -> None:
        # five-hundred's rules to 250 points: about ten hands of moves at full speed
        overrides = {"target_score": 250}
        first, second, code = await two_players(server, preset="five-hundred", overrides=overrides)
        (refused_a, over_a), (refused_b, over_b) = await asyncio.gather(
            _instant_bot(first, code, 1), _instant_bot(second, code, 2)
        )
        assert (refused_a, refused_b) == (0, 0)
        assert over_a.reason == "score" and max(s.score for s in over_a.scores) >= 250
        assert over_a == over_b

        flooder = await Client.hello(server.url, "flood")
        frames = [msgpack.packb({"type": "ping", "nonce": n}) for n in range(400)]
        for frame in frames:
            try:
                await flooder.send_raw(frame)
            except Exception:  # closed under us: that is the point
                break
        refusals = 0
        try:
            while True:
                message = await flooder.recv(20.0)
                if isinstance(message, m.ErrorMessage):
                    assert message.code == "rate_limited" and message.request == "ping"
                    refusals += 1
        except ConnectionError:
            pass
        # the bucket refills on the wall clock: on a busy machine a ping may pass between
        # two refusals and start the count of refusals in a row again, never lower it
        assert refusals >= server.hub.config.rate_close_after
        assert flooder.ws.close_code == 1008
        for client in (first, second):
            await client.close()

    run(
        test,
        timeout=300.0,
        rate_messages_per_second=30.0,
        rate_burst=60,
        rate_close_after=20,
    )


def test_a_1_0_connection_gets_no_1_1_fields() -> None:
    async def test(server: RunningServer) -> None:
        old = await Client.hello(server.url, "old", minor=0)
        assert old.welcome is not None and old.welcome.protocol_minor == 0
        snap = await old.request(
            m.CreateTable(preset="classic", overrides={"target_score": 30}, bot="easy"),
            m.Snapshot,
        )
        over = await play_to_end(old, random.Random(3))
        assert isinstance(over, m.GameOver)
        refused = await old.error(
            m.Entropy(code=snap.table.code, hand_number=1, value="ab" * 32), "bad_message"
        )
        assert "1.1" in refused.message and refused.request == "entropy"
        added = {name for fields in m.ADDED_IN_1_1.values() for name in fields}
        new_kinds = {"shuffled"}
        new_types = {"entropy_accepted"}

        def walk(value: object) -> None:
            if isinstance(value, dict):
                assert value.get("kind") not in new_kinds, value
                assert value.get("type") not in new_types, value
                for key in ("protocol_minor", "server_time", "entropy_seconds", "your_turn"):
                    assert key not in value, value
                assert "hold_deadline" not in value
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        assert {"your_turn", "hold_deadline", "server_time"} <= added
        for data in old.raw:
            walk(msgpack.unpackb(data))
        assert snap.your_turn is None
        await old.close()

    run(test)


def _card_index(text: str) -> int:
    return "CDHS".index(text[-1]) * 13 + [*"23456789", "10", *"JQKA"].index(text[:-1])


def test_exchange_received_is_in_card_order_as_documented() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(
            server, preset="five-hundred", overrides={"target_score": 5000}
        )
        rng = random.Random(8)
        clients = [first, second]
        seen: list[m.ExchangeEvent] = []

        async def watch(client: Client) -> None:
            while True:
                message = await client.recv(30.0)
                if isinstance(message, m.Events):
                    seen.extend(
                        e for e in message.events if isinstance(e, m.ExchangeEvent) and e.received
                    )
                elif isinstance(message, m.YourTurn):
                    if message.phase == "blind_nil":  # declare, so that exchanges happen
                        action: m.ActionMessage = m.BlindNilAction(declare=True)
                    elif message.phase == "exchange":
                        hand = (await client.snapshot(code)).view.hand
                        action = m.ExchangeAction(cards=tuple(rng.sample(hand, 3)))
                    else:
                        action = rng.choice(message.legal)
                    client.seq += 1
                    await client.send(
                        m.Act(code=code, action=action, version=message.version, seq=client.seq)
                    )
                if len(seen) >= 4:
                    return

        await asyncio.wait(
            [asyncio.create_task(watch(c)) for c in clients], return_when=asyncio.FIRST_COMPLETED
        )
        assert len(seen) >= 4
        for event in seen:
            assert list(event.received) == sorted(event.received, key=_card_index)
            assert list(event.given) == sorted(event.given, key=_card_index)
            assert len(event.received) == len(event.given) == event.count == 3
        for client in clients:
            await client.close()

    run(test, timeout=120.0)


def test_the_document_shows_the_servers_own_error_wording() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    shown = re.findall(r'"code": "stale_version",\s*"message": "([^"]*)"', doc)
    assert shown, "the document shows no stale_version error"
    for text in shown:
        current, sent = (int(n) for n in re.findall(r"\d+", text))
        assert text == m.stale_version_message(current, sent)

    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        turn_tasks = [asyncio.create_task(c.expect(m.YourTurn)) for c in (first, second)]
        done, pending = await asyncio.wait(turn_tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        index = 0 if turn_tasks[0] in done else 1
        turn = turn_tasks[index].result()
        mover = (first, second)[index]
        stale = m.Act(code=code, action=turn.legal[0], version=turn.version - 1, seq=1)
        error = await mover.error(stale, "stale_version")
        assert error.message == m.stale_version_message(turn.version, turn.version - 1)
        for client in (first, second):
            await client.close()

    run(test)
