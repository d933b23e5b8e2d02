// The fair shuffle, checked here in the browser (docs/protocol.md, "The fair shuffle"):
// the seed's SHA-256 must be the commitment received before the hand, and the deck it
// makes must agree with every card this seat saw.

import { cardOf } from "./cards.js";
import { bytesToHex, concatBytes, hexToBytes, sha256 } from "./sha256.js";

const DOMAIN = new TextEncoder().encode("spades/v1");

/** The stock, top card first, as card indices, from a seed and per-seat entropy (hex). */
export async function deckFromSeed(seedHex, entropyHex = []) {
  const parts = [DOMAIN, hexToBytes(seedHex)];
  for (const hex of entropyHex) {
    const value = hexToBytes(hex);
    parts.push(new Uint8Array([value.length >> 8, value.length & 0xff]), value);
  }
  const key = await sha256(concatBytes(...parts));
  const words = [];
  let block = 0;
  async function below(n) {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      if (words.length === 0) {
        const counter = new Uint8Array(8);
        new DataView(counter.buffer).setBigUint64(0, BigInt(block));
        block += 1;
        const digest = await sha256(concatBytes(key, counter));
        const view = new DataView(digest.buffer);
        for (let k = 0; k < 32; k += 4) words.push(view.getUint32(k));
      }
      const word = words.shift();
      if (word < limit) return word % n;
    }
  }
  const cards = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const j = await below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** SHA-256 of the seed, lowercase hex. */
export async function commitmentOf(seedHex) {
  return bytesToHex(await sha256(hexToBytes(seedHex)));
}

/**
 * Check a revealed hand: {ok, reason}. `committed` is the commitment this page received in
 * hand_started before the hand (null when the page joined later and only has the
 * snapshot's); `seen` is every card this seat saw come off the stock, with its position
 * when known ({card, position}); positions follow the draft order of docs/protocol.md.
 */
export async function checkHand(result, committed, seen = []) {
  if (committed !== null && committed !== result.commitment) {
    return { ok: false, reason: "the commitment differs from the one sent before the hand" };
  }
  if ((await commitmentOf(result.seed)) !== result.commitment) {
    return { ok: false, reason: "the seed does not match its commitment" };
  }
  const deck = await deckFromSeed(result.seed, result.entropy);
  const stock = deck.map(cardOf);
  for (const { card, position } of seen) {
    if (position !== null && position !== undefined && stock[position] !== card) {
      return { ok: false, reason: `the deck does not have ${card} where this seat saw it` };
    }
    if (!stock.includes(card)) return { ok: false, reason: `${card} is not in the deck` };
  }
  const placed = seen.filter(({ position }) => position !== null && position !== undefined).length;
  return {
    ok: true,
    reason: `the seed matches its commitment; the ${placed} cards this seat drew lie where the deck puts them`,
  };
}
