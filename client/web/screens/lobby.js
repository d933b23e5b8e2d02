// The lobby: the open tables (join or watch), and a table code typed in. The create form
// below it is create.js.

import { refreshLobby } from "../actions.js";
import { t } from "../i18n.js";
import { $, escapeHtml, state } from "../store.js";
import * as playNow from "./playnow.js";

export function renderLobby() {
  playNow.renderPlayNow(); // play now comes first in the lobby
  const rows = state.tables.map((t) => {
    const seats = t.seats.map((s) => (s.kind === "empty" ? "<em>free</em>" : escapeHtml(s.name || s.kind))).join(" vs ");
    const free = t.seats.some((s) => s.kind === "empty");
    return `<li><span class="code">${escapeHtml(t.code)}</span> <span>${escapeHtml(t.preset || "custom")}</span> <span>${seats}</span> <span>${t.status}</span> <span>${t.spectators} watching</span>
      ${free ? `<button type="button" data-join="${escapeHtml(t.code)}">Join</button>` : ""}
      <button type="button" data-watch="${escapeHtml(t.code)}">Watch</button></li>`;
  });
  $("#lobby-notice").textContent = state.notice;
  $("#replay-title").textContent = t("Replay a game");
  $("#record-file-label").textContent = t("A record you saved (spades-….json)");
  $("#table-list").innerHTML = rows.length ? rows.join("") : "<li class=\"empty\">No open tables yet: create one.</li>";
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
