// The diff every action returns, alone: diffTrees on real readings of the ~2000-node window, pure CPU.
// Readings are taken as an action takes them (the same limits); the window is then changed for real.
import { performance } from 'node:perf_hooks';
import { diffCounts, diffTrees, type DiffReading } from '../src/cup/index.js';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import type { ToolContext } from '../src/tools/context.js';
import { READ_LIMITS } from '../src/tools/input/action-diff.js';
import { runTool } from '../src/tools/run.js';
import type { Element } from '../test/helpers/tools.js';
import { median, ms, percentile, type BenchRow } from './bench-report.js';

const DIFF_RUNS = Number(process.env.BENCH_DIFF_RUNS ?? 100);
// The first runs warm up the JIT; a long-running driver is past them.
const WARMUP = 20;

async function reading(context: ToolContext, window: ClientWindow): Promise<DiffReading> {
  const read = await context.desktop.readWindow(window, READ_LIMITS);
  if (!read.root || read.truncated) throw new Error(`no whole reading of "${window.title}": ${read.missingReason ?? 'truncated'}`);
  return read;
}

async function act(context: ToolContext, tool: string, args: Record<string, unknown>): Promise<void> {
  const result = await runTool(tool, { diff: false, ...args }, context);
  if (!result.ok) throw new Error(`${tool} failed: ${result.summary}`);
}

export async function diffBenchRows(context: ToolContext, window: ClientWindow): Promise<BenchRow[]> {
  const first = await reading(context, window);
  const again = await reading(context, window);
  // A few changes, as a click or some typing makes: a counter label, a check box's state, a field's text.
  const state = await runTool('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false, detail: 'full' }, context);
  const elements = (state.structured as { elements: Element[] }).elements;
  const index = (role: string, name: string) => {
    const found = elements.find((element) => element.role === role && element.name === name);
    if (!found) throw new Error(`no ${role} "${name}" in "${window.title}"`);
    return found.index;
  };
  await act(context, 'click', { window_id: window.id, element_index: index('button', 'Increment') });
  await act(context, 'click', { window_id: window.id, element_index: index('checkbox', 'Enable feature') });
  await act(context, 'set_value', { window_id: window.id, element_index: index('textbox', 'Name field'), value: 'bench' });
  const changed = await reading(context, window);
  // The worst case: every list row replaced by a new object, matched by role and name or reported added and removed.
  await act(context, 'click', { window_id: window.id, element_index: index('button', 'Rebuild list') });
  const rebuilt = await reading(context, window);

  const variants = [
    { label: 'unchanged (read twice)', before: first, after: again },
    { label: 'a few changes (a click, a check box, a field)', before: again, after: changed },
    { label: 'every list row rebuilt', before: changed, after: rebuilt },
  ];
  const times = variants.map(() => [] as number[]);
  // Variants take turns, one run each per round, so a burst of load spreads over all of them.
  for (let round = 0; round < DIFF_RUNS + WARMUP; round++) {
    variants.forEach((variant, position) => {
      const started = performance.now();
      diffTrees(variant.before, variant.after);
      if (round >= WARMUP) times[position]!.push(performance.now() - started);
    });
  }
  const nodes = first.identities.size;
  return variants.map((variant, position) => {
    const counts = diffCounts(diffTrees(variant.before, variant.after));
    const total = counts.added + counts.removed + counts.changed;
    if (position === 1 && counts.changed === 0) throw new Error('the changed reading shows no change: the diff measured would be of nothing');
    const value = median(times[position]!);
    // The target is the for a diff after an action: a few changes or none. The rebuild is reported.
    const held = position < 2;
    return {
      what: `diff of a ${nodes}-node window, ${variant.label}: ${total} changes`,
      ours: `${ms(value)} median, ${ms(percentile(times[position]!, 0.95))} p95`,
      peer: '-',
      ratio: '-',
      target: held ? '<= 5 ms' : '(reported)',
      met: !held || value <= 5,
    };
  });
}
