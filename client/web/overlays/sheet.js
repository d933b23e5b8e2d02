// The score sheet (s): every finished hand, both seats' bid, tricks, points and total.

import { escapeHtml, mySeat, state } from "../store.js";

export function render() {
  const view = state.view;
  const me = mySeat() === null ? 0 : mySeat();
  const rows = (view ? view.hand_results : []).map((r) => `<tr><td>${r.hand_number}</td>${[me, 1 - me].map((s) => `<td>${r.blind_nil[s] ? "BN" : r.bids[s] === 0 ? "nil" : r.bids[s]}</td><td>${r.tricks[s]}</td><td>${r.points[s]}</td><td>${r.scores[s]}</td>`).join("")}</tr>`);
  const name = (seat) => escapeHtml(state.table.seats[seat].name || "");
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="sheet-title"><h2 id="sheet-title">Score sheet</h2>
    <table class="sheet"><thead><tr><th rowspan="2">hand</th><th colspan="4">${name(me)}</th><th colspan="4">${name(1 - me)}</th></tr>
    <tr>${"<th>bid</th><th>won</th><th>pts</th><th>total</th>".repeat(2)}</tr></thead><tbody>${rows.join("") || "<tr><td colspan=\"9\">No hand finished yet.</td></tr>"}</tbody></table>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}
