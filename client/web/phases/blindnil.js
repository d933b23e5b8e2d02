// The blind nil question before the draft: y declares, n declines.

import { sendBlind } from "../actions.js";
import { escapeHtml, seatName, state } from "../store.js";

export function render(view, turn) {
  if (turn && turn.phase === "blind_nil") {
    const canDeclare = turn.legal.some((a) => a.kind === "blind_nil" && a.declare);
    return `<h2>Blind nil?</h2><p>Declare blind nil before you see a card: ${state.table.rules.blind_nil_bonus} points if you take no trick, lose as many if you take one.</p>
          <div class="choices">${canDeclare ? `<button type="button" data-blind="yes">Declare blind nil (y)</button>` : ""}<button type="button" data-blind="no">No (n)</button></div>`;
  }
  return `<p>${escapeHtml(seatName(view.current_player))} considering blind nil…</p>`;
}

export function key(event) {
  if (event.key !== "y" && event.key !== "n") return false;
  sendBlind(event.key === "y");
  return true;
}

export function click(target) {
  if (!target.dataset.blind) return false;
  sendBlind(target.dataset.blind === "yes");
  return true;
}
