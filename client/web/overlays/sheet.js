// The score sheet (s): every finished hand, both seats' bid, tricks, points and total.

import { formatNumber, t } from "../i18n.js";
import { escapeHtml, mySeat, state } from "../store.js";

export function render() {
  const view = state.view;
  const me = mySeat() === null ? 0 : mySeat();
  const rows = (view ? view.hand_results : []).map((r) => `<tr><td>${r.hand_number}</td>${[me, 1 - me].map((s) => `<td>${r.blind_nil[s] ? t("BN") : r.bids[s] === 0 ? t("nil") : r.bids[s]}</td><td>${r.tricks[s]}</td><td>${formatNumber(r.points[s])}</td><td>${formatNumber(r.scores[s])}</td>`).join("")}</tr>`);
  const name = (seat) => escapeHtml(state.table.seats[seat].name || "");
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="sheet-title"><h2 id="sheet-title">${t("Score sheet")}</h2>
    <table class="sheet"><thead><tr><th rowspan="2">${t("hand")}</th><th colspan="4">${name(me)}</th><th colspan="4">${name(1 - me)}</th></tr>
    <tr>${`<th>${t("bid")}</th><th>${t("won")}</th><th>${t("pts")}</th><th>${t("total")}</th>`.repeat(2)}</tr></thead><tbody>${rows.join("") || `<tr><td colspan="9">${t("No hand finished yet.")}</td></tr>`}</tbody></table>
    <div class="choices"><button type="button" data-close>${t("Close (Esc)")}</button></div></div>`;
}
