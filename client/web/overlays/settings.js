// The settings (o): Auto Play One, the pause after each trick, the four-colour deck and
// the "your turn" sound, kept in localStorage.

import { t } from "../i18n.js";
import { unlock } from "../sound.js";
import { saveSettings, state } from "../store.js";

export function render() {
  const s = state.settings;
  const pauses = [0, 800, 1500, 3000].map((ms) => `<option value="${ms}" ${ms === s.trickPauseMs ? "selected" : ""}>${ms ? `${ms / 1000} s` : "none"}</option>`);
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="settings-title"><h2 id="settings-title">Settings</h2>
    <label><input type="checkbox" id="set-auto" ${s.autoPlayOne ? "checked" : ""}> Auto Play One (play my only legal card by itself)</label>
    <label>Pause after each trick <select id="set-pause">${pauses.join("")}</select></label>
    <label><input type="checkbox" id="set-four" ${s.fourColour ? "checked" : ""}> ${t("Four-colour deck (clubs green, diamonds blue)")}</label>
    <label><input type="checkbox" id="set-sound" ${s.turnSound ? "checked" : ""}> ${t("A sound when it is your turn")}</label>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}

/** A change of one of the window's controls; false when the control is not its own. */
export function change(target) {
  if (target.id === "set-auto") state.settings.autoPlayOne = target.checked;
  else if (target.id === "set-pause") state.settings.trickPauseMs = Number(target.value);
  else if (target.id === "set-four") state.settings.fourColour = target.checked;
  else if (target.id === "set-sound") {
    state.settings.turnSound = target.checked;
    unlock(); // this change is a person's gesture: the page may make sound from now on
  }
  else return false;
  saveSettings();
  return true;
}
