// The draft: the card on offer, kept (k) or discarded for the next one (d); the cards this
// seat saw go to the pile.

import { longName, short } from "../cards.js";
import { sendDraft } from "../actions.js";
import { nt, t } from "../i18n.js";
import { escapeHtml, seatName, state } from "../store.js";
import { cardFace } from "../widgets.js";

function seenPile(view) {
  const seen = [...view.draft_discarded, ...view.draft_seen_after_keep];
  if (!seen.length) return "";
  return `<p class="small">${t("You saw go to the pile:")} ${seen.map((c) => `<span class="mini" data-card="${c}" aria-label="${longName(c)}">${short(c)}</span>`).join(" ")}</p>`;
}

// the card on offer is dealt from the stock once: drawn again for the same offer it stays
let dealt = "";
function dealing(view) {
  const key = `${view.hand_number}:${view.stock_left}`;
  if (key === dealt) return "";
  dealt = key;
  return " deal";
}

export function render(view, turn) {
  const me = view.seat;
  const offered = turn && turn.phase === "draft" ? turn.offered || view.offered : null;
  const left = me === null ? "" : `<p class="small">${t("Your turns left: {turns} · stock {stock} · pile {pile}", { turns: 13 - view.draft_turns[me], stock: view.stock_left, pile: view.pile_size })}</p>`;
  if (offered) {
    const keepNote = state.table.rules.see_card_after_keep ? t("you will see the next card go to the pile") : t("the next card goes to the pile unseen");
    const stock = `<span class="back stock" role="img" aria-label="${escapeHtml(nt("the stock, {n} card", "the stock, {n} cards", view.stock_left, { n: view.stock_left }))}"></span>`;
    return `<h2>${t("The draft")}</h2><div class="offer">${stock}${cardFace(offered, ` big${dealing(view)}`)}</div>
          <div class="choices"><button type="button" data-draft="keep">${t("Keep (k)")}</button><button type="button" data-draft="discard">${t("Discard, take the next (d)")}</button></div>
          <p class="small">${t("Keep: {note}. Discard: this card goes to the pile and you take the next one.", { note: keepNote })}</p>${left}`;
  }
  return `<h2>${t("The draft")}</h2><p>${view.current_player === me ? t("You draw…") : t("{name} draws…", { name: escapeHtml(seatName(view.current_player)) })}</p>${left}${seenPile(view)}`;
}

export function key(event) {
  if (event.key !== "k" && event.key !== "d") return false;
  sendDraft(event.key === "k" ? "keep" : "discard");
  return true;
}

export function click(target) {
  if (!target.dataset.draft) return false;
  sendDraft(target.dataset.draft);
  return true;
}
