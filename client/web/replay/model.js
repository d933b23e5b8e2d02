// A game record (spades-record/1) cut into steps: the board after every action of every
// hand, for the replay to step through. Pure: no page, no network (tests run it in node).
//
//   const game = replaySteps(record);
//   game.steps[i]            // {hand, seat, text, kind, hands, offered, trick, won, ...}
//   game.hands               // [{number, first, last}]: the steps of each hand
//   game.decisions[seat][k]  // the step of seat's k-th decision (an analysis "index")
//
// The draft is replayed from each hand's stock (top card first: the drafter keeps the top
// card and the next goes to the pile, or discards it and takes the next). A blind-nil
// exchange draws from the pile at random; which cards came back is read from the cards the
// seat went on to play. Throws RecordError when the record is not one.

import { cardIndex, parts } from "../cards.js";
import { t } from "../i18n.js";

export class RecordError extends Error {}

const SPADES = "S";

/** The seat that wins a trick led by `leader` with `first`, answered by `second`. */
export function trickWinner(leader, first, second) {
  const a = parts(first);
  const b = parts(second);
  if (a.suit === b.suit) return cardIndex(first) > cardIndex(second) ? leader : 1 - leader;
  return b.suit === SPADES ? 1 - leader : leader;
}

function sorted(cards) {
  return [...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
}

function copy(board) {
  return {
    ...board,
    hands: [board.hands[0].slice(), board.hands[1].slice()],
    trick: board.trick.slice(),
    tricks: board.tricks.slice(),
    bids: board.bids.slice(),
    blind: board.blind.slice(),
    scores: board.scores.slice(),
    played: board.played.slice(),
  };
}

// the cards each seat plays in the hand: its hand when play began (when all 13 were played)
function playedBy(actions) {
  const cards = [[], []];
  for (const [seat, text] of actions) if (seat !== null && text.startsWith("play ")) cards[seat].push(text.slice(5));
  return cards;
}

/** Every step of the game in `record` (see the module's comment). */
export function replaySteps(record) {
  if (!record || record.format !== "spades-record/1" || !Array.isArray(record.hands)) {
    throw new RecordError(t("not a spades-record/1 game record"));
  }
  const steps = [];
  const hands = [];
  const decisions = [[], []];
  let scores = [0, 0];
  for (const hand of record.hands) {
    const stock = hand.stock ? hand.stock.split(" ") : [];
    const willPlay = playedBy(hand.actions);
    const first = steps.length;
    let pos = 0;
    let leader = null;
    let board = {
      hand: hand.hand_number,
      seat: null,
      text: "",
      kind: "start",
      hands: [[], []],
      offered: null,
      trick: [],
      won: null,
      tricks: [0, 0],
      bids: [null, null],
      blind: [false, false],
      scores: scores.slice(),
      pile: 0,
      stockLeft: stock.length,
      played: [],
      result: null,
      firstDrafter: hand.first_drafter,
    };
    steps.push(copy(board));
    for (const [seat, text] of hand.actions) {
      if (seat === null) continue; // the deal: commit, shuffle (the stock is in the record)
      if (seat !== 0 && seat !== 1) throw new RecordError(t("bad seat in {action}", { action: text }));
      board = copy(board);
      board.seat = seat;
      board.text = text;
      board.offered = null;
      board.won = null;
      if (board.trick.length === 2) board.trick = []; // the trick finished last step is gathered
      const [head, ...rest] = text.split(" ");
      if (head === "blind-nil" || head === "no-blind-nil") {
        board.kind = "blind_nil";
        board.blind[seat] = head === "blind-nil";
      } else if (head === "keep" || head === "discard") {
        if (pos + 1 >= stock.length) throw new RecordError(t("the draft runs past the stock"));
        const [top, next] = [stock[pos], stock[pos + 1]];
        pos += 2;
        board.kind = "draft";
        board.offered = top;
        board.took = head === "keep" ? top : next;
        board.hands[seat] = sorted([...board.hands[seat], board.took]);
        board.pile += 1;
        board.stockLeft = stock.length - pos;
      } else if (head === "exchange") {
        board.kind = "exchange";
        const given = rest;
        const kept = board.hands[seat].filter((card) => !given.includes(card));
        const received = willPlay[seat].length === 13 ? willPlay[seat].filter((card) => !kept.includes(card)) : [];
        board.hands[seat] = sorted([...kept, ...received]);
        board.given = given;
        board.received = received;
      } else if (head === "bid") {
        board.kind = "bid";
        board.bids[seat] = rest[0] === "nil" ? 0 : Number(rest[0]);
      } else if (head === "play") {
        const card = rest[0];
        if (!board.hands[seat].includes(card)) throw new RecordError(t("seat {seat} does not hold {card}", { seat, card }));
        board.kind = "play";
        if (board.trick.length === 0) leader = seat;
        board.hands[seat] = board.hands[seat].filter((held) => held !== card);
        board.trick.push({ seat, card });
        board.played.push(card);
        if (board.trick.length === 2) {
          board.won = trickWinner(leader, board.trick[0].card, board.trick[1].card);
          board.tricks[board.won] += 1;
        }
      } else {
        throw new RecordError(t("unknown action {action}", { action: text }));
      }
      decisions[seat].push(steps.length);
      steps.push(board);
    }
    if (hand.scores) {
      board = copy(board);
      board.kind = "scored";
      board.seat = null;
      board.text = "";
      board.won = null;
      board.trick = [];
      board.offered = null;
      board.result = hand;
      board.scores = hand.scores.slice();
      scores = hand.scores.slice();
      steps.push(board);
    }
    hands.push({ number: hand.hand_number, first, last: steps.length - 1 });
  }
  return { steps, hands, decisions, rules: record.rules || {}, scores: record.scores, winner: record.winner };
}
