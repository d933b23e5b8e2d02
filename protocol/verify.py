"""What one seat can check of a finished hand, as docs/protocol.md lists it.

"What a client checks after each hand": the seed against the commitment of
``hand_started``, the seat's own entropy, the deck recomputed from the seed and both
entropy entries, every card the seat saw in its draft, and that every card the other seat
played lies in one of the other seat's draft pairs (one card per pair, except as many as
it exchanged in a blind nil, which must be cards that went to the pile)::

    collector = HandCollector(seat=0, value=my_entropy_hex)
    collector.add(event)                 # every event of the hand, as this seat got it
    problems = collector.check(result)   # at hand_result: [] when every check passes

    problems = check_hand(evidence)      # the same from a HandEvidence built by hand

``problems`` holds one sentence per failed check, naming the card or the turn; nothing
here raises for bad evidence (a seed that is not hex is a problem too). The blind-nil
exchange draws need the other seat's draft, which only the game record shows: check
those from the record after the game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from engine import CARDS, shuffled_deck
from engine.errors import ShuffleError
from protocol import messages as m

__all__ = ["DraftSeen", "HandCollector", "HandEvidence", "check_hand"]

DRAFT_TURNS = 26


@dataclass(frozen=True, slots=True)
class DraftSeen:
    """One of this seat's draft turns, as its own ``draft_turn`` event said."""

    kept: bool
    card: str
    """The card on offer."""
    other_card: str | None
    """Taken after a discard, or seen going to the pile after a keep (None: not shown)."""


@dataclass(frozen=True, slots=True)
class HandEvidence:
    """Everything one seat knows of a finished hand that the checks need (cards as text)."""

    seat: int
    first_drafter: int
    commitment: str
    """From this hand's ``hand_started``, received before the hand's first card."""
    seed: str
    entropy: tuple[str, ...]
    my_value: str
    """The entropy this seat sent, hex (``""``: none)."""
    my_turns: tuple[DraftSeen, ...]
    given: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    opponent_played: tuple[str, ...] = ()
    opponent_exchanged: int = 0


def _shuffle_problems(e: HandEvidence) -> tuple[list[str], list[str] | None]:
    """The seed and entropy checks, and the deck as card texts (None: not computable)."""
    problems: list[str] = []
    try:
        seed = bytes.fromhex(e.seed)
        values = tuple(bytes.fromhex(value) for value in e.entropy)
    except ValueError:
        return ["the revealed seed or entropy is not hex"], None
    if hashlib.sha256(seed).hexdigest() != e.commitment.lower():
        problems.append("the seed does not hash to the commitment of hand_started")
    if len(values) != 2:
        problems.append(f"entropy has {len(values)} entries instead of 2")
    elif e.entropy[e.seat] != e.my_value.lower():
        problems.append("your entry of entropy is not the value you sent")
    try:
        deck = shuffled_deck(seed, values)
    except ShuffleError as error:
        return [*problems, f"the deck cannot be recomputed: {error}"], None
    return problems, [str(CARDS[index]) for index in deck]


def check_hand(e: HandEvidence) -> list[str]:
    """Every check of one finished hand for seat ``e.seat``; [] when all pass."""
    problems, cards = _shuffle_problems(e)
    if cards is None:
        return problems
    mine = [t for t in range(DRAFT_TURNS) if (t % 2 == 0) == (e.first_drafter == e.seat)]
    theirs = set(range(DRAFT_TURNS)) - set(mine)
    if len(e.my_turns) > len(mine):
        problems.append(f"you took {len(e.my_turns)} draft turns, more than {len(mine)}")
    got: set[str] = set()
    my_pile: set[str] = set()
    for t, turn in zip(mine, e.my_turns, strict=False):
        top, second = cards[2 * t], cards[2 * t + 1]
        if turn.card != top:
            problems.append(f"draft turn {t}: you were offered {turn.card}, the deck says {top}")
        if turn.other_card is not None and turn.other_card != second:
            problems.append(
                f"draft turn {t}: the second card was {turn.other_card}, the deck says {second}"
            )
        got.add(top if turn.kept else second)
        my_pile.add(second if turn.kept else top)
    their_cards = {cards[2 * t + k] for t in theirs for k in (0, 1)}
    for card in e.received:
        if card not in my_pile | their_cards:
            problems.append(
                f"you received {card} in your exchange, a card that never went to the pile"
            )
    held = (got - set(e.given)) | set(e.received)
    position = {card: index for index, card in enumerate(cards)}
    used: set[int] = set()
    gave_first = e.first_drafter == e.seat  # the first drafter exchanges first
    extras: list[str] = []
    for card in e.opponent_played:
        if card not in position:
            problems.append(f"the other seat played {card!r}, which is not a card")
            continue
        pair = position[card] // 2
        if card in held:
            problems.append(f"the other seat played {card}, a card you held")
        elif pair in theirs and pair not in used:
            used.add(pair)
        elif pair in theirs or card in my_pile or (card in e.given and gave_first):
            extras.append(card)  # only from the pile, by a blind-nil exchange
        else:
            problems.append(f"the other seat played {card}, a card you drafted")
    if len(extras) > e.opponent_exchanged:
        problems.append(
            f"the other seat played {len(extras)} card(s) outside its draft pairs "
            f"({' '.join(extras)}) but received only {e.opponent_exchanged} in an exchange"
        )
    return problems


@dataclass
class HandCollector:
    """Gathers one seat's evidence from the events of a hand, then checks it.

    Feed it every event of the hand in order (``add``), then call ``check`` with the
    hand's ``hand_result``. Start a new collector for each hand.
    """

    seat: int
    value: str
    """The entropy this seat sent for the hand, hex (``""``: none)."""
    commitment: str | None = None
    first_drafter: int | None = None
    turns: list[DraftSeen] = field(default_factory=list)
    given: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    opponent_played: list[str] = field(default_factory=list)
    opponent_exchanged: int = 0

    def add(self, event: m.EventMessage) -> None:
        """Take one event of the hand (events of other kinds are ignored)."""
        if isinstance(event, m.HandStartedEvent):
            self.commitment, self.first_drafter = event.commitment, event.first_drafter
        elif isinstance(event, m.DraftTurnEvent) and event.seat == self.seat:
            if event.kept is not None and event.card is not None:
                self.turns.append(DraftSeen(event.kept, event.card, event.other_card))
        elif isinstance(event, m.ExchangeEvent):
            if event.seat == self.seat:
                self.given, self.received = event.given, event.received
            else:
                self.opponent_exchanged = event.count
        elif isinstance(event, m.CardPlayedEvent) and event.seat != self.seat:
            self.opponent_played.append(event.card)

    def check(self, result: m.HandResult) -> list[str]:
        """Every check of the hand; [] when all pass."""
        if self.commitment is None or self.first_drafter is None:
            return ["no hand_started was seen for this hand: its commitment is unknown"]
        if result.first_drafter != self.first_drafter:
            return ["hand_result names another first drafter than hand_started"]
        return check_hand(
            HandEvidence(
                seat=self.seat,
                first_drafter=self.first_drafter,
                commitment=self.commitment,
                seed=result.seed,
                entropy=result.entropy,
                my_value=self.value,
                my_turns=tuple(self.turns),
                given=self.given,
                received=self.received,
                opponent_played=tuple(self.opponent_played),
                opponent_exchanged=self.opponent_exchanged,
            )
        )
