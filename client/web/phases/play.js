// The play: the trick on the table (or the finished one, held for a moment after it is
// won). The hand below is hand.js; its keys play a card.

import { handKey } from "../hand.js";
import { escapeHtml, seatName, state } from "../store.js";
import { cardFace } from "../widgets.js";
import { t } from "../i18n.js";

/** The finished trick stays on screen while it is held, and until the next card is led. */
export function showsFinishedTrick(view) {
  if (!state.lastTrick) return false;
  return state.paused || (view.phase === "play" && !view.current_trick.length);
}

// the card last played slides to its place once: drawn again for the same card it stays
let arrived = "";
function arriving(view, card, from) {
  const newest = view.current_trick[view.current_trick.length - 1];
  const key = `${view.hand_number}:${view.tricks.length}:${card}`;
  if (card !== newest || key === arrived) return "";
  arrived = key;
  return ` arrive${from}`;
}

export function renderTrick(view, finished) {
  const me = view.seat === null ? 0 : view.seat;
  const places = {};
  let leader;
  let note;
  if (finished) {
    leader = finished.trick.leader;
    places[leader] = finished.trick.cards[0];
    places[1 - leader] = finished.trick.cards[1];
    note = `${t("{name} won trick {number}", { name: escapeHtml(seatName(finished.trick.winner)), number: finished.number })}${state.paused ? ` · ${t("tap, click or press Space to go on")}` : ""}`;
  } else {
    leader = view.leader ?? me;
    if (view.current_trick[0]) places[leader] = view.current_trick[0];
    if (view.current_trick[1]) places[1 - leader] = view.current_trick[1];
    const who = escapeHtml(seatName(leader));
    const lead = view.current_trick.length ? t("{name} led", { name: who }) : leader === view.seat ? t("your lead") : t("{name} to lead", { name: who });
    note = `${t("Trick {number}", { number: view.tricks.length + 1 })} · ${lead} · ${view.spades_broken ? t("spades broken") : t("spades not broken")}`;
  }
  const slot = (seat) => {
    if (!places[seat]) return `<span class="card slot" aria-label="${t("no card yet")}"></span>`;
    if (finished) return cardFace(places[seat], finished.trick.winner === seat ? " winner" : "");
    return cardFace(places[seat], arriving(view, places[seat], seat === me ? "" : " from-top"));
  };
  // held on screen, the finished trick is gathered toward its winner as the pause ends
  const gather = finished && state.paused ? ` gather-${state.settings.trickPauseMs} to-${finished.trick.winner === me ? "me" : "them"}` : "";
  return `<div class="trick${finished ? " finished" : ""}${gather}" id="trick" aria-label="${t("the trick")}"><div class="slot-row">${slot(1 - me)}</div><div class="slot-row">${slot(me)}</div></div><p class="small" aria-live="polite">${note}</p>`;
}

export function render(view) {
  if (showsFinishedTrick(view)) return renderTrick(view, state.lastTrick);
  return renderTrick(view, null);
}

export function key(event, turn) {
  return handKey(event, turn);
}
