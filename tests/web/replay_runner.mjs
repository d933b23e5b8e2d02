// Runs the page's replay model (client/web/replay/model.js) for tests/web/test_replay_model.py.
//
//   node replay_runner.mjs MODULE_DIR < record.json > steps.json
//
// Out: {"steps": [...], "hands": [...], "decisions": [[...], [...]]} or {"error": text}.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { replaySteps } = await import(pathToFileURL(join(process.argv[2], "replay", "model.js")).href);
let out;
try {
  out = replaySteps(JSON.parse(readFileSync(0, "utf-8")));
} catch (error) {
  out = { error: String(error.message) };
}
process.stdout.write(JSON.stringify(out));
