// The table's chat: lines in (hidden while muted), the panel, and what is typed.
//
//   receiveChat(message)     // a `chat` message from the server
//   submitChat(text)         // the chat form: "/mute", "/unmute", or a line to send
//   renderChat()             // the panel's HTML

import { nt, t } from "../i18n.js";
import { addLog, escapeHtml, mySeat, render, state } from "../store.js";

// our own line's echo, or the server's ("server" is a reserved name: nobody forges it)
function fromMeOrServer(message) {
  if (message.seat === null) {
    return message.name === "server" || (state.welcome !== null && message.name === state.welcome.name);
  }
  return message.seat === mySeat();
}

export function receiveChat(message) {
  if (state.chatMuted && !fromMeOrServer(message)) {
    state.chatHidden += 1;
    return;
  }
  if (message.table === state.code) {
    state.chat.push(message);
    if (state.chat.length > 50) state.chat.shift();
  }
}

// "/mute" and "/unmute" are this page's own business: nothing is sent
function chatCommand(text) {
  const command = text.toLowerCase();
  if (command !== "/mute" && command !== "/unmute") return false;
  state.chatMuted = command === "/mute";
  if (state.chatMuted) addLog(t("Chat from the others is hidden here; /unmute in chat shows it again."));
  else addLog(nt("Chat shown again ({n} line was hidden).", "Chat shown again ({n} lines were hidden).", state.chatHidden, { n: state.chatHidden }));
  if (!state.chatMuted) state.chatHidden = 0;
  render();
  return true;
}

export function submitChat(text) {
  if (text && state.code && !chatCommand(text)) state.conn.send({ type: "chat", code: state.code, text });
}

export function renderChat() {
  const lines = state.chat.slice(-8).map((c) => `<li><strong>${escapeHtml(c.name)}${c.seat === null ? ` (${t("watching")})` : ""}:</strong> ${escapeHtml(c.text)}</li>`);
  return `<h2>${t("Chat")}</h2>
      <ol class="chat">${lines.join("")}</ol>
      <form id="chat-form"><input id="chat-input" maxlength="200" autocomplete="off" aria-label="${t("chat message")}" placeholder="${t("Say something (m) · /mute hides the others")}"><button type="submit">${t("Send")}</button></form>`;
}
