// How soon the driver answers what happens on the desktop: wait_for after the app's change (the fixture logs
// when it made it), and a plan's Escape cancel after a person's key (xdotool, a separate X client).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { activateWindow, click } from '../src/platform/linux/input/index.js';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import type { ToolContext } from '../src/tools/context.js';
import { READ_LIMITS } from '../src/tools/input/action-diff.js';
import { runTool } from '../src/tools/run.js';
import type { TestDesktop } from '../test/helpers/desktop.js';
import { personPresses } from '../test/helpers/person.js';
import type { Element } from '../test/helpers/tools.js';
import { median, ms, type BenchRow } from './bench-report.js';

/** When the fixture says it made a change (epoch ms), from its log. */
function changedAt(changeLog: string, what: string): number {
  const line = readFileSync(changeLog, 'utf8').split('\n').find((entry) => entry.startsWith(`${what} `));
  if (!line) throw new Error(`the fixture never logged ${what}`);
  return Number(line.split(' ').at(-1));
}

async function elementNamed(context: ToolContext, window: ClientWindow, name: string): Promise<Element> {
  const state = await runTool('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false, detail: 'full' }, context);
  const found = (state.structured as { elements: Element[] }).elements.find((element) => element.name === name);
  if (!found?.bounds) throw new Error(`no "${name}" with bounds in "${window.title}"`);
  return found;
}

/**
 * wait_for of a button the fixture adds 300 ms after a real click (XTEST, not the driver's tools): the time from
 * the app's logged change to the answer, each run waiting for the next new button.
 */
async function waitForLatencies(desktop: TestDesktop, context: ToolContext, window: ClientWindow, changeLog: string, runs: number): Promise<{ latencies: number[]; wokenBy: string[]; reads: number[] }> {
  const x = await desktop.x11();
  const latencies: number[] = [];
  const wokenBy: string[] = [];
  const reads: number[] = [];
  for (let n = 1; n <= runs; n++) {
    // Found again each run: the window may grow with the buttons it adds, and the window manager move it.
    const button = (await elementNamed(context, window, 'Add later')).bounds!;
    const at = { x: Math.round(button.x + button.w / 2), y: Math.round(button.y + button.h / 2) };
    const waiting = runTool('wait_for', { pid: window.pid, window_id: window.id, selector: `role=button name="Arrived ${n}"`, timeout_ms: 10_000 }, context).then((result) => ({ result, answeredAt: Date.now() }));
    if (!(await activateWindow(x, window.id))) throw new Error(`"${window.title}" was not activated`);
    await click(x, at);
    const { result, answeredAt } = await waiting;
    if (!result.ok) throw new Error(`wait_for failed: ${result.summary}`);
    latencies.push(answeredAt - changedAt(changeLog, `added:Arrived ${n}`));
    const structured = result.structured as { woken_by: string; reads: number };
    wokenBy.push(structured.woken_by);
    reads.push(structured.reads);
  }
  return { latencies, wokenBy, reads };
}

/**
 * A plan in its wait step, cancelled by Escape on the keyboard: the time from xdotool's start to the plan's
 * result (the result includes the plan's reading of its window after the cancel), and the plan's own figure.
 */
async function escapeLatencies(desktop: TestDesktop, context: ToolContext, window: ClientWindow, runs: number): Promise<{ latencies: number[]; afterKey: number[]; planLatencies: number[] }> {
  const latencies: number[] = [];
  const afterKey: number[] = [];
  const planLatencies: number[] = [];
  for (let run = 0; run < runs; run++) {
    let returnedAt = 0;
    const plan = runTool('run_actions', { window_id: window.id, steps: [{ tool: 'wait', arguments: { ms: 5000 } }] }, context).then((result) => {
      returnedAt = performance.now();
      return result;
    });
    // The guard is armed before the first step and the plan reads its window first: well inside the wait by then.
    await sleep(700);
    const pressStarted = performance.now();
    const pressed = await personPresses(desktop.env(), 'Escape');
    const result = (await plan).structured as { cancelled?: boolean; cancel_reason?: string; cancel_latency_ms?: number };
    if (!result.cancelled || result.cancel_reason !== 'escape_key') throw new Error(`the plan was not cancelled by Escape: ${JSON.stringify(result).slice(0, 300)}`);
    latencies.push(returnedAt - pressStarted);
    afterKey.push(returnedAt - pressed);
    planLatencies.push(result.cancel_latency_ms ?? Number.NaN);
  }
  return { latencies, afterKey, planLatencies };
}

export async function latencyBenchRows(desktop: TestDesktop, context: ToolContext, runs: number): Promise<BenchRow[]> {
  const logDir = mkdtempSync(join(tmpdir(), 'cup-bench-waits-'));
  const changeLog = join(logDir, 'changes.log');
  try {
    const { window } = await desktop.launchFixture('gtk3', { title: 'Bench waits', extraArgs: ['--waits', '--change-log', changeLog] });
    const waits = await waitForLatencies(desktop, context, window, changeLog, runs);
    const escapes = await escapeLatencies(desktop, context, window, runs);
    const byEvent = waits.wokenBy.filter((how) => how === 'accessibility').length;
    // What one look costs: the wait reads the window again on each event, so its answer comes a read after the change.
    const readTimes: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await context.desktop.readWindow(window, READ_LIMITS);
      readTimes.push(performance.now() - started);
    }
    return [
      {
        what: `wait_for, the app's change to the answer (${runs} runs, ${byEvent} woken by the app's event; ${median(waits.reads)} reads a wait, one read of the window ${ms(median(readTimes))})`,
        ours: `${ms(median(waits.latencies))} median, ${ms(Math.max(...waits.latencies))} max`,
        peer: '-',
        ratio: '-',
        target: '<= 30 ms',
        met: median(waits.latencies) <= 30,
      },
      {
        what: `Escape cancels a plan's wait, xdotool key's start to the result (${runs} runs)`,
        ours: `${ms(median(escapes.latencies))} median (${ms(median(escapes.afterKey))} after xdotool returned; plan's cancel_latency_ms ${ms(median(escapes.planLatencies))})`,
        peer: '-',
        ratio: '-',
        target: '<= 100 ms',
        met: median(escapes.latencies) <= 100,
      },
    ];
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}
