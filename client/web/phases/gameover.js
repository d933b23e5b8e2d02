// The game's end: the winner in the centre and in a window, rematch (r), leave (l), and
// saving the game's record.

import { leaveTable, rematch } from "../actions.js";
import { askForReplay } from "../replay/open.js";
import { escapeHtml, mySeat, seatName, state } from "../store.js";
import { formatNumber, t } from "../i18n.js";

export function render(view) {
  const me = view.seat;
  const won = view.winner === null ? "" : t("{name} won, {won} to {lost}.", { name: escapeHtml(seatName(view.winner)), won: formatNumber(view.scores[view.winner]), lost: formatNumber(view.scores[1 - view.winner]) });
  return `<h2>${t("Game over")}</h2><p>${won}</p>
        <div class="choices">${me !== null ? `<button type="button" id="rematch-table">${t("Rematch (r)")}</button>` : ""}<button type="button" id="replay-game-table">${t("Replay and analysis (a)")}</button><button type="button" id="leave-table">${t("Leave (l)")}</button></div>`;
}

export function renderWindow() {
  const over = state.gameOver;
  const me = mySeat();
  const title = over.winner === null ? t("Game over") : over.winner === me ? t("You won!") : t("{name} won", { name: escapeHtml(over.scores[over.winner].name || "") });
  const asked = state.table ? state.table.rematch : [false, false];
  const lines = over.scores.map((line) => `<li>${t("{name}: {score} points, {bags} bags", { name: escapeHtml(line.name || t("seat {seat}", { seat: line.seat })), score: formatNumber(line.score), bags: line.bags })}${asked[line.seat] ? ` · ${t("wants a rematch")}` : ""}</li>`);
  return `<div class="window" id="game-over" role="dialog" aria-modal="true" aria-labelledby="over-title"><h2 id="over-title">${title}</h2>
    <p>${over.reason === "forfeit" ? t("By forfeit.") : t("On points.")}</p>
    <ul>${lines.join("")}</ul>
    <div class="choices">${me !== null ? `<button type="button" id="rematch">${t("Rematch (r)")}</button>` : ""}<button type="button" id="replay-game">${t("Replay and analysis (a)")}</button><button type="button" id="save-record">${t("Save the record")}</button><button type="button" id="leave-over">${t("Leave (l)")}</button></div></div>`;
}

function recordIdOfGame() {
  return state.gameOver ? state.gameOver.record_id : state.table && state.table.record_id;
}

/** The game just over, stepped through on the replay screen with its players' names. */
function openGameReplay() {
  const recordId = recordIdOfGame();
  if (!recordId) return;
  const names = state.table ? state.table.seats.map((seat, i) => seat.name || (i === 0 ? t("South") : t("North"))) : null;
  askForReplay(recordId, names);
}

/** Whether the game on screen is over (the window, or the view's phase). */
export function isOver() {
  return Boolean(state.gameOver || (state.view && state.view.phase === "game_over"));
}

/** Once the game is over only a, r and l mean something; every other key is ignored. */
export function key(event) {
  if (event.key === "a") openGameReplay();
  else if (event.key === "r") rematch();
  else if (event.key === "l") leaveTable();
  return true;
}

export function click(target) {
  switch (target.id) {
    case "rematch":
    case "rematch-table":
      rematch();
      return true;
    case "leave-over":
    case "leave-table":
      leaveTable();
      return true;
    case "replay-game":
    case "replay-game-table":
      openGameReplay();
      return true;
    case "save-record": {
      const recordId = state.gameOver ? state.gameOver.record_id : state.table && state.table.record_id;
      if (recordId) state.conn.send({ type: "get_record", record_id: recordId });
      return true;
    }
    default:
      return false;
  }
}
