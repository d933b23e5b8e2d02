// The account panel of the lobby: sign in or register (a guest plays without), who is
// signed in with their ratings, and the profile and leaderboard views under it. A rating
// still provisional is shown with "?".
//
//   renderAccount()      // app.js, with the lobby
//   receive(message)     // sync.js: true when it was an accounts message (or its refusal)
//   click(target)        // app.js's click chain
//   ratedWanted()        // create.js: the "rated" box of the create form

import { formatDate, nt, t } from "../i18n.js";
import { TOKEN_KEY } from "../net.js";
import { $, escapeHtml, render, state } from "../store.js";
import { keepTyped, manageClick, manageDone, manageSection } from "./account_manage.js";

const REQUESTS = new Set(["register", "sign_in", "change_password", "sign_out_everywhere", "delete_account", "get_profile", "get_leaderboard"]);

const account = {
  name: null, // the signed-in account's name
  ratings: [],
  view: null, // "profile" | "board" | null
  profile: null,
  board: null,
  boardPreset: "classic",
  error: "",
};
globalThis.spadesAccount = account; // for tests and bug reports

function errorText(code) {
  const texts = {
    bad_credentials: t("Wrong name or password."),
    name_taken: t("An account with a name like this exists already."),
    bad_password: t("A password has at least 8 characters."),
    bad_name: t("This name cannot be used."),
    not_signed_in: t("Sign in to an account first."),
    unknown_account: t("No account has this name."),
    rate_limited: t("Too many attempts. Try again later."),
  };
  return texts[code] || t("The server refused this ({code}).", { code });
}

export function shownRating(line) {
  return `${line.rating}${line.provisional ? "?" : ""}`;
}

function panel() {
  let element = $("#account");
  if (!element) {
    element = document.createElement("div");
    element.id = "account";
    element.className = "account";
    $("#lobby-title").before(element);
  }
  return element;
}

function signInForm() {
  return `<h2>${escapeHtml(t("Your account"))}</h2>
    <p class="hint">${escapeHtml(t("Play as a guest, or sign in for a rating that follows you."))}</p>
    <div class="account-form">
      <label>${escapeHtml(t("Name"))} <input id="account-name" maxlength="24" autocomplete="username"></label>
      <label>${escapeHtml(t("Password"))} <input id="account-password" type="password" maxlength="128" autocomplete="current-password"></label>
      <button type="button" data-account="sign_in">${escapeHtml(t("Sign in"))}</button>
      <button type="button" data-account="register">${escapeHtml(t("Register"))}</button>
      <button type="button" data-account="board">${escapeHtml(t("Leaderboard"))}</button>
    </div>`;
}

function signedIn() {
  const ratings = account.ratings.map((line) => `${escapeHtml(t(line.preset))} <strong>${shownRating(line)}</strong>`).join(" · ");
  return `<h2>${escapeHtml(t("Signed in as {name}", { name: account.name }))}</h2>
    <p class="ratings">${ratings}</p>
    <div class="account-form">
      <button type="button" data-account="profile">${escapeHtml(t("Profile"))}</button>
      <button type="button" data-account="board">${escapeHtml(t("Leaderboard"))}</button>
    </div>`;
}

function profileView(profile) {
  const lines = profile.ratings.map((line) => `<tr><th>${escapeHtml(t(line.preset))}</th><td class="num">${shownRating(line)}</td>
      <td class="num">±${line.deviation}</td><td>${escapeHtml(t("{wins} won, {losses} lost", { wins: line.wins, losses: line.losses }))}</td>
      <td class="history">${line.history.map((point) => `<span>${point}</span>`).join(" ")}</td></tr>`);
  const games = profile.games.map((game) => {
    // "win"/"loss", not "won": "won" is already the column of tricks won
    const result = game.won === null ? t("aborted") : game.won ? t("win") : t("loss");
    const after = game.rating_after === null ? "" : `→ ${game.rating_after}`;
    const when = formatDate(new Date(game.ended * 1000)); // in the language's own way
    // the date opens the game's replay and analysis on this page (a #r= link)
    const replay = `<a href="#r=${encodeURIComponent(game.record_id)}">${escapeHtml(when)}</a>`;
    return `<tr><td>${replay}</td><td>${escapeHtml(game.opponent)}</td><td>${escapeHtml(result)}</td>
      <td class="num">${game.scores[game.seat]}–${game.scores[1 - game.seat]}</td>
      <td>${escapeHtml(game.rated ? t("rated") : t("casual"))}</td><td class="num">${after}</td></tr>`;
  });
  return `<h3>${escapeHtml(t("Profile of {name}", { name: profile.name }))}</h3>
    <table class="ratings-table"><tbody>${lines.join("")}</tbody></table>
    <h3>${escapeHtml(t("Last games ({wins} won, {losses} lost)", { wins: profile.wins, losses: profile.losses }))}</h3>
    ${games.length ? `<table class="games-table"><tbody>${games.join("")}</tbody></table>` : `<p class="hint">${escapeHtml(t("No games yet."))}</p>`}`;
}

function boardView(board) {
  const rows = board.entries.map((entry) => `<tr><td class="num">${entry.rank}.</td><td>${escapeHtml(entry.name)}</td>
      <td class="num"><strong>${entry.rating}</strong></td><td class="num">±${entry.deviation}</td>
      <td>${escapeHtml(nt("{n} game", "{n} games", entry.games, { n: entry.games }))}</td></tr>`);
  const other = board.preset === "classic" ? "five-hundred" : "classic";
  return `<h3>${escapeHtml(t("Leaderboard: {preset}", { preset: t(board.preset) }))}
      <button type="button" data-account-board="${other}">${escapeHtml(t(other))}</button></h3>
    ${rows.length ? `<table class="board-table"><tbody>${rows.join("")}</tbody></table>` : `<p class="hint">${escapeHtml(t("Nobody has an established rating here yet."))}</p>`}`;
}

export function renderAccount() {
  const element = panel();
  const focused = document.activeElement && document.activeElement.id;
  const typed = { name: $("#account-name")?.value ?? "", password: $("#account-password")?.value ?? "" };
  const putManage = keepTyped();
  let html = account.name ? signedIn() : signInForm();
  if (account.error) html += `<p class="notice" role="alert">${escapeHtml(account.error)}</p>`;
  if (account.name) html += manageSection(account); // ./account_manage.js
  if (account.view === "profile" && account.profile) html += profileView(account.profile);
  if (account.view === "board" && account.board) html += boardView(account.board);
  element.innerHTML = html;
  putManage();
  if (!account.name) {
    $("#account-name").value = typed.name;
    $("#account-password").value = typed.password;
    if (focused && $(`#${focused}`)) $(`#${focused}`).focus();
  }
  const box = $("#rated");
  if (box) box.closest("label").hidden = !account.name;
  else if (account.name && $("#private")) {
    const label = document.createElement("label");
    label.innerHTML = `<input type="checkbox" id="rated"> ${escapeHtml(t("Rated (accounts only, a preset's own rules)"))}`;
    $("#private").closest("label").after(label);
  }
}

/** Whether the create form asks for a rated game. */
export function ratedWanted() {
  const box = $("#rated");
  return Boolean(account.name && box && box.checked);
}

export function receive(message) {
  switch (message.type) {
    case "signed_in":
      account.name = message.name;
      account.ratings = message.ratings;
      account.error = "";
      localStorage.setItem(TOKEN_KEY, message.token); // the next hello is the account's
      return true;
    case "account_done":
      if (message.token) localStorage.setItem(TOKEN_KEY, message.token);
      manageDone(message, account); // ./account_manage.js: its words, a guest after delete
      return true;
    case "profile":
      account.profile = message;
      account.view = "profile";
      if (message.name === account.name) account.ratings = message.ratings; // ours, fresh
      return true;
    case "leaderboard":
      account.board = message;
      account.view = "board";
      return true;
    case "error":
      if (!REQUESTS.has(message.request)) return false;
      account.error = errorText(message.code);
      return true;
    default:
      return false;
  }
}

export function click(target) {
  if (manageClick(target, account)) return true;
  const action = target.dataset.account;
  const preset = target.dataset.accountBoard;
  if (!action && !preset) return false;
  account.error = "";
  if (action === "sign_in" || action === "register") {
    const name = $("#account-name").value.trim();
    const password = $("#account-password").value;
    if (!name || !password) account.error = t("Type a name and a password.");
    else state.conn.send({ type: action, name, password });
  } else if (action === "profile") {
    state.conn.send({ type: "get_profile", name: account.name });
  } else if (action === "board" || preset) {
    account.boardPreset = preset || account.boardPreset;
    state.conn.send({ type: "get_leaderboard", preset: account.boardPreset });
  }
  render();
  return true;
}
