// What this page sends for its seat: the answer to a turn (with the checks a person
// needs before it goes), leaving, and the lobby's list. Each returns nothing and draws.
//
//   if (myTurnNow()) bid(3);   playCard("QS");   sendDraft("keep");

import { short, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { mySeat, render, state } from "./store.js";

/** The turn the page may answer now: its version is the view's, and no trick is held. */
export function myTurnNow() {
  const { turn, view } = state;
  return turn && view && turn.version === view.version && !state.paused ? turn : null;
}

/** Send `action` as the answer to the current turn. */
export function send(action) {
  const turn = state.turn;
  if (!turn) return;
  state.conn.act(state.code, action, turn.version);
  state.answered = turn.version;
  state.turn = null;
  state.selected = null;
  state.timerEnds = null;
  state.notice = "";
}

export function legalPlays() {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "play") return [];
  return turn.legal.filter((a) => a.kind === "play").map((a) => a.card);
}

/** A card chosen from the hand: picked (or unpicked) for the exchange, or played. */
export function playCard(card) {
  const turn = myTurnNow();
  if (!turn) return;
  if (turn.phase === "exchange") {
    if (state.exchangePicks.has(card)) state.exchangePicks.delete(card);
    else if (state.exchangePicks.size < (turn.exchange_max || 0)) state.exchangePicks.add(card);
    render();
    return;
  }
  if (turn.phase !== "play") return;
  if (!legalPlays().includes(card)) {
    state.notice = `${t("{card} cannot be played now", { card: short(card) })}${followReason()}.`;
    render();
    return;
  }
  send({ kind: "play", card });
  render();
}

function followReason() {
  const view = state.view;
  if (!view) return "";
  if (view.current_trick.length === 1) {
    const suit = view.current_trick[0].slice(-1);
    return `: ${t("follow {suit}", { suit: suitName(suit) })}`;
  }
  if (!view.spades_broken) return `: ${t("spades are not broken")}`;
  return "";
}

export function bid(tricks) {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "bidding") return;
  const allowed = turn.legal.filter((a) => a.kind === "bid").map((a) => a.tricks);
  if (!allowed.includes(tricks)) {
    state.notice = t("A bid of {tricks} is not allowed.", { tricks });
    render();
    return;
  }
  send({ kind: "bid", tricks });
  render();
}

export function sendDraft(kind) {
  const turn = myTurnNow();
  if (turn && turn.phase === "draft") send({ kind });
  render();
}

export function sendBlind(declare) {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "blind_nil") return;
  if (!turn.legal.some((a) => a.kind === "blind_nil" && a.declare === declare)) return;
  send({ kind: "blind_nil", declare });
  render();
}

export function giveExchange() {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "exchange") return;
  send({ kind: "exchange", cards: [...state.exchangePicks] });
  state.exchangePicks.clear();
  render();
}

export function rematch() {
  state.conn.send({ type: "rematch", code: state.code });
}

export function addBot() {
  state.conn.send({ type: "add_bot", code: state.code, level: "normal" });
}

/** Leave the table on screen (a player mid-game confirms the forfeit first). */
export function leaveTable() {
  if (!state.code) return;
  const playing = state.table && state.table.status === "playing" && mySeat() !== null;
  if (playing && !confirm(t("Leaving now forfeits the game. Leave?"))) return;
  state.conn.send({ type: "leave", code: state.code });
}

export function refreshLobby() {
  if (state.conn) state.conn.send({ type: "list_tables" });
}
