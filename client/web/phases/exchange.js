// The blind nil exchange: pick up to N cards of the hand (the hand's keys and clicks pick
// them), then give them (Enter or the button).

import { short } from "../cards.js";
import { giveExchange } from "../actions.js";
import { handKey } from "../hand.js";
import { escapeHtml, seatName, state } from "../store.js";
import { nt, t } from "../i18n.js";

export function render(view, turn) {
  if (turn && turn.phase === "exchange") {
    const picked = state.exchangePicks.size;
    return `<h2>${t("Blind nil exchange")}</h2><p>${t("Pick up to {n} cards of your hand to give face down; you get as many drawn at random from the pile.", { n: turn.exchange_max })}</p>
          <p>${t("Picked:")} ${[...state.exchangePicks].map(short).join(" ") || t("none")}</p>
          <div class="choices"><button type="button" id="give">${nt("Give {n} card (Enter)", "Give {n} cards (Enter)", picked, { n: picked })}</button></div>`;
  }
  return `<p>${t("{name} exchanging…", { name: escapeHtml(seatName(view.current_player)) })}</p>`;
}

export function key(event, turn) {
  return handKey(event, turn);
}

export function click(target) {
  if (target.id !== "give") return false;
  giveExchange();
  return true;
}
