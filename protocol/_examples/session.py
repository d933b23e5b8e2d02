"""The example session of ``docs/protocol.md``'s transcript: ada connects, plays the bot,
drops, resumes and leaves; each step a note for people and the message on the wire.

A part of :mod:`protocol.examples`, which is the one to import.
"""

from __future__ import annotations

import functools
import json

from engine import (
    Bid,
    Phase,
    game_record,
)
from protocol import messages as m
from protocol._examples.game import (
    EXAMPLE_ANALYSIS,
    EXAMPLE_PLAYER_ID,
    EXAMPLE_RECORD_ID,
    EXAMPLE_SERVER_TIME,
    EXAMPLE_TABLE,
    EXAMPLE_TOKEN,
)
from protocol._examples.session_play import (
    SessionPlayer,
    SessionStep,
    action_kind,
    count_messages,
    table_info_at,
)
from protocol.convert import (
    action_message,
    view_message,
    your_turn_message,
)
from protocol.messages import stale_version_message

__all__ = [
    "example_session",
]


@functools.cache
def example_session() -> tuple[SessionStep, ...]:
    """The transcript of a short session: ada plays the bot, drops, resumes, leaves."""
    s = SessionPlayer()
    out: list[SessionStep] = []
    add = out.append
    add(
        SessionStep(
            "**Connect** a WebSocket to `ws://localhost:8765/` and say `hello` first. "
            "`id` is any number you choose; the answer carries it back.",
            m.Hello(protocol_version=1, protocol_minor=m.PROTOCOL_MINOR, name="ada", id=1),
            client=True,
        )
    )
    add(
        SessionStep(
            f"The server welcomes a new player and says the connection speaks 1.{m.PROTOCOL_MINOR} "
            "(`protocol_minor`). Keep `token` secret and safe: it is how you come back after "
            "a drop. `server_time` is the server's clock, for deadlines; `entropy_seconds` "
            "how long a shuffle waits for your entropy.",
            m.Welcome(
                protocol_version=1,
                server_versions=m.SUPPORTED_VERSIONS,
                player_id=EXAMPLE_PLAYER_ID,
                name="ada",
                token=EXAMPLE_TOKEN,
                resumed=False,
                id=1,
                protocol_minor=m.PROTOCOL_MINOR,
                server_time=EXAMPLE_SERVER_TIME,
                entropy_seconds=2.0,
            ),
        )
    )
    add(SessionStep("**Lobby.** Which tables are open?", m.ListTables(id=2), client=True))
    add(SessionStep("None yet.", m.TableList(tables=(), id=2)))
    add(
        SessionStep(
            "Create a table with the classic rules and the bot (level `normal`) in the other "
            "seat. Fields left out take their defaults.",
            m.CreateTable(preset="classic", bot="normal", id=3),
            client=True,
        )
    )
    add(
        SessionStep(
            "The answer to `create_table` is a snapshot of the new table, with its code. "
            "You sit in seat 0; nothing has been dealt yet (`version` 0).",
            m.Snapshot(
                table=table_info_at("waiting"),
                view=view_message(s.state.view_for(0), EXAMPLE_TABLE),
                id=3,
            ),
        )
    )
    add(
        SessionStep(
            "Both seats are filled, so the game starts at once: the table's status changes "
            "to `playing`...",
            m.TableUpdate(table=table_info_at("playing")),
        )
    )
    s.deal()
    s.prompt()
    add(
        SessionStep(
            "...and hand 1 starts. `commitment` is SHA-256 of the secret shuffle seed: keep "
            "it to check the seed when the hand is over. Nothing is drawn yet: the server "
            "waits for the seats' entropy.",
            s.log[0][1],
        )
    )
    add(
        SessionStep(
            "Make 32 random bytes of your own for this hand's shuffle, from a secure source "
            "(`secrets.token_bytes(32)`), and keep them. Protocol 1.3: do not send them yet; "
            'send your commitment to them, `SHA-256(b"spades/commit/v1" + commitment + '
            "seat + value)` (the hand's `commitment` as its 32 bytes, your seat as one byte).",
            s.log[1][1],
            client=True,
        )
    )
    add(SessionStep("Accepted (`stage`: `commit`).", s.log[2][1]))
    add(
        SessionStep(
            "Every seat that takes part has committed (the bot takes none: nil), so the "
            "server relays the commitments to the table. Check that yours is there; only "
            "now reveal your value.",
            s.log[3][1],
        )
    )
    add(SessionStep("Your value (the reveal).", s.log[4][1], client=True))
    add(SessionStep("It matches your commitment: accepted.", s.log[5][1]))
    add(
        SessionStep(
            "Every committed value is revealed, so the stock is shuffled from the seed and "
            "your value: neither the server nor a host who plays could choose it "
            "(*The fair shuffle*).",
            s.log[6][1],
        )
    )
    offered = s.log[7][1]
    add(
        SessionStep(
            "You draft first. `offered` is the card on the top of the stock; `legal` "
            "lists what you may do with it. Answer with an `action` that carries the "
            "`version` of this `your_turn` and a new `seq`.",
            offered,
        )
    )
    s.log.clear()
    s.act(s.choose(0))
    first = list(s.log)
    add(SessionStep(f"You {action_kind(first[0][1])} it.", first[0][1], client=True))
    add(
        SessionStep(
            "`ack` says your action with this `seq` was applied and which version it made.",
            first[1][1],
        )
    )
    add(
        SessionStep(
            "Then the events of your action, as you may see them: your own draft turn "
            "shows the cards; the bot's copy of this event has only `seat` and "
            "`turns_left`.",
            first[2][1],
        )
    )
    s.log.clear()
    s.step()
    add(
        SessionStep(
            "The bot drafts: you learn only that it took a turn. Then it is your turn again.",
            s.log[0][1],
        )
    )
    s.log.clear()
    draft = s.run_until(lambda state: state.phase is not Phase.DRAFT)
    add(
        SessionStep(
            f"*(The draft goes on, 13 turns each: {count_messages(draft)} like the ones above.)* "
            "Then bidding: the first drafter bids first."
        )
    )
    s.log.clear()
    s.prompt()
    turn = s.log[-1][1]
    add(SessionStep("Every bid from 0 (nil) to 13 is legal.", turn))
    add(
        SessionStep(
            "A chat line while you think:",
            m.Chat(code=EXAMPLE_TABLE, text="gl hf", id=4),
            client=True,
        )
    )
    add(
        SessionStep(
            "Chat goes to everyone at the table, you included.",
            m.ChatMessage(table=EXAMPLE_TABLE, seat=0, name="ada", text="gl hf"),
        )
    )
    s.log.clear()
    s.act(Bid(3))
    bid = list(s.log)
    add(SessionStep("You bid 3.", bid[0][1], client=True))
    add(SessionStep("Acknowledged...", bid[1][1]))
    add(SessionStep("...and told to everyone: bids are public.", bid[2][1]))
    resent = bid[0][1]
    add(
        SessionStep(
            "Suppose your client missed the `ack` and sends the same action again, same "
            "`seq`. It is not applied twice: the server acknowledges it again, with the "
            "version it made then.",
            resent,
            client=True,
        )
    )
    add(SessionStep("The same `ack` as before; nothing else happens.", bid[1][1]))
    s.log.clear()
    s.step()
    add(SessionStep("The bot bids 4.", s.log[0][1]))
    s.log.clear()
    s.prompt()
    play_turn = s.log[0][1]
    assert isinstance(play_turn, m.YourTurn)
    add(
        SessionStep(
            "You lead the first trick (the first bidder leads). Spades are not broken, so "
            "`legal` holds no spade unless you hold nothing else.",
            play_turn,
        )
    )
    card = s.choose(0)
    s.log.clear()
    add(
        SessionStep(
            "An action made against an older version (here one that missed the bot's bid) "
            "is refused, and nothing changes:",
            m.Act(
                code=EXAMPLE_TABLE,
                action=action_message(card),
                version=play_turn.version - 1,
                seq=s.seq + 1,
                id=s.next_id + 1,
            ),
            client=True,
        )
    )
    add(
        SessionStep(
            "Refused, with the reason; the `id` tells which request it answers.",
            m.ErrorMessage(
                code="stale_version",
                message=stale_version_message(play_turn.version, play_turn.version - 1),
                request="action",
                id=s.next_id + 1,
            ),
        )
    )
    s.seq += 1
    s.next_id += 1
    s.act(card)
    lead = list(s.log)
    add(SessionStep("With the current version it goes through:", lead[0][1], client=True))
    add(SessionStep("", lead[1][1]))
    add(SessionStep("Your card is on the table; the bot is to play.", lead[2][1]))
    s.log.clear()
    s.step()
    add(SessionStep("The bot plays; the trick is complete and won.", s.log[0][1]))
    s.log.clear()
    play = s.run_until(lambda state: len(state.hand_results) == 1)
    last_events = [msg for _, msg in play if isinstance(msg, m.Events)][-1]
    result = play[-1][1]
    add(
        SessionStep(
            f"*(Twelve more tricks: {count_messages(play[:-2])}.)* "
            "The last card of the hand ends the last trick and scores the hand:",
            last_events,
        )
    )
    add(
        SessionStep(
            "Every seat and spectator then gets the hand's result with its shuffle seed "
            "revealed: SHA-256 of the seed's bytes is the `commitment` of `hand_started`, "
            "and the seed reproduces the deck (see *The fair shuffle*).",
            result,
        )
    )
    s.log.clear()
    s.deal()
    add(SessionStep("Hand 2 starts at once; the bot drafts first now.", s.log[0][1]))
    add(
        SessionStep(
            "*(Your commitment for hand 2, the relay and your reveal, as above.)* The shuffle:",
            s.log[6][1],
        )
    )
    s.log.clear()
    s.step()
    add(SessionStep("It takes its turn...", s.log[0][1]))
    s.log.clear()
    s.prompt()
    add(SessionStep("...and then it is yours.", s.log[0][1]))
    add(
        SessionStep(
            "**The connection drops** before you answer. Your seat is held for you "
            "(`hold_seconds`, 60 by default); the bot waits. Open a new connection and say "
            "`hello` with your token:",
            m.Hello(
                protocol_version=1,
                protocol_minor=m.PROTOCOL_MINOR,
                name="ada",
                token=EXAMPLE_TOKEN,
                id=1,
            ),
            client=True,
        )
    )
    add(
        SessionStep(
            "`resumed` is true, and `tables` lists the tables where you sit...",
            m.Welcome(
                protocol_version=1,
                server_versions=m.SUPPORTED_VERSIONS,
                player_id=EXAMPLE_PLAYER_ID,
                name="ada",
                token=EXAMPLE_TOKEN,
                resumed=True,
                tables=(EXAMPLE_TABLE,),
                id=1,
                protocol_minor=m.PROTOCOL_MINOR,
                server_time=EXAMPLE_SERVER_TIME + 95.5,
                entropy_seconds=2.0,
            ),
        )
    )
    add(
        SessionStep(
            "...each followed by a snapshot: replace everything you knew about the table "
            "with it. It holds your hand, what you saw in the draft so far, the results "
            "of the finished hands and, as it is your move, `your_turn`: enough to act on.",
            m.Snapshot(
                table=table_info_at("playing"),
                view=view_message(s.state.view_for(0), EXAMPLE_TABLE),
                your_turn=your_turn_message(s.state.view_for(0), EXAMPLE_TABLE),
            ),
        )
    )
    s.log.clear()
    s.prompt()
    add(
        SessionStep(
            "On a resume the same `your_turn` also follows on its own (for 1.0 clients).",
            s.log[0][1],
        )
    )
    s.log.clear()
    add(
        SessionStep(
            "You decide to stop. Leaving a game in progress forfeits it.",
            m.Leave(code=EXAMPLE_TABLE, id=20),
            client=True,
        )
    )
    scores = s.state.scores
    add(
        SessionStep(
            "The forfeit ends the game: the bot wins. `record_id` names the game's record.",
            m.GameOver(
                table=EXAMPLE_TABLE,
                winner=1,
                reason="forfeit",
                scores=(
                    m.ScoreLine(seat=0, name="ada", score=scores[0], bags=s.state.bags[0]),
                    m.ScoreLine(seat=1, name="bot (normal)", score=scores[1], bags=s.state.bags[1]),
                ),
                record_id=EXAMPLE_RECORD_ID,
            ),
        )
    )
    add(
        SessionStep(
            "The table is finished (and closes, as no human is left at it).",
            m.TableUpdate(table=table_info_at("finished", record_id=EXAMPLE_RECORD_ID)),
        )
    )
    add(SessionStep("Then the answer to `leave`.", m.Left(table=EXAMPLE_TABLE, id=20)))
    record = json.dumps(game_record(s.state))
    add(
        SessionStep(
            "The finished game's record can be fetched by its id at any time:",
            m.GetRecord(record_id=EXAMPLE_RECORD_ID, id=21),
            client=True,
        )
    )
    add(
        SessionStep(
            f"`record_json` is the engine's complete record (every card of every hand; "
            f"{len(record)} characters here, shortened below).",
            m.RecordMessage(record_id=EXAMPLE_RECORD_ID, record_json=record[:120] + "...", id=21),
        )
    )
    add(
        SessionStep(
            "The analysis of a seat's play in it (as `spades analyze` shows it) can be "
            "asked for too; it takes some seconds the first time:",
            m.GetAnalysis(record_id=EXAMPLE_RECORD_ID, seat=0, level="normal", id=23),
            client=True,
        )
    )
    add(
        SessionStep(
            "`analysis_json` is the analysis as `engine.analysis` writes it (shortened).",
            m.AnalysisMessage(
                record_id=EXAMPLE_RECORD_ID,
                seat=0,
                level="normal",
                analysis_json=EXAMPLE_ANALYSIS,
                id=23,
            ),
        )
    )
    add(SessionStep("Is the server still there?", m.Ping(nonce=7, id=22), client=True))
    add(SessionStep("Yes.", m.Pong(nonce=7, id=22)))
    return tuple(out)
