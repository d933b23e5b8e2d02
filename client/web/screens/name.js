// The first screen: the name shown at the table (then the page connects). A friend who
// opens an invitation link (#t=CODE) first sees who invites them and the table's rules in
// plain words, with the name asked right there and one button to sit down.
//
//   renderName(); onNameSubmit(connect)   // connect(name) opens the link
//   showLanding(code)                      // the invitation's words above the name form
//
// The protocol has no way to look at a table before `hello`: the landing says `hello` on a
// short-lived connection of its own as "guest" (no token is kept), watches the table once
// for its TableInfo, and closes. A request that answers a table's summary without a
// player (say `peek_table`) would spare the server that passing spectator.

import { formatNumber, t } from "../i18n.js";
import { serverUrl } from "../net.js";
import { $, escapeHtml, render, state } from "../store.js";

export function renderName() {
  $("#name-notice").textContent = state.notice;
}

/** The name form's submit handler; `connect(name)` starts the connection. */
export function onNameSubmit(connect) {
  return (event) => {
    event.preventDefault();
    const name = $("#name-input").value.trim();
    if (!name) return;
    state.screen = state.linkRecord ? "replay" : state.linkCode ? "table" : "lobby";
    state.notice = "";
    connect(name);
    render();
  };
}

/** The table's rules as a few plain sentences (an array of text). */
export function rulesInWords(rules) {
  const words = [t("First to {target} points wins.", { target: formatNumber(rules.target_score) })];
  if (rules.lose_score !== null) words.push(t("A player at {lose} points or below loses.", { lose: formatNumber(rules.lose_score) }));
  words.push(t("Each hand you draft your 13 cards from the stock, bid how many tricks you will take, then play; spades are trumps."));
  words.push(rules.nil ? t("You may bid nil (no tricks): {bonus} points if you make it, lose as many if not.", { bonus: rules.nil_bonus }) : t("No nil bids."));
  if (rules.blind_nil) words.push(t("Blind nil (before seeing a card) is worth {bonus} points.", { bonus: rules.blind_nil_bonus }));
  words.push(t("Every {limit} extra tricks (bags) cost {penalty} points.", { limit: rules.bag_limit, penalty: rules.bag_penalty }));
  return words;
}

/** Who sits at the table: "Alice invites you to play Spades", or the table's status. */
function invitation(table) {
  const host = table.seats.find((seat) => seat.kind === "human" || seat.name);
  const free = table.seats.some((seat) => seat.kind === "empty");
  const who = host && host.name ? escapeHtml(host.name) : t("A friend");
  const heading = free ? t("{name} invites you to play Spades", { name: who }) : t("{name}'s table is full: you can watch", { name: who });
  const rules = rulesInWords(table.rules).map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  const preset = table.preset ? t("{preset} rules", { preset: escapeHtml(t(table.preset)) }) : t("custom rules");
  return `<h2 id="landing-title">${heading}</h2>
    <p>${t("Table")} <strong class="code">${escapeHtml(table.code)}</strong> · ${preset}</p>
    <ul class="rules-words">${rules}</ul>`;
}

function paint(table, code) {
  const landing = $("#landing");
  landing.innerHTML = table ? invitation(table) : `<h2 id="landing-title">${t("You are invited to play Spades")}</h2><p>${t("Table")} <strong class="code">${escapeHtml(code)}</strong></p>`;
  landing.hidden = false;
  $("#name-title").textContent = t("Your name");
  $("#name-form button").textContent = table && !table.seats.some((seat) => seat.kind === "empty") ? t("Watch") : t("Sit down");
}

/** Show the invitation for table `code` above the name form (empty, focused). */
export function showLanding(code) {
  paint(null, code);
  $("#name-input").focus();
  let ws;
  try {
    ws = new WebSocket(serverUrl(), ["spades2.json"]);
  } catch {
    return;
  }
  const done = setTimeout(() => ws.close(), 8000);
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", protocol_version: 1, protocol_minor: 1, name: "guest" })));
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "welcome") ws.send(JSON.stringify({ type: "watch_table", code, id: 1 }));
    else if (message.type === "snapshot" || message.type === "error") {
      clearTimeout(done);
      ws.close();
      if (message.type === "snapshot" && state.screen === "name") paint(message.table, code);
    }
  });
}
