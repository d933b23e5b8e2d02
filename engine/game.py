"""The hand's state machine: one authoritative :class:`GameState` for a whole game.

Shaped like OpenSpiel: the state knows whose turn it is (:attr:`GameState.current_player`,
``None`` at a chance node), the :class:`Phase`, the :meth:`GameState.legal_actions` of a
seat, and :meth:`GameState.apply` either performs a legal action or raises
:class:`~engine.errors.IllegalActionError` and changes nothing. Chance (the shuffle) is an
input: before every hand the state waits for a :class:`~engine.actions.Deal` carrying a
seed from outside (or, so that the seats' entropy can come after the commitment, a
:class:`~engine.actions.Commit` of the seed and then a :class:`~engine.actions.Shuffle`
with each seat's value: :attr:`GameState.awaiting_shuffle` is true in between)::

    state = GameState(RuleSet.preset("classic"))
    state.apply(None, Deal(secrets.token_bytes(32)))
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(secrets.token_bytes(32)))
        else:
            outcome = state.apply(seat, pick(state.view_for(seat)))
            for viewer in (0, 1, None):
                send(viewer, outcome.for_viewer(viewer))

What leaves the engine is :class:`PlayerView` (from :meth:`GameState.view_for`) and the
events of an :class:`Outcome` filtered for one viewer; both hold only what that viewer may
know. Seats are ``0`` and ``1``; a spectator is viewer ``None``.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.actions import (
    Action,
    Bid,
    BlindNil,
    Commit,
    Deal,
    Discard,
    Exchange,
    Keep,
    Play,
    Shuffle,
)
from engine.cards import CARDS, SPADES, SUIT_MASKS, Card, card_mask, cards_in
from engine.errors import IllegalActionError
from engine.rules import RuleSet
from engine.shuffle import RandomStream, commitment_of

__all__ = [
    "BidMade",
    "BlindNilDeclared",
    "CardPlayed",
    "DraftTurnTaken",
    "Event",
    "ExchangeMade",
    "GameOver",
    "GameState",
    "HandResult",
    "HandScored",
    "HandStarted",
    "Outcome",
    "Phase",
    "PlayerView",
    "Shuffled",
    "Trick",
    "TrickWon",
    "legal_play_mask",
    "score_seat",
    "trick_winner",
]

SPADE_MASK: Final = SUIT_MASKS[SPADES]
HAND_SIZE: Final = 13


class Phase(enum.StrEnum):
    """Where a game stands. ``DEAL`` and ``HAND_OVER`` wait for chance's Deal."""

    DEAL = "deal"
    BLIND_NIL = "blind_nil"
    DRAFT = "draft"
    EXCHANGE = "exchange"
    BIDDING = "bidding"
    PLAY = "play"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


def legal_play_mask(hand: int, lead_suit: int, spades_broken: bool) -> int:
    """The cards of ``hand`` (a mask) that may be played.

    ``lead_suit`` is the suit led to the current trick, or ``-1`` when leading.
    """
    if lead_suit >= 0:
        follow = hand & SUIT_MASKS[lead_suit]
        return follow or hand
    if spades_broken:
        return hand
    return (hand & ~SPADE_MASK) or hand


def trick_winner(leader: int, first: int, second: int) -> int:
    """The seat that wins a trick where ``leader`` played ``first`` and the other ``second``."""
    first_suit, second_suit = first // 13, second // 13
    if second_suit == first_suit:
        return leader if first > second else 1 - leader
    return 1 - leader if second_suit == SPADES else leader


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the two cards in play order, who won it."""

    leader: int
    cards: tuple[Card, Card]
    winner: int

    def card_of(self, seat: int) -> Card:
        return self.cards[0] if seat == self.leader else self.cards[1]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's public outcome, per seat where a pair, with the revealed shuffle."""

    hand_number: int
    first_drafter: int
    bids: tuple[int | None, int | None]
    blind_nil: tuple[bool, bool]
    tricks: tuple[int, int]
    points: tuple[int, int]
    bags_added: tuple[int, int]
    bag_penalties: tuple[int, int]
    scores: tuple[int, int]
    bags: tuple[int, int]
    commitment: str
    seed: bytes
    entropy: tuple[bytes, ...]


# ---------------------------------------------------------------------------------------
# Events. Each is the full truth; `_redact` makes the copy one viewer may see.


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand_number: int
    first_drafter: int
    first_bidder: int
    commitment: str


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The stock of hand ``hand_number`` was drawn; ``entropy_from`` says which seats'
    entropy went into it. After a one-step Deal it follows ``HandStarted`` at once."""

    hand_number: int
    entropy_from: tuple[bool, bool]


@dataclass(frozen=True, slots=True)
class BlindNilDeclared:
    seat: int
    declared: bool


@dataclass(frozen=True, slots=True)
class DraftTurnTaken:
    """A draft turn. Only the drafter learns ``kept``, ``card`` (the card on offer) and
    ``other_card`` (the card taken after a discard, or seen going to the pile after a
    keep); every other viewer gets ``None`` in all three."""

    seat: int
    turns_left: int
    kept: bool | None = None
    card: Card | None = None
    other_card: Card | None = None


@dataclass(frozen=True, slots=True)
class ExchangeMade:
    """A blind-nil exchange; only its seat learns ``given`` and ``received``."""

    seat: int
    count: int
    given: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    trick: Trick
    number: int


@dataclass(frozen=True, slots=True)
class HandScored:
    result: HandResult


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: int
    scores: tuple[int, int]


Event = (
    HandStarted
    | Shuffled
    | BlindNilDeclared
    | DraftTurnTaken
    | ExchangeMade
    | BidMade
    | CardPlayed
    | TrickWon
    | HandScored
    | GameOver
)


def _redact(event: Event, viewer: int | None) -> Event:
    if isinstance(event, DraftTurnTaken) and event.seat != viewer:
        return DraftTurnTaken(event.seat, event.turns_left)
    if isinstance(event, ExchangeMade) and event.seat != viewer:
        return ExchangeMade(event.seat, event.count)
    return event


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one :meth:`GameState.apply` did, as events. Read it per viewer."""

    version: int
    _events: tuple[Event, ...]

    def for_viewer(self, viewer: int | None) -> tuple[Event, ...]:
        """The events seat ``viewer`` (``None``: a spectator) may see, in order."""
        return tuple(_redact(event, viewer) for event in self._events)


# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Exactly what one viewer knows: a seat (``0``/``1``) or a spectator (``None``).

    Private fields (``hand``, ``offered``, ``draft_*``, ``exchange_given``/``received``)
    are empty for a spectator and only ever hold this seat's own cards.
    """

    seat: int | None
    rules: RuleSet
    phase: Phase
    version: int
    hand_number: int
    scores: tuple[int, int]
    bags: tuple[int, int]
    first_drafter: int | None
    first_bidder: int | None
    current_player: int | None
    commitment: str | None
    # this seat's private knowledge
    hand: tuple[Card, ...] = ()
    offered: Card | None = None
    draft_kept: tuple[Card, ...] = ()
    draft_discarded: tuple[Card, ...] = ()
    draft_taken: tuple[Card, ...] = ()
    draft_seen_after_keep: tuple[Card, ...] = ()
    exchange_given: tuple[Card, ...] = ()
    exchange_received: tuple[Card, ...] = ()
    # public
    hand_sizes: tuple[int, int] = (0, 0)
    draft_turns: tuple[int, int] = (0, 0)
    stock_left: int = 0
    pile_size: int = 0
    blind_nil: tuple[bool | None, bool | None] = (None, None)
    exchange_counts: tuple[int | None, int | None] = (None, None)
    bids: tuple[int | None, int | None] = (None, None)
    tricks: tuple[Trick, ...] = ()
    current_trick: tuple[Card, ...] = ()
    leader: int | None = None
    tricks_won: tuple[int, int] = (0, 0)
    spades_broken: bool = False
    hand_results: tuple[HandResult, ...] = ()
    winner: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.current_player == self.seat

    @property
    def hand_mask(self) -> int:
        return card_mask(self.hand)

    @property
    def lead_suit(self) -> int:
        """Suit led to the current trick, ``-1`` when no card is on it."""
        return self.current_trick[0].suit if self.current_trick else -1

    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions now (empty when it is not this seat's turn)."""
        if not self.my_turn or self.seat is None:
            return ()
        return _legal_actions(
            self.phase,
            self.rules,
            self.seat,
            self.hand_mask,
            self.lead_suit,
            self.spades_broken,
            self.scores,
        )

    def seen_cards_mask(self) -> int:
        """Every card this seat has seen: its hand, its draft cards, its exchange, and
        every card played.

        None of them is in the opponent's hand, except after the opponent's blind-nil
        exchange: it draws from the pile, which holds this seat's discards and the cards it
        saw go there.
        """
        mask = card_mask(self.hand)
        mask |= card_mask(self.draft_kept) | card_mask(self.draft_discarded)
        mask |= card_mask(self.draft_taken) | card_mask(self.draft_seen_after_keep)
        mask |= card_mask(self.exchange_given) | card_mask(self.exchange_received)
        for trick in self.tricks:
            mask |= card_mask(trick.cards)
        return mask | card_mask(self.current_trick)


def _legal_actions(
    phase: Phase,
    rules: RuleSet,
    seat: int,
    hand: int,
    lead_suit: int,
    spades_broken: bool,
    scores: tuple[int, int],
) -> tuple[Action, ...]:
    # Actions are immutable values, so the constant ones are shared, not rebuilt.
    if phase is Phase.PLAY:
        legal = legal_play_mask(hand, lead_suit, spades_broken)
        plays = []
        while legal:
            low = legal & -legal
            plays.append(_PLAYS[low.bit_length() - 1])
            legal ^= low
        return tuple(plays)
    if phase is Phase.DRAFT:
        return _DRAFT_ACTIONS
    if phase is Phase.BIDDING:
        return _BIDS if rules.nil else _BIDS[1:]
    if phase is Phase.BLIND_NIL:
        if _may_declare_blind_nil(rules, seat, scores):
            return _BLIND_NIL_EITHER
        return _BLIND_NIL_DECLINE
    if phase is Phase.EXCHANGE:
        held = cards_in(hand)
        return tuple(
            map(
                Exchange,
                itertools.chain.from_iterable(
                    itertools.combinations(held, size)
                    for size in range(min(rules.blind_nil_exchange, len(held)) + 1)
                ),
            )
        )
    return ()


_PLAYS: Final = tuple(Play(card) for card in CARDS)
_DRAFT_ACTIONS: Final[tuple[Action, ...]] = (Keep(), Discard())
_BIDS: Final[tuple[Action, ...]] = tuple(Bid(n) for n in range(HAND_SIZE + 1))
_BLIND_NIL_EITHER: Final[tuple[Action, ...]] = (BlindNil(True), BlindNil(False))
_BLIND_NIL_DECLINE: Final[tuple[Action, ...]] = (BlindNil(False),)


def _may_declare_blind_nil(rules: RuleSet, seat: int, scores: tuple[int, int]) -> bool:
    if rules.blind_nil_min_deficit is None:
        return True
    return scores[1 - seat] - scores[seat] >= rules.blind_nil_min_deficit


def score_seat(
    rules: RuleSet, bid: int | None, blind: bool, tricks: int, bags_before: int
) -> tuple[int, int, int, int]:
    """One seat's hand score: ``(points, bags_added, penalties, bags_after)``.

    ``bid`` is ``None`` for blind nil (``blind`` true). Points include bag penalties.
    """
    bags_added = 0
    if blind or bid == 0:
        bonus = rules.blind_nil_bonus if blind else rules.nil_bonus
        points = bonus if tricks == 0 else -bonus
        if tricks and rules.failed_nil_tricks_are_bags:
            bags_added = tricks
    else:
        assert bid is not None
        if tricks >= bid:
            bags_added = tricks - bid
            points = 10 * bid + bags_added
        else:
            points = -10 * bid
    bags = bags_before + bags_added
    penalties = 0
    while bags >= rules.bag_limit:
        bags -= rules.bag_limit
        penalties += 1
    return points - penalties * rules.bag_penalty, bags_added, penalties, bags


@dataclass(slots=True)
class _Hand:
    """Everything about the hand in progress, private to :class:`GameState`."""

    number: int
    seed: bytes
    entropy: tuple[bytes, ...]
    commitment: str
    stock: list[int]
    stream: RandomStream
    first_drafter: int
    first_bidder: int
    stock_pos: int = 0
    hands: list[int] = field(default_factory=lambda: [0, 0])
    pile: list[int] = field(default_factory=list)
    blind: list[bool | None] = field(default_factory=lambda: [None, None])
    draft_turns: list[int] = field(default_factory=lambda: [0, 0])
    kept: list[list[int]] = field(default_factory=lambda: [[], []])
    discarded: list[list[int]] = field(default_factory=lambda: [[], []])
    taken: list[list[int]] = field(default_factory=lambda: [[], []])
    seen_after_keep: list[list[int]] = field(default_factory=lambda: [[], []])
    given: list[tuple[Card, ...]] = field(default_factory=lambda: [(), ()])
    received: list[tuple[Card, ...]] = field(default_factory=lambda: [(), ()])
    exchange_counts: list[int | None] = field(default_factory=lambda: [None, None])
    bids: list[int | None] = field(default_factory=lambda: [None, None])
    tricks: list[Trick] = field(default_factory=list)
    trick: list[int] = field(default_factory=list)
    leader: int = 0
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    spades_broken: bool = False


class GameState:
    """One game of two-handed Spades, from the first Deal to game over.

    Create it with a :class:`~engine.rules.RuleSet`; then alternate :meth:`apply` calls as
    :attr:`current_player` says (``None`` means chance: apply a Deal with seat ``None``).
    Every accepted action is appended to :attr:`actions`, from which
    :func:`engine.record.replay` rebuilds the identical state.
    """

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.rules = rules if rules is not None else RuleSet()
        self.phase = Phase.DEAL
        self.version = 0
        self.scores = [0, 0]
        self.bags = [0, 0]
        self.current_player: int | None = None
        self.winner: int | None = None
        self.hand_results: list[HandResult] = []
        self.actions: list[tuple[int | None, Action]] = []
        self.stocks: list[list[int]] = []
        self._hand: _Hand | None = None

    # ---- reading -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def is_chance_node(self) -> bool:
        """True when the next action is chance's :class:`~engine.actions.Deal`."""
        phase = self.phase
        return phase is Phase.DEAL or phase is Phase.HAND_OVER

    @property
    def awaiting_shuffle(self) -> bool:
        """True between a :class:`~engine.actions.Commit` and its
        :class:`~engine.actions.Shuffle`: the hand has started, its stock is not drawn."""
        hand = self._hand
        return self.phase is Phase.DEAL and hand is not None and not hand.stock

    def revealed_shuffle(self) -> tuple[bytes, tuple[bytes, ...], str] | None:
        """The current hand's ``(seed, entropy, commitment)``, or ``None`` before any deal.

        For the record of a game that ended mid-hand (a forfeit): the seed of a hand cut
        short is revealed with it, so every hand of a record can be checked.
        """
        hand = self._hand
        return None if hand is None else (hand.seed, hand.entropy, hand.commitment)

    @property
    def hand_number(self) -> int:
        return self._hand.number if self._hand else 0

    @property
    def first_drafter(self) -> int | None:
        return self._hand.first_drafter if self._hand else None

    @property
    def commitment(self) -> str | None:
        return self._hand.commitment if self._hand else None

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (authoritative, for the server and tests only)."""
        return cards_in(self._hand.hands[seat]) if self._hand else ()

    def legal_actions(self, seat: int | None) -> tuple[Action, ...]:
        """Legal actions of ``seat`` now: empty when it is not that seat's turn.

        At a chance node every Deal with a valid seed is legal; this returns ``()`` there.
        """
        hand = self._hand
        if seat is None or seat != self.current_player or hand is None or isinstance(seat, bool):
            return ()
        return _legal_actions(
            self.phase,
            self.rules,
            seat,
            hand.hands[seat],
            hand.trick[0] // 13 if hand.trick else -1,
            hand.spades_broken,
            (self.scores[0], self.scores[1]),
        )

    def view_for(self, viewer: int | None) -> PlayerView:
        """What ``viewer`` (seat ``0``/``1``, or ``None`` for a spectator) may know now.

        Raises ``ValueError`` for any other viewer (``-1`` must not index seat 1's cards).
        """
        if viewer is not None and (viewer not in (0, 1) or isinstance(viewer, bool)):
            raise ValueError(f"no such viewer: {viewer!r} (seats are 0 and 1, None spectates)")
        hand = self._hand
        base = {
            "seat": viewer,
            "rules": self.rules,
            "phase": self.phase,
            "version": self.version,
            "hand_number": self.hand_number,
            "scores": (self.scores[0], self.scores[1]),
            "bags": (self.bags[0], self.bags[1]),
            "current_player": self.current_player,
            "hand_results": tuple(self.hand_results),
            "winner": self.winner,
        }
        if hand is None:
            return PlayerView(first_drafter=None, first_bidder=None, commitment=None, **base)  # type: ignore[arg-type]
        private: dict[str, object] = {}
        if viewer is not None:
            private = {
                "hand": cards_in(hand.hands[viewer]),
                "draft_kept": _as_cards(hand.kept[viewer]),
                "draft_discarded": _as_cards(hand.discarded[viewer]),
                "draft_taken": _as_cards(hand.taken[viewer]),
                "draft_seen_after_keep": _as_cards(hand.seen_after_keep[viewer]),
                "exchange_given": hand.given[viewer],
                "exchange_received": hand.received[viewer],
            }
            if self.phase is Phase.DRAFT and self.current_player == viewer:
                private["offered"] = CARDS[hand.stock[hand.stock_pos]]
        in_hand = self.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)
        return PlayerView(
            first_drafter=hand.first_drafter,
            first_bidder=hand.first_bidder,
            commitment=hand.commitment,
            hand_sizes=(hand.hands[0].bit_count(), hand.hands[1].bit_count()),
            draft_turns=(hand.draft_turns[0], hand.draft_turns[1]),
            stock_left=len(hand.stock) - hand.stock_pos if hand.stock else len(CARDS),
            pile_size=len(hand.pile),
            blind_nil=(hand.blind[0], hand.blind[1]),
            exchange_counts=(hand.exchange_counts[0], hand.exchange_counts[1]),
            bids=(hand.bids[0], hand.bids[1]),
            tricks=tuple(hand.tricks),
            current_trick=_as_cards(hand.trick),
            leader=hand.leader if in_hand and self.phase is Phase.PLAY else None,
            tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
            spades_broken=hand.spades_broken,
            **base,  # type: ignore[arg-type]
            **private,  # type: ignore[arg-type]
        )

    def _key(self) -> tuple[object, ...]:
        hand = self._hand
        hand_key: tuple[object, ...] = ()
        if hand is not None:
            stream = hand.stream
            fields = (repr(getattr(hand, name)) for name in _Hand.__slots__ if name != "stream")
            hand_key = (*fields, stream._key, stream._counter, stream._buffer)
        return (
            self.rules,
            self.phase,
            self.version,
            tuple(self.scores),
            tuple(self.bags),
            self.current_player,
            self.winner,
            tuple(self.hand_results),
            tuple(self.actions),
            hand_key,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    # ---- acting --------------------------------------------------------------------

    def apply(self, seat: int | None, action: Action) -> Outcome:
        """Perform ``action`` for ``seat`` (``None``: chance's Deal) and return its events.

        Raises :class:`~engine.errors.IllegalActionError` if the action is not legal for
        that seat now; the state is then exactly as it was.
        """
        self._check(seat, action)
        events: list[Event] = []
        if isinstance(action, Deal):
            if type(action.entropy) is not tuple:
                action = Deal(action.seed, tuple(action.entropy))
            self._deal(action, events)
        elif isinstance(action, Commit):
            self._start_hand(action.seed, events)
        elif isinstance(action, Shuffle):
            action = Shuffle((action.entropy[0], action.entropy[1]))
            hand = self._hand
            assert hand is not None
            self._draw_stock(hand, action.entropy, events)
        else:
            hand = self._hand
            assert hand is not None and seat is not None
            if isinstance(action, BlindNil):
                self._blind_nil(hand, seat, action.declare, events)
            elif isinstance(action, Keep | Discard):
                self._draft(hand, seat, isinstance(action, Keep), events)
            elif isinstance(action, Exchange):
                # the record writes the cards sorted; so does the state, so replays agree
                action = Exchange(tuple(sorted(action.cards)))
                self._exchange(hand, seat, action.cards, events)
            elif isinstance(action, Bid):
                self._bid(hand, seat, action.tricks, events)
            else:
                self._play(hand, seat, action.card, events)
        self.actions.append((seat, action))
        self.version += 1
        return Outcome(self.version, tuple(events))

    def _check(self, seat: int | None, action: Action) -> None:
        phase = self.phase
        if phase is Phase.GAME_OVER:
            raise IllegalActionError("the game is over")
        if isinstance(action, Deal | Commit | Shuffle):
            if seat is not None:
                raise IllegalActionError("only chance deals (seat None)")
            if isinstance(action, Shuffle):
                if not self.awaiting_shuffle:
                    raise IllegalActionError("no shuffle now: no hand is committed")
                entropy = action.entropy
                if not isinstance(entropy, tuple | list) or len(entropy) != 2:
                    raise IllegalActionError("a shuffle takes one entropy value per seat")
                hand = self._hand
                assert hand is not None
                RandomStream(hand.seed, tuple(entropy))  # raises ShuffleError if unusable
                return
            if not self.is_chance_node or self.awaiting_shuffle:
                raise IllegalActionError(f"no deal now: the hand is in the {phase} phase")
            if isinstance(action, Deal):
                RandomStream(action.seed, action.entropy)  # raises ShuffleError if unusable
            else:
                RandomStream(action.seed)
            return
        if seat not in (0, 1) or isinstance(seat, bool):
            raise IllegalActionError(f"no such seat: {seat!r}")
        if self.is_chance_node:
            raise IllegalActionError("the hand has not been dealt yet")
        if seat != self.current_player:
            raise IllegalActionError(f"it is not seat {seat}'s turn")
        hand = self._hand
        assert hand is not None
        wanted = _PHASE_ACTIONS[phase]
        if not isinstance(action, wanted):
            raise IllegalActionError(f"{action} is not an action of the {phase} phase")
        if isinstance(action, BlindNil):
            if not isinstance(action.declare, bool):
                raise IllegalActionError("blind nil is declared (true) or declined (false)")
            if action.declare and not _may_declare_blind_nil(
                self.rules, seat, (self.scores[0], self.scores[1])
            ):
                raise IllegalActionError(
                    f"blind nil needs a deficit of at least {self.rules.blind_nil_min_deficit}"
                )
        elif isinstance(action, Exchange):
            cards = action.cards
            if not isinstance(cards, tuple | list):
                raise IllegalActionError("exchange takes a sequence of cards")
            if len(cards) > self.rules.blind_nil_exchange:
                raise IllegalActionError(
                    f"at most {self.rules.blind_nil_exchange} cards may be exchanged"
                )
            if not all(isinstance(card, Card) for card in cards):
                raise IllegalActionError("exchange takes cards")
            if len(set(cards)) != len(cards):
                raise IllegalActionError("a card is named twice in the exchange")
            if card_mask(cards) & ~hand.hands[seat]:
                raise IllegalActionError("you can only exchange cards you hold")
        elif isinstance(action, Bid):
            low = 0 if self.rules.nil else 1
            if (
                isinstance(action.tricks, bool)
                or not isinstance(action.tricks, int)
                or not low <= action.tricks <= HAND_SIZE
            ):
                raise IllegalActionError(f"a bid must be {low}..{HAND_SIZE}")
        elif isinstance(action, Play):
            card = action.card
            if not isinstance(card, Card):
                raise IllegalActionError("play takes a card")
            held = hand.hands[seat]
            if not held >> card & 1:
                raise IllegalActionError(f"you do not hold {card}")
            lead = hand.trick[0] // 13 if hand.trick else -1
            if not legal_play_mask(held, lead, hand.spades_broken) >> card & 1:
                if lead >= 0:
                    raise IllegalActionError(f"you must follow suit ({'CDHS'[lead]})")
                raise IllegalActionError("spades are not broken yet")

    def _deal(self, action: Deal, events: list[Event]) -> None:
        """The one-step deal: seed and entropy at once (``HandStarted`` then ``Shuffled``)."""
        stream = RandomStream(action.seed, action.entropy)
        stock = list(range(52))
        stream.shuffle(stock)
        # a game's first drafter: the draw after the shuffle, from the same stream
        first_drafter = stream.below(2) if self._hand is None else None
        hand = self._open_hand(action.seed, first_drafter, events)
        hand.entropy = action.entropy
        self._set_stock(hand, stock, stream, events)

    def _start_hand(self, seed: bytes, events: list[Event]) -> None:
        """A Commit: the hand starts and its commitment is out; the stock waits for entropy."""
        # a game's first drafter: the first draw of the seed's own stream, so that it is
        # known when the hand starts (the seats' entropy only decides the stock)
        first_drafter = RandomStream(seed).below(2) if self._hand is None else None
        self._open_hand(seed, first_drafter, events)
        self.phase = Phase.DEAL
        self.current_player = None

    def _open_hand(self, seed: bytes, first_drafter: int | None, events: list[Event]) -> _Hand:
        if self._hand is None:
            assert first_drafter is not None
            number = 1
        else:
            first_drafter = 1 - self._hand.first_drafter
            number = self._hand.number + 1
        first_bidder = (
            first_drafter if self.rules.first_bidder == "first_drafter" else 1 - first_drafter
        )
        hand = _Hand(
            number=number,
            seed=seed,
            entropy=(),
            commitment=commitment_of(seed),
            stock=[],
            stream=RandomStream(seed),  # replaced by the stream that draws the stock
            first_drafter=first_drafter,
            first_bidder=first_bidder,
            leader=first_bidder,
        )
        self._hand = hand
        events.append(HandStarted(number, first_drafter, first_bidder, hand.commitment))
        return hand

    def _draw_stock(self, hand: _Hand, entropy: tuple[bytes, bytes], events: list[Event]) -> None:
        """A Shuffle: the committed seed and each seat's entropy draw the stock."""
        stream = RandomStream(hand.seed, entropy)
        stock = list(range(52))
        stream.shuffle(stock)
        hand.entropy = entropy
        self._set_stock(hand, stock, stream, events)

    def _set_stock(
        self, hand: _Hand, stock: list[int], stream: RandomStream, events: list[Event]
    ) -> None:
        hand.stock = stock
        hand.stream = stream  # goes on to draw the blind-nil exchanges
        self.stocks.append(stock)
        self.phase = Phase.BLIND_NIL if self.rules.blind_nil else Phase.DRAFT
        self.current_player = hand.first_drafter
        entropy = hand.entropy
        events.append(
            Shuffled(
                hand.number,
                (len(entropy) > 0 and bool(entropy[0]), len(entropy) > 1 and bool(entropy[1])),
            )
        )

    def _blind_nil(self, hand: _Hand, seat: int, declare: bool, events: list[Event]) -> None:
        hand.blind[seat] = declare
        events.append(BlindNilDeclared(seat, declare))
        if hand.blind[1 - seat] is None:
            self.current_player = 1 - seat
        else:
            self.phase = Phase.DRAFT
            self.current_player = hand.first_drafter

    def _draft(self, hand: _Hand, seat: int, keep: bool, events: list[Event]) -> None:
        top, following = hand.stock[hand.stock_pos], hand.stock[hand.stock_pos + 1]
        hand.stock_pos += 2
        other_card: int | None
        if keep:
            hand.hands[seat] |= 1 << top
            hand.pile.append(following)
            hand.kept[seat].append(top)
            other_card = following if self.rules.see_card_after_keep else None
            if other_card is not None:
                hand.seen_after_keep[seat].append(following)
        else:
            hand.pile.append(top)
            hand.hands[seat] |= 1 << following
            hand.discarded[seat].append(top)
            hand.taken[seat].append(following)
            other_card = following
        hand.draft_turns[seat] += 1
        events.append(
            DraftTurnTaken(
                seat,
                HAND_SIZE - hand.draft_turns[seat],
                keep,
                CARDS[top],
                None if other_card is None else CARDS[other_card],
            )
        )
        if hand.stock_pos < len(hand.stock):
            self.current_player = 1 - seat
            return
        exchangers = self._exchangers(hand)
        if exchangers:
            self.phase = Phase.EXCHANGE
            self.current_player = exchangers[0]
        else:
            self._start_bidding(hand)

    def _exchangers(self, hand: _Hand) -> list[int]:
        if self.rules.blind_nil_exchange == 0:
            return []
        order = (hand.first_drafter, 1 - hand.first_drafter)
        return [s for s in order if hand.blind[s] and hand.exchange_counts[s] is None]

    def _exchange(
        self, hand: _Hand, seat: int, cards: tuple[Card, ...], events: list[Event]
    ) -> None:
        received = tuple(CARDS[c] for c in hand.stream.sample(hand.pile, len(cards)))
        for card in received:
            hand.pile.remove(card)
        hand.pile.extend(int(card) for card in cards)
        hand.hands[seat] = (hand.hands[seat] & ~card_mask(cards)) | card_mask(received)
        hand.given[seat] = tuple(sorted(cards))
        hand.received[seat] = tuple(sorted(received))
        hand.exchange_counts[seat] = len(cards)
        events.append(ExchangeMade(seat, len(cards), hand.given[seat], hand.received[seat]))
        exchangers = self._exchangers(hand)
        if exchangers:
            self.current_player = exchangers[0]
        else:
            self._start_bidding(hand)

    def _bidders(self, hand: _Hand) -> list[int]:
        order = (hand.first_bidder, 1 - hand.first_bidder)
        return [s for s in order if not hand.blind[s] and hand.bids[s] is None]

    def _start_bidding(self, hand: _Hand) -> None:
        bidders = self._bidders(hand)
        if bidders:
            self.phase = Phase.BIDDING
            self.current_player = bidders[0]
        else:
            self.phase = Phase.PLAY
            self.current_player = hand.leader

    def _bid(self, hand: _Hand, seat: int, tricks: int, events: list[Event]) -> None:
        hand.bids[seat] = tricks
        events.append(BidMade(seat, tricks))
        bidders = self._bidders(hand)
        if bidders:
            self.current_player = bidders[0]
        else:
            self.phase = Phase.PLAY
            self.current_player = hand.leader

    def _play(self, hand: _Hand, seat: int, card: Card, events: list[Event]) -> None:
        hand.hands[seat] &= ~(1 << card)
        hand.trick.append(int(card))
        if card // 13 == SPADES:
            hand.spades_broken = True
        events.append(CardPlayed(seat, card))
        if len(hand.trick) == 1:
            self.current_player = 1 - seat
            return
        first, second = hand.trick
        winner = trick_winner(hand.leader, first, second)
        trick = Trick(hand.leader, (CARDS[first], CARDS[second]), winner)
        hand.tricks.append(trick)
        hand.trick = []
        hand.tricks_won[winner] += 1
        hand.leader = winner
        events.append(TrickWon(trick, len(hand.tricks)))
        if len(hand.tricks) < HAND_SIZE:
            self.current_player = winner
        else:
            self._score(hand, events)

    def _score(self, hand: _Hand, events: list[Event]) -> None:
        points, added, penalties, bags = [0, 0], [0, 0], [0, 0], [0, 0]
        for seat in (0, 1):
            points[seat], added[seat], penalties[seat], bags[seat] = score_seat(
                self.rules,
                hand.bids[seat],
                bool(hand.blind[seat]),
                hand.tricks_won[seat],
                self.bags[seat],
            )
            self.scores[seat] += points[seat]
        self.bags = bags
        result = HandResult(
            hand_number=hand.number,
            first_drafter=hand.first_drafter,
            bids=(hand.bids[0], hand.bids[1]),
            blind_nil=(bool(hand.blind[0]), bool(hand.blind[1])),
            tricks=(hand.tricks_won[0], hand.tricks_won[1]),
            points=(points[0], points[1]),
            bags_added=(added[0], added[1]),
            bag_penalties=(penalties[0], penalties[1]),
            scores=(self.scores[0], self.scores[1]),
            bags=(bags[0], bags[1]),
            commitment=hand.commitment,
            seed=hand.seed,
            entropy=hand.entropy,
        )
        self.hand_results.append(result)
        events.append(HandScored(result))
        self.winner = self._decide_winner()
        self.current_player = None
        if self.winner is None:
            self.phase = Phase.HAND_OVER
        else:
            self.phase = Phase.GAME_OVER
            events.append(GameOver(self.winner, (self.scores[0], self.scores[1])))

    def _decide_winner(self) -> int | None:
        first, second = self.scores
        target, lose = self.rules.target_score, self.rules.lose_score
        if max(first, second) >= target:
            return None if first == second else (0 if first > second else 1)
        if lose is not None and min(first, second) <= lose and first != second:
            return 0 if first > second else 1
        return None


_PHASE_ACTIONS: Final[dict[Phase, tuple[type, ...]]] = {
    Phase.BLIND_NIL: (BlindNil,),
    Phase.DRAFT: (Keep, Discard),
    Phase.EXCHANGE: (Exchange,),
    Phase.BIDDING: (Bid,),
    Phase.PLAY: (Play,),
}


def _as_cards(indices: Sequence[int]) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in indices)
