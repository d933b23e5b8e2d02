"""The game record: complete, self-describing, JSON-ready, and replayable.

``game_record(state)`` writes everything a finished (or unfinished) game is: the rules,
every action with its seat in order, and per hand the seed, seat entropy, commitment,
stock order, tricks and score changes, the totals, bags and winner. A hand cut short
(a forfeit) still shows its seed, entropy and commitment (and its stock once drawn).
``replay(record)`` applies the actions to a new state and checks that the result is the
one recorded::

    record = game_record(state)
    text = json.dumps(record)
    assert replay(json.loads(text)) == state

A record holds every hidden card: it is for after the game.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Commit, Deal, parse_action
from engine.cards import format_cards
from engine.errors import EngineError, RecordError
from engine.game import GameState, HandResult
from engine.rules import RuleSet

__all__ = ["RECORD_FORMAT", "game_record", "replay"]

RECORD_FORMAT = "spades-record/1"


def _hand_entry(state: GameState, index: int, result: HandResult | None) -> dict[str, Any]:
    stock = state.stocks[index] if index < len(state.stocks) else []  # committed, not drawn
    hand_actions = _actions_by_hand(state.actions)[index]
    entry: dict[str, Any] = {
        "hand_number": index + 1,
        "stock": format_cards(stock),
        "actions": [[seat, str(action)] for seat, action in hand_actions],
    }
    if result is None:
        # a hand cut short (a forfeit) or not yet over: its seed is revealed too, so that
        # every hand of a record can be checked against its commitment
        revealed = state.revealed_shuffle() if index == len(state.hand_results) else None
        if revealed is not None:
            seed, entropy, commitment = revealed
            entry.update(
                first_drafter=state.first_drafter,
                seed=seed.hex(),
                entropy=[value.hex() for value in entropy],
                commitment=commitment,
            )
    else:
        entry.update(
            first_drafter=result.first_drafter,
            seed=result.seed.hex(),
            entropy=[value.hex() for value in result.entropy],
            commitment=result.commitment,
            bids=list(result.bids),
            blind_nil=list(result.blind_nil),
            tricks=list(result.tricks),
            points=list(result.points),
            bags_added=list(result.bags_added),
            bag_penalties=list(result.bag_penalties),
            scores=list(result.scores),
            bags=list(result.bags),
        )
    return entry


def _actions_by_hand(
    actions: list[tuple[int | None, Action]],
) -> list[list[tuple[int | None, Action]]]:
    hands: list[list[tuple[int | None, Action]]] = []
    for seat, action in actions:
        if isinstance(action, Deal | Commit):  # a Shuffle belongs to the hand it draws
            hands.append([])
        hands[-1].append((seat, action))
    return hands


def game_record(state: GameState) -> dict[str, Any]:
    """The JSON-ready record of ``state`` (all hidden information included)."""
    hands = [
        _hand_entry(
            state, index, state.hand_results[index] if index < len(state.hand_results) else None
        )
        for index in range(state.hand_number)
    ]
    return {
        "format": RECORD_FORMAT,
        "rules": state.rules.to_dict(),
        "actions": [[seat, str(action)] for seat, action in state.actions],
        "hands": hands,
        "scores": list(state.scores),
        "bags": list(state.bags),
        "winner": state.winner,
        "finished": state.is_over,
        "version": state.version,
    }


def replay(record: dict[str, Any], *, check: bool = True) -> GameState:
    """Rebuild the state a record describes by applying its actions in order.

    With ``check`` the rebuilt state's own record must equal ``record``. Raises
    :class:`~engine.errors.RecordError` when the record is malformed, an action is
    illegal, or (with ``check``) the outcome differs from what the record says.
    """
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a {RECORD_FORMAT} record")
    try:
        state = GameState(RuleSet.from_dict(record["rules"]))
        for number, (seat, text) in enumerate(record["actions"], 1):
            try:
                state.apply(seat, parse_action(text))
            except EngineError as error:
                message = f"action {number} ({seat}: {text}) does not apply: {error}"
                raise RecordError(message) from None
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"malformed record: {error!r}") from None
    if check and game_record(state) != record:
        raise RecordError("the record's outcome differs from a replay of its actions")
    return state
