// The keys (?): every key of every screen in one list.

import { t } from "../i18n.js";
import { rulesInWords } from "../screens/name.js";
import { escapeHtml, state } from "../store.js";

// the rules of the table on screen, in the player's language
function tableRules() {
  if (!state.table) return "";
  const lines = rulesInWords(state.table.rules).map((line) => `<li>${escapeHtml(line)}</li>`);
  return `<h3>${t("Rules at this table")}</h3><ul class="rules-words">${lines.join("")}</ul>`;
}

export function render() {
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="help-title"><h2 id="help-title">${t("Keys")}</h2><dl class="keys">
    <dt>←/→, Enter</dt><dd>${t("choose a playable card, play it")}</dd><dt>${t("qs, 10h, th")}</dt><dd>${t("type a card to play it")}</dd>
    <dt>k / d</dt><dd>${t("draft: keep / discard")}</dd><dt>0–13, n, Enter</dt><dd>${t("bid (n: nil)")}</dd><dt>y / n</dt><dd>${t("blind nil")}</dd>
    <dt>${t("Space, Enter")}</dt><dd>${t("exchange: pick a card, give them; after a trick: go on")}</dd><dt>s / o / ?</dt><dd>${t("score sheet, settings, keys")}</dd>
    <dt>m</dt><dd>${t("chat (type /mute to hide the others' chat, /unmute to show it; /report TEXT tells the host)")}</dd><dt>b</dt><dd>${t("bring in the bot")}</dd><dt>r / l</dt><dd>${t("game over: rematch / leave")}</dd></dl>
    <p class="small">${t("Cards are typed in English letters: J Q K A, suits c d h s (qs is the queen of spades).")}</p>${tableRules()}
    <div class="choices"><button type="button" data-close>${t("Close (Esc)")}</button></div></div>`;
}
