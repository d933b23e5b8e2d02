// The server's refusals in the player's language, by their stable code. The server speaks
// English; the page shows the words for the code, the server's own (most precise) words
// in English, and the server's words for a code this page does not know (a newer server).
//
//   errorText(error)   // an `error` message -> the line to show

import { language, t } from "./i18n.js";

// built at each call, so that t() reads the catalogue in use
function texts() {
  return {
    bad_message: t("The server could not read that message."),
    too_large: t("That message is too large."),
    unsupported_version: t("The server does not speak this client's protocol version."),
    hello_first: t("Say hello first."),
    already_welcomed: t("This connection is already welcomed."),
    bad_token: t("The server does not know this session."),
    bad_name: t("That name may not be used."),
    bad_rules: t("Those rules are not valid."),
    unknown_table: t("No table has this code."),
    table_full: t("Both seats of this table are taken."),
    seat_taken: t("That seat is taken."),
    not_seated: t("Only a seated player may do that."),
    not_at_table: t("You are not at this table."),
    not_your_turn: t("It is not your turn."),
    illegal_action: t("That move is not allowed now."),
    stale_version: t("The table moved on; choose again."),
    game_not_started: t("The game has not started yet."),
    game_over: t("The game is over."),
    rate_limited: t("Too fast: wait a moment and try again."),
    chat_too_long: t("That chat line is too long."),
    server_full: t("The server is full; try again later."),
    record_not_available: t("That record is not available."),
    internal_error: t("The server failed on this request."),
    banned: t("You are banned from this server."),
    muted: t("The host muted your chat."),
  };
}

/** What to show for the server's `error`: its code's words, else its own message. */
export function errorText(error) {
  const known = texts()[error.code];
  if (!known || language() === "en") return error.message;
  return known;
}
