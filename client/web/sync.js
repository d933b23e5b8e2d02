// Messages in: the queue that the pause after a trick holds, and what each message does
// to the state. The view is kept by folding each `events` frame into it (fold.js); a
// snapshot replaces it on join, resume, reload and rematch, and is asked for only when a
// frame's version shows a gap (or an action was refused: the page was out of step).
//
//   deliver(message)   // the Connection's onMessage
//   endPause()         // let a held trick go (a click, Space or Enter)

import { receive as receiveAccount } from "./screens/account.js";
import { short } from "./cards.js";
import { errorText } from "./errors.js";
import { nt, t } from "./i18n.js";
import { refreshLobby, send } from "./actions.js";
import { PROTOCOL_MINOR } from "./net.js";
import { foldMessage } from "./fold.js";
import { onHandResult } from "./phases/handresult.js";
import { askForReplay, onRecord } from "./replay/open.js";
import { onAnalysis, onAnalysisError } from "./replay/analysis.js";
import { receiveChat } from "./screens/chat.js";
import { turnChime } from "./sound.js";
import { seekMessage } from "./screens/playnow.js";
import {
  NAME_KEY,
  addLog,
  commitmentKey,
  dropCardLines,
  forgetLog,
  entropyKey,
  mySeat,
  relayedKey,
  render,
  restoreLog,
  seatName,
  state,
} from "./store.js";

const inbox = [];
let pauseTimer = null;

// The last messages' type, version and id (never their content), for bug reports.
const trace = [];
globalThis.spadesTrace = trace;

// Every error code the server sent this page, in order (for tests and bug reports).
const errorCodes = [];
globalThis.spadesErrors = errorCodes;

export function deliver(message) {
  const version = message.version ?? (message.view ? message.view.version : "");
  trace.push(`${message.type}:${version}:${message.id ?? ""}${message.your_turn ? ":turn" : ""}`);
  if (trace.length > 40) trace.shift();
  inbox.push(message);
  drain();
}

function drain() {
  if (state.paused) return; // a held trick: nothing changes on screen until it goes
  while (inbox.length && !state.paused) handle(inbox.shift());
  render();
}

function pauseOnTrick(trick, number) {
  state.lastTrick = { trick, number };
  if (state.settings.trickPauseMs <= 0) return;
  state.paused = true;
  pauseTimer = setTimeout(endPause, state.settings.trickPauseMs);
}

export function endPause() {
  if (!state.paused) return;
  state.paused = false;
  clearTimeout(pauseTimer);
  drain();
}

/** Ask for the table's snapshot (one request at a time; a second waits for the first). */
export function requestSnapshot() {
  if (!state.code) return;
  if (state.snapshotInFlight !== null) {
    state.snapshotWanted = true;
    return;
  }
  state.snapshotWanted = false;
  const type = mySeat() === null ? "watch_table" : "join_table";
  state.snapshotInFlight = state.conn.send({ type, code: state.code });
}

/** Fold a message into the view; a gap asks for a snapshot instead. */
function fold(message) {
  const rules = state.table ? state.table.rules : null;
  const { view, gap } = foldMessage(state.view, message, rules);
  if (gap) requestSnapshot();
  else state.view = view;
}

/**
 * Send this seat's entropy for a hand (kept for the check at the hand's end): always on
 * hand_started, and from a snapshot (after a reload) only if none was sent yet.
 */
function sendEntropy(hand, always) {
  const seat = mySeat();
  const code = state.code;
  if (seat === null || !code) return;
  const key = entropyKey(code, hand);
  const stored = sessionStorage.getItem(key);
  if (committing.has(key)) return; // this page is making that commitment now
  if (!always && stored && stored !== "pending") return; // "pending": a reload cut the commit short
  const commitment = sessionStorage.getItem(commitmentKey(code, hand));
  if (PROTOCOL_MINOR < 3 || !commitment) {
    sessionStorage.setItem(key, state.conn.sendEntropy(code, hand));
    return;
  }
  // 1.3: commit now, reveal once the table has every commitment (onCommitments); the
  // hash lives in verify.js, loaded here rather than in the first load
  sessionStorage.setItem(key, "pending");
  committing.add(key);
  import("./verify.js")
    .then(({ seatCommitment }) => {
      const value = state.conn.commitEntropy(code, hand, (v) => seatCommitment(commitment, seat, v));
      sessionStorage.setItem(key, value);
    })
    .finally(() => committing.delete(key));
}

const committing = new Set(); // the entropy keys whose commitment is being made

/** 1.3: every seat's commitment is out: reveal this seat's value, if the table shows the
 * commitment this page sent (else the server did not relay ours: reveal nothing). */
async function onCommitments(message) {
  const seat = mySeat();
  if (message.table !== state.code) return;
  sessionStorage.setItem(relayedKey(message.table, message.hand_number), JSON.stringify(message.commitments));
  if (seat === null) return;
  const value = sessionStorage.getItem(entropyKey(message.table, message.hand_number));
  const commitment = sessionStorage.getItem(commitmentKey(message.table, message.hand_number));
  if (!value || value === "pending" || !commitment) return;
  const { seatCommitment } = await import("./verify.js");
  if (message.commitments[seat] !== seatCommitment(commitment, seat, value)) return;
  state.conn.revealEntropy(message.table, message.hand_number, value);
}

/** Forget a table's commitments and entropy (when leaving it). */
function forgetGame(code) {
  forgetLog(code);
  for (const key of Object.keys(sessionStorage)) {
    if (["commitment", "entropy", "relayed"].some((kind) => key.startsWith(`spades2.${kind}.${code}.`))) {
      sessionStorage.removeItem(key);
    }
  }
}

function handle(message) {
  if (receiveAccount(message)) return; // screens/account.js
  if (seekMessage(message)) return; // play now's messages (screens/playnow.js)
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
      if (message.table !== state.code) return;
      fold(message);
      return onHandResult(message);
    case "game_over":
      if (message.table === state.code) {
        state.gameOver = message;
        state.turn = null;
        state.timerEnds = null;
      }
      return;
    case "chat":
      return receiveChat(message);
    case "left":
      forgetGame(message.table);
      if (message.table === state.code) leaveScreen();
      return;
    case "record":
      if (onRecord(message)) return;
      return saveRecord(message);
    case "analysis":
      return onAnalysis(message);
    case "error":
      return onError(message);
    case "entropy_commitments":
      onCommitments(message);
      return;
    default:
      return; // entropy_accepted, ack: nothing to show
  }
}

function onWelcome(welcome) {
  state.welcome = welcome;
  // a request in flight when the link dropped will never be answered
  state.snapshotInFlight = null;
  state.turn = null;
  if (state.screen === "replay") {
    // a replay link (#r=ID) fetches its record once there is a connection
    if (state.linkRecord && !state.replay && !state.recordWanted) askForReplay(state.linkRecord);
    state.linkRecord = null;
    return;
  }
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
    restoreLog(code);
    state.chat = [];
    state.gameOver = null;
    state.handWindow = null;
    state.lastTrick = null;
    state.turn = null;
  }
  if (!state.logCount) restoreLog(code); // a reloaded page: the log this tab kept
  if (state.screen !== "replay") {
    state.screen = "table";
    if (location.hash !== `#t=${code}`) history.replaceState(null, "", `#t=${code}`);
  }
  setTable(snapshot.table);
  const previous = state.view;
  state.view = snapshot.view;
  if (previous && previous.hand_number !== snapshot.view.hand_number) state.exchangePicks.clear();
  const view = snapshot.view;
  if (view.commitment) rememberCommitment(code, view.hand_number, view.commitment);
  if (state.turn && state.turn.version !== view.version) state.turn = null;
  if (view.version < state.answered) state.answered = -1; // a new game (rematch)
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
        // a new hand: no card of the last one (log, trick, notices) stays on screen
        dropCardLines();
        state.lastTrick = null;
        state.notice = "";
        state.exchangePicks.clear();
        // the commitment heard as the hand starts is the one the seed must match
        sessionStorage.setItem(commitmentKey(state.code, event.hand_number), event.commitment);
        state.draftSeen[event.hand_number] = [];
        state.myDraftTurns[event.hand_number] = 0;
        addLog(event.first_drafter === me ? t("Hand {number} · you draft first.", { number: event.hand_number }) : t("Hand {number} · {name} drafts first.", { number: event.hand_number, name: seatName(event.first_drafter) }));
        sendEntropy(event.hand_number, true);
        break;
      case "blind_nil":
        addLog(event.declared ? t("{name} declared BLIND NIL!", { name: seatName(event.seat) }) : t("{name}: no blind nil.", { name: seatName(event.seat) }));
        break;
      case "draft_turn":
        if (event.seat === me && event.card) noteMyDraft(event);
        break;
      case "exchange":
        addLog(nt("{name} exchanged {n} card.", "{name} exchanged {n} cards.", event.count, { name: seatName(event.seat), n: event.count }));
        break;
      case "bid":
        addLog(t("{name} bid {bid}.", { name: seatName(event.seat), bid: event.tricks === 0 ? t("nil") : event.tricks }));
        break;
      case "card_played":
        addLog(t("{name} played {card}.", { name: seatName(event.seat), card: short(event.card) }), true);
        break;
      case "trick_won":
        addLog(t("{name} won trick {number}.", { name: seatName(event.trick.winner), number: event.number }));
        trickDone = event;
        break;
      case "hand_scored":
        addLog(t("Hand {number} scored: {first} {first_points}, {second} {second_points}.", { number: event.hand_number, first: seatName(0), first_points: event.points[0], second: seatName(1), second_points: event.points[1] }));
        break;
      case "game_over":
        addLog(t("Game over: {name} won.", { name: seatName(event.winner) }));
        break;
      default:
        break;
    }
  }
  fold(message);
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
  // the folded view is at the turn's version and phase; one that is not missed a frame
  fold(turn);
  const plays = turn.legal.filter((action) => action.kind === "play");
  if (turn.phase === "play" && plays.length === 1 && state.settings.autoPlayOne) {
    send(plays[0]);
    state.notice = t("Auto Play One: {card} was your only legal card.", { card: short(plays[0].card) });
    return;
  }
  turnChime(turn.version);
}

function onError(error) {
  errorCodes.push(`${error.request}:${error.code}`);
  if (error.id !== null && error.id === state.snapshotInFlight) state.snapshotInFlight = null;
  if (error.request === "hello" && error.code === "bad_name") {
    // the server refused the name: ask for another one
    state.conn.stop();
    localStorage.removeItem(NAME_KEY);
    state.screen = "name";
    state.notice = errorText(error);
    return;
  }
  if (error.code === "banned") {
    // the host banned this name or address: coming back would only be refused again
    state.conn.stop();
    state.screen = "name";
    state.notice = errorText(error);
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
  if (error.request === "get_analysis") return onAnalysisError(error);
  if (error.request === "get_record" && state.recordWanted) state.recordWanted = null;
  if (error.request === "entropy" || error.request === "entropy_commit") return; // too late for this shuffle: nothing to do
  if (error.request === "action") {
    // the game moved on before this action arrived (stale_version), or it was refused:
    // the page was out of step, so take the fresh state and decide again
    state.answered = -1;
    requestSnapshot();
    if (error.code === "stale_version") return;
  }
  state.notice = errorText(error);
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
