// The page's words in the player's language. Every player-facing string goes through
// t() (or nt() for a count), so that `pybabel extract` finds it (keywords t and nt:1,2,
// see babel.cfg) and the catalogue of the chosen language translates it:
//
//   t("Your turn")                     t("{name} to move", { name })
//   nt("{n} trick", "{n} tricks", n, { n })
//   await loadLanguage(chooseLanguage())   // the menu's choice, else navigator.languages
//   formatNumber(1234)                     // "1.234" in German (Intl)
//
// The catalogues are client/web/locale/<code>.json, generated from the same .po files as
// the terminal's (python3 -m client.i18n_build): { language, plural_forms, messages }, a
// message being a string, or a list of plural forms picked by the catalogue's own rule
// (Japanese has one form, German, Dutch and Greek two). Until one is loaded the words
// are English.

export const LANGUAGES = ["en", "de", "ja", "nl", "el"];
// each language's name in itself: the menu shows these, never translated
export const LANGUAGE_NAMES = { en: "English", de: "Deutsch", ja: "日本語", nl: "Nederlands", el: "Ελληνικά" };
export const LANGUAGE_KEY = "spades2.language";

let catalogue = {};
let current = "en";
let pluralIndex = (n) => (n === 1 ? 0 : 1);

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** `msgid` in the language in use, with {name} placeholders filled from `params`. */
export function t(msgid, params) {
  const found = catalogue[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** The singular or plural form for `n`, in the language in use (by its plural rule). */
export function nt(singular, plural, n, params) {
  const forms = catalogue[singular];
  if (Array.isArray(forms) && forms.length) {
    const form = forms[Math.min(pluralIndex(n), forms.length - 1)];
    if (form) return fill(form, params);
  }
  return fill(n === 1 ? singular : plural, params);
}

/** The code of the language in use ("en", "de", ...). */
export function language() {
  return current;
}

/** Use `entries` (msgid -> msgstr or plural forms) as the catalogue of language `code`;
 * `pluralForms` is the catalogue's header ("nplurals=2; plural=(n != 1);"). */
export function useCatalogue(code, entries, pluralForms) {
  current = code;
  catalogue = entries || {};
  pluralIndex = pluralRule(pluralForms || "nplurals=2; plural=(n != 1);");
}

// A gettext plural expression (C syntax: n, numbers, ?:, ||, &&, ==, !=, <, >, <=, >=,
// %, !, parentheses) as a function of n, without eval (the page's policy forbids it).
export function pluralRule(header) {
  const match = /plural\s*=\s*([^;]+)/.exec(header);
  const tokens = (match ? match[1] : "n != 1").match(/\d+|n|\|\||&&|[=!<>]=|[?:<>%!()]/g) || ["0"];
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];
  function primary() {
    const token = take();
    if (token === "(") {
      const inner = ternary();
      take(); // ")"
      return inner;
    }
    if (token === "!") {
      const operand = primary();
      return (n) => (operand(n) ? 0 : 1);
    }
    if (token === "n") return (n) => n;
    const value = Number(token) || 0;
    return () => value;
  }
  const BINARY = [
    ["||", (a, b) => (a || b ? 1 : 0)],
    ["&&", (a, b) => (a && b ? 1 : 0)],
    ["==", (a, b) => (a === b ? 1 : 0), "!=", (a, b) => (a !== b ? 1 : 0)],
    ["<", (a, b) => (a < b ? 1 : 0), ">", (a, b) => (a > b ? 1 : 0), "<=", (a, b) => (a <= b ? 1 : 0), ">=", (a, b) => (a >= b ? 1 : 0)],
    ["%", (a, b) => (b ? a % b : 0)],
  ];
  function level(index) {
    if (index === BINARY.length) return primary();
    let left = level(index + 1);
    for (;;) {
      const ops = BINARY[index];
      const found = ops.indexOf(peek());
      if (found < 0 || found % 2) return left;
      take();
      const apply = ops[found + 1];
      const l = left;
      const r = level(index + 1);
      left = (n) => apply(l(n), r(n));
    }
  }
  function ternary() {
    const test = level(0);
    if (peek() !== "?") return test;
    take();
    const yes = ternary();
    take(); // ":"
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  return (n) => Number(rule(Math.abs(Math.trunc(n)))) || 0;
}

/** The language to use: the one chosen in the menu (kept in localStorage), else the
 * first of navigator.languages with a catalogue, else English. */
export function chooseLanguage(storage = globalThis.localStorage, languages = globalThis.navigator?.languages) {
  let chosen = null;
  try {
    chosen = storage ? storage.getItem(LANGUAGE_KEY) : null;
  } catch {
    chosen = null; // storage refused (private mode): the browser's languages decide
  }
  if (LANGUAGES.includes(chosen)) return chosen;
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** Fetch and use the catalogue of `code`; `<html lang>` follows. Falls back to English
 * (the msgids) when the file cannot be had. */
export async function loadLanguage(code) {
  const wanted = LANGUAGES.includes(code) ? code : "en";
  try {
    const response = await fetch(`/locale/${wanted}.json`);
    const document_ = await response.json();
    useCatalogue(wanted, document_.messages, document_.plural_forms);
  } catch {
    useCatalogue("en", {}, null);
  }
  if (globalThis.document) globalThis.document.documentElement.lang = current;
  return current;
}

/** Remember the menu's choice for the next visit. */
export function rememberLanguage(code) {
  try {
    globalThis.localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // storage refused: the choice lasts this visit only
  }
}

/** `value` as a number in the language in use (Intl). */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(current, options).format(value);
}

/** `when` (a Date or milliseconds) as a date and time in the language in use (Intl). */
export function formatDate(when, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(current, options).format(when);
}
