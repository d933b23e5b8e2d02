// The analysis of either seat's play on the replay screen (protocol get_analysis): the
// game's accuracy and verdicts, the costliest decisions, each hand's figures; and one
// decision shown on the board as it was, "what you knew" beside "all cards shown".
//
//   renderPanel();   renderDecision();   verdictLine(step);   click(target)
//   onAnalysis(message);   onAnalysisError(error)

import { parts, short } from "../cards.js";
import { formatNumber, t } from "../i18n.js";
import { $, escapeHtml, render, state } from "../store.js";
import { centre, describe, nameOf, seatRow } from "./board.js";

const VERDICTS = () => ({
  good: t("good"),
  inaccuracy: t("inaccuracy"),
  mistake: t("mistake"),
  blunder: t("blunder"),
  forced: t("forced"),
});

/** An action of the analysis ("play QS", "bid 4", "keep") in words. */
function actionWords(text) {
  if (!text) return "–";
  const [head, ...rest] = text.split(" ");
  if (head === "play") return t("play {card}", { card: short(rest[0]) });
  if (head === "bid") return rest[0] === "nil" || rest[0] === "0" ? t("bid nil") : t("bid {n}", { n: rest[0] });
  if (head === "exchange") return t("give {cards}", { cards: rest.map(short).join(" ") });
  if (head === "keep") return t("keep");
  if (head === "discard") return t("discard");
  if (head === "blind-nil") return t("blind nil");
  if (head === "no-blind-nil") return t("no blind nil");
  return text;
}

// numbers in the language's own way (97,5 in German); one decimal for points and margins
const number = (value) => (value === null || value === undefined ? "–" : formatNumber(value));
const tenths = (value) => formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function decisionsOf(data) {
  return data.hands.flatMap((hand) => hand.decisions);
}

function decisionAt(seat, index) {
  const entry = state.replay.analyses[seat];
  if (!entry || entry.status !== "ready") return null;
  return decisionsOf(entry.data).find((d) => d.index === index) || null;
}

function lossWords(decision) {
  if (!decision.knew) return t("the only choice");
  return t("{loss} points lost", { loss: tenths(decision.knew.loss) });
}

function decisionButton(seat, decision) {
  const where = decision.trick ? t("hand {h}, trick {n}", { h: decision.hand_number, n: decision.trick }) : t("hand {h}", { h: decision.hand_number });
  const best = decision.knew ? t("best: {action}", { action: actionWords(decision.knew.best_action) }) : "";
  return `<li><button type="button" class="link" data-decision="${seat}:${decision.index}">${escapeHtml(where)}: ${escapeHtml(actionWords(decision.action))}</button> <span class="small">${escapeHtml(VERDICTS()[decision.verdict] || decision.verdict)} · ${escapeHtml(best)} · ${escapeHtml(lossWords(decision))}</span></li>`;
}

function report(seat, data) {
  const verdicts = Object.entries(VERDICTS()).map(([key, word]) => `${word} ${data.verdicts[key] || 0}`).join(" · ");
  const all = decisionsOf(data);
  const costliest = data.costliest.map((index) => all.find((d) => d.index === index)).filter(Boolean);
  const rows = data.hands.map((hand) => `<tr><th scope="row">${hand.hand_number}</th><td>${hand.blind_nil ? t("blind nil") : hand.bid ?? "–"}</td><td>${hand.tricks ?? "–"}</td><td>${number(hand.expected_tricks)}</td><td>${number(hand.dd_tricks)}</td><td>${number(hand.accuracy)}</td></tr>`);
  return `<div class="analysis" data-seat="${seat}">
    <p><strong class="accuracy">${t("Accuracy {a}%", { a: number(data.accuracy) })}</strong> <span class="small">(${escapeHtml(t(data.level))})</span></p>
    <p class="small">${escapeHtml(verdicts)}</p>
    <h3>${t("The costliest decisions")}</h3>
    <ol class="costliest">${costliest.map((d) => decisionButton(seat, d)).join("") || `<li>${t("none: every decision was good")}</li>`}</ol>
    <table class="hands-figures"><thead><tr><th>${t("hand")}</th><th>${t("bid")}</th><th>${t("won")}</th><th title="${escapeHtml(t("tricks expected from what you knew"))}">${t("expected")}</th><th title="${escapeHtml(t("tricks with all cards shown"))}">${t("all shown")}</th><th>${t("accuracy")}</th></tr></thead><tbody>${rows.join("")}</tbody></table>
  </div>`;
}

/** The side panel's part: a button per seat, then its analysis once it came. */
export function renderPanel() {
  const replay = state.replay;
  if (!replay.recordId) {
    return `<h3>${t("Analysis")}</h3><p class="small">${t("The analysis is worked out by the server from the game's record: open the replay from the game or its link.")}</p>`;
  }
  const words = { easy: t("easy"), normal: t("normal"), hard: t("hard") };
  const levels = Object.entries(words).map(([level, word]) => `<option value="${level}"${level === replay.level ? " selected" : ""}>${escapeHtml(word)}</option>`);
  const seats = [0, 1].map((seat) => {
    const entry = replay.analyses[seat];
    let body = "";
    if (entry && entry.status === "waiting") body = `<p class="small" role="status">${t("Working it out… (some seconds the first time)")}</p>`;
    else if (entry && entry.status === "error") body = `<p class="notice" role="alert">${escapeHtml(entry.message)}</p>`;
    else if (entry && entry.status === "ready") body = report(seat, entry.data);
    return `<section class="analysis-seat"><button type="button" data-analyse="${seat}">${escapeHtml(t("Analyse {name}", { name: nameOf(seat) }))}</button>${body}</section>`;
  });
  return `<h3>${t("Analysis")}</h3><label>${t("Depth")} <select id="replay-level">${levels.join("")}</select></label>${seats.join("")}`;
}

/** Under the replay's board: the verdict of the step's decision, when its seat was analysed. */
export function verdictLine(step) {
  if (step.seat === null) return "";
  const index = state.replay.game.decisions[step.seat].indexOf(state.replay.at);
  const decision = index < 0 ? null : decisionAt(step.seat, index);
  if (!decision) return "";
  const best = decision.knew && decision.knew.best_action !== decision.action ? ` · ${t("best: {action}", { action: actionWords(decision.knew.best_action) })}` : "";
  return `<p class="verdict ${escapeHtml(decision.verdict)}"><button type="button" class="link" data-decision="${step.seat}:${index}">${escapeHtml(VERDICTS()[decision.verdict])}</button>${escapeHtml(best)} · ${escapeHtml(lossWords(decision))}</p>`;
}

function cardOf(action) {
  const [head, card] = (action || "").split(" ");
  return head === "play" && card && parts(card).suit ? card : null;
}

/** The decision on show, on the board as it was: what the seat knew, and all cards shown. */
export function renderDecision() {
  const replay = state.replay;
  const { seat, index } = replay.decision;
  const decision = decisionAt(seat, index);
  const at = replay.game.decisions[seat][index];
  const step = replay.game.steps[at];
  const before = { ...replay.game.steps[at - 1] };
  if (before.trick.length === 2) before.trick = []; // that trick was gathered already
  before.kind = step.kind === "draft" ? "draft" : "before";
  before.offered = step.offered;
  before.stockLeft = step.stockLeft + 2;
  const marks = {};
  const made = cardOf(step.text);
  const bestKnew = decision && decision.knew ? cardOf(decision.knew.best_action) : null;
  const bestAll = decision && decision.hindsight ? cardOf(decision.hindsight.best_action) : null;
  if (made) marks[made] = "chosen";
  const knewMarks = { ...marks };
  if (bestKnew && bestKnew !== made) knewMarks[bestKnew] = "best";
  const allMarks = { ...marks };
  if (bestAll && bestAll !== made) allMarks[bestAll] = "best";
  const knew = decision && decision.knew
    ? t("Chosen: {made} (expected margin {m}). Best: {best} ({b}).", { made: actionWords(decision.action), m: tenths(decision.knew.made), best: actionWords(decision.knew.best_action), b: tenths(decision.knew.best) })
    : t("The only choice.");
  const hind = decision && decision.hindsight
    ? t("{made}: {mt} tricks, margin {mp}. Best {best}: {bt} tricks, margin {bp}.", { made: actionWords(decision.action), mt: decision.hindsight.made_tricks, mp: decision.hindsight.made_points, best: actionWords(decision.hindsight.best_action), bt: decision.hindsight.best_tricks, bp: decision.hindsight.best_points })
    : t("Not judged with all cards shown (only cards and bids are).");
  const verdict = decision ? `${VERDICTS()[decision.verdict]} · ${lossWords(decision)}` : "";
  const middle = before.kind === "draft" ? centre(before) : centre({ ...before, kind: "before", won: null });
  return `<div class="decision" data-seat="${seat}" data-index="${index}">
    <p class="said"><strong>${escapeHtml(t("Hand {h}", { h: step.hand }))}:</strong> ${escapeHtml(describe(step))} <span class="verdict ${escapeHtml(decision ? decision.verdict : "")}">${escapeHtml(verdict)}</span>
      <button type="button" id="replay-back">${t("Back to the replay (Esc)")}</button></p>
    <div class="side-by-side">
      <section class="board knew" aria-label="${escapeHtml(t("what you knew"))}"><h3>${escapeHtml(t("What {name} knew", { name: nameOf(seat) }))}</h3>
        <div class="seat opponent">${seatRow(before, 1 - seat, {}, true)}</div>
        <div class="phase">${middle}</div>
        <div class="seat mine">${seatRow(before, seat, knewMarks)}</div>
        <p class="figures">${escapeHtml(knew)}</p></section>
      <section class="board all-shown" aria-label="${escapeHtml(t("all cards shown"))}"><h3>${t("All cards shown")}</h3>
        <div class="seat opponent">${seatRow(before, 1 - seat, allMarks)}</div>
        <div class="phase">${middle}</div>
        <div class="seat mine">${seatRow(before, seat, allMarks)}</div>
        <p class="figures">${escapeHtml(hind)}</p></section>
    </div></div>`;
}

export function click(target) {
  if (target.dataset.analyse === undefined) return false;
  const replay = state.replay;
  const seat = Number(target.dataset.analyse);
  const select = $("#replay-level");
  replay.level = select ? select.value : replay.level;
  replay.analyses[seat] = { status: "waiting" };
  state.conn.send({ type: "get_analysis", record_id: replay.recordId, seat, level: replay.level });
  render();
  return true;
}

/** The server's `analysis` answer. */
export function onAnalysis(message) {
  const replay = state.replay;
  if (!replay || message.record_id !== replay.recordId) return;
  try {
    replay.analyses[message.seat] = { status: "ready", data: JSON.parse(message.analysis_json) };
  } catch {
    replay.analyses[message.seat] = { status: "error", message: t("The analysis could not be read.") };
  }
}

/** An error answering get_analysis: every seat still waiting shows it. */
export function onAnalysisError(error) {
  const replay = state.replay;
  if (!replay) return;
  for (const seat of [0, 1]) {
    const entry = replay.analyses[seat];
    if (entry && entry.status === "waiting") replay.analyses[seat] = { status: "error", message: error.message };
  }
}
