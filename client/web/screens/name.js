// The first screen: the name shown at the table (then the page connects).
//
//   renderName(); nameSubmitted(connect)   // connect(name) opens the link

import { $, render, state } from "../store.js";

export function renderName() {
  $("#name-notice").textContent = state.notice;
}

/** The name form's submit handler; `connect(name)` starts the connection. */
export function onNameSubmit(connect) {
  return (event) => {
    event.preventDefault();
    const name = $("#name-input").value.trim();
    if (!name) return;
    state.screen = state.linkCode ? "table" : "lobby";
    state.notice = "";
    connect(name);
    render();
  };
}
