// The table screen: the opponent's seat, the centre (drawn by the module of the phase the
// game is in), this seat's hand, the side panel (scores, buttons, log, chat); and the
// table's keys, which go first to the hand window, a held trick, a typed card, the game's
// end, the overlays, and then to the phase of this seat's turn.
//
//   renderTable();  tableKey(event);  click(target);  tick()

import { addBot, leaveTable, myTurnNow } from "../actions.js";
import { finishesTypedCard, handKey, renderHand } from "../hand.js";
import { closeOverlays, overlayKey } from "../overlays/modal.js";
import * as bidding from "../phases/bidding.js";
import * as blindNil from "../phases/blindnil.js";
import * as draft from "../phases/draft.js";
import * as exchange from "../phases/exchange.js";
import * as gameOver from "../phases/gameover.js";
import * as handResult from "../phases/handresult.js";
import * as play from "../phases/play.js";
import * as waiting from "../phases/waiting.js";
import { t } from "../i18n.js";
import { $, countdown, escapeHtml, state } from "../store.js";
import { endPause } from "../sync.js";
import { renderScores, renderSeat } from "../widgets.js";
import { renderChat } from "./chat.js";

// the view's phase -> the module that draws the centre (and takes the turn's keys)
const PHASES = {
  deal: waiting,
  blind_nil: blindNil,
  draft,
  exchange,
  bidding,
  play,
  hand_over: handResult,
  game_over: gameOver,
};

function renderCentre(view, turn) {
  if (play.showsFinishedTrick(view)) return play.renderTrick(view, state.lastTrick);
  const phase = PHASES[view.phase];
  return phase ? phase.render(view, turn) : "";
}

// the table's last drawing, as written to #table (null: something else is shown there)
let drawn = null;

export function renderTable() {
  const { table, view } = state;
  const root = $("#table");
  if (!table || !view) {
    drawn = null;
    root.innerHTML = `<p class="waiting">${t("Joining table {code}…", { code: escapeHtml(state.code || "") })}</p>`;
    return;
  }
  const me = view.seat;
  const viewerSeat = me === null ? 0 : me;
  const link = `${location.origin}/#t=${table.code}`;
  const turn = myTurnNow();
  Object.assign(root.dataset, {
    version: String(view.version),
    phase: view.phase,
    hand: String(view.hand_number),
    paused: state.paused ? "yes" : "no",
    myTurn: turn ? turn.phase : "",
  });
  const invite = table.private && table.status === "waiting" ? `<span class="invite">${t("Send this link to a friend:")} <input id="invite-link" readonly value="${escapeHtml(link)}" aria-label="${t("invitation link")}"> <button type="button" id="copy-link">${t("Copy")}</button></span>` : "";
  const canAddBot = table.status === "waiting" && me !== null && table.seats.some((s) => s.kind === "empty");
  const html = `
    <div class="topline">
      <span>${t("Table")} <strong class="code">${escapeHtml(table.code)}</strong> · ${escapeHtml(table.preset ? t(table.preset) : t("custom rules"))}${view.hand_number > 0 ? ` · ${t("hand {number}", { number: view.hand_number })}` : ""}${me === null ? ` · ${t("watching")}` : ""}</span>
      ${invite}
    </div>
    <div class="board">
      <section class="seat opponent" aria-label="${t("opponent")}">${renderSeat(1 - viewerSeat, view)}</section>
      <section class="phase" aria-label="${escapeHtml(view.phase.replace("_", " "))}">${renderCentre(view, turn)}</section>
      <section class="seat mine" aria-label="${me === null ? t("seat {seat}", { seat: 0 }) : t("your hand")}">${me === null ? renderSeat(viewerSeat, view) : renderHand(view, turn)}</section>
      <p class="notice" role="alert">${escapeHtml(state.notice)}</p>
    </div>
    <aside class="side">
      ${renderScores(view)}
      <div class="buttons">
        <button type="button" id="open-sheet">${t("Score sheet (s)")}</button>
        <button type="button" id="open-settings">${t("Settings (o)")}</button>
        <button type="button" id="open-help">${t("Keys (?)")}</button>
        ${canAddBot ? `<button type="button" id="add-bot">${t("Bring in the bot (b)")}</button>` : ""}
        <button type="button" id="leave">${me === null ? t("Stop watching") : t("Leave")}</button>
      </div>
      <h2>${t("Log")}</h2>
      <ol class="log" aria-live="polite">${renderLog()}</ol>
      ${renderChat()}
    </aside>`;
  // the same drawing again changes nothing: keep the elements (the reader's place, focus,
  // the countdowns tick() wrote, a card's motion not started over)
  if (html === drawn && root.querySelector(".board")) return;
  drawn = html;
  root.innerHTML = html;
  const log = root.querySelector(".log");
  if (log) log.scrollTop = log.scrollHeight; // the newest line in sight
}

// the last lines of the log, numbered from its first line
function renderLog() {
  const first = Math.max(0, state.log.length - 40);
  return state.log
    .slice(first)
    .map((line, i) => `<li${/^Hand \d/.test(line.text) ? ` class="hand-line"` : ""}><span class="n">${first + i + 1}</span><span>${escapeHtml(line.text)}</span></li>`)
    .join("");
}

/** A key on the table screen (not in a text field). */
export function tableKey(event) {
  const key = event.key;
  if (key === "Escape") return closeOverlays();
  if (handResult.windowKey(event)) return;
  if (state.paused && (key === " " || key === "Enter")) {
    event.preventDefault();
    return endPause();
  }
  const turn = myTurnNow();
  if (turn && (turn.phase === "play" || turn.phase === "exchange") && finishesTypedCard(key)) {
    // a suit letter after a rank finishes a typed card ("qs"), before any shortcut
    return handKey(event, turn);
  }
  if (gameOver.isOver()) return gameOver.key(event);
  if (overlayKey(event)) return;
  if (key === "m") {
    event.preventDefault();
    return $("#chat-input") && $("#chat-input").focus();
  }
  if (key === "b" && state.table && state.table.status === "waiting") return addBot();
  if (!turn) return;
  const phase = PHASES[turn.phase];
  if (phase && phase.key) phase.key(event, turn);
}

export function click(target) {
  switch (target.id) {
    case "add-bot":
      addBot();
      return true;
    case "leave":
      leaveTable();
      return true;
    case "copy-link":
      $("#invite-link").select();
      if (navigator.clipboard) navigator.clipboard.writeText($("#invite-link").value).catch(() => {});
      return true;
    default:
      return false;
  }
}

/** Countdowns only: the turn timer and a dropped seat's hold. */
export function tick() {
  const timer = document.querySelector("#turn-timer");
  if (timer) timer.textContent = String(countdown(state.timerEnds));
  for (const hold of document.querySelectorAll("[data-hold]")) {
    hold.textContent = String(countdown(state.holdEnds[Number(hold.dataset.hold)]));
  }
}
