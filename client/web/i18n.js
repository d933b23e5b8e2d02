// The page's words in the player's language: t("{name} to move", { name }) and
// nt("{n} trick", "{n} tricks", n, { n }), extracted by `pybabel` (babel.cfg). The
// catalogues are locale/<code>.json, made from the terminal's .po files by
// `python3 -m client.i18n_build`: { plural_forms, messages }, a message a string or its
// plural forms, picked by the catalogue's own rule (ja one form, de/nl/el two). English
// is the msgids themselves: nothing to load.
//
//   await loadLanguage(chooseLanguage());   // the menu's choice, else navigator.languages

export const LANGUAGES = ["en", "de", "ja", "nl", "el"];
// each language's name in itself: the menu shows these, never translated
export const LANGUAGE_NAMES = { en: "English", de: "Deutsch", ja: "日本語", nl: "Nederlands", el: "Ελληνικά" };
export const LANGUAGE_KEY = "spades2.language";
// the event the document hears once loadLanguage() has put a new catalogue in use: words
// drawn once (the create form's preset menu) are drawn again in the new language
export const LANGUAGE_EVENT = "spades:language";

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
  const form = Array.isArray(forms) ? forms[Math.min(pluralIndex(n), forms.length - 1)] : null;
  return fill(form || (n === 1 ? singular : plural), params);
}

/** The code of the language in use ("en", "de", ...). */
export function language() {
  return current;
}

/** Use `entries` (msgid -> msgstr or forms) for language `code`; `pluralForms` is the
 * catalogue's header ("nplurals=2; plural=(n != 1);"). */
export function useCatalogue(code, entries, pluralForms) {
  current = code;
  catalogue = entries || {};
  pluralIndex = pluralRule(pluralForms || "plural=(n != 1);");
}

// A gettext plural rule (C syntax: n, numbers, ?:, ||, &&, ==, !=, <, >, <=, >=, %, !,
// parentheses) as a function of n, without eval (the page's policy forbids it).
const LEVELS = [
  { "||": (a, b) => a || b },
  { "&&": (a, b) => a && b },
  { "==": (a, b) => a === b, "!=": (a, b) => a !== b },
  { "<": (a, b) => a < b, ">": (a, b) => a > b, "<=": (a, b) => a <= b, ">=": (a, b) => a >= b },
  { "%": (a, b) => (b ? a % b : 0) },
];

export function pluralRule(header) {
  const match = /plural\s*=\s*([^;]+)/.exec(header);
  const tokens = (match ? match[1] : "n != 1").match(/\d+|n|\|\||&&|[=!<>]=|[?:<>%!()]/g) || ["0"];
  let at = 0;
  function primary() {
    const token = tokens[at++];
    if (token === "(") {
      const inner = ternary();
      at++; // ")"
      return inner;
    }
    if (token === "!") {
      const operand = primary();
      return (n) => !operand(n);
    }
    return token === "n" ? (n) => n : () => Number(token) || 0;
  }
  function level(index) {
    if (index === LEVELS.length) return primary();
    let left = level(index + 1);
    while (Object.hasOwn(LEVELS[index], tokens[at])) {
      const apply = LEVELS[index][tokens[at++]];
      const [l, r] = [left, level(index + 1)];
      left = (n) => apply(l(n), r(n));
    }
    return left;
  }
  function ternary() {
    const test = level(0);
    if (tokens[at] !== "?") return test;
    at++;
    const yes = ternary();
    at++; // ":"
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  return (n) => Number(rule(Math.abs(Math.trunc(n)))) || 0;
}

/** The language to use: the menu's choice (localStorage), else the first of the
 * browser's languages with a catalogue, else English. */
export function chooseLanguage(storage = globalThis.localStorage, languages = globalThis.navigator?.languages) {
  let chosen = null;
  try {
    chosen = storage ? storage.getItem(LANGUAGE_KEY) : null;
  } catch {
    chosen = null; // storage refused (private mode): the browser's languages decide
  }
  if (LANGUAGES.includes(chosen)) return chosen;
  const found = (languages || []).map((tag) => String(tag).toLowerCase().split(/[-_]/)[0]).find((base) => LANGUAGES.includes(base));
  return found || "en";
}

/** Fetch and use the catalogue of `code` (English, or a file that cannot be had: the
 * msgids); `<html lang>` follows. */
export async function loadLanguage(code) {
  let entries = {};
  let forms = null;
  if (code !== "en" && LANGUAGES.includes(code)) {
    try {
      const document = await (await fetch(`/locale/${code}.json`)).json();
      [entries, forms] = [document.messages, document.plural_forms];
    } catch {
      code = "en";
    }
  }
  useCatalogue(LANGUAGES.includes(code) ? code : "en", entries, forms);
  if (globalThis.document) {
    globalThis.document.documentElement.lang = current;
    globalThis.document.dispatchEvent(new Event(LANGUAGE_EVENT));
  }
  return current;
}

/** Remember the menu's choice for the next visit (storage refused: this visit only). */
export function rememberLanguage(code) {
  try {
    globalThis.localStorage.setItem(LANGUAGE_KEY, code);
  } catch {}
}

/** `value` as a number in the language in use (Intl): 1.234 in German. */
export const formatNumber = (value, options) => new Intl.NumberFormat(current, options).format(value);

/** `when` (a Date or milliseconds) as a date and time in the language in use (Intl). */
export const formatDate = (when, options = { dateStyle: "medium", timeStyle: "short" }) => new Intl.DateTimeFormat(current, options).format(when);
