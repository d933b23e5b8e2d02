// Where a replay comes from: the record of the game just played (fetched), a link
// (#r=RECORD_ID, fetched after hello), or a record file the player saved.
//
//   askForReplay(recordId, names);   onRecord(message);   openRecordFile(input)

import { t } from "../i18n.js";
import { render, state } from "../store.js";
import { openReplay } from "./screen.js";

/** Fetch record `recordId` and show it as a replay (names: the seats' players, if known). */
export function askForReplay(recordId, names = null) {
  state.recordWanted = { recordId, names };
  state.replay = null;
  state.notice = "";
  state.screen = "replay";
  state.conn.send({ type: "get_record", record_id: recordId });
  render();
}

/** A `record` answer: true when it was asked for a replay (and is now on show). */
export function onRecord(message) {
  const wanted = state.recordWanted;
  if (!wanted || wanted.recordId !== message.record_id) return false;
  state.recordWanted = null;
  try {
    openReplay(JSON.parse(message.record_json), { recordId: message.record_id, names: wanted.names });
  } catch (error) {
    state.notice = t("This record cannot be replayed: {why}", { why: error.message });
  }
  return true;
}

// a record saved by this page is named spades-RECORD_ID.json: the id lets the server analyse it
function idFromFileName(name) {
  const match = /^spades-([A-Za-z0-9_-]{1,64})(?: \(\d+\))?\.json$/.exec(name);
  return match ? match[1] : null;
}

/** The record file chosen in `input` (a file field), shown as a replay. */
export function openRecordFile(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  file.text().then((text) => {
    try {
      openReplay(JSON.parse(text), { recordId: idFromFileName(file.name) });
    } catch (error) {
      state.notice = t("This file is not a game record: {why}", { why: error.message });
    }
    input.value = "";
    render();
  });
}
