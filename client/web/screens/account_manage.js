// The signed-in account's upkeep, under the account panel: change the password, sign out
// everywhere (every other device; this page gets a new token), delete the account (its
// password and a ticked box). After a delete the page is a guest again.
//
//   manageSection(account)        // account.js: the section's HTML (signed in only)
//   const put = keepTyped()       // account.js, before the panel is drawn again ...
//   put()                         // ... and after: what was typed, ticked and opened stays
//   manageDone(message, account)  // account.js: an account_done folded
//   manageClick(target, account)  // account.js's click: true when it was one of ours

import { t } from "../i18n.js";
import { TOKEN_KEY } from "../net.js";
import { $, escapeHtml, render, state } from "../store.js";

const FIELDS = ["manage-old", "manage-new", "manage-password"];
const manage = { open: false, notice: "" };

function passwordInput(id, label, autocomplete) {
  return `<label>${escapeHtml(label)} <input id="${id}" type="password" maxlength="128" autocomplete="${autocomplete}"></label>`;
}

export function manageSection(account) {
  const question = t("Delete {name} for good? Your games stay.", { name: account.name });
  return `<details id="manage" class="manage"${manage.open ? " open" : ""}>
    <summary>${escapeHtml(t("Manage account"))}</summary>
    ${manage.notice ? `<p class="notice" role="status">${escapeHtml(manage.notice)}</p>` : ""}
    <div class="account-form">
      ${passwordInput("manage-old", t("Current password"), "current-password")}
      ${passwordInput("manage-new", t("New password"), "new-password")}
      <button type="button" data-manage="password">${escapeHtml(t("Change password"))}</button>
    </div>
    <div class="account-form">
      <button type="button" data-manage="sign_out">${escapeHtml(t("Sign out everywhere"))}</button>
    </div>
    <div class="account-form">
      ${passwordInput("manage-password", t("Password"), "current-password")}
      <label><input type="checkbox" id="manage-sure"> ${escapeHtml(question)}</label>
      <button type="button" data-manage="delete">${escapeHtml(t("Delete account"))}</button>
    </div>
  </details>`;
}

/** What the section holds now; the function it returns puts it back once redrawn. */
export function keepTyped() {
  const values = FIELDS.map((id) => $(`#${id}`)?.value ?? "");
  const sure = Boolean($("#manage-sure")?.checked);
  const focused = document.activeElement && document.activeElement.id;
  if ($("#manage")) manage.open = $("#manage").open;
  return () => {
    if (!$("#manage")) return;
    FIELDS.forEach((id, index) => ($(`#${id}`).value = values[index]));
    $("#manage-sure").checked = sure;
    if (focused && FIELDS.includes(focused)) $(`#${focused}`).focus();
  };
}

function clear() {
  for (const id of FIELDS) if ($(`#${id}`)) $(`#${id}`).value = "";
  if ($("#manage-sure")) $("#manage-sure").checked = false;
}

export function manageDone(message, account) {
  clear(); // a password never lingers in the page
  if (message.done === "password_changed") manage.notice = t("Password changed.");
  else if (message.done === "signed_out") manage.notice = t("Signed out everywhere else.");
  else {
    // the server ends this connection: the next hello, without a token, is a new guest's
    localStorage.removeItem(TOKEN_KEY);
    Object.assign(account, { name: null, ratings: [], view: null, profile: null });
    manage.open = false;
    manage.notice = "";
    account.error = t("Account deleted. You play as a guest now.");
  }
}

function filled(...ids) {
  const empty = ids.find((id) => !$(`#${id}`).value);
  if (empty) $(`#${empty}`).focus();
  return !empty;
}

export function manageClick(target, account) {
  const action = target.dataset.manage;
  if (!action) return false;
  account.error = "";
  manage.notice = "";
  if (action === "password" && filled("manage-old", "manage-new")) {
    state.conn.send({ type: "change_password", old_password: $("#manage-old").value, new_password: $("#manage-new").value });
  } else if (action === "sign_out") {
    state.conn.send({ type: "sign_out_everywhere" });
  } else if (action === "delete" && filled("manage-password")) {
    if (!$("#manage-sure").checked) account.error = t("Tick the box to confirm.");
    else state.conn.send({ type: "delete_account", password: $("#manage-password").value });
  }
  render();
  return true;
}
