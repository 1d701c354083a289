// Only the action rows of `npm run bench` (element click, type_text background and foreground against xdotool),
// on a desktop of their own: for working on those figures without the whole benchmark's minutes.
import { setTimeout as sleep } from 'node:timers/promises';
import { loadavg } from 'node:os';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import { TestDesktop } from '../test/helpers/desktop.js';
import { PyatspiOracle } from '../test/helpers/oracle.js';
import { testContext } from '../test/helpers/tools.js';
import { actionBenchRows } from './bench-actions.js';
import { printRows } from './bench-report.js';

const runs = Number(process.env.BENCH_RUNS ?? 9);

async function accessible(context: ReturnType<typeof testContext>, window: ClientWindow): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await context.desktop.readWindowTree(window, { maxNodes: 10, maxDepth: 2, budgetMs: 5000 })).read?.root) {
    if (Date.now() > deadline) throw new Error(`${window.title} never appeared on the accessibility bus`);
    await sleep(200);
  }
}

const desktop = await TestDesktop.start();
const context = testContext();
try {
  const other = (await desktop.launchFixture('gtk3', { title: 'Bench 200', rows: 85 })).window;
  const fixture = (await desktop.launchFixture('gtk3', { title: 'Bench actions' })).window;
  await accessible(context, other);
  await accessible(context, fixture);
  const oracle = new PyatspiOracle(desktop.env());
  try {
    const load = loadavg().map((value) => value.toFixed(2)).join(' ');
    printRows(`action rows (${runs} runs, medians; load average ${load})`, await actionBenchRows(desktop, context, oracle, fixture, other, runs));
  } finally {
    oracle.close();
  }
} finally {
  context.desktop.close();
  await desktop.stop();
}
