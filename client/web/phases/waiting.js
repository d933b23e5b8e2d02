// The deal phase: waiting for an opponent before the game, or for the shuffle (the seats'
// entropy) before each hand. No keys of its own: "b" (bring in the bot) is the table's.

import { state } from "../store.js";

export function render(view) {
  if (state.table.status !== "waiting") return `<p>Shuffling…</p>`;
  return `<p class="waiting">Waiting for an opponent…${view.seat !== null ? " Send the link, or bring in the bot." : ""}</p>`;
}
