// The settings (o): Auto Play One, the pause after each trick, the four-colour deck, the
// "your turn" sound and the language, kept in localStorage (the language under its own
// key, see i18n.js).

import { LANGUAGE_NAMES, LANGUAGES, language, loadLanguage, rememberLanguage, t } from "../i18n.js";
import { unlock } from "../sound.js";
import { translateStatic } from "../statictext.js";
import { render as draw, saveSettings, state } from "../store.js";

export function render() {
  const s = state.settings;
  const pauses = [0, 800, 1500, 3000].map((ms) => `<option value="${ms}" ${ms === s.trickPauseMs ? "selected" : ""}>${ms ? t("{seconds} s", { seconds: ms / 1000 }) : t("none")}</option>`);
  const languages = LANGUAGES.map((code) => `<option value="${code}" lang="${code}" ${code === language() ? "selected" : ""}>${LANGUAGE_NAMES[code]}</option>`);
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="settings-title"><h2 id="settings-title">${t("Settings")}</h2>
    <label><input type="checkbox" id="set-auto" ${s.autoPlayOne ? "checked" : ""}> ${t("Auto Play One (play my only legal card by itself)")}</label>
    <label>${t("Pause after each trick")} <select id="set-pause">${pauses.join("")}</select></label>
    <label><input type="checkbox" id="set-four" ${s.fourColour ? "checked" : ""}> ${t("Four-colour deck (clubs green, diamonds blue)")}</label>
    <label><input type="checkbox" id="set-sound" ${s.turnSound ? "checked" : ""}> ${t("A sound when it is your turn")}</label>
    <label>${t("Language")} <select id="set-lang">${languages.join("")}</select></label>
    <div class="choices"><button type="button" data-close>${t("Close (Esc)")}</button></div></div>`;
}

/** Use language `code` now and on later visits: the page's words, `<html lang>`, then draw. */
export async function chooseLanguage(code) {
  rememberLanguage(code);
  await loadLanguage(code);
  translateStatic();
  draw();
}

/** A change of one of the window's controls; false when the control is not its own. */
export function change(target) {
  if (target.id === "set-auto") state.settings.autoPlayOne = target.checked;
  else if (target.id === "set-pause") state.settings.trickPauseMs = Number(target.value);
  else if (target.id === "set-four") state.settings.fourColour = target.checked;
  else if (target.id === "set-sound") {
    state.settings.turnSound = target.checked;
    unlock(); // this change is a person's gesture: the page may make sound from now on
  } else if (target.id === "set-lang") {
    chooseLanguage(target.value);
    return true;
  } else return false;
  saveSettings();
  return true;
}
