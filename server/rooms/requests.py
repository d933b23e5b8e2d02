"""The requests that name one table, checked and handed to its room.

    act(room, listener, player_id, message)        # m.Act: checks, then room.accept
    join(room, listener, player_id, name, message)

Each function raises :class:`~server.errors.RequestError` to refuse, before anything
changed, and otherwise answers on ``listener``. Order of the checks of ``act``: your seat,
that the game is on, an already applied ``seq`` (``ack`` again), your turn, the
``version``, then the engine's rules.

Semantics the protocol leaves to the server: ``join_table`` (or ``watch_table``) of a
table where you already sit changes nothing and answers with a fresh ``snapshot`` of your
seat; ``leave`` during a game forfeits it; ``rematch`` before game over is refused with
``illegal_action``, bots always agree, and the ``rematch`` that completes the agreement
starts the new game: everyone at the table gets its snapshot (version 0) before its events.
"""

from __future__ import annotations

import logging

from engine import IllegalActionError
from protocol import convert
from protocol import messages as m
from protocol.errors import ConversionError
from server.errors import RequestError
from server.rooms.ports import Listener
from server.rooms.room import Room
from server.rooms.table import Level, Seat

__all__ = [
    "act",
    "add_bot",
    "entropy",
    "entropy_commit",
    "join",
    "leave",
    "rematch",
    "seat_for_bot",
    "speaker",
    "watch",
]

log = logging.getLogger("server")


def _seated(room: Room, player_id: str) -> int:
    index = room.seat_of(player_id)
    if index is None:
        raise RequestError("not_seated", "you do not sit at this table")
    return index


def _playing(room: Room) -> None:
    if room.status == "waiting":
        raise RequestError("game_not_started", "the game has not started")
    if room.status != "playing":
        raise RequestError("game_over", "the game is over")


def act(room: Room, listener: Listener, player_id: str, message: m.Act) -> None:
    index = _seated(room, player_id)
    _playing(room)
    done = room.seats[index].seqs.get(message.seq)
    if done is not None:
        listener.send(m.Ack(table=room.code, seq=message.seq, version=done, id=message.id))
        return
    state = room.state
    if state.current_player != index:
        raise RequestError("not_your_turn", "it is not your turn")
    if message.version != state.version:
        raise RequestError("stale_version", m.stale_version_message(state.version, message.version))
    try:
        action = convert.action_from_message(message.action)
    except ConversionError as error:
        raise RequestError("bad_message", str(error)) from None
    try:
        room.accept(index, action, message.seq, listener, message.id)
    except IllegalActionError as error:
        raise RequestError("illegal_action", str(error)) from None


def rematch(room: Room, listener: Listener, player_id: str, message: m.Rematch) -> None:
    index = _seated(room, player_id)
    if room.status == "waiting":
        raise RequestError("game_not_started", "the game has not started")
    if room.status != "finished":
        raise RequestError("illegal_action", "a rematch can only be asked for after game over")
    room.seats[index].rematch = True
    for seat in room.seats:
        if seat.kind == "bot":
            seat.rematch = True
    room.save()
    if not all(seat.kind != "empty" and seat.rematch for seat in room.seats):
        listener.send(room.snapshot(index, message.id))
        room.send_update(skip=listener)
        return
    log.info("table %s: rematch", room.code)
    room.play.new_game()
    # everyone at the table gets the new game's snapshot (version 0) before its first
    # events, so nobody sees a gap; the asker's carries the request's id
    for viewer, other in room.audience():
        other.send(room.snapshot(viewer, message.id if other is listener else None))
    room.start_game()


def _entropy_wanted(room: Room, hand_number: int, what: str) -> None:
    state = room.state
    if not state.awaiting_shuffle or hand_number != state.hand_number:
        raise RequestError(
            "illegal_action",
            f"{what} for hand {hand_number} is not wanted now: it is taken "
            "between that hand's hand_started and its shuffled event",
        )


def entropy(room: Room, listener: Listener, player_id: str, message: m.Entropy) -> None:
    """Protocol 1.1 (the gateway refuses it from a 1.0 connection): a seat's value, or in
    1.3 its reveal after ``entropy_commitments``. A reveal that does not match its
    commitment is refused after the step moved on (the seat withheld it)."""
    index = _seated(room, player_id)
    _playing(room)
    _entropy_wanted(room, message.hand_number, "entropy")
    play = room.play
    # the decoder already refused anything but 1 to 32 whole bytes in hex (bad_message)
    refused = play.hand.value(index, bytes.fromhex(message.value), listener.minor)
    if refused is None:
        listener.send(
            m.EntropyAccepted(table=room.code, hand_number=message.hand_number, id=message.id)
        )
    if play.entropy_ready():
        play.shuffle()
        play.advance()
    if refused is not None:
        raise RequestError("illegal_action", refused)


def entropy_commit(
    room: Room, listener: Listener, player_id: str, message: m.EntropyCommit
) -> None:
    """Protocol 1.3 (the gateway refuses it from an older connection): a seat's
    commitment; the table gets every commitment once all are in."""
    index = _seated(room, player_id)
    _playing(room)
    _entropy_wanted(room, message.hand_number, "entropy_commit")
    play = room.play
    play.hand.commit(index, message.commitment)
    listener.send(
        m.EntropyAccepted(
            table=room.code, hand_number=message.hand_number, stage="commit", id=message.id
        )
    )
    if play.entropy_ready():  # the relay; a table of one committing seat also shuffles
        play.shuffle()
        play.advance()


def join(room: Room, listener: Listener, player_id: str, name: str, message: m.JoinTable) -> None:
    mine = room.seat_of(player_id)
    if mine is not None:
        listener.send(room.snapshot(mine, message.id))
        room.play.remind_commitments(listener)  # 1.3: the reveal it may have missed
        return
    index = room.free_seat(message.seat)
    room.sit(index, player_id, name)
    room.remove_spectator(listener)
    if room.status == "finished":
        room.seats[index].rematch = False
    room.save()
    log.info("table %s: seat %d taken", room.code, index)
    listener.send(room.snapshot(index, message.id))
    room.send_update(skip=listener)
    if room.status == "waiting" and not room.table.empty_seats():
        room.start_game()


def watch(room: Room, listener: Listener, player_id: str, message: m.WatchTable) -> None:
    mine = room.seat_of(player_id)
    if mine is not None:
        listener.send(room.snapshot(mine, message.id))
        return
    room.add_spectator(listener)
    listener.send(room.snapshot(None, message.id))


def seat_for_bot(room: Room, player_id: str, wanted: int | None) -> int:
    """The seat ``add_bot`` fills; raises ``not_seated``, ``seat_taken``, ``table_full``."""
    if room.seat_of(player_id) is None:
        raise RequestError("not_seated", "only a player seated at the table may add the bot")
    return room.free_seat(wanted)


def add_bot(
    room: Room,
    listener: Listener,
    player_id: str,
    index: int,
    level: Level,
    address: str,
    req_id: int | None,
) -> None:
    """Seat the bot at ``index`` (from :func:`seat_for_bot`, the address's limits checked)."""
    if room.address is None:
        room.address = address  # the bot's work counts for who brought it
    room.host.bots.warm()
    room.seats[index] = Seat(kind="bot", name=f"bot ({level})", bot_level=level, rematch=True)
    room.save()
    log.info("table %s: bot (%s) in seat %d", room.code, level, index)
    listener.send(room.snapshot(room.seat_of(player_id), req_id))
    room.send_update(skip=listener)
    if room.status == "waiting":
        room.start_game()


def leave(room: Room, listener: Listener, player_id: str, message: m.Leave) -> None:
    if listener in room.spectators:
        room.remove_spectator(listener)
        listener.send(m.Left(table=room.code, id=message.id))
        return
    index = room.seat_of(player_id)
    if index is None:
        raise RequestError("not_at_table", "you are not at this table")
    if room.status == "playing":
        room.finish("forfeit", 1 - index)
    room.vacate(index)
    listener.send(m.Left(table=room.code, id=message.id))


def speaker(room: Room, listener: Listener, player_id: str) -> int | None:
    """The seat of a chat's sender (``None``: a spectator); raises ``not_at_table``."""
    index = room.seat_of(player_id)
    if index is None and listener not in room.spectators:
        raise RequestError("not_at_table", "you are not at this table")
    return index
