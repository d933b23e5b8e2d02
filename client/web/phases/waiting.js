// The deal phase: waiting for an opponent before the game, or for the shuffle (the seats'
// entropy) before each hand. No keys of its own: "b" (bring in the bot) is the table's.

import { t } from "../i18n.js";
import { state } from "../store.js";

export function render(view) {
  if (state.table.status !== "waiting") return `<p>${t("Shuffling…")}</p>`;
  return `<p class="waiting">${t("Waiting for an opponent…")}${view.seat !== null ? ` ${t("Send the link, or bring in the bot.")}` : ""}</p>`;
}
