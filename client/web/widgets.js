// The pieces the screens share: a card (as a button or a face), a seat's panel, the
// score table, a bid in words. Each returns HTML text; none changes the state.

import { isRed, longName, rankText, suitSymbol } from "./cards.js";
import { formatNumber, nt, t } from "./i18n.js";
import { countdown, escapeHtml, seatName, state } from "./store.js";

export function cardButton(card, { legal = true, picked = false, selected = false, extra = "" } = {}) {
  const colour = isRed(card) ? "red" : "black";
  const classes = ["card", colour, `suit-${card.slice(-1)}`, legal ? "legal" : "illegal", picked ? "picked" : "", selected ? "selected" : ""]
    .filter(Boolean)
    .join(" ");
  const label = `${longName(card)}${legal ? "" : `, ${t("cannot be played now")}`}${picked ? `, ${t("picked")}` : ""}`;
  return `<button type="button" class="${classes}" data-card="${card}" aria-label="${label}"${legal ? "" : " disabled aria-disabled=\"true\""}${extra}><span class="rank">${escapeHtml(rankText(card))}</span><span class="suit" aria-hidden="true">${suitSymbol(card.slice(-1))}</span></button>`;
}

export function cardFace(card, extra = "") {
  const colour = isRed(card) ? "red" : "black";
  return `<span class="card face ${colour} suit-${card.slice(-1)}${extra}" data-card="${card}" role="img" aria-label="${longName(card)}"><span class="rank">${escapeHtml(rankText(card))}</span><span class="suit" aria-hidden="true">${suitSymbol(card.slice(-1))}</span></span>`;
}

/** A seat's bid in words: "blind nil", "nil", "4", or "–" before it bid. */
export function bidText(view, seat) {
  if (view.blind_nil[seat]) return t("blind nil");
  const b = view.bids[seat];
  if (b === null) return "–";
  return b === 0 ? t("nil") : String(b);
}

/** A seat seen from outside: its player, connection, cards face down, bid and tricks. */
export function renderSeat(seat, view) {
  const info = state.table.seats[seat];
  let status = "";
  if (info.kind === "empty") status = t("waiting for a player");
  else if (info.kind === "bot") status = t("bot, {level}", { level: t(info.bot_level || "") });
  else if (info.bot_standing_in) status = t("dropped: the bot plays for them");
  else if (!info.connected) {
    const left = countdown(state.holdEnds[seat]);
    status = left === null ? t("dropped") : t("dropped, seat held {seconds} s", { seconds: `<span class="hold" data-hold="${seat}">${left}</span>` });
  } else status = t("online");
  const count = view.hand_sizes[seat];
  const shown = Math.min(count, 13);
  // fanned by app.css: each back turned a little more than the one before
  const backs = Array.from({ length: shown }, () => `<span class="back" aria-hidden="true"></span>`).join("");
  const turnMark = view.current_player === seat ? `<span class="to-move">${t("to move")}</span>` : "";
  return `<div class="who"><strong>${escapeHtml(info.name || t("empty seat"))}</strong> <span class="state">${status}</span> ${turnMark}</div>
    <div class="backs" role="img" aria-label="${nt("{n} card", "{n} cards", count, { n: count })}">${backs}</div>
    <div class="small">${nt("{n} card", "{n} cards", count, { n: count })} · ${t("bid {bid}, won {won}", { bid: bidText(view, seat), won: view.tricks_won[seat] })}</div>`;
}

/** The side panel's scores, bags, bids and tricks, and whose turn it is. */
export function renderScores(view) {
  const rules = state.table.rules;
  const me = view.seat === null ? 0 : view.seat;
  const order = [me, 1 - me];
  const rows = order.map((seat) => `<tr><th scope="row">${escapeHtml(state.table.seats[seat].name || "–")}</th><td>${formatNumber(view.scores[seat])}</td><td>${view.bags[seat]}</td><td>${bidText(view, seat)}</td><td>${view.tricks_won[seat]}</td></tr>`);
  const timer = countdown(state.timerEnds);
  return `<table class="scores"><caption>${t("Target {target} · bag penalty {penalty} per {limit}", { target: formatNumber(rules.target_score), penalty: rules.bag_penalty, limit: rules.bag_limit })}</caption>
    <thead><tr><th></th><th>${t("score")}</th><th>${t("bags")}</th><th>${t("bid")}</th><th>${t("won")}</th></tr></thead><tbody>${rows.join("")}</tbody></table>
    <p class="turn">${view.current_player === null ? "" : view.current_player === view.seat ? t("Your turn") : t("{name} to move", { name: escapeHtml(seatName(view.current_player)) })}${timer === null ? "" : ` · ${t("{seconds} s left", { seconds: `<span id="turn-timer">${timer}</span>` })}`}</p>`;
}
