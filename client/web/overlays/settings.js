// The settings (o): Auto Play One and the pause after each trick, kept in localStorage.

import { saveSettings, state } from "../store.js";

export function render() {
  const s = state.settings;
  const pauses = [0, 800, 1500, 3000].map((ms) => `<option value="${ms}" ${ms === s.trickPauseMs ? "selected" : ""}>${ms ? `${ms / 1000} s` : "none"}</option>`);
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="settings-title"><h2 id="settings-title">Settings</h2>
    <label><input type="checkbox" id="set-auto" ${s.autoPlayOne ? "checked" : ""}> Auto Play One (play my only legal card by itself)</label>
    <label>Pause after each trick <select id="set-pause">${pauses.join("")}</select></label>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}

/** A change of one of the window's controls; false when the control is not its own. */
export function change(target) {
  if (target.id === "set-auto") state.settings.autoPlayOne = target.checked;
  else if (target.id === "set-pause") state.settings.trickPauseMs = Number(target.value);
  else return false;
  saveSettings();
  return true;
}
