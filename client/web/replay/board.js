// The pieces of a replayed board, shared by the replay (screen.js) and the analysis's
// side-by-side view (analysis.js): a seat's row, the middle of the table, an action in words.
//
//   seatRow(step, seat, marks, hidden);   centre(step);   describe(step);   nameOf(seat)

import { short } from "../cards.js";
import { nt, t } from "../i18n.js";
import { escapeHtml, state } from "../store.js";
import { cardFace } from "../widgets.js";

export function nameOf(seat) {
  return state.replay.names[seat];
}

function cards(list, marks = {}) {
  if (!list.length) return `<span class="small">${t("no cards")}</span>`;
  return list.map((card) => cardFace(card, marks[card] ? ` ${marks[card]}` : "")).join("");
}

/** What the step's action did, in words. */
export function describe(step) {
  const name = step.seat === null ? "" : nameOf(step.seat);
  const [head, ...rest] = step.text.split(" ");
  switch (step.kind) {
    case "start":
      return t("Hand {n}: {name} drafts first.", { n: step.hand, name: nameOf(step.firstDrafter) });
    case "scored":
      return t("Hand {n} scored: {a} {sa}, {b} {sb}.", { n: step.hand, a: nameOf(0), sa: step.scores[0], b: nameOf(1), sb: step.scores[1] });
    case "blind_nil":
      return head === "blind-nil" ? t("{name} bids blind nil.", { name }) : t("{name} does not bid blind nil.", { name });
    case "draft":
      return head === "keep"
        ? t("{name} keeps {card}.", { name, card: short(step.took) })
        : t("{name} discards {card} and takes {next}.", { name, card: short(step.offered), next: short(step.took) });
    case "exchange":
      return t("{name} gives {given} and draws {received}.", {
        name,
        given: rest.map(short).join(" "),
        received: step.received.length ? step.received.map(short).join(" ") : "?",
      });
    case "bid":
      return rest[0] === "nil" ? t("{name} bids nil.", { name }) : t("{name} bids {n}.", { name, n: rest[0] });
    case "play": {
      const played = t("{name} plays {card}.", { name, card: short(rest[0]) });
      return step.won === null ? played : `${played} ${t("{name} wins the trick.", { name: nameOf(step.won) })}`;
    }
    default:
      return step.text;
  }
}

function bidWords(step, seat) {
  if (step.blind[seat]) return t("blind nil");
  const bid = step.bids[seat];
  if (bid === null) return "–";
  return bid === 0 ? t("nil") : String(bid);
}

/** One seat's row of the board: its name, bid, tricks and cards (face up: the game is over). */
export function seatRow(step, seat, marks = {}, hidden = false) {
  const held = step.hands[seat];
  const shown = hidden ? `<div class="backs" role="img" aria-label="${escapeHtml(nt("{n} card", "{n} cards", held.length, { n: held.length }))}">${held.map(() => `<span class="back" aria-hidden="true"></span>`).join("")}</div>` : `<div class="faces">${cards(held, marks)}</div>`;
  return `<div class="who"><strong>${escapeHtml(nameOf(seat))}</strong> <span class="small">${t("bid {bid} · won {won}", { bid: bidWords(step, seat), won: step.tricks[seat] })}</span></div>${shown}`;
}

/** The middle of the board: the trick, or the card on offer, or the hand's score. */
export function centre(step) {
  if (step.kind === "scored" && step.result) {
    const r = step.result;
    const line = (seat) => `<tr><th scope="row">${escapeHtml(nameOf(seat))}</th><td>${r.bids[seat] === null ? t("blind nil") : r.bids[seat]}</td><td>${r.tricks[seat]}</td><td>${r.points[seat]}</td><td>${r.scores[seat]}</td></tr>`;
    return `<table class="result"><thead><tr><th></th><th>${t("bid")}</th><th>${t("won")}</th><th>${t("points")}</th><th>${t("total")}</th></tr></thead><tbody>${line(0)}${line(1)}</tbody></table>`;
  }
  if (step.kind === "draft") return `<div class="trick">${cardFace(step.offered, " arrive from-stock")}<span class="small">${t("on offer from the stock ({n} left)", { n: step.stockLeft })}</span></div>`;
  if (!step.trick.length) return `<div class="trick"><span class="card slot" aria-hidden="true"></span></div>`;
  const faces = step.trick.map((played, i) => cardFace(played.card, `${step.won === played.seat ? " winner" : ""}${i === step.trick.length - 1 && step.kind === "play" ? " arrive" : ""}`));
  return `<div class="trick">${faces.join("")}</div>`;
}

