// This seat's hand: the cards grouped by suit, and choosing one by click, tap, arrows and
// Enter, or by typing it ("qs", "10h"). In the play phase a chosen card is played; in the
// exchange it is picked (or unpicked) to give.
//
//   renderHand(view, turn)     // HTML
//   handKey(event, turn)       // true when the key was the hand's
//   finishesTypedCard(key)     // a suit letter after a typed rank: the hand takes it first

import { DISPLAY_SUITS, isCardKey, isSuitKey, parseTyped, short, sortForDisplay, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { giveExchange, legalPlays, playCard } from "./actions.js";
import { render, state } from "./store.js";
import { cardButton } from "./widgets.js";

let typed = "";

export function renderHand(view, turn) {
  const legal = new Set(legalPlays());
  const exchanging = turn && turn.phase === "exchange";
  const cards = sortForDisplay(view.hand);
  const groups = DISPLAY_SUITS.map((suit) => {
    const inSuit = cards.filter((c) => c.endsWith(suit));
    if (!inSuit.length) return "";
    const buttons = inSuit.map((card) =>
      cardButton(card, {
        legal: exchanging || legal.has(card),
        picked: state.exchangePicks.has(card),
        selected: state.selected === card,
      }),
    );
    return `<div class="suit-row" role="group" aria-label="${suitName(suit)}">${buttons.join("")}</div>`;
  });
  const prompt = turn && turn.phase === "play" ? `<p class="prompt">${t("Your turn: click or tap a card, or ←/→ and Enter, or type it (qs, 10h).")}</p>` : "";
  const playing = turn && turn.phase === "play" ? " playing" : "";
  return `${prompt}<div class="hand${playing}" aria-label="${t("your {n} cards", { n: view.hand.length })}">${groups.join("")}</div>`;
}

export function finishesTypedCard(key) {
  return typed !== "" && isSuitKey(key);
}

/** A click on a card of the hand. */
export function clickHand(target) {
  if (!target.dataset.card || !target.closest(".hand")) return false;
  playCard(target.dataset.card);
  return true;
}

export function handKey(event, turn) {
  const key = event.key;
  const hand = sortForDisplay(state.view.hand);
  const choices = turn.phase === "play" ? hand.filter((c) => legalPlays().includes(c)) : hand;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    event.preventDefault();
    const at = choices.indexOf(state.selected);
    const step = key === "ArrowRight" ? 1 : -1;
    state.selected = choices[(at + step + choices.length) % choices.length] || null;
    typed = "";
    render();
    const button = document.querySelector(`.hand [data-card="${state.selected}"]`);
    if (button) button.focus();
    return true;
  }
  if (key === "Enter") {
    event.preventDefault();
    if (turn.phase === "exchange") giveExchange();
    else if (state.selected) playCard(state.selected);
    return true;
  }
  if (key === " " && turn.phase === "exchange" && state.selected) {
    event.preventDefault();
    playCard(state.selected);
    return true;
  }
  if (!isCardKey(key)) return false;
  typed = (typed + key).slice(-3);
  for (const length of [3, 2]) {
    const card = parseTyped(typed.slice(-length));
    if (card) {
      typed = "";
      if (!state.view.hand.includes(card)) {
        state.notice = t("You do not hold {card}.", { card: short(card) });
        render();
        return true;
      }
      state.selected = card;
      playCard(card);
      return true;
    }
  }
  return true;
}
