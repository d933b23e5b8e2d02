// Cards as the protocol writes them ("10H", "QS"), with names people and screen readers use.

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAME = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

/** Split "10H" into {rank: "10", suit: "H"}. */
export function parts(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** The card's index in the protocol's order: suit * 13 + rank (clubs 2 = 0, spade ace = 51). */
export function cardIndex(card) {
  const { rank, suit } = parts(card);
  return SUITS.indexOf(suit) * 13 + RANKS.indexOf(rank);
}

/** The card of an index 0..51. */
export function cardOf(index) {
  return RANKS[index % 13] + SUITS[Math.floor(index / 13)];
}

/** "Q♠": what a card shows. */
export function short(card) {
  const { rank, suit } = parts(card);
  return rank + SUIT_SYMBOL[suit];
}

/** "queen of spades": the card's name for a screen reader. */
export function longName(card) {
  const { rank, suit } = parts(card);
  return `${RANK_NAME[rank]} of ${SUIT_NAME[suit]}`;
}

export function suitSymbol(suit) {
  return SUIT_SYMBOL[suit];
}

export function suitName(suit) {
  return SUIT_NAME[suit];
}

export function isRed(card) {
  const suit = card.slice(-1);
  return suit === "H" || suit === "D";
}

/** The hand grouped for display: spades first, then hearts, clubs, diamonds (colours alternate). */
export const DISPLAY_SUITS = ["S", "H", "C", "D"];

export function sortForDisplay(cards) {
  return [...cards].sort((a, b) => {
    const sa = DISPLAY_SUITS.indexOf(a.slice(-1));
    const sb = DISPLAY_SUITS.indexOf(b.slice(-1));
    if (sa !== sb) return sa - sb;
    return RANKS.indexOf(parts(b).rank) - RANKS.indexOf(parts(a).rank);
  });
}

/** What a player types for a card: "qs", "10h", "th" -> "QS", "10H"; null if it is not one. */
export function parseTyped(text) {
  const match = /^\s*(10|t|[2-9jqka])\s*([cdhs])\s*$/i.exec(text);
  if (!match) return null;
  const rank = match[1].toUpperCase() === "T" ? "10" : match[1].toUpperCase();
  return rank + match[2].toUpperCase();
}
