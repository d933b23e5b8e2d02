"""The server's refusals in the player's language, by their stable code.

The server speaks English (its logs and admin tool stay so) and gives every error a code
(:data:`protocol.messages.ERROR_CODES`); the clients show the text for the code in the
player's language. The server's own words are shown when the player reads English (they
say the most: which card, which rule) and for a code this client does not know (a newer
server)::

    error_text("table_full", "Both seats are taken.")   # -> "Beide Plätze sind besetzt." (de)
    error_text("brand_new_code", "Something new.")      # -> "Something new." (any language)

Raises nothing.
"""

from __future__ import annotations

from typing import Final

from client.i18n import N_, _, language

__all__ = ["ERROR_TEXTS", "error_text"]

ERROR_TEXTS: Final[dict[str, str]] = {
    "bad_message": N_("The server could not read that message."),
    "too_large": N_("That message is too large."),
    "unsupported_version": N_("The server does not speak this client's protocol version."),
    "hello_first": N_("Say hello first."),
    "already_welcomed": N_("This connection is already welcomed."),
    "bad_token": N_("The server does not know this session."),
    "bad_name": N_("That name may not be used."),
    "bad_rules": N_("Those rules are not valid."),
    "unknown_table": N_("No table has this code."),
    "table_full": N_("Both seats of this table are taken."),
    "seat_taken": N_("That seat is taken."),
    "not_seated": N_("Only a seated player may do that."),
    "not_at_table": N_("You are not at this table."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_action": N_("That move is not allowed now."),
    "stale_version": N_("The table moved on; choose again."),
    "game_not_started": N_("The game has not started yet."),
    "game_over": N_("The game is over."),
    "rate_limited": N_("Too fast: wait a moment and try again."),
    "chat_too_long": N_("That chat line is too long."),
    "server_full": N_("The server is full; try again later."),
    "record_not_available": N_("That record is not available."),
    "internal_error": N_("The server failed on this request."),
    "banned": N_("You are banned from this server."),
    "muted": N_("The host muted your chat."),
}


def error_text(code: str, server_text: str) -> str:
    """What to show for the server's error ``code``: the localised text for a known code
    in a language other than English, else the server's own ``server_text``."""
    known = ERROR_TEXTS.get(code)
    if known is None or language() == "en":
        return server_text
    return _(known)
