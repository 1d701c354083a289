// `npm run fuzz`: the long fuzz run. Seeded and reproducible: the same seed sends the same calls in the same order.
//   npm run fuzz -- [--seed N] [--calls N] [--cli N] [--max-wait-ms N] [--json FILE]
// Prints counts per tool and outcome, then every violation (crash, hang past the tool's bound, a refusal without
// a known code or not naming the bad field, a leftover process or temporary file); exits 1 when there is one.
import { writeFileSync } from 'node:fs';
import { formatReport, runFuzz } from '../test/helpers/fuzz/harness.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} needs a whole number, got ${process.argv[index + 1]}`);
  return value;
}

const seed = option('seed', 1);
const calls = option('calls', 10_000);
const cli = option('cli', Math.round(calls / 25));
const jsonIndex = process.argv.indexOf('--json');
const report = await runFuzz({ seed, mcpCalls: calls - cli, cliCalls: cli, maxDurationMs: option('max-wait-ms', 3000), log: (line) => console.log(line) });
console.log(`seed ${seed}`);
console.log(formatReport(report, 200));
if (report.notes.length > 0) {
  console.log(`notes (refusals of valid calls whose message names neither the mutated field nor its value), first 40:`);
  for (const note of report.notes.slice(0, 40)) console.log(`  #${note.index} ${note.tool} ${note.field}: ${note.problem}`);
}
if (jsonIndex !== -1) writeFileSync(process.argv[jsonIndex + 1]!, JSON.stringify(report, null, 1));
const grew = report.resources.after.children > report.resources.before.children || report.resources.after.fds > report.resources.before.fds + 4;
if (grew) console.log(`the server kept more than it had before the run: ${JSON.stringify(report.resources)}`);
process.exit(report.violations.length + report.leftovers.length > 0 || grew ? 1 : 0);
