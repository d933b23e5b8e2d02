// The create-table form: a preset, then every rule field with its label, both from
// rules.json (generated from the engine by `python3 -m client.webrules`), the opponent,
// privacy, the seat hold and the turn clock. Only the fields that differ from the preset
// are sent, as overrides.
//
//   await loadRules();   // fetch rules.json, build the form, show it

import { ratedWanted } from "./account.js";
import { LANGUAGE_EVENT, t } from "../i18n.js";
import { $, escapeHtml, state } from "../store.js";

function control(field) {
  const id = `rule-${field.name}`;
  const label = escapeHtml(t(field.label)); // the labels are the terminal's, in the catalogue
  if (field.kind === "bool") return `<label><input type="checkbox" id="${id}" data-rule="${field.name}"> ${label}</label>`;
  if (field.kind === "choice") {
    const options = field.choices.map(([value, words]) => `<option value="${escapeHtml(value)}">${escapeHtml(t(words))}</option>`);
    return `<label>${label} <select id="${id}" data-rule="${field.name}">${options.join("")}</select></label>`;
  }
  const blank = field.kind === "optint" ? ` (${t("blank: {meaning}", { meaning: escapeHtml(t(field.blank)) })})` : "";
  return `<label>${label}${blank} <input type="number" id="${id}" data-rule="${field.name}" step="1"></label>`;
}

// a preset in the menu: its name and its few words in the language in use. rules.json's
// summary of a preset the client knows is the catalogue's msgid for it (client/rules.py
// PRESET_SUMMARIES, by preset code); another preset's summary shows as the file has it
const presetLabel = (name, rules) => `${t(name)} (${t(rules.summaries[name])})`;

function buildForm(rules) {
  $("#preset").innerHTML = Object.keys(rules.presets)
    .map((name) => `<option value="${escapeHtml(name)}">${escapeHtml(presetLabel(name, rules))}</option>`)
    .join("");
  $("#rule-fields").innerHTML = rules.fields.map(control).join("");
  fillPreset();
}

/** Put the chosen preset's values in every rule field. */
export function fillPreset() {
  const preset = state.rules.presets[$("#preset").value];
  for (const element of document.querySelectorAll("[data-rule]")) {
    const value = preset[element.dataset.rule];
    if (element.type === "checkbox") element.checked = value;
    else element.value = value === null ? "" : String(value);
  }
}

// the menu's language changed: the presets' words follow (the chosen preset stays chosen)
globalThis.document?.addEventListener(LANGUAGE_EVENT, () => {
  if (!state.rules) return;
  for (const option of $("#preset").options) option.textContent = presetLabel(option.value, state.rules);
});

/** Fetch rules.json, build the form and show it (it stays hidden until then). */
export async function loadRules() {
  const response = await fetch("/rules.json");
  state.rules = await response.json();
  buildForm(state.rules);
  $("#create-form").hidden = false;
}

export function createTable(event) {
  event.preventDefault();
  const presetName = $("#preset").value;
  const preset = state.rules.presets[presetName];
  const overrides = {};
  for (const element of document.querySelectorAll("[data-rule]")) {
    const field = element.dataset.rule;
    let value;
    if (element.type === "checkbox") value = element.checked;
    else if (element.tagName === "SELECT") value = element.value;
    else value = element.value.trim() === "" ? null : Number.parseInt(element.value, 10);
    if (value !== preset[field]) overrides[field] = value;
  }
  const bot = $("#bot-level").value;
  const message = {
    type: "create_table",
    preset: presetName,
    overrides,
    private: $("#private").checked,
    bot: bot || null,
    on_hold_expiry: $("#on-hold").value,
  };
  if (ratedWanted()) message.rated = true; // screens/account.js
  const turnSeconds = $("#turn-seconds").value.trim();
  if (turnSeconds) message.turn_seconds = Number.parseInt(turnSeconds, 10);
  state.conn.send(message);
}
