// Runs the page's hand checks (client/web/verify.js) for tests/web/test_verify_web.py.
//
//   node verify_runner.mjs MODULE_DIR < cases.json > verdicts.jsonl
//
// stdin: {"cases": [{"name", "seat", "value", "events": [event, ...], "relayed": [c0, c1]
// or null, "result": hand_result}]}. One line out per case: [name, ok, problems, withheld].

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { checkEvidence, collect, newEvidence } = await import(pathToFileURL(join(process.argv[2], "verify.js")).href);
const input = JSON.parse(readFileSync(0, "utf-8"));
const out = [];
for (const { name, seat, value, events, relayed, result } of input.cases) {
  const evidence = newEvidence(seat);
  for (const event of events) collect(evidence, event);
  evidence.relayed = relayed;
  evidence.value = value;
  const verdict = checkEvidence(evidence, result);
  out.push(JSON.stringify([name, verdict.ok, verdict.problems, verdict.withheld]));
}
process.stdout.write(out.join("\n") + "\n");
