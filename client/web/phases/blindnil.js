// The blind nil question before the draft: y declares, n declines.

import { sendBlind } from "../actions.js";
import { escapeHtml, seatName, state } from "../store.js";
import { t } from "../i18n.js";

export function render(view, turn) {
  if (turn && turn.phase === "blind_nil") {
    const canDeclare = turn.legal.some((a) => a.kind === "blind_nil" && a.declare);
    return `<h2>${t("Blind nil?")}</h2><p>${t("Declare blind nil before you see a card: {bonus} points if you take no trick, lose as many if you take one.", { bonus: state.table.rules.blind_nil_bonus })}</p>
          <div class="choices">${canDeclare ? `<button type="button" data-blind="yes">${t("Declare blind nil (y)")}</button>` : ""}<button type="button" data-blind="no">${t("No (n)")}</button></div>`;
  }
  return `<p>${t("{name} considering blind nil…", { name: escapeHtml(seatName(view.current_player)) })}</p>`;
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
