"""The search effort of a level: :class:`SearchConfig` (counts, no clock).

    from engine.bot.config import SearchConfig   # also re-exported by engine.bot.search
    config = replace(LEVEL_CONFIGS["hard"], bid_playout_top=3)

Every field is a count or a switch, so a decision is reproducible from the seed. Raises
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MIN_SAMPLES", "SearchConfig"]

MIN_SAMPLES = 8
"""The fewest sampled deals a decision (or a scaled draft) uses."""


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Effort of one level, in counts (no clock), so that a decision is reproducible.

    - ``playouts``: playouts per card decision, shared among the distinct legal cards
      (so a decision costs about the same however many cards are legal).
    - ``endgame_tricks``: with at most this many tricks left, every sampled deal is
      solved exactly instead of played out (``0``: never).
    - ``endgame_solves``: exact solves per card decision, shared among the cards.
    - ``bid_samples``: sampled deals for the bid.
    - ``rollout_exact``: a playout stops with this many tricks left and solves them
      exactly (``0``: plays to the end).
    - ``max_samples``: at most this many sampled deals per decision (more do not help).
    """

    playouts: int
    endgame_tricks: int
    endgame_solves: int
    bid_samples: int
    rollout_exact: int = 0
    max_samples: int = 1500
    bid_spread: float = 0.0
    """Spread (standard deviation, in tricks) added to each sampled deal's trick count when
    bidding (see :func:`play_noise`)."""
    bid_shift: float = 0.0
    """Offset (in tricks) of that spread's centre."""
    play_inference: bool = False
    """Draw most sampled deals without the cards the opponent's follows rule out
    (:func:`follow_exclusions`)."""
    node_budget: int | None = None
    """At most this many exact-solver nodes per card decision (``None``: no bound), shared
    out among its solves in order, so the worst case is bounded and reproducible."""
    bid_bag_share: float = 1.0
    """The part of a bag's future penalty a bid charges now (see
    :func:`engine.bot.evaluate.game_worth`): the higher, the closer it bids to its tricks."""
    fog: bool = False
    """Playouts in which neither seat sees the other's hand when it leads (see ``fog0`` of
    :func:`engine.fast.greedy_playout`): the pile cards a seat has not seen look to it
    like the other seat's."""
    draft_samples: int = 0
    """Sampled deals per draft turn for :func:`engine.bot.draft.search_draft` (``0``: the
    shared draft heuristic)."""
    play_bag_share: float = 0.5
    """The part of a bag's future penalty card play charges now: the higher, the harder
    it ducks once its bid is made (bag-aware play)."""
    draft_blind_samples: int = 0
    """Sampled deals per draft turn of a seat that declared blind nil, for
    :func:`engine.bot.draft.search_nil_draft` (``0``: the shared blind-nil draft)."""
    draft_nil_weight: float = 0.0
    """In the draft by search, add this many points times the share of draws the nil plan
    survives to each choice's trick points (a soft lean to nil; ``0``: off)."""
    draft_nil_lean: float = 0.0
    """In the draft by search, follow the nil plan (keep the choice a nil survives more
    often) once its survival chance reaches this share (``0``: only when nil is worth more
    than the best trick bid); the bid still chooses between nil and tricks."""
    chase: float = 0.5
    """In the card search's playouts, the seat whose bid is made chases the opponent's set
    only while the opponent still needs at least this share of the tricks left."""
    lead_mismatch: float = 1.0
    """With ``play_inference``, weigh each sampled deal also by the opponent's own leads:
    each lead the greedy lead model would not have made multiplies its weight by this
    (:func:`engine.bot.inference.opponent_lead_weight`; ``1``: leads are not read)."""
    focus: bool = False
    """Spend half of a card decision's deals on every card and the other half on the two
    best cards after the first half (successive halving), instead of all on all."""
    bid_raise_floor: float = 0.0
    """Bid the higher bid of the kernel centred a quarter trick up (``bid_shift + 0.25``)
    where its make chance under this kernel is at least this share
    (:func:`engine.bot.bid_raise.raised_bid`; ``0``: off)."""
    infoset_tricks: int = 0
    """With at most this many tricks left, value the cards on the sampled deals together,
    the bot's later cards one for all the deals it cannot tell apart
    (:func:`engine.bot.endgame.infoset_values`; ``0``: off)."""
    bid_playout_top: int = 0
    """Re-price this many of the best bids (and the bid the served pricing chooses) by
    playing sampled deals out under each bid against the opponent's bid
    (:func:`engine.bot.bid_playout.playout_bid`; ``0``: off)."""
    tree_iterations: int = 0
    """Play cards by one search tree over the seat's information sets, with this many
    iterations a decision (:func:`engine.bot.tree.tree_card`; ``0``: off, flat sampling)."""

    def scaled(self, playouts: int) -> SearchConfig:
        """The same level with ``playouts`` playouts and the rest scaled alike."""
        factor = playouts / self.playouts
        return SearchConfig(
            playouts=playouts,
            endgame_tricks=self.endgame_tricks,
            endgame_solves=max(1, round(self.endgame_solves * factor)),
            bid_samples=max(1, round(self.bid_samples * factor)),
            rollout_exact=self.rollout_exact,
            bid_spread=self.bid_spread,
            bid_shift=self.bid_shift,
            play_inference=self.play_inference,
            focus=self.focus,
            bid_raise_floor=self.bid_raise_floor,
            infoset_tricks=self.infoset_tricks,
            bid_playout_top=self.bid_playout_top,
            tree_iterations=self.tree_iterations and max(1, round(self.tree_iterations * factor)),
            lead_mismatch=self.lead_mismatch,
            chase=self.chase,
            fog=self.fog,
            draft_samples=self.draft_samples
            and max(MIN_SAMPLES, round(self.draft_samples * min(1.0, factor))),
            bid_bag_share=self.bid_bag_share,
            draft_nil_lean=self.draft_nil_lean,
            draft_nil_weight=self.draft_nil_weight,
            draft_blind_samples=self.draft_blind_samples
            and max(MIN_SAMPLES, round(self.draft_blind_samples * min(1.0, factor))),
            play_bag_share=self.play_bag_share,
            max_samples=max(MIN_SAMPLES, round(self.max_samples * factor)),
            node_budget=(
                None
                if self.node_budget is None
                else max(1000, round(self.node_budget * min(1.0, factor)))
            ),
        )
