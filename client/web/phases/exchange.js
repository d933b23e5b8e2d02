// The blind nil exchange: pick up to N cards of the hand (the hand's keys and clicks pick
// them), then give them (Enter or the button).

import { short } from "../cards.js";
import { giveExchange } from "../actions.js";
import { handKey } from "../hand.js";
import { escapeHtml, seatName, state } from "../store.js";

export function render(view, turn) {
  if (turn && turn.phase === "exchange") {
    const picked = state.exchangePicks.size;
    return `<h2>Blind nil exchange</h2><p>Pick up to ${turn.exchange_max} cards of your hand to give face down; you get as many drawn at random from the pile.</p>
          <p>Picked: ${[...state.exchangePicks].map(short).join(" ") || "none"}</p>
          <div class="choices"><button type="button" id="give">Give ${picked} card${picked === 1 ? "" : "s"} (Enter)</button></div>`;
  }
  return `<p>${escapeHtml(seatName(view.current_player))} exchanging…</p>`;
}

export function key(event, turn) {
  return handKey(event, turn);
}

export function click(target) {
  if (target.id !== "give") return false;
  giveExchange();
  return true;
}
