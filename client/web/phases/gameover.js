// The game's end: the winner in the centre and in a window, rematch (r), leave (l), and
// saving the game's record.

import { leaveTable, rematch } from "../actions.js";
import { t } from "../i18n.js";
import { askForReplay } from "../replay/open.js";
import { escapeHtml, mySeat, seatName, state } from "../store.js";

export function render(view) {
  const me = view.seat;
  const won = view.winner === null ? "" : `${escapeHtml(seatName(view.winner))} won, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}.`;
  return `<h2>Game over</h2><p>${won}</p>
        <div class="choices">${me !== null ? `<button type="button" id="rematch-table">Rematch (r)</button>` : ""}<button type="button" id="replay-game-table">${t("Replay and analysis (a)")}</button><button type="button" id="leave-table">Leave (l)</button></div>`;
}

export function renderWindow() {
  const over = state.gameOver;
  const me = mySeat();
  const title = over.winner === null ? "Game over" : over.winner === me ? "You won!" : `${escapeHtml(over.scores[over.winner].name || "")} won`;
  const asked = state.table ? state.table.rematch : [false, false];
  const lines = over.scores.map((line) => `<li>${escapeHtml(line.name || `seat ${line.seat}`)}: ${line.score} points, ${line.bags} bags${asked[line.seat] ? " · wants a rematch" : ""}</li>`);
  return `<div class="window" id="game-over" role="dialog" aria-modal="true" aria-labelledby="over-title"><h2 id="over-title">${title}</h2>
    <p>${over.reason === "forfeit" ? "By forfeit." : "On points."}</p>
    <ul>${lines.join("")}</ul>
    <div class="choices">${me !== null ? `<button type="button" id="rematch">Rematch (r)</button>` : ""}<button type="button" id="replay-game">${t("Replay and analysis (a)")}</button><button type="button" id="save-record">Save the record</button><button type="button" id="leave-over">Leave (l)</button></div></div>`;
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
