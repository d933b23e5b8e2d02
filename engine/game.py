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

The state holds the game (rules, phase, scores, the record of actions) and dispatches each
action to the module of its phase, which moves the private
:class:`~engine.hand.HandState` on and says who acts next:

- :mod:`engine.deal`: chance opens a hand and draws its stock;
- :mod:`engine.draft`: blind-nil declarations, the draft and the blind-nil exchange;
- :mod:`engine.bidding`: the bids;
- :mod:`engine.tricks`: trick play (and the play rules :func:`legal_play_mask`,
  :func:`trick_winner`);
- :mod:`engine.scoring`: the hand's score (:func:`score_seat`) and the game's winner.

:mod:`engine.legal` lists and checks a seat's actions; :mod:`engine.view` is the per-seat
:class:`PlayerView`; :mod:`engine.events` the :class:`Outcome` and its events. The names of
``__all__`` are re-exported here, so ``from engine.game import X`` works for each of them.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from engine.bidding import make_bid
from engine.cards import CARDS, Card, cards_in
from engine.deal import first_drafter_of, lay_stock, open_hand, shuffle_stock
from engine.draft import declare_blind_nil, draft_turn, exchange
from engine.errors import IllegalActionError
from engine.events import (
    BidMade,
    BlindNilDeclared,
    CardPlayed,
    DraftTurnTaken,
    Event,
    ExchangeMade,
    GameOver,
    HandResult,
    HandScored,
    HandStarted,
    Outcome,
    Shuffled,
    Trick,
    TrickWon,
)
from engine.hand import HAND_SIZE as HAND_SIZE
from engine.hand import HandState, Phase
from engine.legal import check_move
from engine.legal import legal_actions as _legal_actions
from engine.rules import RuleSet
from engine.scoring import score_hand, score_seat, winner_of
from engine.shuffle import RandomStream
from engine.tricks import SPADE_MASK as SPADE_MASK
from engine.tricks import legal_play_mask, play_card, trick_winner
from engine.view import PlayerView

# HAND_SIZE and SPADE_MASK, constants of this module before the split, are imported above
# as themselves so that they stay importable from here (not public API: not in __all__).
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
        self._hand: HandState | None = None

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

    def offered_to(self, seat: int) -> Card | None:
        """The card on offer to ``seat`` when it is its draft turn, else ``None`` (what
        ``view_for(seat).offered`` says, without building the view)."""
        hand = self._hand
        if hand is None or self.phase is not Phase.DRAFT or self.current_player != seat:
            return None
        return CARDS[hand.stock[hand.stock_pos]]

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
            fields = (repr(getattr(hand, name)) for name in HandState.__slots__ if name != "stream")
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
                self.phase, self.current_player = declare_blind_nil(
                    hand, seat, action.declare, events
                )
            elif isinstance(action, Keep | Discard):
                self.phase, self.current_player = draft_turn(
                    self.rules, hand, seat, isinstance(action, Keep), events
                )
            elif isinstance(action, Exchange):
                # the record writes the cards sorted; so does the state, so replays agree
                action = Exchange(tuple(sorted(action.cards)))
                self.phase, self.current_player = exchange(
                    self.rules, hand, seat, action.cards, events
                )
            elif isinstance(action, Bid):
                self.phase, self.current_player = make_bid(hand, seat, action.tricks, events)
            else:
                following = play_card(hand, seat, action.card, events)
                if following is None:
                    self._end_hand(hand, events)
                else:
                    self.current_player = following
        self.actions.append(_history_entry(seat, action))
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
        check_move(self.rules, phase, hand, seat, action, self.scores)

    def _deal(self, action: Deal, events: list[Event]) -> None:
        """The one-step deal: seed and entropy at once (``HandStarted`` then ``Shuffled``)."""
        stock, stream = shuffle_stock(action.seed, action.entropy)
        # a game's first drafter: the draw after the shuffle, from the same stream
        first_drafter = stream.below(2) if self._hand is None else None
        hand = self._hand = open_hand(self.rules, self._hand, action.seed, first_drafter, events)
        hand.entropy = action.entropy
        self._lay_stock(hand, stock, stream, events)

    def _start_hand(self, seed: bytes, events: list[Event]) -> None:
        """A Commit: the hand starts and its commitment is out; the stock waits for entropy."""
        # a game's first drafter: the first draw of the seed's own stream, so that it is
        # known when the hand starts (the seats' entropy only decides the stock)
        first_drafter = first_drafter_of(seed) if self._hand is None else None
        self._hand = open_hand(self.rules, self._hand, seed, first_drafter, events)
        self.phase = Phase.DEAL
        self.current_player = None

    def _draw_stock(
        self, hand: HandState, entropy: tuple[bytes, bytes], events: list[Event]
    ) -> None:
        """A Shuffle: the committed seed and each seat's entropy draw the stock."""
        stock, stream = shuffle_stock(hand.seed, entropy)
        hand.entropy = entropy
        self._lay_stock(hand, stock, stream, events)

    def _lay_stock(
        self, hand: HandState, stock: list[int], stream: RandomStream, events: list[Event]
    ) -> None:
        self.stocks.append(stock)
        self.phase = lay_stock(self.rules, hand, stock, stream, events)
        self.current_player = hand.first_drafter

    def _end_hand(self, hand: HandState, events: list[Event]) -> None:
        """The last trick is won: score the hand, then the next Deal or the game's end."""
        result = score_hand(self.rules, hand, self.scores, self.bags)
        self.scores[0], self.scores[1] = result.scores
        self.bags = list(result.bags)
        self.hand_results.append(result)
        events.append(HandScored(result))
        self.winner = winner_of(self.rules, self.scores)
        self.current_player = None
        if self.winner is None:
            self.phase = Phase.HAND_OVER
        else:
            self.phase = Phase.GAME_OVER
            events.append(GameOver(self.winner, (self.scores[0], self.scores[1])))


def _as_cards(indices: Sequence[int]) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in indices)


# The history's entries of the seats' common actions, made once per process: a game
# keeps hundreds of them, and new ones per action would be objects the garbage collector
# walks (a shared entry is equal to the one it stands for, and prints the same).
_SHARED_ENTRIES: dict[tuple[int | None, Action], tuple[int | None, Action]] = {}
_COMMON_ACTIONS: tuple[Action, ...] = (
    *(Play(card) for card in CARDS),
    *(Bid(tricks) for tricks in range(14)),
    Keep(),
    Discard(),
    BlindNil(True),
    BlindNil(False),
)
_SHARED_ENTRIES.update(
    ((seat, action), (seat, action)) for seat in (0, 1) for action in _COMMON_ACTIONS
)


def _history_entry(seat: int | None, action: Action) -> tuple[int | None, Action]:
    """``(seat, action)``, shared when it is one of :data:`_SHARED_ENTRIES` given with the
    very types they hold (a ``Play`` of a plain ``int`` prints differently: not shared)."""
    kind = type(action)
    if (
        (kind is Play and type(action.card) is Card)  # type: ignore[union-attr]
        or (kind is Bid and type(action.tricks) is int)  # type: ignore[union-attr]
        or (kind is BlindNil and type(action.declare) is bool)  # type: ignore[union-attr]
        or kind is Keep
        or kind is Discard
    ):
        shared = _SHARED_ENTRIES.get((seat, action))
        if shared is not None:
            return shared
    return (seat, action)
