"""engine: the rules of two-handed Spades as a pure, synchronous library.

No I/O, no clock, no asyncio: randomness (the shuffle seed) comes in from outside.
The main entry points::

    from engine import GameState, RuleSet, Deal, Card
    state = GameState(RuleSet.preset("classic"))
    state.apply(None, Deal(seed_bytes))           # chance: shuffle the stock
    seat = state.current_player
    state.legal_actions(seat)                     # what that seat may do
    outcome = state.apply(seat, action)           # or IllegalActionError, state unchanged
    state.view_for(seat)                          # what that seat may know

Errors (see :mod:`engine.errors`)::

    EngineError
     ├── CardParseError
     ├── RuleError
     ├── IllegalActionError
     ├── RecordError
     └── ShuffleError
"""

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
    PlayerAction,
    Shuffle,
    parse_action,
)
from engine.cards import CARDS, Card, card_mask, cards_in, format_cards, parse_cards
from engine.errors import (
    CardParseError,
    EngineError,
    IllegalActionError,
    RecordError,
    RuleError,
    ShuffleError,
)
from engine.game import (
    BidMade,
    BlindNilDeclared,
    CardPlayed,
    DraftTurnTaken,
    Event,
    ExchangeMade,
    GameOver,
    GameState,
    HandResult,
    HandScored,
    HandStarted,
    Outcome,
    Phase,
    PlayerView,
    Shuffled,
    Trick,
    TrickWon,
    legal_play_mask,
    score_seat,
    trick_winner,
)
from engine.record import RECORD_FORMAT, game_record, replay
from engine.rules import PRESETS, RuleSet
from engine.shuffle import commitment_of, shuffled_deck, verify

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "PRESETS",
    "RECORD_FORMAT",
    "Action",
    "Bid",
    "BidMade",
    "BlindNil",
    "BlindNilDeclared",
    "Card",
    "CardParseError",
    "CardPlayed",
    "Commit",
    "Deal",
    "Discard",
    "DraftTurnTaken",
    "EngineError",
    "Event",
    "Exchange",
    "ExchangeMade",
    "GameOver",
    "GameState",
    "HandResult",
    "HandScored",
    "HandStarted",
    "IllegalActionError",
    "Keep",
    "Outcome",
    "Phase",
    "Play",
    "PlayerAction",
    "PlayerView",
    "RecordError",
    "RuleError",
    "RuleSet",
    "Shuffle",
    "ShuffleError",
    "Shuffled",
    "Trick",
    "TrickWon",
    "__version__",
    "card_mask",
    "cards_in",
    "commitment_of",
    "format_cards",
    "game_record",
    "legal_play_mask",
    "parse_action",
    "parse_cards",
    "replay",
    "score_seat",
    "shuffled_deck",
    "trick_winner",
    "verify",
]
