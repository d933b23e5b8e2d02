// The end of a hand: its result window (bids, tricks, points, bags) with this page's own
// check of the shuffle (verify.js: the seed against the commitment heard at the hand's
// start, this seat's entropy, every card it saw, every card the other seat played, the
// exchange draws). Enter or the button closes it. The check's modules (verify.js,
// sha256.js) load at the first hand's end, not with the page.
//
//   onHandResult(message)   // a `hand_result` for the table on screen

import { addLog, commitmentKey, entropyKey, escapeHtml, mySeat, relayedKey, render as draw, state } from "../store.js";
import { formatNumber, t } from "../i18n.js";

// Enter within this long of the window opening is the key that ended the last trick's
// pause pressed twice, not a reading of the result (the terminal client has one too)
const KEY_GRACE_MS = 500; // as the terminal client (client/model/base.py RESULT_KEY_GRACE)

export async function onHandResult(result) {
  if (result.table !== state.code) return;
  const committed = sessionStorage.getItem(commitmentKey(state.code, result.hand_number));
  const seen = state.draftSeen[result.hand_number] || [];
  const sent = sessionStorage.getItem(entropyKey(state.code, result.hand_number));
  const relayedJson = sessionStorage.getItem(relayedKey(state.code, result.hand_number));
  const relayed = relayedJson ? JSON.parse(relayedJson) : null;
  const view = state.view; // this hand's, before the next hand_started folds in
  state.handWindow = { result, check: null, committed, sent, opened: performance.now() };
  setTimeout(draw, KEY_GRACE_MS + 50); // data-keys="on": the window takes Enter from now
  let check;
  try {
    // every check (verify.js): the seed, this seat's value, every card it saw, every card
    // the other seat played, the exchange draws; the verdict is computed there
    const { verdict } = await import("../verify.js");
    check = { ...verdict(result, { view, seen, committed, sent, relayed }), hashedBy: t("SHA-256 in this page") };
  } catch (error) {
    check = { ok: false, reason: t("could not check: {error}", { error }) };
  }
  // checked: a later game's hand of the same number must not find these
  sessionStorage.removeItem(commitmentKey(result.table, result.hand_number));
  sessionStorage.removeItem(entropyKey(result.table, result.hand_number));
  sessionStorage.removeItem(relayedKey(result.table, result.hand_number));
  addLog(t("Hand {number}: {verdict}", { number: result.hand_number, verdict: check.ok ? t("fair shuffle ✓") : t("shuffle NOT verified ✗") }));
  if (state.handWindow && state.handWindow.result === result) state.handWindow.check = check;
  draw();
}

export function render(view) {
  return `<p>${t("Hand {number} is over.", { number: view.hand_number })}</p>`;
}

export function renderWindow() {
  const { result, check } = state.handWindow;
  const me = mySeat() === null ? 0 : mySeat();
  const order = [me, 1 - me];
  const name = (seat) => escapeHtml(state.table.seats[seat].name || t("seat {seat}", { seat }));
  const bid = (seat) => (result.blind_nil[seat] ? t("blind nil") : result.bids[seat] === 0 ? t("nil") : result.bids[seat]);
  const row = (label, f) => `<tr><th scope="row">${label}</th>${order.map((s) => `<td>${f(s)}</td>`).join("")}</tr>`;
  const penalty = (s) => (result.bag_penalties[s] ? `−${result.bag_penalties[s] * state.table.rules.bag_penalty}` : "–");
  let verdict;
  if (check === null) verdict = `<p class="verify" data-verified="pending">${t("Checking the shuffle…")}</p>`;
  else if (check.ok) verdict = `<p class="verify ok" data-verified="yes">${t("Fair shuffle ✓")}</p>`;
  else verdict = `<p class="verify bad" data-verified="no">${t("Shuffle NOT verified ✗")} ${escapeHtml(check.reason)}</p>`;
  verdict += fairDetails(state.handWindow);
  const keys = performance.now() - state.handWindow.opened < KEY_GRACE_MS ? "wait" : "on";
  return `<div class="window" id="hand-window" data-keys="${keys}" role="dialog" aria-modal="true" aria-labelledby="hand-title"><h2 id="hand-title">${t("Hand {number}", { number: result.hand_number })}</h2>
    <table class="result"><thead><tr><th></th>${order.map((s) => `<th scope="col">${name(s)}</th>`).join("")}</tr></thead><tbody>
    ${row(t("bid"), bid)}${row(t("tricks"), (s) => result.tricks[s])}${row(t("points"), (s) => result.points[s])}${row(t("bags added"), (s) => result.bags_added[s])}${row(t("bag penalty"), penalty)}${row(t("total"), (s) => `<strong>${formatNumber(result.scores[s])}</strong>`)}${row(t("bags"), (s) => result.bags[s])}
    </tbody></table>${verdict}<div class="choices"><button type="button" id="close-hand" autofocus>${t("Continue (Enter)")}</button></div></div>`;
}

/** The seed, the commitment and the checks, folded away for those who want them. */
function fairDetails({ result, check, committed, sent }) {
  const item = (term, text) => `<dt>${term}</dt><dd>${escapeHtml(text)}</dd>`;
  const entropy = result.entropy.map((value, i) => item(t("entropy {n}", { n: i + 1 }), value || t("none"))).join("");
  const how = check && check.hashedBy ? item(t("hashed by"), check.hashedBy) : "";
  const checks = check ? item(t("checks"), check.reason) : "";
  return `<details class="fair"><summary>${t("How this page checked the shuffle")}</summary><dl>
    ${item(t("seed"), result.seed)}${item(t("commitment"), result.commitment)}${item(t("heard before the hand"), committed || t("not heard (joined mid-hand)"))}
    ${entropy}${item(t("your entropy"), sent || t("none sent"))}${how}${checks}</dl></details>`;
}

/** Enter closes the window while it is open (before any other key's meaning). */
export function windowKey(event) {
  if (!state.handWindow || event.key !== "Enter") return false;
  event.preventDefault();
  // the key's own time, not now: a busy page (the shuffle check) may handle the second
  // Enter late, and it must still count as the key pressed twice
  if (event.timeStamp - state.handWindow.opened < KEY_GRACE_MS) return true;
  state.handWindow = null;
  draw();
  return true;
}

export function click(target) {
  if (target.id !== "close-hand") return false;
  state.handWindow = null;
  draw();
  return true;
}
