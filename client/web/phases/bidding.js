// Bidding: both seats' bids, and this seat's choice by button, or typed (0–13, n for nil,
// arrows, Backspace) and sent with Enter.

import { bid } from "../actions.js";
import { escapeHtml, render as draw, state } from "../store.js";
import { bidText } from "../widgets.js";
import { nt, t } from "../i18n.js";

export function render(view, turn) {
  const first = view.first_bidder ?? 0;
  const lines = [first, 1 - first].map((seat) => `<li>${escapeHtml(state.table.seats[seat].name || "")}: <strong>${view.bids[seat] !== null || view.blind_nil[seat] ? bidText(view, seat) : view.current_player === seat ? t("thinking…") : t("bids next")}</strong></li>`);
  let form = "";
  if (turn && turn.phase === "bidding") {
    const allowed = turn.legal.filter((a) => a.kind === "bid").map((a) => a.tricks);
    const spades = view.hand.filter((c) => c.endsWith("S")).length;
    const high = view.hand.filter((c) => /^[AK]/.test(c)).length;
    form = `<div class="bids" role="group" aria-label="${t("your bid")}">${allowed.map((n) => `<button type="button" data-bid="${n}" class="${String(n) === state.bidEntry ? "selected" : ""}">${n === 0 ? t("Nil") : n}</button>`).join("")}</div>
          <p class="hint">${t("You hold {spades} and {high}. Type 0–13 (n = nil) and Enter, or click.", { spades: nt("{n} spade", "{n} spades", spades, { n: spades }), high: nt("{n} ace or king", "{n} aces or kings", high, { n: high }) })}</p>`;
  }
  return `<h2>${t("Bidding")}</h2><ul class="bidlist">${lines.join("")}</ul>${form}`;
}

export function key(event) {
  const key = event.key;
  if (/^[0-9]$/.test(key)) {
    const next = state.bidEntry + key;
    state.bidEntry = Number(next) <= 13 ? String(Number(next)) : key;
  } else if (key === "n") state.bidEntry = "0";
  else if (key === "Backspace") state.bidEntry = state.bidEntry.slice(0, -1);
  else if (key === "ArrowUp") state.bidEntry = String(Math.min(13, Number(state.bidEntry || 0) + 1));
  else if (key === "ArrowDown") state.bidEntry = String(Math.max(0, Number(state.bidEntry || 0) - 1));
  else if (key === "Enter" && state.bidEntry !== "") {
    event.preventDefault();
    bid(Number(state.bidEntry));
    return true;
  } else return false;
  event.preventDefault();
  draw();
  return true;
}

export function click(target) {
  if (target.dataset.bid === undefined) return false;
  bid(Number(target.dataset.bid));
  return true;
}
