// The page's words in the player's language. Every player-facing string goes through
// t() (or nt() for a count), so that `pybabel extract` finds it (keywords t and nt:1,2)
// and the catalogue of the chosen language translates it:
//
//   t("Your turn")                     t("{name} to move", { name })
//   nt("{n} trick", "{n} tricks", n, { n })
//
// Until a catalogue is loaded the words are English.

let catalogue = {};
let current = "en";

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** `msgid` in the language in use, with {name} placeholders filled from `params`. */
export function t(msgid, params) {
  const found = catalogue[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** The singular or plural form for `n`, in the language in use. */
export function nt(singular, plural, n, params) {
  return fill(n === 1 ? singular : plural, params);
}

/** The code of the language in use ("en", "de", ...). */
export function language() {
  return current;
}

/** Use `entries` (msgid -> msgstr) as the catalogue of language `code`. */
export function useCatalogue(code, entries) {
  current = code;
  catalogue = entries || {};
}
