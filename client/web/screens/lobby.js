// The lobby: the open tables (join or watch), and a table code typed in. The create form
// below it is create.js.

import { refreshLobby } from "../actions.js";
import { t } from "../i18n.js";
import { $, escapeHtml, state } from "../store.js";
import * as playNow from "./playnow.js";

export function renderLobby() {
  playNow.renderPlayNow(); // play now comes first in the lobby
  const rows = state.tables.map((table) => {
    const seats = table.seats.map((s) => (s.kind === "empty" ? `<em>${t("free")}</em>` : escapeHtml(s.name || t(s.kind)))).join(` ${t("vs")} `);
    const free = table.seats.some((s) => s.kind === "empty");
    return `<li><span class="code">${escapeHtml(table.code)}</span> <span>${escapeHtml(table.preset ? t(table.preset) : t("custom"))}</span> <span>${seats}</span> <span>${t(table.status)}</span> <span>${t("{n} watching", { n: table.spectators })}</span>
      ${free ? `<button type="button" data-join="${escapeHtml(table.code)}">${t("Join")}</button>` : ""}
      <button type="button" data-watch="${escapeHtml(table.code)}">${t("Watch")}</button></li>`;
  });
  $("#lobby-notice").textContent = state.notice;
  $("#replay-title").textContent = t("Replay a game");
  $("#record-file-label").textContent = t("A record you saved (spades-….json)");
  $("#table-list").innerHTML = rows.length ? rows.join("") : `<li class="empty">${t("No open tables yet: create one.")}</li>`;
}

function typedCode() {
  return $("#code-input").value.trim().toUpperCase();
}

export function click(target) {
  const d = target.dataset;
  if (playNow.click(target)) return true;
  if (d.join) state.conn.send({ type: "join_table", code: d.join });
  else if (d.watch) state.conn.send({ type: "watch_table", code: d.watch });
  else if (target.id === "refresh") refreshLobby();
  else if (target.id === "join-code" || target.id === "watch-code") {
    const code = typedCode();
    const type = target.id === "join-code" ? "join_table" : "watch_table";
    if (code) state.conn.send({ type, code });
  } else return false;
  return true;
}
