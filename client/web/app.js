// The web client: lobby and table screens over the JSON subprotocol. The server is
// authoritative; this page shows what the server says, checks the shuffle itself, and
// sends what the player chose.

import {
  isRed,
  longName,
  parseTyped,
  short,
  sortForDisplay,
  suitName,
  suitSymbol,
  DISPLAY_SUITS,
} from "./cards.js";
import { Connection, serverUrl } from "./net.js";
import { checkHand } from "./shuffle.js";
import { hasWebCrypto } from "./sha256.js";

const NAME_KEY = "spades2.name";
const SETTINGS_KEY = "spades2.settings";

// The presets of RULES.md, so the create form can show every option with its default.
const PRESETS = {
  classic: {
    target_score: 300, first_bidder: "first_drafter", see_card_after_keep: true, nil: true,
    nil_bonus: 100, blind_nil: false, blind_nil_bonus: 200, blind_nil_exchange: 3,
    blind_nil_min_deficit: null, bag_limit: 10, bag_penalty: 100,
    failed_nil_tricks_are_bags: false, lose_score: null,
  },
  "five-hundred": {
    target_score: 500, first_bidder: "second_drafter", see_card_after_keep: false, nil: true,
    nil_bonus: 100, blind_nil: true, blind_nil_bonus: 200, blind_nil_exchange: 3,
    blind_nil_min_deficit: null, bag_limit: 10, bag_penalty: 100,
    failed_nil_tricks_are_bags: false, lose_score: null,
  },
};

// Every rule field with a label a person understands: [field, label, kind].
const RULE_FIELDS = [
  ["target_score", "Points to win", "int"],
  ["first_bidder", "Who bids first and leads", "bidder"],
  ["see_card_after_keep", "See the card that goes to the pile after a keep", "bool"],
  ["nil", "Nil bids allowed", "bool"],
  ["nil_bonus", "Nil bonus", "int"],
  ["blind_nil", "Blind nil allowed", "bool"],
  ["blind_nil_bonus", "Blind nil bonus", "int"],
  ["blind_nil_exchange", "Cards exchanged after a blind nil", "int"],
  ["blind_nil_min_deficit", "Blind nil only when behind by at least (blank: always)", "optint"],
  ["bag_limit", "Bags before a penalty", "int"],
  ["bag_penalty", "Bag penalty", "int"],
  ["failed_nil_tricks_are_bags", "A failed nil's tricks count as bags", "bool"],
  ["lose_score", "Lose at or below (blank: never)", "optint"],
];

const $ = (selector) => document.querySelector(selector);

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loadSettings() {
  const defaults = { autoPlayOne: true, trickPauseMs: 1500, confirmPlay: false };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return defaults;
  }
}

// ---- state ---------------------------------------------------------------------------

const state = {
  conn: null,
  connection: "connecting",
  welcome: null,
  screen: "name", // name | lobby | table
  tables: [],
  code: null, // the table on screen
  table: null, // TableInfo
  view: null, // View
  turn: null, // the latest your_turn for this table
  lastTrick: null, // {trick, number} shown during the pause after a trick
  log: [],
  chat: [],
  chatMuted: false, // "/mute" typed in chat: the others' lines are no longer shown
  chatHidden: 0,
  handWindow: null, // {result, check}
  gameOver: null,
  sheetOpen: false,
  settingsOpen: false,
  helpOpen: false,
  selected: null, // the keyboard's chosen card
  answered: -1, // the version of the last turn this page answered
  bidEntry: "",
  exchangePicks: new Set(),
  notice: "",
  settings: loadSettings(),
  linkCode: null, // #t=CODE of the page's address
  snapshotWanted: false,
  snapshotInFlight: null,
  draftSeen: {}, // hand number -> [{card, position}] from this seat's own draft events
  myDraftTurns: {}, // hand number -> turns this seat took, as seen in events
  timerEnds: null, // wall-clock ms when the turn timer runs out (display only)
  holdEnds: [null, null],
};

function commitmentKey(code, hand) {
  return `spades2.commitment.${code}.${hand}`;
}

function entropyKey(code, hand) {
  return `spades2.entropy.${code}.${hand}`;
}

/**
 * Send this seat's entropy for a hand (kept for the check at the hand's end): always on
 * hand_started, and from a snapshot (after a reload) only if none was sent yet.
 */
function sendEntropy(hand, always) {
  if (mySeat() === null || !state.code) return;
  const key = entropyKey(state.code, hand);
  if (!always && sessionStorage.getItem(key)) return;
  sessionStorage.setItem(key, state.conn.sendEntropy(state.code, hand));
}

/** Forget a table's commitments and entropy (when leaving it). */
function forgetGame(code) {
  for (const key of Object.keys(sessionStorage)) {
    if (key.startsWith(`spades2.commitment.${code}.`) || key.startsWith(`spades2.entropy.${code}.`)) {
      sessionStorage.removeItem(key);
    }
  }
}

// ---- messages in: a queue that the pause after a trick holds ---------------------------

const inbox = [];
let paused = false;
let pauseTimer = null;

// The last messages' type, version and id (never their content), for bug reports.
const trace = [];
globalThis.spadesTrace = trace;

function deliver(message) {
  const version = message.version ?? (message.view ? message.view.version : "");
  trace.push(`${message.type}:${version}:${message.id ?? ""}${message.your_turn ? ":turn" : ""}`);
  if (trace.length > 40) trace.shift();
  inbox.push(message);
  drain();
}

function drain() {
  while (inbox.length && !paused) handle(inbox.shift());
  render();
}

function pauseOnTrick(trick, number) {
  state.lastTrick = { trick, number };
  if (state.settings.trickPauseMs <= 0) return;
  paused = true;
  pauseTimer = setTimeout(endPause, state.settings.trickPauseMs);
}

function endPause() {
  if (!paused) return;
  paused = false;
  clearTimeout(pauseTimer);
  drain();
}

// our own line's echo, or the server's ("server" is a reserved name: nobody forges it)
function chatFromMeOrServer(message) {
  if (message.seat === null) {
    return message.name === "server" || (state.welcome !== null && message.name === state.welcome.name);
  }
  return message.seat === mySeat();
}

// "/mute" and "/unmute" are this page's own business: nothing is sent
function chatCommand(text) {
  const command = text.toLowerCase();
  if (command !== "/mute" && command !== "/unmute") return false;
  state.chatMuted = command === "/mute";
  if (state.chatMuted) addLog("Chat from the others is hidden here; /unmute in chat shows it again.");
  else addLog(`Chat shown again (${state.chatHidden} lines were hidden).`);
  if (!state.chatMuted) state.chatHidden = 0;
  render();
  return true;
}

function mySeat() {
  return state.table ? state.table.your_seat : null;
}

function seatName(seat) {
  if (!state.table) return `seat ${seat}`;
  const info = state.table.seats[seat];
  if (seat === mySeat()) return "you";
  return info.name || "empty seat";
}

function addLog(text) {
  state.log.push(text);
  if (state.log.length > 60) state.log.shift();
}

function requestSnapshot() {
  if (!state.code) return;
  if (state.snapshotInFlight !== null) {
    state.snapshotWanted = true;
    return;
  }
  state.snapshotWanted = false;
  const type = mySeat() === null ? "watch_table" : "join_table";
  state.snapshotInFlight = state.conn.send({ type, code: state.code });
}

function handle(message) {
  switch (message.type) {
    case "welcome":
      return onWelcome(message);
    case "table_list":
      state.tables = message.tables;
      return;
    case "snapshot":
      return onSnapshot(message);
    case "table_update":
      if (message.table.code === state.code) setTable(message.table);
      return;
    case "events":
      return onEvents(message);
    case "your_turn":
      return onYourTurn(message);
    case "hand_result":
      return onHandResult(message);
    case "game_over":
      if (message.table === state.code) {
        state.gameOver = message;
        state.turn = null;
        state.timerEnds = null;
        requestSnapshot();
      }
      return;
    case "chat":
      if (state.chatMuted && !chatFromMeOrServer(message)) {
        state.chatHidden += 1;
        return;
      }
      if (message.table === state.code) {
        state.chat.push(message);
        if (state.chat.length > 50) state.chat.shift();
      }
      return;
    case "left":
      forgetGame(message.table);
      if (message.table === state.code) leaveScreen();
      return;
    case "record":
      return saveRecord(message);
    case "entropy_accepted":
      return;
    case "error":
      return onError(message);
    default:
      return;
  }
}

function onWelcome(welcome) {
  state.welcome = welcome;
  // a request in flight when the link dropped will never be answered
  state.snapshotInFlight = null;
  state.turn = null;
  const link = state.linkCode;
  if (state.code && (welcome.tables.includes(state.code) || state.screen === "table")) {
    // resumed: the snapshot follows for a seat; a spectator watches again
    if (!welcome.tables.includes(state.code)) requestSnapshot();
    state.conn.resendUnacknowledged();
    return;
  }
  if (link) {
    state.code = link;
    if (!welcome.tables.includes(link)) state.conn.send({ type: "join_table", code: link });
    state.screen = "table";
    return;
  }
  if (welcome.tables.length) {
    state.code = welcome.tables[0];
    state.screen = "table";
    return;
  }
  state.screen = "lobby";
  refreshLobby();
}

function setTable(table) {
  state.table = table;
  if (table.status !== "finished") state.gameOver = null; // a rematch began
  state.holdEnds = table.seats.map((seat) =>
    seat.hold_seconds_left === null ? null : Date.now() + seat.hold_seconds_left * 1000,
  );
}

function onSnapshot(snapshot) {
  if (snapshot.id === state.snapshotInFlight) state.snapshotInFlight = null;
  const code = snapshot.table.code;
  if (state.code && state.code !== code && (snapshot.id ?? null) === null) {
    // a resume sends a snapshot of every table this player sits at: this page shows one
    return;
  }
  if (state.code !== code) {
    // a new table on screen
    state.code = code;
    state.log = [];
    state.chat = [];
    state.gameOver = null;
    state.handWindow = null;
    state.lastTrick = null;
    state.turn = null;
  }
  state.screen = "table";
  if (location.hash !== `#t=${code}`) history.replaceState(null, "", `#t=${code}`);
  setTable(snapshot.table);
  const previous = state.view;
  state.view = snapshot.view;
  if (previous && previous.hand_number !== snapshot.view.hand_number) {
    state.exchangePicks.clear();
  }
  if (snapshot.view.commitment) rememberCommitment(code, snapshot.view.hand_number, snapshot.view.commitment);
  if (state.turn && state.turn.version !== snapshot.view.version) state.turn = null;
  if (snapshot.view.version < state.answered) state.answered = -1; // a new game (rematch)
  const view = snapshot.view;
  if (view.phase === "deal" && view.commitment && view.hand_number > 0) {
    // a snapshot between the commitment and the shuffle (after a reload): the server
    // still takes this seat's entropy
    sendEntropy(view.hand_number, false);
  }
  if (snapshot.your_turn) onYourTurn(snapshot.your_turn); // 1.1: the snapshot says it
  if (state.snapshotWanted) requestSnapshot();
}

function rememberCommitment(code, hand, commitment) {
  // from a snapshot (a page that joined mid-hand): only when hand_started was not heard
  const key = commitmentKey(code, hand);
  if (!sessionStorage.getItem(key)) sessionStorage.setItem(key, commitment);
}

function onEvents(message) {
  if (message.table !== state.code) return;
  const me = mySeat();
  let trickDone = null;
  for (const event of message.events) {
    switch (event.kind) {
      case "hand_started":
        // a new hand: nothing of the last one (log, trick, notices) stays on screen
        state.log = [];
        state.lastTrick = null;
        state.notice = "";
        // the commitment heard as the hand starts is the one the seed must match
        sessionStorage.setItem(commitmentKey(state.code, event.hand_number), event.commitment);
        state.draftSeen[event.hand_number] = [];
        state.myDraftTurns[event.hand_number] = 0;
        addLog(`Hand ${event.hand_number}: ${seatName(event.first_drafter)} draft${event.first_drafter === me ? "" : "s"} first.`);
        sendEntropy(event.hand_number, true);
        break;
      case "shuffled":
        addLog(me !== null && event.entropy_from[me] ? "Shuffled, with your entropy." : "Shuffled.");
        break;
      case "blind_nil":
        addLog(`${seatName(event.seat)} ${event.declared ? "declared blind nil" : "declined blind nil"}.`);
        break;
      case "draft_turn":
        if (event.seat === me && event.card) noteMyDraft(event);
        break;
      case "exchange":
        addLog(`${seatName(event.seat)} exchanged ${event.count} card${event.count === 1 ? "" : "s"}.`);
        break;
      case "bid":
        addLog(`${seatName(event.seat)} bid ${event.tricks === 0 ? "nil" : event.tricks}.`);
        break;
      case "card_played":
        addLog(`${seatName(event.seat)} played ${short(event.card)}.`);
        break;
      case "trick_won":
        addLog(`${seatName(event.trick.winner)} won trick ${event.number}.`);
        trickDone = event;
        break;
      case "hand_scored":
        addLog(`Hand ${event.hand_number} scored: ${event.points[0]} / ${event.points[1]}.`);
        break;
      case "game_over":
        addLog(`Game over: ${seatName(event.winner)} won.`);
        break;
      default:
        break;
    }
  }
  if (!state.view || message.version > state.view.version) requestSnapshot();
  if (trickDone) pauseOnTrick(trickDone.trick, trickDone.number);
}

function noteMyDraft(event) {
  const view = state.view;
  const hand = view ? view.hand_number : 0;
  const me = mySeat();
  if (!(hand in state.myDraftTurns) || !view || view.first_drafter === null) return;
  // this seat's k-th turn is the overall turn 2k (first drafter) or 2k+1; each turn uses
  // two stock cards, the offered one first
  const k = state.myDraftTurns[hand]++;
  const overall = 2 * k + (view.first_drafter === me ? 0 : 1);
  state.draftSeen[hand].push({ card: event.card, position: 2 * overall });
  if (event.other_card) state.draftSeen[hand].push({ card: event.other_card, position: 2 * overall + 1 });
}

function onYourTurn(turn) {
  if (turn.table !== state.code) return;
  // 1.1 asks twice (your_turn, and the snapshot that follows carries it): answer once
  if (turn.version <= state.answered) return;
  state.turn = turn;
  state.timerEnds = turn.seconds_left === null ? null : Date.now() + turn.seconds_left * 1000;
  if (turn.phase === "bidding") state.bidEntry = "";
  if (turn.phase === "exchange") state.exchangePicks.clear();
  const plays = turn.legal.filter((action) => action.kind === "play");
  if (turn.phase === "play" && plays.length === 1 && state.settings.autoPlayOne) {
    send(plays[0]);
    state.notice = `Auto Play One: ${short(plays[0].card)} was your only legal card.`;
  }
  if (!state.view || state.view.version < turn.version) requestSnapshot();
}

async function onHandResult(result) {
  if (result.table !== state.code) return;
  const committed = sessionStorage.getItem(commitmentKey(state.code, result.hand_number));
  const seen = state.draftSeen[result.hand_number] || [];
  const sent = sessionStorage.getItem(entropyKey(state.code, result.hand_number));
  state.handWindow = { result, check: null };
  let check;
  try {
    check = await checkHand(result, committed, seen);
    const me = mySeat();
    if (check.ok && sent && me !== null) {
      check =
        result.entropy[me] === sent
          ? { ok: true, reason: `${check.reason}; your entropy is in it` }
          : { ok: false, reason: "the shuffle did not use the entropy this seat sent" };
    }
  } catch (error) {
    check = { ok: false, reason: `could not check: ${error}` };
  }
  // checked: a later game's hand of the same number must not find these
  sessionStorage.removeItem(commitmentKey(result.table, result.hand_number));
  sessionStorage.removeItem(entropyKey(result.table, result.hand_number));
  if (state.handWindow && state.handWindow.result === result) {
    state.handWindow.check = check;
    render();
  }
}

// Every error code the server sent this page, in order (for tests and bug reports).
const errorCodes = [];
globalThis.spadesErrors = errorCodes;

function onError(error) {
  errorCodes.push(`${error.request}:${error.code}`);
  if (error.id !== null && error.id === state.snapshotInFlight) state.snapshotInFlight = null;
  if (error.request === "hello" && error.code === "bad_name") {
    // the server refused the name: ask for another one
    state.conn.stop();
    localStorage.removeItem(NAME_KEY);
    state.screen = "name";
    state.notice = error.message;
    return;
  }
  if (error.code === "banned") {
    // the host banned this name or address: coming back would only be refused again
    state.conn.stop();
    state.screen = "name";
    state.notice = error.message;
    return;
  }
  if (error.request === "join_table" && error.code === "table_full" && state.code) {
    // the link's table has two players already: watch it instead
    state.conn.send({ type: "watch_table", code: state.code });
    return;
  }
  if (error.request === "join_table" && error.code === "unknown_table") {
    state.code = null;
    state.screen = "lobby";
    history.replaceState(null, "", "#");
    refreshLobby();
  }
  if (error.request === "entropy") return; // too late for this shuffle: nothing to do
  if (error.request === "action") {
    // the game moved on before this action arrived (stale_version), or it was refused:
    // take the fresh state and decide again
    state.answered = -1;
    requestSnapshot();
    if (error.code === "stale_version") return;
  }
  state.notice = error.message;
}

function leaveScreen() {
  state.code = null;
  state.table = null;
  state.view = null;
  state.turn = null;
  state.gameOver = null;
  state.handWindow = null;
  state.screen = "lobby";
  history.replaceState(null, "", "#");
  refreshLobby();
}

function saveRecord(message) {
  const blob = new Blob([message.record_json], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `spades-${message.record_id}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// ---- actions out ---------------------------------------------------------------------

function myTurnNow() {
  const { turn, view } = state;
  return turn && view && turn.version === view.version && !paused ? turn : null;
}

function send(action) {
  const turn = state.turn;
  if (!turn) return;
  state.conn.act(state.code, action, turn.version);
  state.answered = turn.version;
  state.turn = null;
  state.selected = null;
  state.timerEnds = null;
  state.notice = "";
}

function legalPlays() {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "play") return [];
  return turn.legal.filter((a) => a.kind === "play").map((a) => a.card);
}

function playCard(card) {
  const turn = myTurnNow();
  if (!turn) return;
  if (turn.phase === "exchange") {
    if (state.exchangePicks.has(card)) state.exchangePicks.delete(card);
    else if (state.exchangePicks.size < (turn.exchange_max || 0)) state.exchangePicks.add(card);
    render();
    return;
  }
  if (turn.phase !== "play") return;
  if (!legalPlays().includes(card)) {
    state.notice = `${short(card)} cannot be played now${followReason()}.`;
    render();
    return;
  }
  send({ kind: "play", card });
  render();
}

function followReason() {
  const view = state.view;
  if (!view) return "";
  if (view.current_trick.length === 1) {
    const suit = view.current_trick[0].slice(-1);
    return `: follow ${suitName(suit)}`;
  }
  if (!view.spades_broken) return ": spades are not broken";
  return "";
}

function bid(tricks) {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "bidding") return;
  const allowed = turn.legal.filter((a) => a.kind === "bid").map((a) => a.tricks);
  if (!allowed.includes(tricks)) {
    state.notice = `A bid of ${tricks} is not allowed.`;
    render();
    return;
  }
  send({ kind: "bid", tricks });
  render();
}

// ---- rendering -----------------------------------------------------------------------

function cardButton(card, { legal = true, picked = false, selected = false, extra = "" } = {}) {
  const colour = isRed(card) ? "red" : "black";
  const classes = ["card", colour, legal ? "legal" : "illegal", picked ? "picked" : "", selected ? "selected" : ""]
    .filter(Boolean)
    .join(" ");
  const label = `${longName(card)}${legal ? "" : ", cannot be played now"}${picked ? ", picked" : ""}`;
  return `<button type="button" class="${classes}" data-card="${card}" aria-label="${label}"${legal ? "" : " disabled aria-disabled=\"true\""}${extra}><span class="rank">${escapeHtml(card.slice(0, -1))}</span><span class="suit" aria-hidden="true">${suitSymbol(card.slice(-1))}</span></button>`;
}

function cardFace(card, extra = "") {
  const colour = isRed(card) ? "red" : "black";
  return `<span class="card face ${colour}${extra}" data-card="${card}" role="img" aria-label="${longName(card)}"><span class="rank">${escapeHtml(card.slice(0, -1))}</span><span class="suit" aria-hidden="true">${suitSymbol(card.slice(-1))}</span></span>`;
}

function render() {
  document.body.dataset.screen = state.screen;
  const status = {
    open: `online as ${state.welcome ? state.welcome.name : ""}`,
    reconnecting: "reconnecting…",
    connecting: "connecting…",
    replaced: "playing in another tab or window",
  }[state.connection];
  $("#status").textContent = status;
  $("#status").dataset.state = state.connection;
  $("#reclaim").hidden = state.connection !== "replaced";
  $("#name-screen").hidden = state.screen !== "name";
  $("#lobby").hidden = state.screen !== "lobby";
  $("#table").hidden = state.screen !== "table";
  if (state.screen === "name") renderName();
  if (state.screen === "lobby") renderLobby();
  if (state.screen === "table") renderTable();
  renderModal();
}

function renderName() {
  $("#name-notice").textContent = state.notice;
}

function renderLobby() {
  const rows = state.tables.map((t) => {
    const seats = t.seats.map((s) => (s.kind === "empty" ? "<em>free</em>" : escapeHtml(s.name || s.kind))).join(" vs ");
    const free = t.seats.some((s) => s.kind === "empty");
    return `<li><span class="code">${escapeHtml(t.code)}</span> <span>${escapeHtml(t.preset || "custom")}</span> <span>${seats}</span> <span>${t.status}</span> <span>${t.spectators} watching</span>
      ${free ? `<button type="button" data-join="${escapeHtml(t.code)}">Join</button>` : ""}
      <button type="button" data-watch="${escapeHtml(t.code)}">Watch</button></li>`;
  });
  $("#lobby-notice").textContent = state.notice;
  $("#table-list").innerHTML = rows.length ? rows.join("") : "<li class=\"empty\">No open tables yet: create one.</li>";
}

function renderTable() {
  const { table, view } = state;
  const root = $("#table");
  if (!table || !view) {
    root.innerHTML = `<p class="waiting">Joining table ${escapeHtml(state.code || "")}…</p>`;
    return;
  }
  const me = view.seat;
  const viewerSeat = me === null ? 0 : me;
  const opp = 1 - viewerSeat;
  const link = `${location.origin}/#t=${table.code}`;
  root.dataset.version = String(view.version);
  root.dataset.phase = view.phase;
  root.dataset.hand = String(view.hand_number);
  root.dataset.paused = paused ? "yes" : "no";
  const turn = myTurnNow();
  root.dataset.myTurn = turn ? turn.phase : "";
  root.innerHTML = `
    <div class="topline">
      <span>Table <strong class="code">${escapeHtml(table.code)}</strong> · ${escapeHtml(table.preset || "custom rules")} · hand ${view.hand_number}${me === null ? " · watching" : ""}</span>
      ${table.private && table.status === "waiting" ? `<span class="invite">Send this link to a friend: <input id="invite-link" readonly value="${escapeHtml(link)}" aria-label="invitation link"> <button type="button" id="copy-link">Copy</button></span>` : ""}
    </div>
    <div class="board">
      <section class="seat opponent" aria-label="opponent">${renderSeat(opp, view, me === null)}</section>
      <section class="phase" aria-label="${escapeHtml(view.phase.replace("_", " "))}">${renderPhase(view, turn)}</section>
      <section class="seat mine" aria-label="${me === null ? "seat 0" : "your hand"}">${me === null ? renderSeat(viewerSeat, view, true) : renderHand(view, turn)}</section>
      <p class="notice" role="alert">${escapeHtml(state.notice)}</p>
    </div>
    <aside class="side">
      ${renderScores(view)}
      <div class="buttons">
        <button type="button" id="open-sheet">Score sheet (s)</button>
        <button type="button" id="open-settings">Settings (o)</button>
        <button type="button" id="open-help">Keys (?)</button>
        ${table.status === "waiting" && me !== null && table.seats.some((s) => s.kind === "empty") ? `<button type="button" id="add-bot">Bring in the bot (b)</button>` : ""}
        <button type="button" id="leave">${me === null ? "Stop watching" : "Leave"}</button>
      </div>
      <h2>Log</h2>
      <ol class="log" aria-live="polite">${state.log.slice(-12).map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ol>
      <h2>Chat</h2>
      <ol class="chat">${state.chat.slice(-8).map((c) => `<li><strong>${escapeHtml(c.name)}${c.seat === null ? " (watching)" : ""}:</strong> ${escapeHtml(c.text)}</li>`).join("")}</ol>
      <form id="chat-form"><input id="chat-input" maxlength="200" autocomplete="off" aria-label="chat message" placeholder="Say something (m) · /mute hides the others"><button type="submit">Send</button></form>
    </aside>`;
}

function countdown(ends) {
  if (ends === null) return null;
  return Math.max(0, Math.ceil((ends - Date.now()) / 1000));
}

function renderSeat(seat, view, publicOnly) {
  const info = state.table.seats[seat];
  let status = "";
  if (info.kind === "empty") status = "waiting for a player";
  else if (info.kind === "bot") status = `bot, ${info.bot_level}`;
  else if (info.bot_standing_in) status = "dropped: the bot plays for them";
  else if (!info.connected) {
    const left = countdown(state.holdEnds[seat]);
    status = left === null ? "dropped" : `dropped, seat held <span class="hold" data-hold="${seat}">${left}</span> s`;
  } else status = "online";
  const count = view.hand_sizes[seat];
  const backs = Array.from({ length: Math.min(count, 13) }, () => `<span class="back" aria-hidden="true"></span>`).join("");
  const turnMark = view.current_player === seat ? `<span class="to-move">to move</span>` : "";
  void publicOnly;
  return `<div class="who"><strong>${escapeHtml(info.name || "empty seat")}</strong> <span class="state">${status}</span> ${turnMark}</div>
    <div class="backs" role="img" aria-label="${count} cards">${backs}</div>
    <div class="small">${count} card${count === 1 ? "" : "s"} · bid ${bidText(view, seat)} · won ${view.tricks_won[seat]}</div>`;
}

function bidText(view, seat) {
  if (view.blind_nil[seat]) return "blind nil";
  const b = view.bids[seat];
  if (b === null) return "–";
  return b === 0 ? "nil" : String(b);
}

function renderHand(view, turn) {
  const legal = new Set(legalPlays());
  const exchanging = turn && turn.phase === "exchange";
  const cards = sortForDisplay(view.hand);
  const groups = DISPLAY_SUITS.map((suit) => {
    const inSuit = cards.filter((c) => c.endsWith(suit));
    if (!inSuit.length) return "";
    const buttons = inSuit.map((card) =>
      cardButton(card, {
        legal: exchanging || legal.has(card),
        picked: state.exchangePicks.has(card),
        selected: state.selected === card,
      }),
    );
    return `<div class="suit-row" role="group" aria-label="${suitName(suit)}">${buttons.join("")}</div>`;
  });
  const prompt = turn && turn.phase === "play" ? `<p class="prompt">Your turn: click or tap a card, or ←/→ and Enter, or type it (qs, 10h).</p>` : "";
  return `${prompt}<div class="hand" aria-label="your ${view.hand.length} cards">${groups.join("")}</div>`;
}

function renderPhase(view, turn) {
  const me = view.seat;
  if (state.lastTrick && (paused || !view.current_trick.length) && view.phase === "play") {
    return renderTrick(view, state.lastTrick);
  }
  if (paused && state.lastTrick) return renderTrick(view, state.lastTrick);
  switch (view.phase) {
    case "deal":
      return state.table.status === "waiting"
        ? `<p class="waiting">Waiting for an opponent…${me !== null ? " Send the link, or bring in the bot." : ""}</p>`
        : `<p>Shuffling…</p>`;
    case "blind_nil":
      if (turn && turn.phase === "blind_nil") {
        const canDeclare = turn.legal.some((a) => a.kind === "blind_nil" && a.declare);
        return `<h2>Blind nil?</h2><p>Declare blind nil before you see a card: ${state.table.rules.blind_nil_bonus} points if you take no trick, lose as many if you take one.</p>
          <div class="choices">${canDeclare ? `<button type="button" data-blind="yes">Declare blind nil (y)</button>` : ""}<button type="button" data-blind="no">No (n)</button></div>`;
      }
      return `<p>${escapeHtml(seatName(view.current_player))} considering blind nil…</p>`;
    case "draft": {
      const offered = turn && turn.phase === "draft" ? turn.offered || view.offered : null;
      const left = me === null ? "" : `<p class="small">Your turns left: ${13 - view.draft_turns[me]} · stock ${view.stock_left} · pile ${view.pile_size}</p>`;
      if (offered) {
        const keepNote = state.table.rules.see_card_after_keep ? "you will see the next card go to the pile" : "the next card goes to the pile unseen";
        return `<h2>The draft</h2><div class="offer">${cardFace(offered, " big")}</div>
          <div class="choices"><button type="button" data-draft="keep">Keep (k)</button><button type="button" data-draft="discard">Discard, take the next (d)</button></div>
          <p class="small">Keep: ${keepNote}. Discard: this card goes to the pile and you take the next one.</p>${left}`;
      }
      return `<h2>The draft</h2><p>${escapeHtml(seatName(view.current_player))} ${view.current_player === me ? "draw" : "draws"}…</p>${left}${renderSeenPile(view)}`;
    }
    case "exchange":
      if (turn && turn.phase === "exchange") {
        return `<h2>Blind nil exchange</h2><p>Pick up to ${turn.exchange_max} cards of your hand to give face down; you get as many drawn at random from the pile.</p>
          <p>Picked: ${[...state.exchangePicks].map(short).join(" ") || "none"}</p>
          <div class="choices"><button type="button" id="give">Give ${state.exchangePicks.size} card${state.exchangePicks.size === 1 ? "" : "s"} (Enter)</button></div>`;
      }
      return `<p>${escapeHtml(seatName(view.current_player))} exchanging…</p>`;
    case "bidding": {
      const first = view.first_bidder ?? 0;
      const lines = [first, 1 - first].map((seat) => `<li>${escapeHtml(state.table.seats[seat].name || "")}: <strong>${view.bids[seat] !== null || view.blind_nil[seat] ? bidText(view, seat) : view.current_player === seat ? "thinking…" : "bids next"}</strong></li>`);
      let form = "";
      if (turn && turn.phase === "bidding") {
        const allowed = turn.legal.filter((a) => a.kind === "bid").map((a) => a.tricks);
        const spades = view.hand.filter((c) => c.endsWith("S")).length;
        const high = view.hand.filter((c) => /^[AK]/.test(c)).length;
        form = `<div class="bids" role="group" aria-label="your bid">${allowed.map((n) => `<button type="button" data-bid="${n}" class="${String(n) === state.bidEntry ? "selected" : ""}">${n === 0 ? "Nil" : n}</button>`).join("")}</div>
          <p class="hint">You hold ${spades} spade${spades === 1 ? "" : "s"} and ${high} ace${high === 1 ? "" : "s"}/king${high === 1 ? "" : "s"}. Type 0–13 (n = nil) and Enter, or click.</p>`;
      }
      return `<h2>Bidding</h2><ul class="bidlist">${lines.join("")}</ul>${form}`;
    }
    case "play":
      return renderTrick(view, null);
    case "hand_over":
      return `<p>Hand ${view.hand_number} is over.</p>`;
    case "game_over":
      return `<h2>Game over</h2><p>${view.winner === null ? "" : `${escapeHtml(seatName(view.winner))} won, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}.`}</p>
        <div class="choices">${me !== null ? `<button type="button" id="rematch-table">Rematch (r)</button>` : ""}<button type="button" id="leave-table">Leave (l)</button></div>`;
    default:
      return "";
  }
}

function renderSeenPile(view) {
  const seen = [...view.draft_discarded, ...view.draft_seen_after_keep];
  if (!seen.length) return "";
  return `<p class="small">You saw go to the pile: ${seen.map((c) => `<span class="mini" data-card="${c}" aria-label="${longName(c)}">${short(c)}</span>`).join(" ")}</p>`;
}

function renderTrick(view, finished) {
  const me = view.seat === null ? 0 : view.seat;
  const places = {};
  let leader;
  let note;
  if (finished) {
    leader = finished.trick.leader;
    places[leader] = finished.trick.cards[0];
    places[1 - leader] = finished.trick.cards[1];
    note = `${escapeHtml(seatName(finished.trick.winner))} won trick ${finished.number}${paused ? " · tap, click or press Space to go on" : ""}`;
  } else {
    leader = view.leader ?? me;
    if (view.current_trick[0]) places[leader] = view.current_trick[0];
    if (view.current_trick[1]) places[1 - leader] = view.current_trick[1];
    note = `Trick ${view.tricks.length + 1} · ${escapeHtml(seatName(leader))} led · spades ${view.spades_broken ? "broken" : "not broken"}`;
  }
  const slot = (seat) => (places[seat] ? cardFace(places[seat], finished && finished.trick.winner === seat ? " winner" : "") : `<span class="card slot" aria-label="no card yet"></span>`);
  return `<div class="trick${finished ? " finished" : ""}" id="trick" aria-label="the trick"><div class="slot-row">${slot(1 - me)}</div><div class="slot-row">${slot(me)}</div></div><p class="small" aria-live="polite">${note}</p>`;
}

function renderScores(view) {
  const rules = state.table.rules;
  const me = view.seat === null ? 0 : view.seat;
  const order = [me, 1 - me];
  const rows = order.map((seat) => `<tr><th scope="row">${escapeHtml(state.table.seats[seat].name || "–")}</th><td>${view.scores[seat]}</td><td>${view.bags[seat]}</td><td>${bidText(view, seat)}</td><td>${view.tricks_won[seat]}</td></tr>`);
  const timer = countdown(state.timerEnds);
  return `<table class="scores"><caption>Target ${rules.target_score} · bag penalty ${rules.bag_penalty} per ${rules.bag_limit}</caption>
    <thead><tr><th></th><th>score</th><th>bags</th><th>bid</th><th>won</th></tr></thead><tbody>${rows.join("")}</tbody></table>
    <p class="turn">${view.current_player === null ? "" : view.current_player === view.seat ? "Your turn" : `${escapeHtml(seatName(view.current_player))} to move`}${timer === null ? "" : ` · <span id="turn-timer">${timer}</span> s left`}</p>`;
}

function renderModal() {
  const modal = $("#modal");
  let html = "";
  // the last hand's window first, then the game's end
  if (state.handWindow) html = renderHandWindow();
  else if (state.gameOver) html = renderGameOver();
  else if (state.sheetOpen) html = renderSheet();
  else if (state.settingsOpen) html = renderSettings();
  else if (state.helpOpen) html = renderHelp();
  modal.hidden = !html;
  if (modal.innerHTML !== html) modal.innerHTML = html;
}

function renderHandWindow() {
  const { result, check } = state.handWindow;
  const me = mySeat() === null ? 0 : mySeat();
  const order = [me, 1 - me];
  const name = (seat) => escapeHtml(state.table.seats[seat].name || `seat ${seat}`);
  const bid = (seat) => (result.blind_nil[seat] ? "blind nil" : result.bids[seat] === 0 ? "nil" : result.bids[seat]);
  const row = (label, f) => `<tr><th scope="row">${label}</th>${order.map((s) => `<td>${f(s)}</td>`).join("")}</tr>`;
  const verdict = check === null ? `<p class="verify" data-verified="pending">Checking the shuffle…</p>` : check.ok ? `<p class="verify ok" data-verified="yes">Shuffle verified ✓ <span class="small">(${hasWebCrypto() ? "Web Crypto" : "SHA-256 in this page"}: ${escapeHtml(check.reason)})</span></p>` : `<p class="verify bad" data-verified="no">Shuffle NOT verified ✗ ${escapeHtml(check.reason)}</p>`;
  return `<div class="window" id="hand-window" role="dialog" aria-modal="true" aria-labelledby="hand-title"><h2 id="hand-title">Hand ${result.hand_number}</h2>
    <table class="result"><thead><tr><th></th>${order.map((s) => `<th scope="col">${name(s)}</th>`).join("")}</tr></thead><tbody>
    ${row("bid", bid)}${row("tricks", (s) => result.tricks[s])}${row("points", (s) => result.points[s])}${row("bags added", (s) => result.bags_added[s])}${row("bag penalty", (s) => (result.bag_penalties[s] ? `−${result.bag_penalties[s] * state.table.rules.bag_penalty}` : "–"))}${row("total", (s) => `<strong>${result.scores[s]}</strong>`)}${row("bags", (s) => result.bags[s])}
    </tbody></table>${verdict}<div class="choices"><button type="button" id="close-hand" autofocus>Continue (Enter)</button></div></div>`;
}

function renderSheet() {
  const view = state.view;
  const me = mySeat() === null ? 0 : mySeat();
  const rows = (view ? view.hand_results : []).map((r) => `<tr><td>${r.hand_number}</td>${[me, 1 - me].map((s) => `<td>${r.blind_nil[s] ? "BN" : r.bids[s] === 0 ? "nil" : r.bids[s]}</td><td>${r.tricks[s]}</td><td>${r.points[s]}</td><td>${r.scores[s]}</td>`).join("")}</tr>`);
  const name = (seat) => escapeHtml(state.table.seats[seat].name || "");
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="sheet-title"><h2 id="sheet-title">Score sheet</h2>
    <table class="sheet"><thead><tr><th rowspan="2">hand</th><th colspan="4">${name(me)}</th><th colspan="4">${name(1 - me)}</th></tr>
    <tr>${"<th>bid</th><th>won</th><th>pts</th><th>total</th>".repeat(2)}</tr></thead><tbody>${rows.join("") || "<tr><td colspan=\"9\">No hand finished yet.</td></tr>"}</tbody></table>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}

function renderSettings() {
  const s = state.settings;
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="settings-title"><h2 id="settings-title">Settings</h2>
    <label><input type="checkbox" id="set-auto" ${s.autoPlayOne ? "checked" : ""}> Auto Play One (play my only legal card by itself)</label>
    <label>Pause after each trick <select id="set-pause">${[0, 800, 1500, 3000].map((ms) => `<option value="${ms}" ${ms === s.trickPauseMs ? "selected" : ""}>${ms ? `${ms / 1000} s` : "none"}</option>`).join("")}</select></label>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}

function renderHelp() {
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="help-title"><h2 id="help-title">Keys</h2><dl class="keys">
    <dt>←/→, Enter</dt><dd>choose a playable card, play it</dd><dt>qs, 10h, th</dt><dd>type a card to play it</dd>
    <dt>k / d</dt><dd>draft: keep / discard</dd><dt>0–13, n, Enter</dt><dd>bid (n: nil)</dd><dt>y / n</dt><dd>blind nil</dd>
    <dt>Space, Enter</dt><dd>exchange: pick a card, give them; after a trick: go on</dd><dt>s / o / ?</dt><dd>score sheet, settings, keys</dd>
    <dt>m</dt><dd>chat (type /mute to hide the others' chat, /unmute to show it; /report TEXT tells the host)</dd><dt>b</dt><dd>bring in the bot</dd><dt>r / l</dt><dd>game over: rematch / leave</dd></dl>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}

function renderGameOver() {
  const over = state.gameOver;
  const me = mySeat();
  const title = over.winner === null ? "Game over" : over.winner === me ? "You won!" : `${escapeHtml(over.scores[over.winner].name || "")} won`;
  const asked = state.table ? state.table.rematch : [false, false];
  return `<div class="window" id="game-over" role="dialog" aria-modal="true" aria-labelledby="over-title"><h2 id="over-title">${title}</h2>
    <p>${over.reason === "forfeit" ? "By forfeit." : "On points."}</p>
    <ul>${over.scores.map((line) => `<li>${escapeHtml(line.name || `seat ${line.seat}`)}: ${line.score} points, ${line.bags} bags${asked[line.seat] ? " · wants a rematch" : ""}</li>`).join("")}</ul>
    <div class="choices">${me !== null ? `<button type="button" id="rematch">Rematch (r)</button>` : ""}<button type="button" id="save-record">Save the record</button><button type="button" id="leave-over">Leave (l)</button></div></div>`;
}

// ---- input ---------------------------------------------------------------------------

function refreshLobby() {
  if (state.conn) state.conn.send({ type: "list_tables" });
}

function buildCreateForm() {
  const fields = RULE_FIELDS.map(([field, label, kind]) => {
    const id = `rule-${field}`;
    if (kind === "bool") return `<label><input type="checkbox" id="${id}" data-rule="${field}"> ${label}</label>`;
    if (kind === "bidder") return `<label>${label} <select id="${id}" data-rule="${field}"><option value="first_drafter">the first drafter</option><option value="second_drafter">the other seat</option></select></label>`;
    return `<label>${label} <input type="number" id="${id}" data-rule="${field}" data-kind="${kind}" step="1"></label>`;
  });
  $("#rule-fields").innerHTML = fields.join("");
  fillPreset();
}

function fillPreset() {
  const preset = PRESETS[$("#preset").value];
  for (const element of document.querySelectorAll("[data-rule]")) {
    const value = preset[element.dataset.rule];
    if (element.type === "checkbox") element.checked = value;
    else element.value = value === null ? "" : String(value);
  }
}

function createTable(event) {
  event.preventDefault();
  const presetName = $("#preset").value;
  const preset = PRESETS[presetName];
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
  const turnSeconds = $("#turn-seconds").value.trim();
  if (turnSeconds) message.turn_seconds = Number.parseInt(turnSeconds, 10);
  state.conn.send(message);
}

function onClick(event) {
  // while a finished trick is held on screen, a click or tap anywhere on the board lets it go
  if (paused && event.target.closest(".board")) return endPause();
  const target = event.target.closest("button, [data-card]");
  if (!target) return;
  const d = target.dataset;
  if (d.card && target.closest(".hand")) return playCard(d.card);
  if (d.draft) return sendDraft(d.draft);
  if (d.bid !== undefined) return bid(Number(d.bid));
  if (d.blind) return sendBlind(d.blind === "yes");
  if (d.join) return state.conn.send({ type: "join_table", code: d.join });
  if (d.watch) return state.conn.send({ type: "watch_table", code: d.watch });
  if (d.close !== undefined) return closeModals();
  switch (target.id) {
    case "give":
      return giveExchange();
    case "close-hand":
      state.handWindow = null;
      return render();
    case "open-sheet":
      state.sheetOpen = true;
      return render();
    case "open-settings":
      state.settingsOpen = true;
      return render();
    case "open-help":
      state.helpOpen = true;
      return render();
    case "add-bot":
      return state.conn.send({ type: "add_bot", code: state.code, level: "normal" });
    case "leave":
    case "leave-over":
    case "leave-table":
      return leaveTable();
    case "rematch":
    case "rematch-table":
      return state.conn.send({ type: "rematch", code: state.code });
    case "save-record":
      {
        const recordId = state.gameOver ? state.gameOver.record_id : state.table && state.table.record_id;
        if (recordId) state.conn.send({ type: "get_record", record_id: recordId });
      }
      return;
    case "copy-link":
      $("#invite-link").select();
      if (navigator.clipboard) navigator.clipboard.writeText($("#invite-link").value).catch(() => {});
      return;
    case "refresh":
      return refreshLobby();
    case "reclaim":
      return state.conn.reclaim();
    case "join-code": {
      const code = $("#code-input").value.trim().toUpperCase();
      if (code) state.conn.send({ type: "join_table", code });
      return;
    }
    case "watch-code": {
      const code = $("#code-input").value.trim().toUpperCase();
      if (code) state.conn.send({ type: "watch_table", code });
      return;
    }
    default:
      return;
  }
}

function leaveTable() {
  if (!state.code) return;
  const playing = state.table && state.table.status === "playing" && mySeat() !== null;
  if (playing && !confirm("Leaving now forfeits the game. Leave?")) return;
  state.conn.send({ type: "leave", code: state.code });
}

function closeModals() {
  state.sheetOpen = false;
  state.settingsOpen = false;
  state.helpOpen = false;
  render();
}

function sendDraft(kind) {
  const turn = myTurnNow();
  if (turn && turn.phase === "draft") send({ kind });
  render();
}

function sendBlind(declare) {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "blind_nil") return;
  if (!turn.legal.some((a) => a.kind === "blind_nil" && a.declare === declare)) return;
  send({ kind: "blind_nil", declare });
  render();
}

function giveExchange() {
  const turn = myTurnNow();
  if (!turn || turn.phase !== "exchange") return;
  send({ kind: "exchange", cards: [...state.exchangePicks] });
  state.exchangePicks.clear();
  render();
}

let typed = "";

function onKey(event) {
  if (event.target.closest && event.target.closest("input, select, textarea")) {
    if (event.key === "Escape") event.target.blur();
    return;
  }
  if (state.screen !== "table") return;
  const key = event.key;
  if (key === "Escape") return closeModals();
  if (state.handWindow && key === "Enter") {
    event.preventDefault();
    state.handWindow = null;
    return render();
  }
  if (paused && (key === " " || key === "Enter")) {
    event.preventDefault();
    return endPause();
  }
  const typing = myTurnNow();
  if (typed && typing && (typing.phase === "play" || typing.phase === "exchange") && /^[cdhs]$/i.test(key)) {
    // a suit letter after a rank finishes a typed card ("qs"), before any shortcut
    return handKey(event, typing);
  }
  if (state.gameOver || (state.view && state.view.phase === "game_over")) {
    if (key === "r") return state.conn.send({ type: "rematch", code: state.code });
    if (key === "l") return leaveTable();
    return;
  }
  if (key === "s") {
    state.sheetOpen = !state.sheetOpen;
    return render();
  }
  if (key === "o") {
    state.settingsOpen = !state.settingsOpen;
    return render();
  }
  if (key === "?") {
    state.helpOpen = !state.helpOpen;
    return render();
  }
  if (key === "m") {
    event.preventDefault();
    return $("#chat-input") && $("#chat-input").focus();
  }
  if (key === "b" && state.table && state.table.status === "waiting") {
    return state.conn.send({ type: "add_bot", code: state.code, level: "normal" });
  }
  const turn = myTurnNow();
  if (!turn) return;
  if (turn.phase === "draft" && (key === "k" || key === "d")) return sendDraft(key === "k" ? "keep" : "discard");
  if (turn.phase === "blind_nil" && (key === "y" || key === "n")) return sendBlind(key === "y");
  if (turn.phase === "bidding") return bidKey(event);
  if (turn.phase === "play" || turn.phase === "exchange") return handKey(event, turn);
}

function bidKey(event) {
  const key = event.key;
  if (/^[0-9]$/.test(key)) {
    const next = state.bidEntry + key;
    state.bidEntry = Number(next) <= 13 ? String(Number(next)) : key;
  } else if (key === "n") state.bidEntry = "0";
  else if (key === "Backspace") state.bidEntry = state.bidEntry.slice(0, -1);
  else if (key === "ArrowUp") state.bidEntry = String(Math.min(13, Number(state.bidEntry || 0) + 1));
  else if (key === "ArrowDown") state.bidEntry = String(Math.max(0, Number(state.bidEntry || 0) - 1));
  else if (key === "Enter" && state.bidEntry !== "") {
    event.preventDefault();
    return bid(Number(state.bidEntry));
  } else return;
  event.preventDefault();
  render();
}

function handKey(event, turn) {
  const key = event.key;
  const hand = sortForDisplay(state.view.hand);
  const choices = turn.phase === "play" ? hand.filter((c) => legalPlays().includes(c)) : hand;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    event.preventDefault();
    const at = choices.indexOf(state.selected);
    const step = key === "ArrowRight" ? 1 : -1;
    state.selected = choices[(at + step + choices.length) % choices.length] || null;
    typed = "";
    render();
    const button = document.querySelector(`.hand [data-card="${state.selected}"]`);
    if (button) button.focus();
    return;
  }
  if (key === "Enter") {
    event.preventDefault();
    if (turn.phase === "exchange") return giveExchange();
    if (state.selected) return playCard(state.selected);
    return;
  }
  if (key === " " && turn.phase === "exchange" && state.selected) {
    event.preventDefault();
    return playCard(state.selected);
  }
  if (/^[0-9tjqkacdhs]$/i.test(key)) {
    typed = (typed + key).slice(-3);
    for (const length of [3, 2]) {
      const card = parseTyped(typed.slice(-length));
      if (card) {
        typed = "";
        if (!state.view.hand.includes(card)) {
          state.notice = `You do not hold ${short(card)}.`;
          return render();
        }
        state.selected = card;
        return playCard(card);
      }
    }
  }
}

function tick() {
  // countdowns only: the turn timer and a dropped seat's hold
  const timer = document.querySelector("#turn-timer");
  if (timer) timer.textContent = String(countdown(state.timerEnds));
  for (const hold of document.querySelectorAll("[data-hold]")) {
    hold.textContent = String(countdown(state.holdEnds[Number(hold.dataset.hold)]));
  }
}

// ---- start ---------------------------------------------------------------------------

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

function readLink() {
  const match = /^#t=([A-Za-z0-9-]{1,16})$/.exec(location.hash);
  return match ? match[1].toUpperCase() : null;
}

function main() {
  state.linkCode = readLink();
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  $("#name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#name-input").value.trim();
    if (!name) return;
    state.screen = state.linkCode ? "table" : "lobby";
    state.notice = "";
    connect(name);
    render();
  });
  $("#create-form").addEventListener("submit", createTable);
  $("#preset").addEventListener("change", fillPreset);
  document.addEventListener("submit", (event) => {
    if (event.target.id !== "chat-form") return;
    event.preventDefault();
    const input = $("#chat-input");
    const text = input.value.trim();
    if (text && state.code && !chatCommand(text)) state.conn.send({ type: "chat", code: state.code, text });
    input.value = "";
  });
  document.addEventListener("change", (event) => {
    if (event.target.id === "set-auto") state.settings.autoPlayOne = event.target.checked;
    else if (event.target.id === "set-pause") state.settings.trickPauseMs = Number(event.target.value);
    else return;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(state.settings));
  });
  window.addEventListener("hashchange", () => {
    const code = readLink();
    if (code && code !== state.code && state.conn) {
      state.linkCode = code;
      state.conn.send({ type: "join_table", code });
    }
  });
  buildCreateForm();
  setInterval(tick, 500);
  setInterval(() => {
    if (state.screen === "lobby" && state.connection === "open") refreshLobby();
  }, 5000);
  const name = localStorage.getItem(NAME_KEY);
  if (name) {
    state.screen = state.linkCode ? "table" : "lobby";
    if (state.linkCode) state.code = null;
    connect(name);
  } else {
    $("#name-input").value = `player${Math.floor(Math.random() * 900 + 100)}`;
  }
  render();
  if (!name) $("#name-input").focus();
}

main();
