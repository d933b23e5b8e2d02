// The web client's entry: it connects, routes input to the screen on show, and draws.
// The server is authoritative; this page shows what the server says, checks the shuffle
// itself, and sends what the player chose. Where things are:
//
//   store.js       the state, the render hook       sync.js      messages in, the trick pause
//   fold.js        events folded into the view      actions.js   what the seat sends
//   screens/       name, lobby, create, table, chat
//   phases/        waiting, blindnil, draft, exchange, bidding, play, handresult, gameover
//   overlays/      the window: sheet, settings, help (modal.js picks the one on show)
//   hand.js, widgets.js   this seat's hand; cards, seats, scores
//   replay/        a finished game stepped through, and the analysis of either seat

import { refreshLobby } from "./actions.js";
import { clickHand } from "./hand.js";
import { Connection, serverUrl } from "./net.js";
import * as overlays from "./overlays/modal.js";
import * as bidding from "./phases/bidding.js";
import * as blindNil from "./phases/blindnil.js";
import * as draft from "./phases/draft.js";
import * as exchange from "./phases/exchange.js";
import * as gameOver from "./phases/gameover.js";
import * as handResult from "./phases/handresult.js";
import { submitChat } from "./screens/chat.js";
import { createTable, fillPreset, loadRules } from "./screens/create.js";
import * as account from "./screens/account.js";
import * as lobby from "./screens/lobby.js";
import { onNameSubmit, renderName, showLanding } from "./screens/name.js";
import * as replay from "./replay/screen.js";
import { askForReplay, openRecordFile } from "./replay/open.js";
import * as table from "./screens/table.js";
import { unlock } from "./sound.js";
import { chooseLanguage, loadLanguage, t } from "./i18n.js";
import { translateStatic } from "./statictext.js";
import { $, NAME_KEY, setRenderer, state } from "./store.js";
import { deliver, endPause } from "./sync.js";

// each returns true when the clicked element was its own
const CLICKS = [replay.click, clickHand, draft.click, bidding.click, blindNil.click, exchange.click, handResult.click, gameOver.click, overlays.click, table.click, lobby.click, account.click];

function render() {
  document.body.dataset.screen = state.screen;
  document.documentElement.dataset.deck = state.settings.fourColour ? "four" : "two";
  const status = {
    open: t("online as {name}", { name: state.welcome ? state.welcome.name : "" }),
    reconnecting: t("reconnecting…"),
    connecting: t("connecting…"),
    replaced: t("playing in another tab or window"),
  }[state.connection];
  $("#status").textContent = state.conn ? status : ""; // no link before a name is given
  $("#status").dataset.state = state.connection;
  $("#reclaim").hidden = state.connection !== "replaced";
  $("#name-screen").hidden = state.screen !== "name";
  $("#lobby").hidden = state.screen !== "lobby";
  $("#table").hidden = state.screen !== "table";
  $("#replay").hidden = state.screen !== "replay";
  if (state.screen === "name") renderName();
  if (state.screen === "lobby") lobby.renderLobby();
  if (state.screen === "lobby") account.renderAccount();
  if (state.screen === "table") table.renderTable();
  if (state.screen === "replay") replay.renderReplay();
  overlays.renderModal();
}

function onClick(event) {
  unlock(); // the chime may sound once a person touched the page
  // while a finished trick is held on screen, a click or tap anywhere on the board lets it go
  if (state.paused && event.target.closest(".board")) return endPause();
  const target = event.target.closest("button, [data-card]");
  if (!target) return;
  if (target.id === "reclaim") return state.conn.reclaim();
  for (const handler of CLICKS) if (handler(target)) return;
}

function onKey(event) {
  unlock();
  if (event.target.closest && event.target.closest("input, select, textarea")) {
    if (event.key === "Escape") event.target.blur();
    return;
  }
  if (state.screen === "table") table.tableKey(event);
  if (state.screen === "replay") replay.replayKey(event);
}

function connect(name) {
  localStorage.setItem(NAME_KEY, name);
  state.conn = new Connection({
    url: serverUrl(),
    onMessage: deliver,
    onState: (connection) => {
      state.connection = connection;
      // without a live link nothing can be played here (another page may hold the seat)
      if (connection !== "open") state.turn = null;
      render();
    },
  });
  state.conn.start(name);
}

function readRecordLink() {
  const match = /^#r=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  return match ? match[1] : null;
}

function readLink() {
  const match = /^#t=([A-Za-z0-9-]{1,16})$/.exec(location.hash);
  return match ? match[1].toUpperCase() : null;
}

async function main() {
  await loadLanguage(chooseLanguage()); // the words before the first drawing (<html lang> too)
  translateStatic();
  setRenderer(render);
  state.linkCode = readLink();
  state.linkRecord = readRecordLink();
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  $("#name-form").addEventListener("submit", onNameSubmit(connect));
  $("#create-form").addEventListener("submit", createTable);
  $("#preset").addEventListener("change", fillPreset);
  document.addEventListener("submit", (event) => {
    if (event.target.id !== "chat-form") return;
    event.preventDefault();
    const input = $("#chat-input");
    submitChat(input.value.trim());
    input.value = "";
  });
  document.addEventListener("change", (event) => {
    if (event.target.id === "record-file") return openRecordFile(event.target);
    if (overlays.change(event.target)) render(); // a setting: the deck's colours at once
  });
  window.addEventListener("hashchange", () => {
    const recordId = readRecordLink();
    if (recordId && state.conn && !(state.replay && state.replay.recordId === recordId)) {
      askForReplay(recordId);
      return;
    }
    const code = readLink();
    if (code && code !== state.code && state.conn) {
      state.linkCode = code;
      state.conn.send({ type: "join_table", code });
    }
  });
  loadRules();
  setInterval(table.tick, 500);
  setInterval(() => {
    if (state.screen === "lobby" && state.connection === "open") refreshLobby();
  }, 5000);
  const name = localStorage.getItem(NAME_KEY);
  if (name) {
    state.screen = state.linkRecord ? "replay" : state.linkCode ? "table" : "lobby";
    if (state.linkCode) state.code = null;
    connect(name);
  }
  render();
  // installable on a phone: the worker keeps the page's own files (never game data)
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  if (!name && state.linkCode) showLanding(state.linkCode);
  else if (!name) $("#name-input").focus();
}

main();
