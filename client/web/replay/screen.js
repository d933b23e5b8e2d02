// The replay screen: a finished game's board after every action of every hand, stepped
// with buttons or keys (←/→ one action, PgUp/PgDn or ↑/↓ one hand, Home/End), and the
// analysis of either seat beside it (analysis.js). Opened after a game (its record is
// fetched), from a link (#r=RECORD_ID) or from a saved record file.
//
//   openReplay(record, { recordId, names });   renderReplay();   replayKey(event);
//   click(target);   onAnalysis(message);   onAnalysisError(error)

import { t } from "../i18n.js";
import { $, escapeHtml, render, state } from "../store.js";
import * as analysis from "./analysis.js";
import { centre, describe, seatRow } from "./board.js";
import { replaySteps } from "./model.js";

export const LEVELS = ["easy", "normal", "hard"];

/** Show the replay of `record` (a parsed spades-record/1); throws RecordError if it is not one. */
export function openReplay(record, { recordId = null, names = null } = {}) {
  const game = replaySteps(record);
  state.replay = {
    game,
    at: 0,
    recordId,
    names: names || [t("South"), t("North")],
    viewer: 0,
    analyses: [null, null],
    level: "easy",
    decision: null,
  };
  state.screen = "replay";
  if (recordId && location.hash !== `#r=${recordId}`) history.replaceState(null, "", `#r=${recordId}`);
}

/** Leave the replay: back to the table the game was played at, or the lobby. */
export function closeReplay() {
  state.replay = null;
  state.screen = state.code ? "table" : "lobby";
  history.replaceState(null, "", state.code ? `#t=${state.code}` : "#");
}

function handOf(step) {
  return state.replay.game.hands.find((hand) => hand.number === step.hand);
}

function board(step) {
  const viewer = state.replay.viewer;
  return `<div class="board replay-board">
      <section class="seat opponent">${seatRow(step, 1 - viewer)}</section>
      <section class="phase" aria-live="polite">${centre(step)}<p class="said">${escapeHtml(describe(step))}</p>${analysis.verdictLine(step)}</section>
      <section class="seat mine">${seatRow(step, viewer)}</section>
    </div>`;
}

export function renderReplay() {
  const root = $("#replay");
  const replay = state.replay;
  if (!replay) {
    root.innerHTML = `<p class="waiting">${escapeHtml(state.notice || t("Fetching the game's record…"))}</p>`;
    return;
  }
  const { game, at } = replay;
  const step = game.steps[at];
  const hand = handOf(step);
  const handIndex = game.hands.indexOf(hand);
  root.dataset.at = String(at);
  root.dataset.hand = String(step.hand);
  root.dataset.kind = step.kind;
  const link = replay.recordId ? `${location.origin}/#r=${replay.recordId}` : "";
  const hands = game.hands.map((h, i) => `<button type="button" data-replay-hand="${i}"${i === handIndex ? ` aria-current="step"` : ""}>${h.number}</button>`).join("");
  root.innerHTML = `
    <div class="topline"><h2>${t("Replay")}</h2>
      <span>${t("hand {n} of {count} · action {at} of {total}", { n: step.hand, count: game.hands.length, at: at + 1, total: game.steps.length })}</span>
      ${link ? `<span class="invite">${t("Link to this replay:")} <input id="replay-link" readonly value="${escapeHtml(link)}" aria-label="${escapeHtml(t("link to this replay"))}"></span>` : ""}
    </div>
    ${replay.decision ? analysis.renderDecision() : board(step)}
    <aside class="side">
      <div class="steps" role="group" aria-label="${escapeHtml(t("step through the game"))}">
        <button type="button" id="replay-prev-hand" aria-label="${escapeHtml(t("previous hand"))}">◀◀</button>
        <button type="button" id="replay-prev" aria-label="${escapeHtml(t("previous action"))}">◀</button>
        <button type="button" id="replay-next" aria-label="${escapeHtml(t("next action"))}">▶</button>
        <button type="button" id="replay-next-hand" aria-label="${escapeHtml(t("next hand"))}">▶▶</button>
      </div>
      <p class="small">${t("Keys: ←/→ one action, ↑/↓ one hand, Home/End, f turns the table, Esc leaves.")}</p>
      <div class="buttons"><span>${t("Hand:")}</span> ${hands}</div>
      <div class="buttons">
        <button type="button" id="replay-flip">${t("Turn the table (f)")}</button>
        <button type="button" id="replay-leave">${t("Leave the replay")}</button>
      </div>
      ${analysis.renderPanel()}
    </aside>`;
}

function go(at) {
  const replay = state.replay;
  replay.at = Math.max(0, Math.min(replay.game.steps.length - 1, at));
  replay.decision = null;
  render();
}

function goHand(delta) {
  const { game, at } = state.replay;
  const index = game.hands.indexOf(handOf(game.steps[at]));
  const target = game.hands[Math.max(0, Math.min(game.hands.length - 1, index + delta))];
  go(target.first);
}

/** Show decision `index` of `seat` (as the analysis numbers them) side by side. */
export function showDecision(seat, index) {
  const step = state.replay.game.decisions[seat][index];
  if (step === undefined) return;
  state.replay.at = step;
  state.replay.decision = { seat, index };
  render();
}

export function replayKey(event) {
  if (!state.replay) return;
  const { at } = state.replay;
  const keys = {
    ArrowRight: () => go(at + 1),
    ArrowLeft: () => go(at - 1),
    ArrowDown: () => goHand(1),
    PageDown: () => goHand(1),
    ArrowUp: () => goHand(-1),
    PageUp: () => goHand(-1),
    Home: () => go(0),
    End: () => go(state.replay.game.steps.length - 1),
    f: () => flip(),
    Escape: () => (state.replay.decision ? go(at) : closeReplay()),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  action();
  render();
}

function flip() {
  state.replay.viewer = 1 - state.replay.viewer;
  render();
}

export function click(target) {
  if (state.screen !== "replay" || !state.replay) return false;
  const { at } = state.replay;
  const d = target.dataset;
  if (d.replayHand !== undefined) go(state.replay.game.hands[Number(d.replayHand)].first);
  else if (d.decision) {
    const [seat, index] = d.decision.split(":").map(Number);
    showDecision(seat, index);
  } else if (target.id === "replay-next") go(at + 1);
  else if (target.id === "replay-prev") go(at - 1);
  else if (target.id === "replay-next-hand") goHand(1);
  else if (target.id === "replay-prev-hand") goHand(-1);
  else if (target.id === "replay-flip") flip();
  else if (target.id === "replay-back") go(at);
  else if (target.id === "replay-leave") {
    closeReplay();
    render();
  } else return analysis.click(target);
  return true;
}

export { onAnalysis, onAnalysisError } from "./analysis.js";
