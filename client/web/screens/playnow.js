// Play now: the lobby's first choice. Pick the rules and rated or casual, press "Play now";
// the server pairs you with a player of a close rating (the window widens as you wait).
// After 20 s alone it offers the bot level nearest your rating. The pair's table replaces
// the lobby when its snapshot comes.
//
//   renderPlayNow()          // draw the section (first in the lobby)
//   click(target)            // true when the clicked button was play now's
//   seekMessage(message)     // true for a seek message (handled); a refused seek is noted

import { t } from "../i18n.js";
import { $, escapeHtml, state } from "../store.js";

const PRESETS = ["classic", "five-hundred"];

// choosing | asked | seeking | paired | refused
const seek = { status: "choosing", preset: "classic", rated: false, offer: null, refusal: null };
let drawn = ""; // what the section shows now: redrawn only when that changes

function section() {
  let element = document.getElementById("play-now");
  if (!element) {
    element = document.createElement("section");
    element.id = "play-now";
    element.className = "play-now";
    element.setAttribute("aria-labelledby", "play-now-title");
    const lobby = $("#lobby");
    lobby.insertBefore(element, lobby.firstChild);
  }
  return element;
}

function searching() {
  return seek.status === "asked" || seek.status === "seeking";
}

function choosingHtml() {
  const options = PRESETS.map((name) => `<option value="${name}"${name === seek.preset ? " selected" : ""}>${escapeHtml(t(name))}</option>`);
  const refused =
    seek.status === "refused"
      ? `<p class="notice" role="alert">${escapeHtml(
          seek.refusal === "rated_needs_account"
            ? t("Rated games need an account: sign in, or play a casual game.")
            : t("The server could not start a seek ({code}).", { code: seek.refusal }),
        )}</p>`
      : "";
  return `${refused}<p class="row">
      <label>${escapeHtml(t("Rules"))} <select id="play-now-preset">${options.join("")}</select></label>
      <label><input type="checkbox" id="play-now-rated"${seek.rated ? " checked" : ""}> ${escapeHtml(t("Rated"))}</label>
      <button type="button" id="play-now-button" data-playnow="seek">${escapeHtml(t("Play now"))}</button></p>`;
}

function searchingHtml() {
  const offer = seek.offer
    ? `<p>${escapeHtml(t("Nobody close yet: play the bot ({level}) instead?", { level: t(seek.offer.level) }))}
        <button type="button" data-playnow="bot">${escapeHtml(t("Play the bot"))}</button></p>`
    : "";
  return `<p class="seeking" role="status">${escapeHtml(t("Looking for an opponent of your level…"))}</p>${offer}
    <p><button type="button" data-playnow="cancel">${escapeHtml(t("Stop looking"))}</button></p>`;
}

export function renderPlayNow() {
  const element = section();
  const key = `${seek.status}:${seek.offer ? seek.offer.level : ""}:${seek.refusal || ""}`;
  if (key === drawn && element.childElementCount) return;
  drawn = key;
  const body = searching() ? searchingHtml() : choosingHtml();
  element.innerHTML = `<h2 id="play-now-title">${escapeHtml(t("Play now"))}</h2>${body}`;
}

export function click(target) {
  const what = target.dataset.playnow;
  if (!what) return false;
  if (what === "seek") {
    seek.preset = $("#play-now-preset").value;
    seek.rated = $("#play-now-rated").checked;
    seek.status = "asked";
    seek.offer = null;
    seek.refusal = null;
    state.conn.send({ type: "seek", preset: seek.preset, rated: seek.rated });
  } else if (what === "cancel") {
    seek.status = "choosing";
    seek.offer = null;
    state.conn.send({ type: "cancel_seek" });
  } else if (what === "bot" && seek.offer) {
    const { preset, level } = seek.offer;
    seek.status = "paired";
    seek.offer = null;
    state.conn.send({ type: "cancel_seek" });
    state.conn.send({ type: "create_table", preset, bot: level, private: true, rated: seek.rated });
  }
  renderPlayNow();
  return true;
}

export function seekMessage(message) {
  switch (message.type) {
    case "seeking":
      if (seek.status === "asked") seek.status = "seeking";
      return true;
    case "seek_bot_offer":
      if (searching()) seek.offer = message;
      return true;
    case "seek_paired":
      seek.status = "choosing"; // back in the lobby later, play now is ready again
      seek.offer = null;
      if (!message.seated) state.conn.send({ type: "join_table", code: message.table });
      return true;
    case "seek_cancelled":
      return true;
    case "error":
      if (message.request === "seek") {
        seek.status = "refused";
        seek.refusal = message.code;
      }
      return false; // the page's own error handling shows it too
    default:
      return false;
  }
}
