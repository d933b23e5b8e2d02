// The words written in index.html, in the player's language. index.html keeps its English
// (what shows before a catalogue loads, and what a search engine reads); translateStatic()
// puts each element's words in the language in use, leaving its controls where they are.
//
//   await loadLanguage(code); translateStatic();

import { t } from "./i18n.js";

// [selector, words]: built at each call, so that t() reads the catalogue in use
function words() {
  return [
    ["h1", `♠ ${t("Spades")}`],
    ["#reclaim", t("Play here")],
    ["#name-title", t("Your name")],
    ['label[for="name-input"]', t("Name shown at the table")],
    ["#name-form button", t("Play")],
    ["#name-screen p.small", t("Nothing to install: this page talks to the server that sent it.")],
    ["#lobby-title", t("Open tables")],
    ["#refresh", t("Refresh")],
    ['label[for="code-input"]', t("Table code")],
    ["#join-code", t("Join")],
    ["#watch-code", t("Watch")],
    ["#lobby > h2:not([id])", t("Create a table")],
    ["label:has(#preset)", t("Rules")],
    ["label:has(#private)", t("Private (joined by link)")],
    ["label:has(#bot-level)", t("Opponent")],
    ['#bot-level option[value=""]', t("a friend (send the link)")],
    ['#bot-level option[value="easy"]', t("the bot, easy")],
    ['#bot-level option[value="normal"]', t("the bot, normal")],
    ['#bot-level option[value="hard"]', t("the bot, hard")],
    ["#create-form summary", t("Every rule option")],
    ["label:has(#on-hold)", t("When a dropped player's seat hold runs out")],
    ['#on-hold option[value="bot"]', t("the bot plays for them")],
    ['#on-hold option[value="wait"]', t("the game waits")],
    ['#on-hold option[value="forfeit"]', t("they forfeit")],
    ["label:has(#turn-seconds)", t("Seconds per turn (blank: no limit)")],
    ["#create", t("Create table")],
  ];
}

// the element's own words: its one text node with letters (a label keeps its control)
function setWords(element, text) {
  const node = [...element.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.textContent.trim());
  if (!node) {
    if (!element.children.length) element.textContent = text;
    return;
  }
  const [, lead, , tail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(node.textContent);
  node.textContent = lead + text + tail;
}

/** Put the page's fixed words in the language in use. */
export function translateStatic() {
  for (const [selector, text] of words()) {
    const element = document.querySelector(selector);
    if (element) setWords(element, text);
  }
  const name = document.querySelector("#name-input");
  if (name) name.placeholder = t("e.g. Alice");
  const table = document.querySelector("#table");
  if (table) table.setAttribute("aria-label", t("the table"));
  document.title = t("Spades");
}
