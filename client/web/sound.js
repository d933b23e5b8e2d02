// The optional "your turn" sound (Settings): a short two-note chime made with WebAudio,
// no sound file. Browsers let a page make sound only after the person touched it, so the
// audio context is made at a click or key (unlock) and the chime is silent until then.
//
//   unlock();            // from a click or key press
//   turnChime(version);  // once per turn (a turn asked twice chimes once)

import { state } from "./store.js";

let context = null;
let lastVersion = -1;

// every chime made, for tests (the sound itself cannot be heard by a test)
const chimes = [];
globalThis.spadesChimes = chimes;

/** Make (or wake) the audio context; call it from a person's click or key press. */
export function unlock() {
  if (!state.settings.turnSound) return;
  const Audio = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Audio) return;
  if (!context) context = new Audio();
  if (context.state === "suspended") context.resume().catch(() => {});
}

function note(frequency, start, length) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = "sine";
  oscillator.frequency.value = frequency;
  // a soft attack and a quick fade: a chime, not a beep
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.02);
}

/** The chime for the turn of `version`, when the setting is on (once per version). */
export function turnChime(version) {
  if (!state.settings.turnSound || version === lastVersion) return;
  lastVersion = version;
  unlock();
  if (!context) return;
  const now = context.currentTime;
  note(660, now, 0.16);
  note(880, now + 0.12, 0.22);
  chimes.push({ version, state: context.state });
}
