"""The error codes a server answers with, and what each means for people.

A part of :mod:`protocol.messages`; ``docs/protocol.md`` lists the codes (generated from
:data:`ERROR_CODE_MEANINGS`, in :data:`ERROR_CODES` order).
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "ERROR_CODES",
    "ERROR_CODE_MEANINGS",
    "ErrorCode",
]

ErrorCode = Literal[
    "bad_message",
    "too_large",
    "unsupported_version",
    "hello_first",
    "already_welcomed",
    "bad_token",
    "bad_name",
    "bad_rules",
    "unknown_table",
    "table_full",
    "seat_taken",
    "not_seated",
    "not_at_table",
    "not_your_turn",
    "illegal_action",
    "stale_version",
    "game_not_started",
    "game_over",
    "rate_limited",
    "chat_too_long",
    "server_full",
    "record_not_available",
    "internal_error",
    "banned",
    "muted",
    # accounts (protocol/_messages/accounts.py)
    "bad_credentials",
    "name_taken",
    "bad_password",
    "not_signed_in",
    "unknown_account",
    # play now
    "rated_needs_account",
]
ERROR_CODES: Final[tuple[str, ...]] = ErrorCode.__args__  # type: ignore[attr-defined]

ERROR_CODE_MEANINGS: Final[dict[str, str]] = {
    "bad_message": "The frame is not a valid message: a text frame, not msgpack, not a map, "
    "an unknown `type`, a missing or unknown field, a value of the wrong type or out of "
    "range (also an empty chat line, and an `entropy` value that is not 1 to 32 whole bytes "
    "in lowercase hex, whatever the table). "
    "`request` and `id` are the frame's `type` and `id` whenever they can be read, nil "
    "otherwise.",
    "too_large": "The message is over the size limit (4096 bytes for a client message) and "
    "was refused unread. The server may instead close the connection (WebSocket close "
    "code 1009) when the frame itself is over the limit.",
    "unsupported_version": "`hello` named a protocol version the server does not speak; the "
    "error's message lists the versions it does. Say `hello` again with one of them.",
    "hello_first": "A message other than `hello` came before the connection was welcomed.",
    "already_welcomed": "`hello` came again on a connection that was already welcomed (open "
    "a new connection to be someone else).",
    "bad_token": "The `token` in `hello` is not known to this server. Say `hello` without "
    "a token to start as a new player.",
    "bad_name": "The name breaks the text rules (see Text rules): it has control or "
    "invisible characters, renders empty, or is a word the game uses itself (You, Bot...).",
    "bad_rules": "`create_table` named an unknown preset, or an override that is not a rule "
    "field or has a bad value; the message says which.",
    "unknown_table": "No table has this code (it never existed, or it has closed).",
    "table_full": "Both seats of the table are taken (`join_table` or `add_bot` without a seat).",
    "seat_taken": "The seat asked for (`join_table`, `add_bot`) is not empty.",
    "not_seated": "Only a player seated at the table may do this (`action`, `add_bot`, "
    "`rematch`, `entropy`); you watch it or are not there.",
    "not_at_table": "You neither sit at nor watch this table (`chat`, `leave`).",
    "not_your_turn": "An `action` came while another seat (or the dealer) is to move.",
    "illegal_action": "The action is not legal now (the message says why: follow suit, "
    "spades not broken, a card you do not hold...); also `rematch` before game over, and "
    "`entropy` for another hand, a second time, or after the shuffle.",
    "stale_version": "The action's `version` is not the table's current version: something "
    "happened after the state you decided on. Take the latest state (the events that "
    "followed, or a fresh snapshot) and decide again.",
    "game_not_started": "The table is still waiting for its second seat.",
    "game_over": "The game at this table is over: ask for a `rematch`, or `leave`.",
    "rate_limited": "Too many messages (or chat lines) too quickly; the request was dropped. "
    "Slow down and send it again later: after 20 refusals in a row (the server's default), "
    "the next message over the budget closes the connection (close code 1008). Also sent when "
    "a per-address budget is spent: tables created, games given up within the hour, `/report` "
    "lines, analyses waiting (one per connection, three per address), or bytes of `record` and "
    "`analysis` answers; the message says which, and when to try again.",
    "chat_too_long": "The chat line is longer than the server allows (200 characters by default).",
    "server_full": "The server holds as many connections or tables as it can, or you sit at "
    "as many tables as one player may, or the queue of analyses is full (the players of the "
    "game's own table may still queue). Try again later.",
    "record_not_available": "No finished game has this `record_id` (yet).",
    "internal_error": "The server failed on this request (a bug); the request had no effect.",
    "banned": "The host of this server banned this name (at `hello`) or this network address "
    "(at connect, with no request); the connection is closed after it (code 1008). A "
    "connection the host removed without a ban is closed with code 4003 and no error.",
    "muted": "The host muted your chat on this server: `chat` is refused (a `/report` line "
    "still reaches the host).",
    "bad_credentials": "`sign_in`, `change_password` or `delete_account`: no account has this "
    "name, or the password is wrong (the server does not say which).",
    "name_taken": "`register`: an account's name looks like this one (the same skeleton: "
    "look-alike letters, case and accents do not make a new name).",
    "bad_password": "`register` or `change_password`: the new password is shorter than 8 "
    "characters.",
    "not_signed_in": "The request needs an account (`change_password`, `sign_out_everywhere`, "
    "`delete_account`, a rated `create_table`), or `sign_in` came while seated as a guest.",
    "unknown_account": "`get_profile`: no account has this name.",
    # play now
    "rated_needs_account": "A rated `seek` came from a guest: rated games are between two "
    "signed-in players. Seek a casual game, or sign in first.",
}
"""What each error code means, for people: the same keys as :data:`ERROR_CODES`.

An error never changes any game; ``docs/protocol.md`` lists these (generated).
"""
