"""Protocol 1.3, seat entropy by commit and reveal (docs/protocol.md, "Version 1.3"):

- two 1.3 seats commit, the table (a spectator too) gets the commitments, both reveal,
  and the hand is dealt from both values; hand_result repeats the commitments;
- nobody can reveal before the relay, commit twice, or reveal a value other than the
  committed one (refused, counted as withheld, shown in shuffled and SeatInfo);
- a seat that commits and never reveals: the hand goes on after the reveal wait;
- a 1.2 seat at a 1.3 table sends its value at once, as before, and its hash is relayed;
  a table of 1.1/1.2 seats shuffles as in 1.2, and they never see a 1.3 field;
- a seat that resyncs between the relay and the shuffle is told the commitments again;
- over a socket: ``entropy_commit`` from a 1.2 connection is ``bad_message``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import shuffled_deck
from protocol import messages as m
from protocol.codec import decode_server, encode_for
from protocol.verify import seat_commitment
from server import RunningServer
from server.errors import RequestError
from server.rooms import requests
from server.rooms.room import Room
from tests.server.helpers import Client, run
from tests.server.test_rooms import CONFIG, Heard, Host, ManualClock, a_room
from tests.server.test_rooms import play as play_moves

VALUES = (bytes(range(32)), bytes(range(32, 64)))


def table(minors: tuple[int, int]) -> tuple[Room, ManualClock, Heard, Heard, Heard]:
    host = Host(replace(CONFIG, entropy_seconds=3))
    room, clock = a_room(host)
    alice, bob = Heard(minors[0]), Heard(minors[1])
    host.online.update(alice=alice, bob=bob)
    watcher = Heard(3)
    requests.join(room, alice, "alice", "alice", m.JoinTable(code=room.code, id=1))
    requests.watch(room, watcher, "carol", m.WatchTable(code=room.code))
    requests.join(room, bob, "bob", "bob", m.JoinTable(code=room.code, id=2))
    assert room.state.awaiting_shuffle
    return room, clock, alice, bob, watcher


def commit(room: Room, who: Heard, name: str, seat: int, value: bytes = b"") -> str:
    digest = seat_commitment(room.state.commitment or "", seat, value or VALUES[seat])
    message = m.EntropyCommit(code=room.code, hand_number=room.state.hand_number, commitment=digest)
    requests.entropy_commit(room, who, name, message)
    return digest


def reveal(room: Room, who: Heard, name: str, value: bytes) -> None:
    message = m.Entropy(code=room.code, hand_number=room.state.hand_number, value=value.hex())
    requests.entropy(room, who, name, message)


def shuffled(listener: Heard) -> m.ShuffledEvent:
    found = [e for ev in listener.of(m.Events) for e in ev.events if isinstance(e, m.ShuffledEvent)]
    assert len(found) == 1
    return found[0]


def test_two_1_3_seats_commit_then_reveal_and_the_deck_uses_both() -> None:
    room, _, alice, bob, watcher = table((3, 3))
    c0 = commit(room, alice, "alice", 0)
    assert alice.of(m.EntropyAccepted)[-1].stage == "commit"
    with pytest.raises(RequestError):  # no reveal before the relay
        reveal(room, alice, "alice", VALUES[0])
    assert not watcher.of(m.EntropyCommitments)
    credits = alice.credits
    c1 = commit(room, bob, "bob", 1)
    assert alice.credits == credits + 1  # the reveal it is now asked for is free
    for listener in (alice, bob, watcher):  # the spectator too
        (relayed,) = listener.of(m.EntropyCommitments)
        assert relayed.commitments == (c0, c1) and relayed.reveal_seconds == 3
    with pytest.raises(RequestError):  # one commitment per seat and hand
        commit(room, alice, "alice", 0)
    reveal(room, alice, "alice", VALUES[0])
    assert room.state.awaiting_shuffle
    reveal(room, bob, "bob", VALUES[1])
    assert not room.state.awaiting_shuffle
    revealed = room.state.revealed_shuffle()
    assert revealed is not None and revealed[1] == VALUES
    event = shuffled(alice)
    assert event.entropy_from == (True, True) and event.withheld == (False, False)
    assert room.play.hand_commitments[1] == (c0, c1)
    assert shuffled_deck(revealed[0], VALUES)  # drawn from the seed and both values


def test_a_reveal_that_does_not_match_is_refused_counted_and_shown() -> None:
    room, _, alice, bob, watcher = table((3, 3))
    commit(room, alice, "alice", 0)
    commit(room, bob, "bob", 1)
    reveal(room, alice, "alice", VALUES[0])
    with pytest.raises(RequestError) as refused:
        reveal(room, bob, "bob", b"\x00" * 32)  # not the committed value
    assert refused.value.code == "illegal_action" and "withheld" in str(refused.value)
    assert not room.state.awaiting_shuffle  # the hand went on without it
    revealed = room.state.revealed_shuffle()
    assert revealed is not None and revealed[1] == (VALUES[0], b"")
    for listener in (alice, bob, watcher):
        assert shuffled(listener).withheld == (False, True)
        assert listener.of(m.TableUpdate)[-1].table.seats[1].withheld_reveals == 1


def test_a_seat_that_commits_and_never_reveals_is_waited_for_once() -> None:
    room, clock, alice, bob, _ = table((3, 3))
    commit(room, alice, "alice", 0)
    commit(room, bob, "bob", 1)
    reveal(room, alice, "alice", VALUES[0])
    assert room.state.awaiting_shuffle and clock.running("entropy")
    clock.advance(3)
    assert not room.state.awaiting_shuffle
    assert shuffled(alice).withheld == (False, True)
    assert room.table.seats[1].withheld_reveals == 1


def test_a_seat_that_never_commits_takes_no_part() -> None:
    room, clock, alice, _, _ = table((3, 3))
    c0 = commit(room, alice, "alice", 0)
    clock.advance(3)  # the commit wait is over: relay without bob
    (relayed,) = alice.of(m.EntropyCommitments)
    assert relayed.commitments == (c0, None)
    reveal(room, alice, "alice", VALUES[0])
    assert not room.state.awaiting_shuffle
    assert shuffled(alice).withheld == (False, False)  # no commitment: nothing withheld


def test_a_1_2_seat_at_a_1_3_table_sends_its_value_at_once() -> None:
    room, _, alice, bob, _ = table((3, 2))
    commit(room, alice, "alice", 0)
    reveal(room, bob, "bob", VALUES[1])  # 1.2: the value, taken during the commit stage
    (relayed,) = alice.of(m.EntropyCommitments)
    assert relayed.commitments[1] == seat_commitment(room.state.commitment or "", 1, VALUES[1])
    # a 1.2 connection never gets it (its session encodes every message for 1.2)
    assert [encode_for(x, 2) for x in bob.of(m.EntropyCommitments)] == [None]
    reveal(room, alice, "alice", VALUES[0])
    assert shuffled(alice).entropy_from == (True, True)
    # what bob's connection receives has no 1.3 field
    data = encode_for(bob.of(m.Events)[-1], 2)
    assert data is not None and b"withheld" not in data


def test_a_table_of_1_2_seats_shuffles_as_before() -> None:
    room, _, alice, bob, _ = table((2, 2))
    reveal(room, alice, "alice", VALUES[0])
    assert room.state.awaiting_shuffle
    reveal(room, bob, "bob", VALUES[1])
    assert not room.state.awaiting_shuffle
    assert not alice.of(m.EntropyCommitments) and room.play.hand_commitments == {}


def test_a_resync_between_relay_and_shuffle_repeats_the_commitments() -> None:
    room, _, alice, bob, _ = table((3, 3))
    commit(room, alice, "alice", 0)
    commit(room, bob, "bob", 1)
    requests.join(room, alice, "alice", "alice", m.JoinTable(code=room.code, id=5))
    assert len(alice.of(m.EntropyCommitments)) == 2
    reveal(room, alice, "alice", VALUES[0])


def test_hand_result_repeats_the_commitments_for_1_3_only() -> None:
    room, _, alice, bob, _ = table((3, 3))
    c0, c1 = commit(room, alice, "alice", 0), commit(room, bob, "bob", 1)
    reveal(room, alice, "alice", VALUES[0])
    reveal(room, bob, "bob", VALUES[1])
    result = room.play.hand_commitments[1]
    assert result == (c0, c1)
    while room.state.hand_number == 1:  # the hand to its end (classic: no blind nil)
        play_moves(room, {0: alice, 1: bob}, moves=1)
    (told,) = alice.of(m.HandResult)
    assert told.entropy_commitments == (c0, c1) and told.entropy == (
        VALUES[0].hex(),
        VALUES[1].hex(),
    )
    # a snapshot's hand results carry them too (a client that comes back checks them)
    snap = room.snapshot(0, None)
    assert snap.view.hand_results[0].entropy_commitments == (c0, c1)
    sample = m.HandResult(
        table="T",
        hand_number=1,
        first_drafter=0,
        bids=(1, 1),
        blind_nil=(False, False),
        tricks=(1, 1),
        points=(0, 0),
        bags_added=(0, 0),
        bag_penalties=(0, 0),
        scores=(0, 0),
        bags=(0, 0),
        commitment="00",
        seed="00",
        entropy=("", ""),
        entropy_commitments=result,
    )
    older = encode_for(sample, 2)
    assert older is not None and "entropy_commitments" not in decode_server(older).model_fields_set


def test_entropy_commit_from_a_1_2_connection_is_bad_message() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "old", minor=2)
        digest = "ab" * 32
        commit_message = m.EntropyCommit(code="ABCD", hand_number=1, commitment=digest)
        error = await client.error(commit_message, "bad_message")
        assert "1.3" in error.message and error.request == "entropy_commit"
        await client.close()

    run(test)
