// `npm run conformance` (after setup --conformance and a build): checks get_window_state against the pyatspi
// oracle on every app of the corpus (test/conformance/corpus.ts), one app at a time on a private virtual
// desktop, prints the table and writes out/conformance/table.md and out/conformance/<app>.json.
//
//   node dist/scripts/conformance.js [app-id ...] [--copy-to DIR]
// With app ids only those apps run; the reports of the others already in out/conformance are kept, so the
// table stays whole. --copy-to writes the same reports into DIR too.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpus } from '../test/conformance/corpus.js';
import { conformanceTable, writeReports } from '../test/conformance/report.js';
import { checkApp, passes, type AppReport } from '../test/conformance/run-app.js';
import { repositoryRoot, TestDesktop } from '../test/helpers/desktop.js';
import { testContext } from '../test/helpers/tools.js';

const args = process.argv.slice(2);
const copyAt = args.indexOf('--copy-to');
const copyTo = copyAt >= 0 ? args[copyAt + 1] : undefined;
if (copyAt >= 0 && !copyTo) throw new Error('--copy-to needs a directory');
const ids = args.filter((arg, i) => !arg.startsWith('--') && (copyAt < 0 || i !== copyAt + 1));
const unknown = ids.filter((id) => !corpus.some((app) => app.id === id));
if (unknown.length > 0) {
  process.stderr.write(`unknown app ${unknown.join(', ')}; the corpus has: ${corpus.map((app) => app.id).join(', ')}\n`);
  process.exit(2);
}
const selected = ids.length > 0 ? corpus.filter((app) => ids.includes(app.id)) : corpus;
const outDir = join(repositoryRoot, 'out', 'conformance');
const directories = copyTo ? [outDir, copyTo] : [outDir];

/** The reports of earlier runs for the apps not run now, so a partial run keeps the whole table. */
function earlier(app: string): AppReport | undefined {
  const file = join(outDir, `${app}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as AppReport) : undefined;
}

const desktop = await TestDesktop.start();
const context = testContext();
const fresh = new Map<string, AppReport>();
const table = () => corpus.map((app) => fresh.get(app.id) ?? earlier(app.id)).filter((report): report is AppReport => report !== undefined);
try {
  for (const app of selected) {
    process.stderr.write(`[conformance] ${app.id} (${app.toolkit})\n`);
    fresh.set(app.id, await checkApp(desktop, context, app, (line) => process.stderr.write(`[conformance] ${line}\n`)));
    // Written after every app, so a long run can be read while it goes on.
    writeReports(table(), directories);
  }
} finally {
  context.desktop.close();
  await desktop.stop();
}
process.stdout.write(conformanceTable(table()));
process.exitCode = [...fresh.values()].every(passes) ? 0 : 1;
