// `npm run fuzz`: the long fuzz run. Seeded and reproducible: the same seed sends the same calls in the same order.
//   npm run fuzz -- [--seed N] [--calls N] [--cli N] [--cli-workers N] [--max-wait-ms N] [--tools REGEX] [--json FILE]
// --tools limits the run to the tools whose names match (to find which family a finding comes from).
// Prints counts per tool and outcome, then every violation (crash, hang past the tool's bound, a refusal without
// a known code or not naming the bad field, a leftover process or temporary file); exits 1 when there is one.
import { writeFileSync } from 'node:fs';
import { formatReport, resourcesGrown, runFuzz } from '../test/helpers/fuzz/harness.js';

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
const toolsIndex = process.argv.indexOf('--tools');
const tools = toolsIndex === -1 ? undefined : new RegExp(process.argv[toolsIndex + 1]!);
const report = await runFuzz({ seed, mcpCalls: calls - cli, cliCalls: cli, maxDurationMs: option('max-wait-ms', 3000), cliWorkers: option('cli-workers', 1), tools, log: (line) => console.log(line) });
console.log(`seed ${seed}`);
console.log(formatReport(report, 200));
if (report.notes.length > 0) {
  console.log(`notes (refusals of valid calls whose message names neither the mutated field nor its value), first 40:`);
  for (const note of report.notes.slice(0, 40)) console.log(`  #${note.index} ${note.tool} ${note.field}: ${note.problem}`);
}
if (jsonIndex !== -1) writeFileSync(process.argv[jsonIndex + 1]!, JSON.stringify(report, null, 1));
// Once every session has ended, the MCP server holds what it held after the warm-up: no more children, no more descriptors of any kind.
const grown = resourcesGrown(report.resources.before, report.resources.after);
if (grown.length > 0) console.log(`the server kept more than it had before the run: ${grown.join('; ')}`);
process.exit(report.violations.length + report.leftovers.length + grown.length > 0 ? 1 : 0);
