// The play: the trick on the table (or the finished one, held for a moment after it is
// won). The hand below is hand.js; its keys play a card.

import { handKey } from "../hand.js";
import { escapeHtml, seatName, state } from "../store.js";
import { cardFace } from "../widgets.js";

/** The finished trick stays on screen while it is held, and until the next card is led. */
export function showsFinishedTrick(view) {
  if (!state.lastTrick) return false;
  return state.paused || (view.phase === "play" && !view.current_trick.length);
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
    note = `${escapeHtml(seatName(finished.trick.winner))} won trick ${finished.number}${state.paused ? " · tap, click or press Space to go on" : ""}`;
  } else {
    leader = view.leader ?? me;
    if (view.current_trick[0]) places[leader] = view.current_trick[0];
    if (view.current_trick[1]) places[1 - leader] = view.current_trick[1];
    const who = escapeHtml(seatName(leader));
    const lead = view.current_trick.length ? `${who} led` : leader === view.seat ? "your lead" : `${who} to lead`;
    note = `Trick ${view.tricks.length + 1} · ${lead} · spades ${view.spades_broken ? "broken" : "not broken"}`;
  }
  const slot = (seat) => (places[seat] ? cardFace(places[seat], finished && finished.trick.winner === seat ? " winner" : "") : `<span class="card slot" aria-label="no card yet"></span>`);
  return `<div class="trick${finished ? " finished" : ""}" id="trick" aria-label="the trick"><div class="slot-row">${slot(1 - me)}</div><div class="slot-row">${slot(me)}</div></div><p class="small" aria-live="polite">${note}</p>`;
}

export function render(view) {
  if (showsFinishedTrick(view)) return renderTrick(view, state.lastTrick);
  return renderTrick(view, null);
}

export function key(event, turn) {
  return handKey(event, turn);
}
