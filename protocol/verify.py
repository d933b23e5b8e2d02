"""What one seat can check of a finished hand, as docs/protocol.md lists it.

"What a client checks after each hand": the seed against the commitment of
``hand_started``, the seat's own entropy, the deck recomputed from the seed and both
entropy entries, every card the seat saw in its draft, that every card the other seat
played lies in one of the other seat's draft pairs (one card per pair, except as many as
it exchanged in a blind nil, which must be cards that went to the pile), and the
blind-nil exchange draws, its own and the other seat's::

    collector = HandCollector(seat=0, value=my_entropy_hex)
    collector.add(event)                 # every event of the hand, as this seat got it
    problems = collector.check(result)   # at hand_result: [] when every check passes

    problems = check_hand(evidence)      # the same from a HandEvidence built by hand

Protocol 1.3 (commit, then reveal): give the collector the table's
``entropy_commitments`` (``collector.relayed(message)``) and the checks add that every
revealed value matches its seat's commitment, that ``hand_result`` repeats the relayed
commitments, and that ``shuffled.withheld`` agrees with them. A withheld reveal is not a
failed check (the hand goes on without it) but must be shown: :func:`withheld_seats`.
``seat_commitment`` makes a seat's commitment (``entropy_commit.commitment``).

``problems`` holds one sentence per failed check, naming the card or the turn; nothing
here raises for bad evidence (a seed that is not hex is a problem too).

The exchange draws need the pile, which holds the other seat's draft discards; no seat
sees those during the hand. At its end the other seat has played all 13 of its cards,
and they tell its draft: every draft of the other seat that fits them (each pair's kept
card played or given away, as many given as it exchanged) is replayed with the stream
and the pile, and the draws must come out as dealt for at least one of them. When the
other seat did not exchange, exactly one draft fits, and the check is exact; when it
did, which card of a pair it kept and then gave away can stay hidden, and only the game
record settles that. The draws are not checked when this seat did not see all its own
draft turns or all the other seat's cards (a seat that joined mid-hand).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from engine import CARDS, shuffled_deck
from engine.errors import ShuffleError
from engine.shuffle import RandomStream
from protocol import messages as m

__all__ = [
    "COMMIT_DOMAIN",
    "DraftSeen",
    "HandCollector",
    "HandEvidence",
    "check_hand",
    "seat_commitment",
    "withheld_seats",
]

COMMIT_DOMAIN = b"spades/commit/v1"

DRAFT_TURNS = 26
HAND_SIZE = 13
CARD_ORDER = {str(card): index for index, card in enumerate(CARDS)}


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
    relayed: tuple[str | None, ...] | None = None
    """1.3: the commitments of ``entropy_commitments`` (None: the hand had no commit step)."""
    result_commitments: tuple[str, ...] = ()
    """1.3: ``hand_result.entropy_commitments``."""
    withheld: tuple[bool, bool] = (False, False)
    """1.3: ``shuffled.withheld``."""


def seat_commitment(hand_commitment: str, seat: int, value: bytes) -> str:
    """A seat's commitment to its entropy ``value`` for the hand whose ``hand_started``
    carried ``hand_commitment`` (hex): ``SHA-256(COMMIT_DOMAIN + C + seat + value)`` in
    lowercase hex. Raises ``ValueError`` when ``hand_commitment`` is not hex."""
    digest = hashlib.sha256(COMMIT_DOMAIN + bytes.fromhex(hand_commitment) + bytes([seat]) + value)
    return digest.hexdigest()


def withheld_seats(commitments: Sequence[str | None], entropy: Sequence[str]) -> list[int]:
    """The seats that committed and whose revealed value is empty: withheld reveals."""
    return [
        seat
        for seat, (committed, value) in enumerate(zip(commitments, entropy, strict=False))
        if committed and not value
    ]


def _commit_problems(e: HandEvidence) -> list[str]:
    """The 1.3 checks: each revealed value against its seat's relayed commitment."""
    if e.relayed is None:
        if any(e.result_commitments):
            return ["hand_result lists entropy commitments that were never relayed"]
        return []
    relayed = tuple(c or "" for c in e.relayed)
    problems: list[str] = []
    recorded = tuple(e.result_commitments)
    # no commitment at all is recorded as none (the hand was then dealt as in 1.2)
    if (recorded if any(recorded) else ()) != (relayed if any(relayed) else ()):
        problems.append("hand_result's entropy commitments differ from those relayed")
    if len(relayed) != 2 or len(e.entropy) != 2:
        return [*problems, "the hand does not have two commitments and two values"]
    for seat in (0, 1):
        value, committed = e.entropy[seat], relayed[seat]
        if not value:
            continue
        if not committed:
            problems.append(f"seat {seat}'s value went in without a relayed commitment")
            continue
        try:
            made = seat_commitment(e.commitment, seat, bytes.fromhex(value))
        except ValueError:
            return [*problems, "the commitment of hand_started is not hex"]
        if made != committed:
            problems.append(f"seat {seat}'s revealed value does not match its commitment")
    withheld = withheld_seats(relayed, e.entropy)
    if [seat for seat in (0, 1) if e.withheld[seat]] != withheld:
        problems.append("the shuffled event's withheld disagrees with the commitments and values")
    return problems


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
    problems += _commit_problems(e)
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
    return problems + _exchange_draw_problems(e, cards, mine)


def _cards(cards: Iterable[str]) -> str:
    return " ".join(sorted(cards, key=CARD_ORDER.__getitem__)) or "nothing"


def _draw_positions(e: HandEvidence, counts: Sequence[int]) -> list[list[int]]:
    """Where each exchange, in order, draws from the pile: the positions popped one after
    another. The stream is the stock's, going on after the shuffle; the pile holds
    DRAFT_TURNS cards at each exchange (an exchange puts back as many as it draws)."""
    stream = RandomStream(bytes.fromhex(e.seed), tuple(bytes.fromhex(v) for v in e.entropy))
    stream.shuffle(list(range(len(CARDS))))
    return [[stream.below(DRAFT_TURNS - k) for k in range(count)] for count in counts]


def _their_drafts(
    pairs: Sequence[tuple[int, str, str]], played: set[str], outside: int, exchanged: int
) -> Iterator[dict[int, tuple[str, str]]]:
    """Every draft of the other seat that fits the cards it played: for each of its turns
    ``(t, top, second)``, the card it kept and the card it laid on the pile. A kept card
    it did not play was given away, a pile card it played was received, and both number
    ``exchanged`` (``outside``: the played cards of no pair of its, received too)."""
    options = [((top, second), (second, top)) for _, top, second in pairs]

    def walk(
        index: int, gave: int, took: int, chosen: list[tuple[str, str]]
    ) -> Iterator[dict[int, tuple[str, str]]]:
        if gave > exchanged or took + outside > exchanged:
            return
        if index == len(pairs):
            if gave == exchanged and took + outside == exchanged:
                yield {t: choice for (t, _, _), choice in zip(pairs, chosen, strict=True)}
            return
        for kept, laid in options[index]:
            chosen.append((kept, laid))
            yield from walk(index + 1, gave + (kept not in played), took + (laid in played), chosen)
            chosen.pop()

    yield from walk(0, 0, 0, [])


def _replay_exchanges(
    e: HandEvidence,
    pile: list[str],
    their_kept: set[str],
    order: Sequence[int],
    positions: Sequence[Sequence[int]],
) -> str | None:
    """Draw the exchanges of ``order`` from ``pile`` at ``positions``; None when the draws
    agree with what this seat received and with the cards the other seat played, else
    what disagrees."""
    played = set(e.opponent_played)
    for seat, where in zip(order, positions, strict=True):
        drawn = [pile.pop(position) for position in where]
        if seat == e.seat:
            if sorted(drawn) != sorted(e.received):
                return (
                    f"you received {_cards(e.received)} in your exchange; the stream and "
                    f"the pile give {_cards(drawn)}"
                )
            gave = set(e.given)
        else:
            if not set(drawn) <= played:
                return f"the other seat's exchange drew {_cards(drawn)}, not all of which it played"
            kept_and_played = played - set(drawn)
            if not kept_and_played <= their_kept:
                return (
                    f"the other seat played {_cards(kept_and_played - their_kept)}, neither "
                    f"kept in its draft nor drawn in its exchange (it drew {_cards(drawn)})"
                )
            # 13 played, as many drawn as given: the kept cards it did not play are given
            gave = their_kept - kept_and_played
        pile.extend(sorted(gave, key=CARD_ORDER.__getitem__))  # given cards go last
    return None


def _exchange_draw_problems(e: HandEvidence, cards: Sequence[str], mine: list[int]) -> list[str]:
    """Check 5: the blind-nil exchange draws, against every draft of the other seat that
    fits the cards it played (see the module docstring)."""
    counts = {e.seat: len(e.given), 1 - e.seat: e.opponent_exchanged}
    if not any(counts.values()):
        return []
    if len(e.received) != len(e.given):
        return [f"you gave {len(e.given)} card(s) in your exchange but received {len(e.received)}"]
    played = set(e.opponent_played)
    if len(e.my_turns) != len(mine) or len(played) != HAND_SIZE:
        return []  # not all seen (a seat that joined mid-hand): the pile is not known
    order = [s for s in (e.first_drafter, 1 - e.first_drafter) if counts[s] > 0]
    positions = _draw_positions(e, [counts[s] for s in order])
    laid = {
        t: cards[2 * t + 1] if turn.kept else cards[2 * t]
        for t, turn in zip(mine, e.my_turns, strict=True)
    }
    pairs = [(t, cards[2 * t], cards[2 * t + 1]) for t in range(DRAFT_TURNS) if t not in laid]
    theirs = {card for _, top, second in pairs for card in (top, second)}
    outside = len(played - theirs)
    reasons: list[str] = []
    for draft in _their_drafts(pairs, played, outside, e.opponent_exchanged):
        pile = [laid[t] if t in laid else draft[t][1] for t in range(DRAFT_TURNS)]
        kept = {choice[0] for choice in draft.values()}
        reason = _replay_exchanges(e, pile, kept, order, positions)
        if reason is None:
            return []
        reasons.append(reason)
    if not reasons:
        return [
            f"the cards the other seat played fit no draft of its own with an exchange of "
            f"{e.opponent_exchanged} card(s)"
        ]
    if len(reasons) == 1:
        return [f"the exchange draws do not match: {reasons[0]}"]
    return [
        f"the exchange draws match none of the {len(reasons)} drafts the other seat could "
        f"have made (the first: {reasons[0]})"
    ]


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
    commitments: tuple[str | None, ...] | None = None
    withheld: tuple[bool, bool] = (False, False)

    def relayed(self, message: m.EntropyCommitments) -> None:
        """Take the hand's ``entropy_commitments`` (protocol 1.3)."""
        self.commitments = message.commitments

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
        elif isinstance(event, m.ShuffledEvent):
            self.withheld = event.withheld

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
                relayed=self.commitments,
                result_commitments=result.entropy_commitments,
                withheld=self.withheld,
            )
        )
