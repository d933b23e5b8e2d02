"""The structures both directions share: the rules, the actions a seat takes, a finished
hand's result, and the view of a table (its seats, summary, score lines).

A part of :mod:`protocol.messages`; messages of either direction are built from these.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from protocol._messages.common import (
    BotLevel,
    CardText,
    Count,
    HexText,
    MessageBase,
    Phase,
    Score,
    Seat,
    TableCode,
)

__all__ = [
    "ActionMessage",
    "BidAction",
    "BlindNilAction",
    "DiscardAction",
    "ExchangeAction",
    "HandResult",
    "KeepAction",
    "PlayAction",
    "Rules",
    "ScoreLine",
    "SeatInfo",
    "TableInfo",
    "TableSummary",
    "TrickData",
    "View",
]


class Rules(MessageBase):
    """Every field of a rule set (see docs/rules.md); the same names as ``engine.RuleSet``."""

    target_score: int
    """The game ends after a hand in which a seat reached this score (the higher score wins; a tie
    plays on).
    """
    first_bidder: Literal["first_drafter", "second_drafter"]
    """Which seat bids first and leads the first trick: the hand's first drafter or the other seat.
    """
    see_card_after_keep: bool
    """After a keep, the drafter sees the card that goes to the pile."""
    nil: bool
    """Whether a bid of 0 (nil) is allowed."""
    nil_bonus: int
    """Points won by a made nil, lost by a failed one."""
    blind_nil: bool
    """Whether seats may declare blind nil before the draft."""
    blind_nil_bonus: int
    """Points won by a made blind nil, lost by a failed one."""
    blind_nil_exchange: int
    """How many cards a blind-nil seat may exchange with the pile after the draft."""
    blind_nil_min_deficit: int | None
    """A seat may declare blind nil only when trailing by at least this much (nil: always)."""
    bag_limit: int
    """Every time a seat's bags reach this many, it loses ``bag_penalty`` points."""
    bag_penalty: int
    """Points lost each time the bags reach ``bag_limit``."""
    failed_nil_tricks_are_bags: bool
    """A failed nil's (or blind nil's) tricks count as bags."""
    lose_score: int | None
    """A seat at or below this score loses at once (nil: off)."""


class KeepAction(MessageBase):
    """Draft: keep the card on offer."""

    kind: Literal["keep"] = "keep"


class DiscardAction(MessageBase):
    """Draft: discard the card on offer and take the next stock card."""

    kind: Literal["discard"] = "discard"


class BlindNilAction(MessageBase):
    """Declare (``declare: true``) or decline blind nil, before the draft."""

    kind: Literal["blind_nil"] = "blind_nil"
    declare: bool
    """True to declare blind nil, false to decline."""


class ExchangeAction(MessageBase):
    """Blind-nil exchange: give these cards from your hand (none is allowed)."""

    kind: Literal["exchange"] = "exchange"
    cards: tuple[CardText, ...] = Field(default=(), max_length=13)
    """The cards to give, from your hand; at most ``exchange_max`` of ``your_turn``."""


class BidAction(MessageBase):
    """Bid ``tricks`` (0 is nil)."""

    kind: Literal["bid"] = "bid"
    tricks: int = Field(ge=0, le=13)
    """The bid: 1..13 tricks, or 0 for nil (only when the rules allow nil)."""


class PlayAction(MessageBase):
    """Play ``card`` to the current trick."""

    kind: Literal["play"] = "play"
    card: CardText
    """A card of your hand that is legal now (see ``your_turn.legal``)."""


ActionMessage = Annotated[
    KeepAction | DiscardAction | BlindNilAction | ExchangeAction | BidAction | PlayAction,
    Field(discriminator="kind"),
]


class TrickData(MessageBase):
    """A finished trick: the leader, the two cards in play order, the winner."""

    leader: Seat
    """The seat that led the trick."""
    cards: tuple[CardText, CardText]
    """The two cards in play order: the leader's first."""
    winner: Seat
    """The seat that won the trick (and leads the next)."""


class HandResult(MessageBase):
    """One hand's outcome, per seat where a pair, with its revealed shuffle seed.

    ``bids`` holds ``nil`` for a seat that bid blind nil (``blind_nil`` true). Anyone can
    check the shuffle: ``SHA-256(bytes.fromhex(seed)).hexdigest() == commitment``.
    """

    type: Literal["hand_result"] = "hand_result"
    table: TableCode
    """The table code."""
    hand_number: Count
    """The hand, counted from 1 in each game."""
    first_drafter: Seat
    """The seat that drafted first in this hand."""
    bids: tuple[int | None, int | None]
    """Each seat's bid; nil for a seat that bid blind nil."""
    blind_nil: tuple[bool, bool]
    """Whether each seat bid blind nil."""
    tricks: tuple[int, int]
    """Tricks each seat took."""
    points: tuple[Score, Score]
    """Points each seat scored in this hand, bag penalties included."""
    bags_added: tuple[int, int]
    """Bags (overtricks) each seat added in this hand."""
    bag_penalties: tuple[int, int]
    """How many bag penalties each seat paid in this hand."""
    scores: tuple[Score, Score]
    """Each seat's total score after this hand."""
    bags: tuple[int, int]
    """Each seat's bag count after this hand (after penalties)."""
    commitment: HexText
    """SHA-256 of the seed in lowercase hex, as sent in ``hand_started`` before the hand."""
    seed: HexText
    """The revealed shuffle seed, hex (32 bytes and more)."""
    entropy: tuple[HexText, ...] = ()
    """The seats' entropy mixed into the shuffle, hex: always two entries, seat 0's then
    seat 1's, ``""`` for a seat that sent none (a bot, a 1.0 connection, a silent seat).
    An empty entry still goes into the shuffle key (as a zero length). Empty only in a
    record's old one-step ``deal`` without entropy."""
    entropy_commitments: tuple[HexText, ...] = ()
    """1.3: the seats' entropy commitments of this hand, as ``entropy_commitments`` relayed
    them: two entries, ``""`` for a seat without one. Check each non-empty ``entropy``
    entry against its commitment; a commitment with an empty ``entropy`` entry is a
    withheld reveal. Empty (no entries) when the hand had no commit step."""


class View(MessageBase):
    """Everything one seat (or a spectator, ``seat: nil``) knows about the game.

    The private fields (``hand``, ``offered``, ``draft_*``, ``exchange_given``,
    ``exchange_received``) only ever hold this seat's own cards and are empty for a
    spectator. ``offered`` is the card on offer when it is this seat's draft turn.
    """

    seat: Seat | None
    """Whose view this is: 0 or 1, or nil for a spectator."""
    phase: Phase
    """Where the game stands (``deal`` and ``hand_over`` wait for the server to shuffle)."""
    version: Count
    """The game's state version: how many actions (deals included) it has seen. Send it back in
    ``action``.
    """
    hand_number: Count
    """The current hand, from 1 (0 before the first deal)."""
    scores: tuple[Score, Score]
    """Each seat's score."""
    bags: tuple[int, int]
    """Each seat's bags."""
    first_drafter: Seat | None
    """The seat that drafts first in this hand (nil before the first deal)."""
    first_bidder: Seat | None
    """The seat that bids first and leads the first trick (nil before the first deal)."""
    current_player: Seat | None
    """The seat to move (nil while the server deals or the game is over)."""
    commitment: HexText | None
    """SHA-256 (hex) of this hand's hidden shuffle seed."""
    hand: tuple[CardText, ...] = Field(max_length=13)
    """Your cards, in card order (clubs 2 up to the spade ace)."""
    offered: CardText | None
    """The card on offer: only in the draft, on your turn."""
    draft_kept: tuple[CardText, ...] = Field(max_length=13)
    """Cards you kept in this hand's draft, in turn order."""
    draft_discarded: tuple[CardText, ...] = Field(max_length=13)
    """Cards you discarded in the draft, in turn order."""
    draft_taken: tuple[CardText, ...] = Field(max_length=13)
    """Cards you took after a discard, in turn order."""
    draft_seen_after_keep: tuple[CardText, ...] = Field(max_length=13)
    """Cards you saw go to the pile after a keep (only with ``see_card_after_keep``)."""
    exchange_given: tuple[CardText, ...] = Field(max_length=13)
    """Cards you gave in your blind-nil exchange."""
    exchange_received: tuple[CardText, ...] = Field(max_length=13)
    """Cards you received in your blind-nil exchange."""
    hand_sizes: tuple[int, int]
    """How many cards each seat holds."""
    draft_turns: tuple[int, int]
    """Draft turns each seat has taken (13 each in all)."""
    stock_left: int
    """Cards left in the stock."""
    pile_size: int
    """Cards on the discard pile."""
    blind_nil: tuple[bool | None, bool | None]
    """Each seat's blind-nil declaration: true, false, or nil (not yet, or not played)."""
    exchange_counts: tuple[int | None, int | None]
    """How many cards each seat exchanged (nil: no exchange)."""
    bids: tuple[int | None, int | None]
    """Each seat's bid (nil: not yet, or blind nil)."""
    tricks: tuple[TrickData, ...] = Field(max_length=13)
    """The finished tricks of this hand, in order."""
    current_trick: tuple[CardText, ...] = Field(max_length=2)
    """Cards on the table in the trick being played, in play order."""
    leader: Seat | None
    """The seat that led (or leads) the current trick, in the play phase."""
    tricks_won: tuple[int, int]
    """Tricks each seat has taken in this hand."""
    spades_broken: bool
    """Whether a spade has been played in this hand."""
    hand_results: tuple[HandResult, ...]
    """Every finished hand of this game, in order, seeds revealed."""
    winner: Seat | None
    """The winning seat once the game is over."""


class SeatInfo(MessageBase):
    """Who sits in a seat. ``kind`` is ``empty``, ``human`` or ``bot``.

    ``hold_seconds_left`` counts down while a dropped human's seat is held.
    """

    kind: Literal["empty", "human", "bot"]
    """``empty``, ``human`` or ``bot``."""
    name: str | None = None
    """The player's name (nil for an empty seat)."""
    connected: bool = False
    """Whether the seat's player is connected now (bots always are)."""
    bot_level: BotLevel | None = None
    """The bot's level, for a bot seat."""
    hold_seconds_left: float | None = None
    """Seconds left of a dropped human's hold when this message was made (nil when not dropped).
    It is not updated: count down from ``hold_deadline`` instead.
    """
    hold_deadline: float | None = None
    """1.1: when a dropped human's hold runs out, in server time (Unix seconds on the server's
    clock; ``welcome.server_time`` gives that clock); nil when not dropped.
    """
    bot_standing_in: bool = False
    """The bot plays for a dropped human whose hold ran out (``on_hold_expiry: bot``)."""
    withheld_reveals: Count = 0
    """1.3: how many times in this game the seat committed to its entropy and did not reveal
    it in time (see *The fair shuffle*)."""


class TableSummary(MessageBase):
    """A line of the lobby's table list."""

    code: TableCode
    """The table code, to join or watch it."""
    preset: str | None
    """The rule preset the rules equal, or nil for custom rules."""
    rules: Rules
    """The table's rules."""
    seats: tuple[SeatInfo, SeatInfo]
    """Seat 0 and seat 1."""
    status: Literal["waiting", "playing", "finished"]
    """``waiting`` for a second seat, ``playing``, or ``finished``."""
    spectators: Count
    """How many connections watch the table."""


class TableInfo(MessageBase):
    """A table as its seats and spectators see it.

    ``your_seat`` is ``nil`` for a spectator. ``on_hold_expiry`` says what happens when a
    dropped seat's hold runs out: the bot stands in (``bot``), the game waits (``wait``), or
    the absent seat forfeits (``forfeit``). ``rematch`` says which seats asked for one.
    """

    code: TableCode
    """The table code."""
    private: bool
    """A private table is not listed; it is joined by its code."""
    preset: str | None
    """The rule preset the rules equal, or nil for custom rules."""
    rules: Rules
    """The table's rules."""
    seats: tuple[SeatInfo, SeatInfo]
    """Seat 0 and seat 1."""
    status: Literal["waiting", "playing", "finished"]
    """``waiting`` for a second seat, ``playing``, or ``finished``."""
    your_seat: Seat | None
    """Your seat at this table, nil when you watch."""
    on_hold_expiry: Literal["bot", "wait", "forfeit"]
    """What happens when a dropped seat's hold runs out: ``bot`` stands in, ``wait``, or
    ``forfeit``.
    """
    hold_seconds: int
    """How long a dropped human's seat is held."""
    turn_seconds: int | None
    """Seconds a human has per turn before the bot moves for it (nil: no limit)."""
    rematch: tuple[bool, bool]
    """Which seats asked for a rematch after game over."""
    record_id: str | None = None
    """The finished game's record id (for ``get_record``)."""


class ScoreLine(MessageBase):
    """Final score of one seat."""

    seat: Seat
    """The seat."""
    name: str | None
    """Its player's name."""
    score: Score
    """Final score."""
    bags: int
    """Bags at the end."""
