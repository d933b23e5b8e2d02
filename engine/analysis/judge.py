"""Judging one decision, "with what you knew" (a view only) and "with all cards shown".

:func:`judge_known` takes nothing but the seat's :class:`~engine.game.PlayerView`, the
action it took and a seed, so it cannot use a card the seat did not know: every hidden
card it reasons about is drawn by the bot's sampler from the cards the seat has not seen.
:func:`judge_play_hindsight` and :func:`judge_bid_hindsight` take the opponent's actual
hand and solve the rest of the hand exactly (double dummy).

How each kind is judged with what the seat knew (points: the hand's margin, see
:mod:`engine.analysis.model`):

- a card: deals drawn consistent with the view (weighted by how well they fit the
  opponent's bid); each distinct legal card is played on every deal, the rest of the
  hand played by the bot's greedy policy with its last tricks solved exactly (all of it
  solved exactly near the end); the mean margin per card;
- a bid: on each drawn deal the hand is played out once trying for tricks and once
  ducking everything (a nil); the mean margin of every bid;
- a draft turn: the bot's draft valuation (the points the hand is worth, bidding its
  tricks or nil) with the offered card against the mean over the unseen cards the
  discard could bring;
- the blind-nil exchange: the chance the hand survives a nil after giving the cards
  (pile draws simulated), as ``bonus * (2 * chance - 1)``, against the bot's choice and
  giving nothing;
- blind nil: its expected points from the bot's estimated success rate against a normal
  hand's expected margin (0).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Bid, BlindNil, Exchange, Keep, Play, PlayerAction
from engine.analysis import botlink
from engine.analysis.judge_setup import (
    OPPONENT_POINTS_AGAINST_BLIND_NIL,
    judge_blind_nil,
    judge_draft,
    judge_exchange,
    seat_of,
)
from engine.analysis.model import AnalysisError, AnalysisLevel, Hindsight, Knew
from engine.cards import ALL_CARDS_MASK, CARDS, card_mask
from engine.game import Phase, PlayerView, legal_play_mask, score_seat, trick_winner
from engine.rules import RuleSet

__all__ = [
    "OPPONENT_POINTS_AGAINST_BLIND_NIL",
    "distinct_cards",
    "judge_bid_hindsight",
    "judge_known",
    "judge_play_hindsight",
    "margin_table",
]

_PACK = 32.0
"""Exact solves rank ``margin * _PACK + tricks``: the margin first, then more tricks for
the seat; both are read back from the solved value (``tricks < _PACK``)."""


_TRICK_COUNT = [float(taken) for taken in range(14)]


def margin_table(
    rules: RuleSet,
    bids: tuple[int | None, int | None],
    blind: tuple[bool, bool],
    bags: tuple[int, int],
) -> list[float]:
    """The hand's margin for seat 0 of the pair when it ends with ``t`` tricks (index t).

    ``bids``, ``blind``, ``bags`` are (seat, opponent); a blind nil's bid is ``None``.
    """
    table = []
    for taken in range(14):
        mine = score_seat(rules, bids[0], blind[0], taken, bags[0])[0]
        theirs = score_seat(rules, bids[1], blind[1], 13 - taken, bags[1])[0]
        table.append(float(mine - theirs))
    return table


def _packed(table: Sequence[float]) -> list[float]:
    return [value * _PACK + taken for taken, value in enumerate(table)]


def _unpack(value: float) -> tuple[int, int]:
    """``(margin, tricks)`` from a packed solved value."""
    whole = round(value)
    tricks = whole % int(_PACK)
    return (whole - tricks) // int(_PACK), tricks


# the lowest card of each run of legal cards no card of ``others`` separates: the bot's
distinct_cards = botlink.distinct_moves


def _representative(card: int, moves: list[int], others: int) -> int:
    """The move of ``moves`` equivalent to ``card`` (same run, nothing of ``others`` between)."""
    for move in moves:
        if move // 13 != card // 13:
            continue
        low, high = min(move, card), max(move, card)
        between = others & ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
        if not between:
            return move
    return card


def judge_known(
    view: PlayerView, action: PlayerAction, level: AnalysisLevel, seed: str
) -> Knew | None:
    """Judge ``action`` taken from ``view`` with nothing but what the view shows.

    ``seed`` seeds the sampling (derive it from public facts, so that the judgement is
    reproducible and a function of the view). Returns ``None`` for a forced decision (a
    single legal action). Raises :class:`~engine.analysis.model.AnalysisError` when
    ``action`` is not legal in ``view``.
    """
    legal = view.legal_actions()
    if action not in legal:
        raise AnalysisError(f"{action} is not a legal action of this view")
    if len(legal) == 1:
        return None
    rng = random.Random(seed)
    phase = view.phase
    if phase is Phase.PLAY:
        assert isinstance(action, Play)
        return _judge_play(view, int(action.card), level, rng)
    if phase is Phase.BIDDING:
        assert isinstance(action, Bid)
        return _judge_bid(view, action.tricks, level, rng)
    if phase is Phase.DRAFT:
        return judge_draft(view, isinstance(action, Keep))
    if phase is Phase.EXCHANGE:
        assert isinstance(action, Exchange)
        return judge_exchange(view, card_mask(action.cards), level, rng)
    assert isinstance(action, BlindNil)
    return judge_blind_nil(view, action.declare)


# ---- cards ----------------------------------------------------------------------------


def _play_value(
    mine: int,
    other: int,
    move: int,
    trick_card: int,
    broken: bool,
    won0: int,
    won1: int,
    util: Sequence[float],
    modes: Sequence[int],
    exact: bool,
    stop: int,
) -> float:
    """The seat (fast seat 0, ``mine`` without ``move``) plays ``move``; the margin reached."""
    if exact:
        if trick_card < 0:
            return botlink.solve(mine, other, 0, move, broken, won0, util)
        winner = trick_winner(1, trick_card, move)
        now_broken = broken or move // 13 == 3 or trick_card // 13 == 3
        return botlink.solve(mine, other, winner, -1, now_broken, won0 + (winner == 0), util)
    if trick_card < 0:
        mode = modes[won0 * 14 + won1]
        reply = botlink.greedy_card(other, mine, move, broken, bool(mode & 2), bool(mode & 1))
        other &= ~(1 << reply)
        winner = trick_winner(0, move, reply)
        now_broken = broken or move // 13 == 3 or reply // 13 == 3
    else:
        winner = trick_winner(1, trick_card, move)
        now_broken = broken or move // 13 == 3 or trick_card // 13 == 3
    final, _, h0, h1, leader, end_broken = botlink.greedy_playout(
        mine,
        other,
        winner,
        -1,
        now_broken,
        won0 + (winner == 0),
        won1 + (winner == 1),
        modes,
        stop,
    )
    if h0:
        return botlink.solve(h0, h1, leader, -1, end_broken, final, util)
    return util[final]


def _pair(view: PlayerView, me: int) -> tuple[tuple[int | None, int | None], tuple[bool, bool]]:
    opp = 1 - me
    return (view.bids[me], view.bids[opp]), (bool(view.blind_nil[me]), bool(view.blind_nil[opp]))


def _judge_play(view: PlayerView, made: int, level: AnalysisLevel, rng: random.Random) -> Knew:
    me = seat_of(view)
    opp = 1 - me
    know = botlink.read_knowledge(view)
    hand = know.hand
    legal = legal_play_mask(hand, view.lead_suit, view.spades_broken)
    trick_card = int(view.current_trick[0]) if view.current_trick else -1
    others = ALL_CARDS_MASK & ~hand & ~know.played
    if trick_card >= 0:
        others |= 1 << trick_card
    moves = distinct_cards(legal, others)
    made_move = _representative(made, moves, others)
    bids, blind = _pair(view, me)
    util = margin_table(view.rules, bids, blind, (view.bags[me], view.bags[opp]))
    modes = botlink.modes_table(bids)
    won0, won1 = view.tricks_won[me], view.tricks_won[opp]
    exact = hand.bit_count() <= level.exact_tricks
    weight = botlink.bid_weight(view, know)
    totals = [0.0] * len(moves)
    samples = level.play_samples
    for _ in range(samples):
        other = botlink.draw_opponent(know, rng, weight)
        for index, move in enumerate(moves):
            totals[index] += _play_value(
                hand & ~(1 << move),
                other,
                move,
                trick_card,
                view.spades_broken,
                won0,
                won1,
                util,
                modes,
                exact,
                level.rollout_exact,
            )
    means = [total / samples for total in totals]
    best = max(range(len(moves)), key=lambda i: means[i])
    made_value = means[moves.index(made_move)]
    return Knew(
        made=made_value,
        best=means[best],
        best_action=Play(CARDS[moves[best]]),
        loss=max(0.0, means[best] - made_value),
        samples=samples,
    )


def judge_play_hindsight(view: PlayerView, made: int, opponent_hand: int) -> Hindsight:
    """The card ``made`` against the best card, both seats playing on double dummy.

    ``opponent_hand`` is the mask of the cards the opponent actually holds now. Raises
    :class:`~engine.analysis.model.AnalysisError` if ``made`` is not a legal card.
    """
    me = seat_of(view)
    opp = 1 - me
    hand = view.hand_mask
    legal = legal_play_mask(hand, view.lead_suit, view.spades_broken)
    if not legal >> made & 1:
        raise AnalysisError(f"{CARDS[made]} is not a legal card of this view")
    trick_card = int(view.current_trick[0]) if view.current_trick else -1
    others = opponent_hand | (1 << trick_card if trick_card >= 0 else 0)
    moves = distinct_cards(legal, others)
    made_move = _representative(made, moves, others)
    bids, blind = _pair(view, me)
    util = _packed(margin_table(view.rules, bids, blind, (view.bags[me], view.bags[opp])))
    won0, won1 = view.tricks_won[me], view.tricks_won[opp]
    values = {
        move: _play_value(
            hand & ~(1 << move),
            opponent_hand,
            move,
            trick_card,
            view.spades_broken,
            won0,
            won1,
            util,
            (),
            True,
            0,
        )
        for move in moves
    }
    best = max(moves, key=lambda move: values[move])
    made_points, made_tricks = _unpack(values[made_move])
    best_points, best_tricks = _unpack(values[best])
    return Hindsight(
        made_tricks=made_tricks,
        best_tricks=best_tricks,
        made_points=made_points,
        best_points=best_points,
        best_action=Play(CARDS[best]),
    )


# ---- bids -----------------------------------------------------------------------------


def _bid_range(rules: RuleSet) -> range:
    return range(0 if rules.nil else 1, 14)


def _judge_bid(view: PlayerView, made: int, level: AnalysisLevel, rng: random.Random) -> Knew:
    me = seat_of(view)
    opp = 1 - me
    rules = view.rules
    know = botlink.read_knowledge(view)
    hand = know.hand
    opp_blind = bool(view.blind_nil[opp])
    opp_bid = view.bids[opp]
    opp_known = opp_blind or opp_bid is not None
    opp_nil = opp_blind or opp_bid == 0
    leader = 0 if view.first_bidder == me else 1
    weight = botlink.bid_weight(view, know)
    natural_modes = botlink.modes_table((13, 0 if opp_nil else 13))
    nil_modes = botlink.modes_table((0, 0 if opp_nil else 13))
    bags = (view.bags[me], view.bags[opp])
    bids = list(_bid_range(rules))
    totals = dict.fromkeys(bids, 0.0)
    tables: dict[tuple[int, int | None], list[float]] = {}
    natural_sum = nil_sum = 0
    samples = level.bid_samples
    for _ in range(samples):
        other = botlink.draw_opponent(know, rng, weight)
        natural = botlink.greedy_playout(hand, other, leader, -1, False, 0, 0, natural_modes)[0]
        nil = natural
        if rules.nil:
            nil = botlink.greedy_playout(hand, other, leader, -1, False, 0, 0, nil_modes)[0]
        natural_sum += natural
        nil_sum += nil
        # the opponent's bid, guessed from the deal when it has not bid yet
        guess: int | None = opp_bid if opp_known else max(1, 13 - natural - 1)
        if opp_blind:
            guess = None
        for bid in bids:
            key = (bid, guess)
            table = tables.get(key)
            if table is None:
                table = margin_table(rules, (bid, guess), (False, opp_blind), bags)
                tables[key] = table
            totals[bid] += table[nil if bid == 0 else natural]
    means = {bid: total / samples for bid, total in totals.items()}
    best = max(bids, key=lambda bid: means[bid])
    expected = (nil_sum if made == 0 else natural_sum) / samples
    return Knew(
        made=means[made],
        best=means[best],
        best_action=Bid(best),
        loss=max(0.0, means[best] - means[made]),
        samples=samples,
        expected_tricks=expected,
    )


def judge_bid_hindsight(
    view: PlayerView,
    made: int,
    opponent_hand: int,
    opponent_bid: int | None,
    opponent_blind: bool,
) -> Hindsight:
    """The bid ``made`` against the best bid when the hand is then played double dummy.

    ``opponent_hand`` is the opponent's actual hand, ``opponent_bid`` its actual bid
    (``None`` with ``opponent_blind``: a blind nil). ``made_tricks`` and ``best_tricks``
    are the seat's tricks on the perfect line for each bid. The best bid is sought among
    nil and the hand's double-dummy trick count (a higher bid is set, a lower one only
    gives bags), besides the bid made.
    """
    me = seat_of(view)
    opp = 1 - me
    rules = view.rules
    hand = view.hand_mask
    leader = 0 if view.first_bidder == me else 1
    bags = (view.bags[me], view.bags[opp])
    most = round(botlink.solve(hand, opponent_hand, leader, -1, False, 0, _TRICK_COUNT))
    lowest = 0 if rules.nil else 1
    candidates = {made, max(1, most)}
    if lowest == 0:
        candidates.add(0)
    values: dict[int, float] = {}
    for bid in sorted(candidates):
        util = _packed(margin_table(rules, (bid, opponent_bid), (False, opponent_blind), bags))
        values[bid] = botlink.solve(hand, opponent_hand, leader, -1, False, 0, util)
    best = max(values, key=lambda bid: values[bid])
    made_points, made_tricks = _unpack(values[made])
    best_points, best_tricks = _unpack(values[best])
    return Hindsight(
        made_tricks=made_tricks,
        best_tricks=best_tricks,
        made_points=made_points,
        best_points=best_points,
        best_action=Bid(best),
    )
