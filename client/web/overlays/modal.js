// The one window over the page: the last hand's result first, then the game's end, then
// whichever of the score sheet, settings and keys was asked for (s, o, ?; Esc closes).
//
//   toggleOverlay("sheet"); closeOverlays(); renderModal();

import * as gameOver from "../phases/gameover.js";
import * as handResult from "../phases/handresult.js";
import { $, render, state } from "../store.js";
import * as help from "./help.js";
import * as settings from "./settings.js";
import * as sheet from "./sheet.js";

const OVERLAYS = { sheet, settings, help }; // in the order they win when several are open
const KEYS = { s: "sheet", o: "settings", "?": "help" };
const BUTTONS = { "open-sheet": "sheet", "open-settings": "settings", "open-help": "help" };

export function toggleOverlay(name) {
  state.open[name] = !state.open[name];
  render();
}

export function closeOverlays() {
  for (const name of Object.keys(state.open)) state.open[name] = false;
  render();
}

/** s, o and ? toggle their window; false for any other key. */
export function overlayKey(event) {
  const name = KEYS[event.key];
  if (!name) return false;
  toggleOverlay(name);
  return true;
}

export function click(target) {
  if (target.dataset.close !== undefined) {
    closeOverlays();
    return true;
  }
  const name = BUTTONS[target.id];
  if (!name) return false;
  state.open[name] = true;
  render();
  return true;
}

export function change(target) {
  return settings.change(target);
}

// the window's last drawing, as written to #modal
let drawnModal = "";

export function renderModal() {
  const modal = $("#modal");
  let html = "";
  if (state.screen === "replay") html = ""; // the game's windows stay with the game
  else if (state.handWindow) html = handResult.renderWindow();
  else if (state.gameOver) html = gameOver.renderWindow();
  else {
    const open = Object.keys(OVERLAYS).find((name) => state.open[name]);
    if (open) html = OVERLAYS[open].render();
  }
  modal.hidden = !html;
  // compared with what was written, not with innerHTML (the browser's own serialisation
  // differs from ours: the window would be drawn again although nothing changed)
  if (html === drawnModal) return;
  drawnModal = html;
  // a details panel the reader opened stays open when the window is drawn again
  const opened = [...modal.querySelectorAll("details[open]")].map((d) => d.className);
  modal.innerHTML = html;
  for (const details of modal.querySelectorAll("details")) if (opened.includes(details.className)) details.open = true;
}
