// Runs the page's fold (client/web/fold.js) on message streams for tests/web/test_fold.py.
//
//   node fold_runner.mjs MODULE_DIR < streams.json > views.jsonl
//
// stdin: {"rules": {...}, "streams": {"NAME": [message, ...]}}. For every message of every
// stream, one line out: [NAME, index, view after the message, gap].

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { foldMessage } = await import(pathToFileURL(join(process.argv[2], "fold.js")).href);
const input = JSON.parse(readFileSync(0, "utf-8"));
const out = [];
for (const [name, messages] of Object.entries(input.streams)) {
  let view = null;
  messages.forEach((message, index) => {
    const folded = foldMessage(view, message, input.rules);
    view = folded.view;
    out.push(JSON.stringify([name, index, view, folded.gap]));
  });
}
process.stdout.write(out.join("\n") + "\n");
