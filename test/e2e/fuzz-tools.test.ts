// The short fuzz run of `npm test`: about 1000 generated calls against every tool, over MCP and the CLI (through
// the daemon and with --no-daemon), on a private desktop. `npm run fuzz` runs the long one (10,000+ calls).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, resourcesGrown, runFuzz } from '../helpers/fuzz/harness.js';

const seed = Number(process.env.CUP_FUZZ_SEED ?? 20_240_613);

test(`fuzzing every tool's schema (seed ${seed}): no crash, no hang, every refusal coded and naming its field, nothing left behind`, { timeout: 240_000 }, async () => {
  const report = await runFuzz({ seed, mcpCalls: 960, cliCalls: 40, log: (line) => console.log(line) });
  const text = formatReport(report);
  console.log(text);
  assert.equal(report.calls, 1000, text);
  // Every tool was called, and both failures and successes were seen (a run where everything is refused tests nothing).
  assert.ok(Object.keys(report.outcomes).length >= 60, text);
  const outcomes = Object.values(report.outcomes).flatMap((byOutcome) => Object.entries(byOutcome));
  assert.ok(outcomes.some(([outcome]) => outcome === 'ok'), text);
  assert.ok(report.refusalsChecked > 300, text);
  assert.deepEqual(report.violations.map((finding) => `${finding.tool}: ${finding.problem}`), [], text);
  assert.deepEqual(report.leftovers, [], text);
  // Once every session the calls made has ended, the server holds what it held after the warm-up (its X and bus
  // connections, opened on first use): no child left, no descriptor of any kind more than before.
  assert.deepEqual(resourcesGrown(report.resources.before, report.resources.after), [], text);
});
