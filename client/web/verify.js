// Every check this seat can make of a finished hand (docs/protocol.md, "What a client
// checks after each hand"; the same as protocol/verify.py): the seed against the
// commitment heard at the hand's start, this seat's own value, the deck recomputed from
// the seed and both entropy entries, every card this seat saw in its draft, each card the
// other seat played against that seat's draft pairs (one card per pair, except what it
// received in a blind-nil exchange), the exchange draws, and in 1.3 each revealed value
// against its seat's commitment. Pure: no page state, so node runs it in the tests.
//
//   const evidence = newEvidence(seat);         // at hand_started
//   collect(evidence, event);                    // every event of the hand, in order
//   evidence.relayed = message.commitments;      // 1.3 entropy_commitments
//   evidence.value = sentHex;                    // this seat's value ("" for none)
//   const { ok, problems, withheld } = checkEvidence(evidence, result);
//
// `problems` says exactly what failed, one sentence each (t(): the player reads them);
// `withheld` lists the seats that committed and did not reveal (not a failed check).

import { cardIndex, cardOf } from "./cards.js";
import { t } from "./i18n.js";
import { bytesToHex, concatBytes, hexToBytes, sha256Plain } from "./sha256.js";

const DRAFT_TURNS = 26;
const HAND_SIZE = 13;
const DOMAIN = new TextEncoder().encode("spades/v1");
const COMMIT_DOMAIN = new TextEncoder().encode("spades/commit/v1");

/** The evidence of one hand for `seat`, empty until events come. */
export function newEvidence(seat) {
  return {
    seat,
    value: "",
    commitment: null,
    firstDrafter: null,
    turns: [],
    given: [],
    received: [],
    opponentPlayed: [],
    opponentExchanged: 0,
    relayed: null,
    withheld: [false, false],
  };
}

/** Take one event of the hand into `evidence` (other kinds are ignored). */
export function collect(evidence, event) {
  switch (event.kind) {
    case "hand_started":
      evidence.commitment = event.commitment;
      evidence.firstDrafter = event.first_drafter;
      break;
    case "shuffled":
      evidence.withheld = event.withheld || [false, false];
      break;
    case "draft_turn":
      if (event.seat === evidence.seat && event.card && event.kept !== null) {
        evidence.turns.push({ kept: event.kept, card: event.card, other: event.other_card });
      }
      break;
    case "exchange":
      if (event.seat === evidence.seat) {
        evidence.given = [...event.given];
        evidence.received = [...event.received];
      } else evidence.opponentExchanged = event.count;
      break;
    case "card_played":
      if (event.seat !== evidence.seat) evidence.opponentPlayed.push(event.card);
      break;
    default:
      break;
  }
}

/** The stream of docs/protocol.md (SHA-256 of key + block counter, 32-bit words). */
export class Stream {
  constructor(seedHex, entropyHex) {
    const parts = [DOMAIN, hexToBytes(seedHex)];
    for (const hex of entropyHex) {
      const value = hexToBytes(hex);
      parts.push(new Uint8Array([value.length >> 8, value.length & 0xff]), value);
    }
    this.key = sha256Plain(concatBytes(...parts));
    this.words = [];
    this.block = 0;
  }

  below(n) {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      if (this.words.length === 0) {
        const counter = new Uint8Array(8);
        new DataView(counter.buffer).setBigUint64(0, BigInt(this.block));
        this.block += 1;
        const view = new DataView(sha256Plain(concatBytes(this.key, counter)).buffer);
        for (let k = 0; k < 32; k += 4) this.words.push(view.getUint32(k));
      }
      const word = this.words.shift();
      if (word < limit) return word % n;
    }
  }

  shuffle() {
    const cards = Array.from({ length: 52 }, (_, i) => i);
    for (let i = 51; i > 0; i--) {
      const j = this.below(i + 1);
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    return cards;
  }
}

/** A seat's 1.3 commitment to `valueHex` for the hand whose hand_started said `commitmentHex`. */
export function seatCommitment(commitmentHex, seat, valueHex) {
  const bytes = concatBytes(COMMIT_DOMAIN, hexToBytes(commitmentHex), new Uint8Array([seat]), hexToBytes(valueHex));
  return bytesToHex(sha256Plain(bytes));
}

const isHex = (text) => typeof text === "string" && /^(?:[0-9a-f]{2})*$/.test(text);
const byCard = (a, b) => cardIndex(a) - cardIndex(b);
const list = (cards) => [...cards].sort(byCard).join(" ") || t("nothing");

/** The seats that committed and revealed nothing: withheld reveals (1.3). */
export function withheldSeats(commitments, entropy) {
  return [0, 1].filter((seat) => commitments && commitments[seat] && !entropy[seat]);
}

function commitProblems(e, result) {
  const recorded = result.entropy_commitments || [];
  if (e.relayed === null) {
    return recorded.some((c) => c) ? [t("hand_result lists entropy commitments that were never relayed")] : [];
  }
  const relayed = e.relayed.map((c) => c || "");
  const problems = [];
  // no commitment at all is recorded as none (the hand was then dealt as in 1.2)
  const none = !recorded.some((c) => c) && !relayed.some((c) => c);
  if (!none && (recorded.length !== 2 || recorded.some((c, i) => c !== relayed[i]))) {
    problems.push(t("hand_result's entropy commitments differ from those relayed"));
  }
  for (const seat of [0, 1]) {
    const value = result.entropy[seat];
    if (!value) continue;
    if (!relayed[seat]) problems.push(t("seat {seat}'s value went in without a relayed commitment", { seat }));
    else if (seatCommitment(e.commitment, seat, value) !== relayed[seat]) {
      problems.push(t("seat {seat}'s revealed value does not match its commitment", { seat }));
    }
  }
  const withheld = withheldSeats(relayed, result.entropy);
  const shown = [0, 1].filter((seat) => e.withheld[seat]);
  if (withheld.join() !== shown.join()) problems.push(t("the shuffled event's withheld disagrees with the commitments and values"));
  return problems;
}

/**
 * Every check of the hand for the evidence's seat: {ok, problems, withheld, checked}.
 * `checked` says what was checked when all passed (for the details of the window).
 */
export function checkEvidence(e, result) {
  if (e.commitment === null || e.firstDrafter === null) {
    return { ok: false, problems: [t("no hand_started was seen for this hand: its commitment is unknown")], withheld: [] };
  }
  const problems = [];
  if (result.first_drafter !== e.firstDrafter) problems.push(t("hand_result names another first drafter than hand_started"));
  if (!isHex(result.seed) || !result.entropy.every(isHex)) {
    return { ok: false, problems: [...problems, t("the revealed seed or entropy is not hex")], withheld: [] };
  }
  if (bytesToHex(sha256Plain(hexToBytes(result.seed))) !== e.commitment) {
    problems.push(t("the seed does not hash to the commitment of hand_started"));
  }
  if (result.entropy.length !== 2) problems.push(t("entropy has {n} entries instead of 2", { n: result.entropy.length }));
  else if (result.entropy[e.seat] !== e.value) problems.push(t("your entry of entropy is not the value you sent"));
  problems.push(...commitProblems(e, result));
  const cards = new Stream(result.seed, result.entropy).shuffle().map(cardOf);
  problems.push(...cardProblems(e, cards), ...exchangeProblems(e, result, cards));
  const withheld = withheldSeats(result.entropy_commitments, result.entropy);
  return { ok: problems.length === 0, problems, withheld };
}

function myTurns(e) {
  return Array.from({ length: DRAFT_TURNS }, (_, i) => i).filter((i) => (i % 2 === 0) === (e.firstDrafter === e.seat));
}

function cardProblems(e, cards) {
  const problems = [];
  const mine = myTurns(e);
  const theirs = new Set(Array.from({ length: DRAFT_TURNS }, (_, i) => i).filter((i) => !mine.includes(i)));
  if (e.turns.length > mine.length) problems.push(t("you took {n} draft turns, more than {max}", { n: e.turns.length, max: mine.length }));
  const got = new Set();
  const myPile = new Set();
  e.turns.slice(0, mine.length).forEach((turn, k) => {
    const turnNo = mine[k];
    const [top, second] = [cards[2 * turnNo], cards[2 * turnNo + 1]];
    if (turn.card !== top) problems.push(t("draft turn {turn}: you were offered {card}, the deck says {deck}", { turn: turnNo, card: turn.card, deck: top }));
    if (turn.other && turn.other !== second) {
      problems.push(t("draft turn {turn}: the second card was {card}, the deck says {deck}", { turn: turnNo, card: turn.other, deck: second }));
    }
    got.add(turn.kept ? top : second);
    myPile.add(turn.kept ? second : top);
  });
  const theirCards = new Set([...theirs].flatMap((i) => [cards[2 * i], cards[2 * i + 1]]));
  for (const card of e.received) {
    if (!myPile.has(card) && !theirCards.has(card)) problems.push(t("you received {card} in your exchange, a card that never went to the pile", { card }));
  }
  const held = new Set([...got].filter((c) => !e.given.includes(c)).concat(e.received));
  const position = new Map(cards.map((card, i) => [card, i]));
  const used = new Set();
  const gaveFirst = e.firstDrafter === e.seat;
  const extras = [];
  for (const card of e.opponentPlayed) {
    if (!position.has(card)) {
      problems.push(t("the other seat played {card}, which is not a card", { card: JSON.stringify(card) }));
      continue;
    }
    const pair = Math.floor(position.get(card) / 2);
    if (held.has(card)) problems.push(t("the other seat played {card}, a card you held", { card }));
    else if (theirs.has(pair) && !used.has(pair)) used.add(pair);
    else if (theirs.has(pair) || myPile.has(card) || (e.given.includes(card) && gaveFirst)) extras.push(card);
    else problems.push(t("the other seat played {card}, a card you drafted", { card }));
  }
  if (extras.length > e.opponentExchanged) {
    problems.push(
      t("the other seat played {n} card(s) outside its draft pairs ({cards}) but received only {m} in an exchange", {
        n: extras.length,
        cards: extras.join(" "),
        m: e.opponentExchanged,
      }),
    );
  }
  return problems;
}

/** Check 5: the blind-nil exchange draws, against every draft of the other seat that fits. */
function exchangeProblems(e, result, cards) {
  const counts = { [e.seat]: e.given.length, [1 - e.seat]: e.opponentExchanged };
  if (!counts[0] && !counts[1]) return [];
  if (e.received.length !== e.given.length) {
    return [t("you gave {n} card(s) in your exchange but received {m}", { n: e.given.length, m: e.received.length })];
  }
  const played = new Set(e.opponentPlayed);
  const mine = myTurns(e);
  if (e.turns.length !== mine.length || played.size !== HAND_SIZE) return []; // not seen whole
  const order = [e.firstDrafter, 1 - e.firstDrafter].filter((s) => counts[s] > 0);
  const stream = new Stream(result.seed, result.entropy);
  stream.shuffle(); // the exchanges' draws go on from where the shuffle left the stream
  const positions = order.map((s) => Array.from({ length: counts[s] }, (_, k) => stream.below(DRAFT_TURNS - k)));
  const laid = new Map(mine.map((turnNo, k) => [turnNo, e.turns[k].kept ? cards[2 * turnNo + 1] : cards[2 * turnNo]]));
  const pairs = [];
  for (let i = 0; i < DRAFT_TURNS; i++) if (!laid.has(i)) pairs.push([i, cards[2 * i], cards[2 * i + 1]]);
  const theirs = new Set(pairs.flatMap(([, a, b]) => [a, b]));
  const outside = [...played].filter((c) => !theirs.has(c)).length;
  const reasons = [];
  for (const draft of theirDrafts(pairs, played, outside, e.opponentExchanged)) {
    const pile = Array.from({ length: DRAFT_TURNS }, (_, i) => (laid.has(i) ? laid.get(i) : draft.get(i)[1]));
    const kept = new Set([...draft.values()].map(([k]) => k));
    const reason = replayExchanges(e, pile, kept, order, positions);
    if (reason === null) return [];
    reasons.push(reason);
  }
  if (reasons.length === 0) {
    return [t("the cards the other seat played fit no draft of its own with an exchange of {n} card(s)", { n: e.opponentExchanged })];
  }
  if (reasons.length === 1) return [t("the exchange draws do not match: {reason}", { reason: reasons[0] })];
  return [
    t("the exchange draws match none of the {n} drafts the other seat could have made (the first: {reason})", {
      n: reasons.length,
      reason: reasons[0],
    }),
  ];
}

function* theirDrafts(pairs, played, outside, exchanged) {
  const chosen = [];
  function* walk(index, gave, took) {
    if (gave > exchanged || took + outside > exchanged) return;
    if (index === pairs.length) {
      if (gave === exchanged && took + outside === exchanged) yield new Map(pairs.map(([i], k) => [i, chosen[k]]));
      return;
    }
    const [, top, second] = pairs[index];
    for (const [kept, laid] of [[top, second], [second, top]]) {
      chosen.push([kept, laid]);
      yield* walk(index + 1, gave + (played.has(kept) ? 0 : 1), took + (played.has(laid) ? 1 : 0));
      chosen.pop();
    }
  }
  yield* walk(0, 0, 0);
}

function replayExchanges(e, pile, theirKept, order, positions) {
  const played = new Set(e.opponentPlayed);
  for (let k = 0; k < order.length; k++) {
    const drawn = positions[k].map((p) => pile.splice(p, 1)[0]);
    let gave;
    if (order[k] === e.seat) {
      if ([...drawn].sort(byCard).join() !== [...e.received].sort(byCard).join()) {
        return t("you received {got} in your exchange; the stream and the pile give {drawn}", { got: list(e.received), drawn: list(drawn) });
      }
      gave = new Set(e.given);
    } else {
      if (!drawn.every((c) => played.has(c))) return t("the other seat's exchange drew {drawn}, not all of which it played", { drawn: list(drawn) });
      const keptAndPlayed = [...played].filter((c) => !drawn.includes(c));
      const strange = keptAndPlayed.filter((c) => !theirKept.has(c));
      if (strange.length) {
        return t("the other seat played {cards}, neither kept in its draft nor drawn in its exchange (it drew {drawn})", {
          cards: list(strange),
          drawn: list(drawn),
        });
      }
      gave = new Set([...theirKept].filter((c) => !keptAndPlayed.includes(c)));
    }
    pile.push(...[...gave].sort(byCard)); // given cards go last, in card order
  }
  return null;
}

/**
 * This seat's evidence of the hand on screen, from the page's folded view (the tricks,
 * its draft, its exchange) and the draft cards it noted with their stock positions.
 */
export function evidenceFromView(view, seen, committed, sent, relayed = null) {
  const seat = view.seat;
  const e = newEvidence(seat);
  e.value = sent && sent !== "pending" ? sent : "";
  e.commitment = committed;
  e.relayed = relayed; // the 1.3 entropy_commitments heard (null: none heard)
  e.firstDrafter = view.first_drafter;
  const at = new Map(seen.map(({ card, position }) => [position, card]));
  const offers = [...at.keys()].filter((p) => p % 2 === 0).sort((a, b) => a - b);
  e.turns = offers.map((p) => ({ card: at.get(p), other: at.get(p + 1) || null, kept: view.draft_kept.includes(at.get(p)) }));
  e.given = [...view.exchange_given];
  e.received = [...view.exchange_received];
  e.opponentExchanged = view.exchange_counts[1 - seat] || 0;
  e.opponentPlayed = view.tricks.map((trick) => (trick.leader === seat ? trick.cards[1] : trick.cards[0]));
  return e;
}

const FAILED_KEY = "spades2.failedChecks";

/**
 * The page's verdict on a finished hand: {ok, reason, problems, withheld}. A seat gets
 * every check; a spectator the seed against the commitment and the deck. A failed check
 * keeps its evidence (the result, what this seat saw, the problems) in localStorage.
 */
export function verdict(result, { view, seen, committed, sent, relayed = null }) {
  if (!view || view.seat === null || view.seat === undefined) {
    const seedOk = isHex(result.seed) && bytesToHex(sha256Plain(hexToBytes(result.seed))) === (committed || result.commitment);
    return seedOk
      ? { ok: true, reason: t("the seed matches its commitment"), problems: [], withheld: [] }
      : { ok: false, reason: t("the seed does not hash to the commitment of hand_started"), problems: [], withheld: [] };
  }
  const evidence = evidenceFromView(view, seen, committed, sent, relayed);
  const { ok, problems, withheld } = checkEvidence(evidence, result);
  if (!ok) keepEvidence({ result, evidence, problems });
  const notes = withheld.map((seat) => t("seat {seat} committed to a shuffle value and did not reveal it", { seat }));
  const mine = sent ? [t("your entropy is in it")] : [];
  const passed = [
    t("the seed matches its commitment"),
    t("the {n} cards this seat drew lie where the deck puts them", { n: seen.length }),
    t("every card the other seat played lies in one of its draft pairs, one card per pair"),
  ];
  const gap = t("; "); // between two findings: Greek writes "·" (its ";" asks a question)
  const reason = ok ? [...passed, ...mine, ...notes].join(gap) : problems.join(gap);
  return { ok, reason, problems, withheld };
}

function keepEvidence(record) {
  try {
    const kept = JSON.parse(localStorage.getItem(FAILED_KEY) || "[]");
    kept.push({ ...record, when: new Date().toISOString() });
    localStorage.setItem(FAILED_KEY, JSON.stringify(kept.slice(-20)));
  } catch {
    // no storage (a private window): the window still says what failed
  }
}
