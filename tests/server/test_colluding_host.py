"""The colluding host (docs/protocol.md, "The fair shuffle"): the server and seat 1 are one
party. It knows every hand's seed and grinds its own seat's entropy to deal itself the
hand it likes. Played against a real room (manual clock, no sockets):

- protocol 1.2 (values sent at once): the honest value arrives first, so every value the
  host tries deals another deck and it keeps the best: a free choice among as many decks
  as it can compute;
- protocol 1.3 (commit, then reveal): the host must commit before the honest value is
  out, and afterwards every reveal but its committed one is refused; whatever it does,
  the hand is dealt one of at most two decks, F(s, vA, vB) or F(s, vA, "") (withheld),
  and the withheld one is shown to both seats and counted.

Run with ``-s`` to see the figures (the lead pastes them into docs/protocol.md).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from engine import shuffled_deck
from protocol import messages as m
from protocol.verify import seat_commitment
from server.errors import RequestError
from server.rooms import play as play_module
from server.rooms import requests
from server.rooms.room import Room
from tests.server.test_rooms import CONFIG, Heard, Host, ManualClock, a_room

SEED = hashlib.sha256(b"the host's seed").digest()
HONEST = hashlib.sha256(b"the honest seat's value").digest()
CANDIDATES = 300  # values the host grinds (a real one tries millions: the bound is the same)
HOST_SEAT = 1
SPADES = 3  # card index = suit * 13 + rank, spades the fourth suit


def host_spades(deck: list[int], first_drafter: int) -> int:
    """What the host grinds for: spades in its own draft pairs (both cards of each pair
    it is offered), a stand-in for "a hand it likes"."""
    turns = [t for t in range(26) if (t % 2 == 0) == (first_drafter == HOST_SEAT)]
    return sum(deck[2 * t + k] // 13 == SPADES for t in turns for k in (0, 1))


def a_hand(minor: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Room, ManualClock, Heard, Heard]:
    """A room whose first hand has the host's seed, both seats on ``1.minor``, waiting for
    the seats' entropy."""
    monkeypatch.setattr(play_module.secrets, "token_bytes", lambda n: SEED[:n])
    host = Host(replace(CONFIG, entropy_seconds=3))
    room, clock = a_room(host)
    honest, colluder = Heard(minor), Heard(minor)
    host.online.update(alice=honest, bob=colluder)
    requests.join(room, honest, "alice", "alice", m.JoinTable(code=room.code, id=1))
    requests.join(room, colluder, "bob", "bob", m.JoinTable(code=room.code, id=2))
    assert room.state.awaiting_shuffle
    return room, clock, honest, colluder


def dealt(room: Room) -> tuple[int, ...]:
    """The deck the server drew for the hand under way."""
    revealed = room.state.revealed_shuffle()
    assert revealed is not None and not room.state.awaiting_shuffle
    seed, entropy, _ = revealed
    return tuple(shuffled_deck(seed, entropy))


def grind_1_2(monkeypatch: pytest.MonkeyPatch) -> tuple[set[tuple[int, ...]], int, float]:
    """1.2: the honest value is in; the host tries each candidate and keeps the best."""
    decks: set[tuple[int, ...]] = set()
    scores: list[int] = []
    best: tuple[int, bytes] | None = None
    for i in range(CANDIDATES):
        room, _, honest, colluder = a_hand(2, monkeypatch)
        hand, first = room.state.hand_number, room.state.first_drafter or 0
        requests.entropy(
            room, honest, "alice", m.Entropy(code=room.code, hand_number=hand, value=HONEST.hex())
        )
        candidate = hashlib.sha256(b"try %d" % i).digest()
        # the host computes the deck offline before sending: that is the whole attack
        predicted = shuffled_deck(SEED, (HONEST, candidate))
        requests.entropy(
            room,
            colluder,
            "bob",
            m.Entropy(code=room.code, hand_number=hand, value=candidate.hex()),
        )
        assert tuple(predicted) == dealt(room)
        decks.add(dealt(room))
        score = host_spades(predicted, first)
        scores.append(score)
        if best is None or score > best[0]:
            best = (score, candidate)
    assert best is not None
    return decks, best[0], sum(scores) / len(scores)


def test_the_colluding_host_chooses_among_at_most_two_decks_in_1_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    decks_1_2, best_1_2, mean_1_2 = grind_1_2(monkeypatch)
    assert len(decks_1_2) == CANDIDATES  # 1.2: every try is another deck to choose from

    # 1.3: the host commits first (it cannot know the honest value: only its hash is out)
    committed_value = hashlib.sha256(b"the host's committed value").digest()
    decks: set[tuple[int, ...]] = set()
    refused = withheld_shown = 0
    strategies = [hashlib.sha256(b"try %d" % i).digest() for i in range(CANDIDATES)]
    for attempt in [committed_value, None, *strategies]:  # reveal, withhold, or lie
        room, clock, honest, colluder = a_hand(3, monkeypatch)
        hand, code = room.state.hand_number, room.code
        commitment = room.state.commitment or ""
        mine = seat_commitment(commitment, 0, HONEST)
        requests.entropy_commit(
            room, honest, "alice", m.EntropyCommit(code=code, hand_number=hand, commitment=mine)
        )
        # the host sees only the honest seat's commitment; it must commit now
        assert not honest.of(m.EntropyCommitments)
        theirs = seat_commitment(commitment, HOST_SEAT, committed_value)
        requests.entropy_commit(
            room, colluder, "bob", m.EntropyCommit(code=code, hand_number=hand, commitment=theirs)
        )
        (relayed,) = honest.of(m.EntropyCommitments)
        assert relayed.commitments == (mine, theirs)
        # the honest client reveals after the relay; now the host knows HONEST
        requests.entropy(
            room, honest, "alice", m.Entropy(code=code, hand_number=hand, value=HONEST.hex())
        )
        assert room.state.awaiting_shuffle
        if attempt is None:
            clock.advance(3)  # withhold: the hand waits out the reveal deadline
        else:
            try:
                requests.entropy(
                    room,
                    colluder,
                    "bob",
                    m.Entropy(code=code, hand_number=hand, value=attempt.hex()),
                )
            except RequestError as error:
                assert error.code == "illegal_action"
                refused += 1
        deck = dealt(room)
        decks.add(deck)
        shuffled = [
            e for ev in honest.of(m.Events) for e in ev.events if isinstance(e, m.ShuffledEvent)
        ]
        withheld = shuffled[-1].withheld[HOST_SEAT]
        assert withheld == (attempt != committed_value)
        if withheld:
            seats = honest.of(m.TableUpdate)[-1].table.seats
            assert seats[HOST_SEAT].withheld_reveals == 1
            withheld_shown += 1
    allowed = {
        tuple(shuffled_deck(SEED, (HONEST, committed_value))),
        tuple(shuffled_deck(SEED, (HONEST, b""))),
    }
    assert decks == allowed and len(decks) == 2
    assert refused == CANDIDATES and withheld_shown == CANDIDATES + 1
    first = 0 if room.state.first_drafter is None else room.state.first_drafter
    reachable = sorted(host_spades(list(deck), first) for deck in decks)
    with capsys.disabled():
        print(
            f"\ncolluding host (server + seat {HOST_SEAT}; knows every seed), "
            f"{CANDIDATES} values ground:\n"
            f"  1.2: {len(decks_1_2)} different decks to choose from; best {best_1_2} spades "
            f"in its draft pairs (mean {mean_1_2:.2f})\n"
            f"  1.3: {len(decks)} decks reachable whatever it sends: its committed value "
            f"or withheld ({reachable} spades in its pairs); {refused} other reveals refused; "
            f"every withholding shown in shuffled.withheld and SeatInfo.withheld_reveals"
        )
