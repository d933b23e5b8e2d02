"""Honest hands as one seat receives them, and each way a server could cheat that seat,
for the tests of every client's checks (protocol.verify, the terminal client, ``spades
bot``, the browser's verify.js).

    hands = seat_hands("five-hundred", seed=3, count=6)    # honest, both seats, 1.3
    for name, forged in forgeries(hands[0]).items(): ...   # each must raise the alarm

A :class:`SeatHand` is what one seat got of one hand: its ``events`` frames (as the
server versions them), the ``entropy_commitments`` relayed (1.3), the value it sent, and
the ``hand_result``. A forgery changes what the server sent, never the seat's own value.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable

from engine import (
    CARDS,
    Commit,
    Exchange,
    GameState,
    Phase,
    PlayerView,
    RuleSet,
    Shuffle,
    shuffled_deck,
)
from engine.game import HandScored
from protocol import messages as m
from protocol.convert import event_messages, hand_result_message
from protocol.verify import seat_commitment

CODE = "F0RGE"


@dataclasses.dataclass(frozen=True)
class SeatHand:
    """One hand as ``seat`` received it."""

    seat: int
    value: bytes
    frames: tuple[m.Events, ...]
    relayed: m.EntropyCommitments | None
    result: m.HandResult
    start: PlayerView  # the seat's view just before the hand (for a client that keeps one)

    @property
    def events(self) -> list[m.EventMessage]:
        return [event for frame in self.frames for event in frame.events]

    def cards(self) -> list[str]:
        seed = bytes.fromhex(self.result.seed)
        values = [bytes.fromhex(v) for v in self.result.entropy]
        return [str(CARDS[i]) for i in shuffled_deck(seed, values)]


def seat_hands(preset: str, seed: int, count: int, committing: bool = True) -> list[SeatHand]:
    """``count`` honest hands of a game (both seats' views of each; blind nil now and then,
    random exchanges), dealt with commit and reveal (``committing``) or 1.1 values."""
    rng = random.Random(seed)
    state = GameState(RuleSet.preset(preset))
    out: list[SeatHand] = []
    frames: list[list[m.Events]] = [[], []]
    relayed: m.EntropyCommitments | None = None
    values = (b"", b"")
    start = (state.view_for(0), state.view_for(1))
    while len(out) < 2 * count and not state.is_over:
        seat = state.current_player
        if seat is None:
            start = (state.view_for(0), state.view_for(1))
            frames = [[], []]
            hand_seed = hashlib.sha256(b"forged %d %d" % (seed, len(out))).digest()
            outcome = state.apply(None, Commit(hand_seed))
            _frame(frames, outcome)
            values = (rng.randbytes(32), rng.randbytes(32))
            commitment = state.commitment or ""
            relayed = None
            if committing:
                relayed = m.EntropyCommitments(
                    table=CODE,
                    hand_number=state.hand_number,
                    commitments=(
                        seat_commitment(commitment, 0, values[0]),
                        seat_commitment(commitment, 1, values[1]),
                    ),
                    reveal_seconds=2.0,
                )
            outcomes = [state.apply(None, Shuffle(values))]
        elif state.phase is Phase.EXCHANGE:
            hand = list(state.view_for(seat).hand)
            outcomes = [state.apply(seat, Exchange(tuple(rng.sample(hand, rng.randint(0, 3)))))]
        else:
            legal = state.legal_actions(seat)
            if state.phase is Phase.BLIND_NIL:  # declared half the time: exchanges happen
                declare = [a for a in legal if getattr(a, "declare", False)]
                action = declare[0] if declare and rng.random() < 0.5 else legal[-1]
            elif state.phase is Phase.BIDDING:
                action = min(legal, key=lambda a: abs(getattr(a, "tricks", 0) - 3))
            else:
                action = rng.choice(legal)
            outcomes = [state.apply(seat, action)]
        for outcome in outcomes:
            _frame(frames, outcome)
            for happened in outcome.for_viewer(None):
                if isinstance(happened, HandScored):
                    result = hand_result_message(happened.result, CODE)
                    if relayed is not None:
                        update = {"entropy_commitments": tuple(relayed.commitments)}
                        result = result.model_copy(update=update)
                    for who in (0, 1):
                        out.append(
                            SeatHand(
                                who, values[who], tuple(frames[who]), relayed, result, start[who]
                            )
                        )
    return out


def _frame(frames: list[list[m.Events]], outcome: object) -> None:
    for viewer in (0, 1):
        events = event_messages(outcome.for_viewer(viewer))  # type: ignore[attr-defined]
        version = outcome.version  # type: ignore[attr-defined]
        frames[viewer].append(m.Events(table=CODE, version=version, events=events))


def _with_result(hand: SeatHand, **update: object) -> SeatHand:
    return dataclasses.replace(hand, result=hand.result.model_copy(update=update))


def _with_event(
    hand: SeatHand, match: Callable[[m.EventMessage], bool], new: m.EventMessage
) -> SeatHand:
    """``hand`` with the first event that ``match`` accepts replaced by ``new``."""
    frames = []
    done = False
    for frame in hand.frames:
        events = []
        for event in frame.events:
            if not done and match(event):
                events.append(new)
                done = True
            else:
                events.append(event)
        frames.append(frame.model_copy(update={"events": tuple(events)}))
    assert done, "no event to forge"
    return dataclasses.replace(hand, frames=tuple(frames))


def _other_hex(text: str) -> str:
    return hashlib.sha256(bytes.fromhex(text) + b"forged").hexdigest()


def forgeries(hand: SeatHand) -> dict[str, SeatHand]:
    """Each way of cheating ``hand.seat`` that applies to this hand, by name; every one
    must make the seat's client raise the alarm."""
    me, other = hand.seat, 1 - hand.seat
    result = hand.result
    cards = hand.cards()
    out: dict[str, SeatHand] = {}
    # 1 the seed is not the committed one
    out["seed_not_committed"] = _with_result(hand, seed=_other_hex(result.seed))
    # 2 the server left my value out (or changed it)
    entropy = list(result.entropy)
    entropy[me] = _other_hex(entropy[me]) if entropy[me] else "ab" * 32
    out["my_value_replaced"] = _with_result(hand, entropy=tuple(entropy))
    # 3 another deck: the other seat's value swapped after the fact (commitment kept)
    entropy = list(result.entropy)
    entropy[other] = _other_hex(entropy[other]) if entropy[other] else "cd" * 32
    out["other_value_swapped"] = _with_result(hand, entropy=tuple(entropy))
    # 4 a card offered to me that the deck does not put there
    mine = [e for e in hand.events if isinstance(e, m.DraftTurnEvent) and e.seat == me and e.card]
    if mine:
        first = mine[0]
        wrong = next(c for c in cards if c not in (first.card, first.other_card))
        out["offered_card_forged"] = _with_event(
            hand, lambda e: e == first, first.model_copy(update={"card": wrong})
        )
    played = [e for e in hand.events if isinstance(e, m.CardPlayedEvent) and e.seat == other]
    kept = {e.card for e in mine if e.kept} | {
        e.other_card for e in mine if not e.kept and e.other_card
    }
    exchange = [e for e in hand.events if isinstance(e, m.ExchangeEvent) and e.seat == me]
    given = set(exchange[0].given) if exchange else set()
    received = set(exchange[0].received) if exchange else set()
    held = (kept - given) | received
    if played and held:
        # 5 the other seat played a card that I hold
        target = played[-1]
        stolen = sorted(held)[0]
        out["opponent_played_my_card"] = _with_event(
            hand, lambda e: e == target, target.model_copy(update={"card": stolen})
        )
    # 6 the other seat played both cards of one of its pairs (the second replaces another)
    position = {card: i for i, card in enumerate(cards)}
    played_cards = {e.card for e in played}
    their_exchange = any(isinstance(e, m.ExchangeEvent) and e.seat == other for e in hand.events)
    for event in [] if their_exchange else played:
        partner = cards[position[event.card] ^ 1]
        victim = next((e for e in reversed(played) if e.card != event.card), None)
        if partner not in played_cards and partner not in held and victim is not None:
            out["opponent_played_both_of_a_pair"] = _with_event(
                hand, lambda e, v=victim: e == v, victim.model_copy(update={"card": partner})
            )
            break
    # 7 my blind-nil exchange drew a card other than the stream's
    if exchange and exchange[0].received:
        event = exchange[0]
        pile_cards = [c for c in cards if c not in held and c not in played_cards]
        swap = next((c for c in pile_cards if c not in event.received), None)
        if swap is not None:
            forged_received = tuple(sorted([swap, *event.received[1:]], key=position.get))
            out["exchange_draw_forged"] = _with_event(
                hand, lambda e: e == event, event.model_copy(update={"received": forged_received})
            )
    # 8 hand_result names another first drafter than hand_started
    out["first_drafter_changed"] = _with_result(hand, first_drafter=1 - result.first_drafter)
    if hand.relayed is not None:
        # 9 (1.3) a revealed value that does not match its seat's commitment, the deck
        # recomputed from it (a server that let the other seat change its value)
        changed = list(result.entropy)
        changed[other] = _other_hex(changed[other])
        out["reveal_not_committed"] = _with_result(hand, entropy=tuple(changed))
        # 10 (1.3) hand_result's commitments are not the ones relayed
        commitments = list(result.entropy_commitments)
        commitments[other] = _other_hex(commitments[other])
        out["commitments_rewritten"] = _with_result(hand, entropy_commitments=tuple(commitments))
        # 11 (1.3) a withheld reveal hidden: the other value dropped, shuffled not marked
        dropped = list(result.entropy)
        dropped[other] = ""
        out["withheld_not_shown"] = _with_result(hand, entropy=tuple(dropped))
    return out
