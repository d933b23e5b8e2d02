// The page's state: one object that the modules read and change, and the few helpers
// every screen needs (seat names, the log, the render hook). Nothing here draws or sends.
//
//   import { state, render, mySeat } from "./store.js";
//   state.notice = "…"; render();   // render() calls the renderer app.js installs

import { t } from "./i18n.js";

const SETTINGS_KEY = "spades2.settings";
export const NAME_KEY = "spades2.name";

function loadSettings() {
  const defaults = { autoPlayOne: true, trickPauseMs: 1500, confirmPlay: false, fourColour: false, turnSound: false };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return defaults;
  }
}

export function saveSettings() {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(state.settings));
}

export const state = {
  conn: null,
  connection: "connecting",
  welcome: null,
  screen: "name", // name | lobby | table | replay
  tables: [],
  rules: null, // rules.json: the presets and the create form's fields
  code: null, // the table on screen
  table: null, // TableInfo
  view: null, // View, from a snapshot and the events folded into it since
  turn: null, // the latest your_turn for this table
  paused: false, // a finished trick is held on screen; messages wait
  lastTrick: null, // {trick, number} shown during the pause after a trick
  log: [], // {text, cards}: see addLog
  logCount: 0, // lines ever added at this table (0: nothing yet, a reload may restore)
  chat: [],
  chatMuted: false, // "/mute" typed in chat: the others' lines are no longer shown
  chatHidden: 0,
  handWindow: null, // {result, check}
  gameOver: null,
  open: { sheet: false, settings: false, help: false }, // the overlays asked for
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
  replay: null, // the game stepped through on the replay screen (replay/screen.js)
  recordWanted: null, // {recordId, names}: a record asked for, to replay
  linkRecord: null, // #r=RECORD_ID of the page's address
};

let renderer = () => {};

/** Install the function that draws the page (app.js does, once). */
export function setRenderer(draw) {
  renderer = draw;
}

/** Draw the page from the state. */
export function render() {
  renderer();
}

export const $ = (selector) => document.querySelector(selector);

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function mySeat() {
  return state.table ? state.table.your_seat : null;
}

/** "you", the seat's player name, or "empty seat". */
export function seatName(seat) {
  if (!state.table) return t("seat {seat}", { seat });
  const info = state.table.seats[seat];
  if (seat === mySeat()) return t("you");
  return info.name || t("empty seat");
}

/**
 * Add a line to the log. `cards`: the line names a card, so it goes when the next hand
 * starts (the new hand's page holds no card of the last one); the others (bids, tricks
 * won, the hand's score, the shuffle's check) stay, so the log tells what happened.
 */
export function addLog(text, cards = false) {
  state.logCount += 1;
  state.log.push({ text, cards });
  if (state.log.length > 80) state.log.shift();
  keepLog();
}

/** A new hand: the lines naming cards of the hands before go, the rest stay. */
export function dropCardLines() {
  state.log = state.log.filter((line) => !line.cards);
  keepLog();
}

const logKey = (code) => `spades2.log.${code}`;

// the log outlives a reload of the page (this tab's storage, this table only)
function keepLog() {
  if (state.code) sessionStorage.setItem(logKey(state.code), JSON.stringify({ log: state.log, count: state.logCount }));
}

/** The log kept for table `code` in this tab (after a reload), or an empty one. */
export function restoreLog(code) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(logKey(code)) || "null");
    state.log = kept ? kept.log : [];
    state.logCount = kept ? kept.count : 0;
  } catch {
    state.log = [];
    state.logCount = 0;
  }
}

export function forgetLog(code) {
  sessionStorage.removeItem(logKey(code));
}

/** Seconds left until `ends` (wall-clock ms), or null without a clock. */
export function countdown(ends) {
  if (ends === null) return null;
  return Math.max(0, Math.ceil((ends - Date.now()) / 1000));
}

export function commitmentKey(code, hand) {
  return `spades2.commitment.${code}.${hand}`;
}

export function entropyKey(code, hand) {
  return `spades2.entropy.${code}.${hand}`;
}

/** Where the commitments the table relayed for a hand are kept (1.3), as JSON. */
export function relayedKey(code, hand) {
  return `spades2.relayed.${code}.${hand}`;
}
