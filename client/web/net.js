// The connection to the server: one websocket speaking the JSON subprotocol, hello with the
// stored session token, request ids, and reconnecting (with the token) when the link drops.
// A redirect (protocol 1.2: the table lives on another node of a cluster) is followed: the
// link moves to that node's URL, says hello with the same token and sends the request
// again, at most MAX_REDIRECTS times in a row; after a drop it comes back to the page's own
// server, which redirects it again if need be.

import { t } from "./i18n.js";

export const SUBPROTOCOL = "spades2.json";
export const PROTOCOL_VERSION = 1;
export const PROTOCOL_MINOR = 3; // 1.2: redirects to the node of a table; 1.3: commit, then reveal
export const MAX_REDIRECTS = 4;

export const TOKEN_KEY = "spades2.token";
const SEQ_KEY = "spades2.seq";

/** The websocket URL of the server that served this page. */
export function serverUrl(location = window.location) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/`;
}

export class Connection {
  /**
   * `onMessage(message)` gets every server message (parsed JSON); `onState(state)` gets
   * "connecting", "open" (welcomed) or "reconnecting". Call `start(name)` once.
   */
  constructor({ url, onMessage, onState, storage = window.localStorage }) {
    this.url = url;
    this.homeUrl = url; // the page's own server: where a dropped link comes back to
    this.redirectsInARow = 0;
    this.answeringWelcome = null; // what the page sends while it reads a welcome
    this.recent = []; // the last requests sent (a redirect names the one it answers)
    this.onMessage = onMessage;
    this.onState = onState;
    this.storage = storage;
    this.ws = null;
    this.name = null;
    this.nextId = 1;
    this.welcomed = false;
    this.retry = 0;
    this.unsent = []; // messages asked for while the link was down, sent after welcome
    this.lastAction = null; // the latest action not yet acknowledged, resent on resume
    this.stopped = false;
  }

  /** Close for good (no reconnecting), e.g. when the server refused the name. */
  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  get token() {
    return this.storage.getItem(TOKEN_KEY);
  }

  start(name) {
    this.name = name;
    this.open();
  }

  /** Take the seats back after another page took them over ("replaced"). */
  reclaim() {
    this.retry = 0;
    this.open();
  }

  open() {
    this.onState(this.retry ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url, [SUBPROTOCOL]);
    this.ws = ws;
    this.welcomed = false;
    ws.addEventListener("open", () => {
      const hello = {
        type: "hello",
        protocol_version: PROTOCOL_VERSION,
        protocol_minor: PROTOCOL_MINOR,
        name: this.name,
      };
      const token = this.token;
      if (token) hello.token = token;
      this.raw(hello);
    });
    ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.stopped) return;
      this.welcomed = false;
      if (event.code === 4000) {
        // the same token said hello on a newer connection (another tab or window): taking
        // the seat back at once would only make the two pages take it from each other
        this.onState("replaced");
        return;
      }
      if (this.movingTo) {
        // closed to follow a redirect: open at once where it points
        this.url = this.movingTo;
        this.movingTo = null;
        this.open();
        return;
      }
      this.retry += 1;
      this.url = this.homeUrl; // that node may be gone: any node redirects us again
      this.onState("reconnecting");
      // back off to at most 5 s; the seat is held for a minute by default
      const delay = Math.min(5000, 250 * 2 ** Math.min(this.retry, 5));
      setTimeout(() => this.open(), delay);
    });
  }

  receive(message) {
    if (message.type === "welcome") {
      this.storage.setItem(TOKEN_KEY, message.token);
      this.welcomed = true;
      this.retry = 0;
      this.onState("open");
      this.answeringWelcome = [];
      this.onMessage(message);
      // a request the page sent again on its own at welcome (the table of its link, say)
      // is not sent a second time from the queue
      const again = this.answeringWelcome;
      this.answeringWelcome = null;
      const pending = this.unsent.filter((queued) => !again.some((sent) => sent.type === queued.type && sent.code === queued.code));
      this.unsent = [];
      for (const queued of pending) this.send(queued);
      return;
    }
    if (message.type === "error" && message.code === "bad_token") {
      // this server does not know the stored token (a new store): start afresh
      this.storage.removeItem(TOKEN_KEY);
      this.ws.close();
      return;
    }
    if (message.type === "redirect") return this.follow(message);
    if (message.type === "snapshot") this.redirectsInARow = 0;
    if (message.type === "ack" && this.lastAction && message.seq === this.lastAction.seq) {
      this.lastAction = null;
    }
    this.onMessage(message);
  }

  /** Follow a redirect: hello at its URL with the same token, then the request again. */
  follow(redirect) {
    if (this.redirectsInARow >= MAX_REDIRECTS) {
      const text = t("Table {code} keeps moving between servers; try again in a moment.", { code: redirect.table });
      this.onMessage({ type: "error", code: "redirect_loop", message: text, request: redirect.request });
      return;
    }
    this.redirectsInARow += 1;
    if (redirect.request && redirect.request !== "hello") {
      const asked = this.recent.find((sent) => sent.id === redirect.id && sent.type === redirect.request);
      // an action goes again with its seq (the node may not have seen it)
      if (asked) this.unsent.push(asked);
    }
    this.movingTo = redirect.url;
    this.welcomed = false;
    this.ws.close();
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Send a request (an id is added and returned); queued while the link is down. */
  send(message) {
    const withId = { ...message, id: message.id ?? this.nextId++ };
    if (this.answeringWelcome) this.answeringWelcome.push(withId);
    this.recent.push(withId);
    if (this.recent.length > 16) this.recent.shift();
    if (!this.welcomed) {
      this.unsent.push(withId);
      return withId.id;
    }
    this.raw(withId);
    return withId.id;
  }

  /**
   * Send an action at a table. Its seq is above every seq this browser used before (the
   * numbers belong to the seat, across reloads), so a resend after a drop is safe.
   */
  act(code, action, version) {
    const last = Number(this.storage.getItem(SEQ_KEY) || 0);
    const seq = Math.max(last + 1, Date.now());
    this.storage.setItem(SEQ_KEY, String(seq));
    this.lastAction = { type: "action", code, action, version, seq };
    return this.send(this.lastAction);
  }

  /** After a resume: send again the action whose ack the drop may have swallowed. */
  resendUnacknowledged() {
    if (this.lastAction) this.send({ ...this.lastAction, id: undefined });
  }

  /**
   * Send the seat's own entropy for a hand's shuffle (protocol 1.1: after hand_started's
   * commitment, before the shuffle): 32 bytes from the browser's secure random source
   * (crypto.getRandomValues works on plain http too). Returns the hex value sent, which
   * hand_result must reveal as this seat's entropy.
   */
  sendEntropy(code, handNumber) {
    const value = freshEntropy();
    this.send({ type: "entropy", code, hand_number: handNumber, value });
    return value;
  }

  /**
   * 1.3: commit to a fresh value for a hand's shuffle (`commitmentOf(value)` is its
   * seat commitment) and return the value, to be revealed with `revealEntropy` only once
   * the table's `entropy_commitments` shows this commitment.
   */
  commitEntropy(code, handNumber, commitmentOf) {
    const value = freshEntropy();
    this.send({ type: "entropy_commit", code, hand_number: handNumber, commitment: commitmentOf(value) });
    return value;
  }

  /** 1.3: reveal the value committed to for a hand. */
  revealEntropy(code, handNumber, value) {
    this.send({ type: "entropy", code, hand_number: handNumber, value });
  }
}

/** 32 bytes from the browser's secure random source, in hex (works on plain http too). */
function freshEntropy() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
