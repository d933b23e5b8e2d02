"""One realistic, valid example of each message, action and event, in union order,
built from the example game.

A part of :mod:`protocol.examples`, which is the one to import.
"""

from __future__ import annotations

import hashlib

from engine import (
    RuleSet,
)
from protocol import messages as m
from protocol._examples.accounts import account_client_examples, account_server_examples
from protocol._examples.game import (
    EXAMPLE_ANALYSIS,
    EXAMPLE_ENTROPY,
    EXAMPLE_PLAYER_ID,
    EXAMPLE_RECORD_ID,
    EXAMPLE_SERVER_TIME,
    EXAMPLE_TABLE,
    EXAMPLE_TOKEN,
    example_game,
    example_seed,
)
from protocol._examples.seeks import seek_client_examples, seek_server_examples
from protocol.convert import (
    event_messages,
    hand_result_message,
    rules_message,
    view_message,
    your_turn_message,
)
from protocol.messages import stale_version_message
from protocol.verify import seat_commitment

__all__ = [
    "action_examples",
    "client_examples",
    "event_examples",
    "example_events",
    "example_snapshot",
    "example_table_info",
    "server_examples",
]


def example_table_info(status: str = "playing", your_seat: int | None = 0) -> m.TableInfo:
    """The example table: ``ada`` in seat 0, the ``normal`` bot in seat 1."""
    rules = rules_message(RuleSet.preset("classic"))
    return m.TableInfo(
        code=EXAMPLE_TABLE,
        private=False,
        preset="classic",
        rules=rules,
        seats=(
            m.SeatInfo(kind="human", name="ada", connected=True),
            m.SeatInfo(kind="bot", name="bot (normal)", connected=True, bot_level="normal"),
        ),
        status=status,  # type: ignore[arg-type]
        your_seat=your_seat,
        on_hold_expiry="bot",
        hold_seconds=60,
        turn_seconds=None,
        rematch=(False, False),
    )


def action_examples() -> tuple[m.ActionMessage, ...]:
    """One of each action kind, in the order of the ``ActionMessage`` union."""
    return (
        m.KeepAction(),
        m.DiscardAction(),
        m.BlindNilAction(declare=True),
        m.ExchangeAction(cards=("2C", "AS", "10H")),
        m.BidAction(tricks=4),
        m.PlayAction(card="QS"),
    )


def event_examples() -> tuple[m.EventMessage, ...]:
    """One of each event kind, in the order of the ``EventMessage`` union."""
    game = example_game()
    seen = {
        type(event): event
        for outcome in (game.deal_outcome, game.draft_outcome, game.trick_outcome)
        for event in event_messages(outcome.for_viewer(0))
    }
    seen.update({type(event): event for event in event_messages(game.last_outcome.for_viewer(0))})
    return (
        seen[m.HandStartedEvent],
        m.ShuffledEvent(hand_number=1, entropy_from=(True, True)),
        m.BlindNilEvent(seat=1, declared=False),
        seen[m.DraftTurnEvent],
        m.ExchangeEvent(seat=0, count=2, given=("3D", "KH"), received=("7C", "9C")),
        m.BidEvent(seat=1, tricks=4),
        seen[m.CardPlayedEvent],
        seen[m.TrickWonEvent],
        seen[m.HandScoredEvent],
        m.GameOverEvent(winner=0, scores=(312, 247)),
    )


def example_seat_commitment() -> str:
    """Seat 0's 1.3 commitment to ``EXAMPLE_ENTROPY`` for hand 1 of the example game."""
    hand_commitment = hashlib.sha256(example_seed(1)).hexdigest()
    return seat_commitment(hand_commitment, 0, bytes.fromhex(EXAMPLE_ENTROPY))


def client_examples() -> tuple[m.ClientMessage, ...]:
    """One of each client-to-server message, in the order of the ``ClientMessage`` union."""
    game = example_game()
    return (
        m.Hello(
            protocol_version=m.PROTOCOL_VERSION,
            protocol_minor=m.PROTOCOL_MINOR,
            name="ada",
            id=1,
        ),
        m.ListTables(id=2),
        m.CreateTable(
            preset="classic", overrides={"target_score": 200}, bot="normal", seat=0, id=3
        ),
        m.JoinTable(code=EXAMPLE_TABLE, seat=None, id=4),
        m.WatchTable(code=EXAMPLE_TABLE, id=5),
        m.AddBot(code=EXAMPLE_TABLE, level="hard", seat=1, id=6),
        m.Act(
            code=EXAMPLE_TABLE,
            action=game.mid_play_state_legal[0],
            version=game.mid_play.version,
            seq=17,
            id=7,
        ),
        m.Chat(code=EXAMPLE_TABLE, text="good game!", id=8),
        m.Leave(code=EXAMPLE_TABLE, id=9),
        m.Rematch(code=EXAMPLE_TABLE, id=10),
        m.GetRecord(record_id=EXAMPLE_RECORD_ID, id=11),
        m.Entropy(code=EXAMPLE_TABLE, hand_number=1, value=EXAMPLE_ENTROPY, id=13),
        m.EntropyCommit(
            code=EXAMPLE_TABLE, hand_number=1, commitment=example_seat_commitment(), id=15
        ),
        m.Ping(nonce=42, id=12),
        m.GetAnalysis(record_id=EXAMPLE_RECORD_ID, seat=0, level="normal", id=14),
        *account_client_examples(),
        *seek_client_examples(),
    )


def example_snapshot() -> m.Snapshot:
    """A typical snapshot: seat 0 in the middle of the play of hand 1."""
    mid_play = example_game().mid_play
    view = view_message(mid_play, EXAMPLE_TABLE)
    turn = your_turn_message(mid_play, EXAMPLE_TABLE) if mid_play.my_turn else None
    return m.Snapshot(table=example_table_info(), view=view, your_turn=turn, id=4)


def example_events() -> m.Events:
    """A typical ``events`` message: the bot played a card, leading a trick."""
    outcome = example_game().play_outcome
    return m.Events(
        table=EXAMPLE_TABLE, version=outcome.version, events=event_messages(outcome.for_viewer(0))
    )


def server_examples() -> tuple[m.ServerMessage, ...]:
    """One of each server-to-client message, in the order of the ``ServerMessage`` union."""
    game = example_game()
    trick = game.trick_outcome
    result = game.state.hand_results[0]
    record_id = EXAMPLE_RECORD_ID
    final = m.ScoreLine(seat=0, name="ada", score=312, bags=4)
    return (
        m.Welcome(
            protocol_version=m.PROTOCOL_VERSION,
            server_versions=m.SUPPORTED_VERSIONS,
            player_id=EXAMPLE_PLAYER_ID,
            name="ada",
            token=EXAMPLE_TOKEN,
            resumed=False,
            tables=(),
            id=1,
            protocol_minor=m.PROTOCOL_MINOR,
            server_time=EXAMPLE_SERVER_TIME,
            entropy_seconds=2.0,
        ),
        m.TableList(
            tables=(
                m.TableSummary(
                    code=EXAMPLE_TABLE,
                    preset="classic",
                    rules=rules_message(game.rules),
                    seats=(
                        m.SeatInfo(kind="human", name="ada", connected=True),
                        m.SeatInfo(kind="empty"),
                    ),
                    status="waiting",
                    spectators=0,
                ),
            ),
            id=2,
        ),
        example_snapshot(),
        m.TableUpdate(table=example_table_info(status="waiting")),
        m.Events(
            table=EXAMPLE_TABLE,
            version=trick.version,
            events=event_messages(trick.for_viewer(0)),
        ),
        your_turn_message(game.mid_play, EXAMPLE_TABLE),
        hand_result_message(result, EXAMPLE_TABLE),
        m.GameOver(
            table=EXAMPLE_TABLE,
            winner=0,
            reason="score",
            scores=(final, m.ScoreLine(seat=1, name="bot (normal)", score=247, bags=7)),
            record_id=record_id,
        ),
        m.Ack(table=EXAMPLE_TABLE, seq=17, version=game.mid_play.version + 1, id=7),
        m.ErrorMessage(
            code="stale_version",
            message=stale_version_message(game.mid_play.version + 1, game.mid_play.version),
            request="action",
            id=7,
        ),
        m.ChatMessage(table=EXAMPLE_TABLE, seat=0, name="ada", text="good game!"),
        m.RecordMessage(
            record_id=record_id,
            record_json='{"format": "spades-record/1", "rules": {"target_score": 300}}',
            id=11,
        ),
        m.EntropyAccepted(table=EXAMPLE_TABLE, hand_number=1, id=13),
        m.EntropyCommitments(
            table=EXAMPLE_TABLE,
            hand_number=1,
            commitments=(example_seat_commitment(), None),
            reveal_seconds=2.0,
        ),
        m.Pong(nonce=42, id=12),
        m.Left(table=EXAMPLE_TABLE, id=9),
        m.AnalysisMessage(
            record_id=record_id, seat=0, level="normal", analysis_json=EXAMPLE_ANALYSIS, id=14
        ),
        m.Redirect(url="ws://node2.example:8765/", table=EXAMPLE_TABLE, request="join_table", id=3),
        *account_server_examples(),
        *seek_server_examples(),
    )
