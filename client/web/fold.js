// Keeping the page's copy of the view in step with the server, without asking for it.
//
// A snapshot replaces the view outright (on join, resume, reload, rematch, or when a gap
// shows). Between snapshots the server sends `events` frames, one per state version; each
// is folded here into the view the way the engine changed this viewer's view (a port of
// client/state.py's apply_event, plus the two facts that reach a page in other messages:
// the card on offer comes in `your_turn`, a hand's totals and bags in `hand_result`).
// Pure functions on plain JSON objects: no DOM, so node can import this module too.
//
//   const { view, gap } = foldMessage(view, message, rules);
//   // gap: the message does not follow the view (a missed frame): ask for a snapshot
//
// tests/web/test_fold.py runs it under node on random engine games: after every message
// the folded view equals the server's snapshot view for that seat or spectator.

import { cardIndex } from "./cards.js";

const HAND_SIZE = 13;
const FULL_STOCK = 52;

/** `pair` with the item of `seat` replaced by `value` (a new array). */
function withSeat(pair, seat, value) {
  return seat === 0 ? [value, pair[1]] : [pair[0], value];
}

const CARD = /^(10|[2-9JQKA])[CDHS]$/;

/** `text` if it is a card in protocol form ("10H"); throws otherwise (the frame is a gap). */
function card(text) {
  if (typeof text !== "string" || !CARD.test(text)) throw new Error(`not a card: ${text}`);
  return text;
}

function sorted(cards) {
  return [...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
}

/** The engine's start of bidding: the first seat still to bid, else the first trick. */
function startBidding(view) {
  const first = view.first_bidder ?? 0;
  const bidders = [first, 1 - first].filter((s) => !view.blind_nil[s] && view.bids[s] === null);
  if (bidders.length) return { ...view, phase: "bidding", current_player: bidders[0] };
  return { ...view, phase: "play", current_player: first, leader: first };
}

function exchangers(view, rules) {
  if (rules.blind_nil_exchange === 0) return [];
  const first = view.first_drafter ?? 0;
  return [first, 1 - first].filter((s) => view.blind_nil[s] && view.exchange_counts[s] === null);
}

function handStarted(view, event) {
  const base = event.hand_number === 1 ? { ...view, scores: [0, 0], bags: [0, 0], hand_results: [], winner: null } : view;
  return {
    ...base,
    phase: "deal",
    hand_number: event.hand_number,
    first_drafter: event.first_drafter,
    first_bidder: event.first_bidder,
    current_player: null,
    commitment: event.commitment,
    hand: [],
    offered: null,
    draft_kept: [],
    draft_discarded: [],
    draft_taken: [],
    draft_seen_after_keep: [],
    exchange_given: [],
    exchange_received: [],
    hand_sizes: [0, 0],
    draft_turns: [0, 0],
    stock_left: FULL_STOCK,
    pile_size: 0,
    blind_nil: [null, null],
    exchange_counts: [null, null],
    bids: [null, null],
    tricks: [],
    current_trick: [],
    leader: null,
    tricks_won: [0, 0],
    spades_broken: false,
  };
}

function draftTurn(view, event, rules) {
  const seat = event.seat;
  let next = {
    ...view,
    draft_turns: withSeat(view.draft_turns, seat, HAND_SIZE - event.turns_left),
    hand_sizes: withSeat(view.hand_sizes, seat, view.hand_sizes[seat] + 1),
    stock_left: Math.max(0, view.stock_left - 2),
    pile_size: view.pile_size + 1,
    offered: null,
  };
  if (seat === view.seat && event.card !== null) {
    card(event.card);
    if (event.other_card !== null) card(event.other_card);
    if (event.kept) {
      next = {
        ...next,
        hand: sorted([...next.hand, event.card]),
        draft_kept: [...next.draft_kept, event.card],
        draft_seen_after_keep: event.other_card === null ? next.draft_seen_after_keep : [...next.draft_seen_after_keep, event.other_card],
      };
    } else if (event.other_card !== null) {
      next = {
        ...next,
        hand: sorted([...next.hand, event.other_card]),
        draft_discarded: [...next.draft_discarded, event.card],
        draft_taken: [...next.draft_taken, event.other_card],
      };
    }
  }
  if (next.stock_left > 0) return { ...next, current_player: 1 - seat };
  const waiting = exchangers(next, rules);
  if (waiting.length) return { ...next, phase: "exchange", current_player: waiting[0] };
  return startBidding(next);
}

function exchange(view, event, rules) {
  let next = { ...view, exchange_counts: withSeat(view.exchange_counts, event.seat, event.count) };
  if (event.seat === view.seat) {
    [...event.given, ...event.received].forEach(card);
    const given = new Set(event.given);
    next = {
      ...next,
      hand: sorted([...next.hand.filter((c) => !given.has(c)), ...event.received]),
      exchange_given: sorted(event.given),
      exchange_received: sorted(event.received),
    };
  }
  const waiting = exchangers(next, rules);
  if (waiting.length) return { ...next, current_player: waiting[0] };
  return startBidding(next);
}

function cardPlayed(view, event) {
  const seat = event.seat;
  card(event.card);
  return {
    ...view,
    phase: "play",
    hand: seat === view.seat ? view.hand.filter((c) => c !== event.card) : view.hand,
    hand_sizes: withSeat(view.hand_sizes, seat, Math.max(0, view.hand_sizes[seat] - 1)),
    current_trick: [...view.current_trick, event.card],
    leader: view.current_trick.length ? view.leader : seat,
    spades_broken: view.spades_broken || event.card.endsWith("S"),
    current_player: 1 - seat,
  };
}

function trickWon(view, event) {
  const winner = event.trick.winner;
  event.trick.cards.forEach(card);
  return {
    ...view,
    tricks: [...view.tricks, { leader: event.trick.leader, cards: [...event.trick.cards], winner }],
    current_trick: [],
    leader: winner,
    current_player: winner,
    tricks_won: withSeat(view.tricks_won, winner, view.tricks_won[winner] + 1),
  };
}

/** The view after one event (already filtered for this viewer by the server). */
export function applyEvent(view, event, rules) {
  switch (event.kind) {
    case "hand_started":
      return handStarted(view, event);
    case "shuffled":
      return { ...view, phase: rules.blind_nil ? "blind_nil" : "draft", current_player: view.first_drafter, stock_left: FULL_STOCK };
    case "blind_nil": {
      const blind = withSeat(view.blind_nil, event.seat, event.declared);
      if (blind[1 - event.seat] === null) return { ...view, blind_nil: blind, current_player: 1 - event.seat };
      return { ...view, blind_nil: blind, phase: "draft", current_player: view.first_drafter };
    }
    case "draft_turn":
      return draftTurn(view, event, rules);
    case "exchange":
      return exchange(view, event, rules);
    case "bid":
      return startBidding({ ...view, bids: withSeat(view.bids, event.seat, event.tricks) });
    case "card_played":
      return cardPlayed(view, event);
    case "trick_won":
      return trickWon(view, event);
    case "hand_scored":
      return { ...view, phase: "hand_over", scores: [...event.scores], current_player: null, leader: null };
    case "game_over":
      return { ...view, phase: "game_over", winner: event.winner, scores: [...event.scores], current_player: null };
    default:
      return view; // a kind this page does not know: the next snapshot brings it
  }
}

/**
 * Fold one server message into `view` (null before the first snapshot) under `rules` (the
 * table's). Returns `{view, gap}`: `gap` is true when the message shows the view out of
 * step (an `events` frame that is not the next version, an event that does not apply, a
 * `your_turn` the view does not expect) and a snapshot should be asked for; the view is
 * then returned unchanged. A frame the view already holds changes nothing.
 */
export function foldMessage(view, message, rules) {
  if (message.type === "snapshot") return { view: message.view, gap: false };
  if (view === null) return { view, gap: message.type === "events" || message.type === "your_turn" };
  switch (message.type) {
    case "events": {
      if (message.version <= view.version) return { view, gap: false }; // already in the view
      if (message.version !== view.version + 1) return { view, gap: true };
      let next = view;
      try {
        for (const event of message.events) next = applyEvent(next, event, rules);
      } catch {
        return { view, gap: true }; // an event that does not fit this view
      }
      return { view: { ...next, version: message.version }, gap: false };
    }
    case "your_turn": {
      if (message.version < view.version) return { view, gap: false }; // an old turn
      const expected = message.version === view.version && view.seat !== null && view.current_player === view.seat && view.phase === message.phase;
      if (!expected) return { view, gap: true };
      // the card on offer is told to the drafter only, with its turn
      return { view: { ...view, offered: message.phase === "draft" ? message.offered : null }, gap: false };
    }
    case "hand_result": {
      // the hand's line of the score sheet, and the bags (no event carries them)
      const earlier = view.hand_results.filter((r) => r.hand_number < message.hand_number);
      return { view: { ...view, hand_results: [...earlier, message], scores: [...message.scores], bags: [...message.bags] }, gap: false };
    }
    default:
      return { view, gap: false };
  }
}
