// Cards as the protocol writes them ("10H", "QS"), with names people and screen readers use,
// and the letters of the player's language: German decks print B D K A (Bube, Dame, König,
// Ass) and name the suits x k h p (Kreuz, Karo, Herz, Pik); Dutch ones B V H A and k r h s
// (klaveren, ruiten, harten, schoppen). The English letters are always typed too.

import { language, t } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
// built at each call, so that t() reads the catalogue in use
const SUIT_NAME = () => ({ C: t("clubs"), D: t("diamonds"), H: t("hearts"), S: t("spades") });
const RANK_NAME = () => ({
  2: t("two"), 3: t("three"), 4: t("four"), 5: t("five"), 6: t("six"), 7: t("seven"), 8: t("eight"),
  9: t("nine"), 10: t("ten"), J: t("jack"), Q: t("queen"), K: t("king"), A: t("ace"),
});
// the language's letters for J Q K A, and for clubs, diamonds, hearts, spades
const PICTURES = { de: "BDKA", nl: "BVHA" };
const SUIT_LETTERS = { de: "xkhp", nl: "krhs" };

/** The rank as the language's decks print it: "D" for the German queen. */
export function rankText(card) {
  const { rank } = parts(card);
  const at = "JQKA".indexOf(rank);
  return at < 0 ? rank : (PICTURES[language()] || "JQKA")[at];
}

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
  return rankText(card) + SUIT_SYMBOL[parts(card).suit];
}

/** "queen of spades": the card's name for a screen reader. */
export function longName(card) {
  const { rank, suit } = parts(card);
  return t("{rank} of {suit}", { rank: RANK_NAME()[rank], suit: SUIT_NAME()[suit] });
}

export function suitSymbol(suit) {
  return SUIT_SYMBOL[suit];
}

export function suitName(suit) {
  return SUIT_NAME()[suit];
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

/** Whether `key` ends a typed card (a suit letter, English or the language's). */
export function isSuitKey(key) {
  return key.length === 1 && `cdhs${SUIT_LETTERS[language()] || ""}`.includes(key.toLowerCase());
}

/** Whether `key` may be part of a typed card. */
export function isCardKey(key) {
  const letters = `0123456789tjqka${PICTURES[language()] || ""}`.toLowerCase();
  return key.length === 1 && (letters.includes(key.toLowerCase()) || isSuitKey(key));
}

/** What a player types for a card: "qs", "10h", "th" (German "dp") -> "QS", "10H"; null if
 * it is not one. */
export function parseTyped(text) {
  const match = /^\s*(10|t|[2-9]|\p{L})\s*(\p{L})\s*$/iu.exec(text);
  if (!match) return null;
  const code = language();
  const typedRank = match[1].toUpperCase();
  const local = (PICTURES[code] || "").indexOf(typedRank);
  let rank = typedRank === "T" ? "10" : local >= 0 ? "JQKA"[local] : typedRank;
  if (!RANKS.includes(rank)) return null;
  const letter = match[2].toLowerCase();
  const localSuit = (SUIT_LETTERS[code] || "").indexOf(letter);
  const suit = localSuit >= 0 ? SUITS[localSuit] : "cdhs".includes(letter) ? letter.toUpperCase() : null;
  if (!suit) return null;
  rank = rank === "1" ? null : rank;
  return rank ? rank + suit : null;
}
