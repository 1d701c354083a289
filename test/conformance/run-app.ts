// One app of the corpus, end to end: launch it, wait for its tree, read it with get_window_state (compact
// and JSON) and with the pyatspi oracle, run the checks, time warm calls, stop it.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CupEnvelope } from '../../src/cup/types.js';
import { findClientWindow, type ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { callOk, type WindowState } from '../helpers/tools.js';
import { runChecks, RULES, sentinelCount, type CheckResult, type Rule } from './checks.js';
import type { CorpusApp } from './corpus.js';
import { launchApp, stopApp } from './launch.js';
import { dumpWindow, onScreen, type OracleDump } from './oracle-dump.js';

export interface AppReport extends Partial<CheckResult> {
  app: string;
  toolkit: string;
  window?: { title: string; pid: number; id: number };
  oracle?: { toolkit: string; version: string; offset: [number, number]; nodes: number; truncated: boolean; skippedManaged: number; sentinelExtents: number; seconds: number };
  ours?: { nodes: number; shown: number; truncated: boolean; degraded: boolean; degradedReason?: string; screenshot: boolean; textChars: number; capped?: string };
  medianMs?: number;
  samplesMs?: number[];
  /** For an app without accessibility: whether the result said so honestly and still had its screenshot. */
  degradedHonest?: boolean;
  /** Set when the run itself failed (no window, no tree, oracle error). */
  error?: string;
}

async function windowState(context: ToolContext, window: ClientWindow, args: Record<string, unknown> = {}) {
  const result = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, ...args });
  return { result, state: result.structured as unknown as WindowState };
}

/**
 * Waits (bounded) until the app's tree is there and stops growing, judged by the oracle alone (big apps fill
 * their tree for seconds after the window maps): two dumps with the same node count in a row. The oracle reads
 * first, so nothing the driver asks of the app can change what the oracle sees. Returns the last dump.
 */
async function settledDump(window: ClientWindow, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<OracleDump> {
  const deadline = Date.now() + timeoutMs;
  let previous: OracleDump | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const dump = await dumpWindow(window, env);
      const same = previous && previous.nodes.length === dump.nodes.length && JSON.stringify(previous.nodes[0]?.extents) === JSON.stringify(dump.nodes[0]?.extents);
      if (same) return dump;
      previous = dump;
    } catch (error) {
      lastError = error;
    }
    await sleep(1500);
  }
  if (previous) return previous;
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function checkApp(desktop: TestDesktop, context: ToolContext, app: CorpusApp, log: (line: string) => void = () => {}): Promise<AppReport> {
  const report: AppReport = { app: app.id, toolkit: app.toolkit };
  let running;
  try {
    running = await launchApp(desktop, app);
  } catch (error) {
    return { ...report, error: error instanceof Error ? error.message : String(error) };
  }
  try {
    log(`${app.id}: window "${running.window.title}" (pid ${running.window.pid})`);
    // A moment for the first frame to be drawn (and, for an app without accessibility, all there is to wait for).
    await sleep(app.accessible ? 1000 : 3000);
    // The title, position and size may change while the app starts (a document name appears, the window
    // grows to fit): read the window again from the X server.
    let live = await findClientWindow(await desktop.x11(), running.window.id);
    if (!live) throw new Error(`${app.id}: its window ${running.window.id} went away while it started; stderr: ${running.stderr().slice(-1000)}`);
    const rawDump = app.accessible ? await settledDump(live, desktop.env(), app.launchTimeoutMs ?? 30_000) : undefined;
    live = (await findClientWindow(await desktop.x11(), running.window.id)) ?? live;
    report.window = { title: live.title, pid: live.pid, id: live.id };

    const compact = await windowState(context, live);
    const json = await windowState(context, live, { format: 'json', include_screenshot: false });
    const envelope = JSON.parse(json.result.body ?? '{}') as CupEnvelope;
    const capFooter = (compact.result.body ?? '').match(/^# output truncated at .*$/m)?.[0];
    report.ours = {
      nodes: compact.state.node_count,
      shown: compact.state.shown_count,
      truncated: compact.state.truncated,
      degraded: compact.state.degraded,
      ...(compact.state.degraded_reason ? { degradedReason: compact.state.degraded_reason } : {}),
      screenshot: (compact.state.screenshot?.width ?? 0) > 0,
      textChars: (compact.result.body ?? '').length,
      ...(capFooter ? { capped: capFooter } : {}),
    };

    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await windowState(context, live);
      samples.push(Math.round((performance.now() - started) * 10) / 10);
    }
    report.samplesMs = samples;
    report.medianMs = median(samples);

    if (!app.accessible) {
      report.degradedHonest = compact.state.degraded && Boolean(compact.state.degraded_reason) && report.ours.screenshot;
      log(`${app.id}: degraded=${compact.state.degraded} (${compact.state.degraded_reason ?? ''}), screenshot ${report.ours.screenshot}`);
      return report;
    }
    if (!rawDump) throw new Error('no oracle dump');
    const dump = onScreen(rawDump, live);
    report.oracle = {
      toolkit: dump.toolkit,
      version: dump.toolkit_version,
      offset: dump.offset,
      nodes: dump.nodes.length,
      truncated: dump.truncated,
      skippedManaged: dump.skipped_managed,
      sentinelExtents: sentinelCount(dump),
      seconds: Math.round(dump.seconds * 10) / 10,
    };
    const bounds = live.bounds;
    const compare = (oracle: OracleDump, shown: typeof compact.state.elements, tree: CupEnvelope['tree'], cap: string | undefined) =>
      runChecks({
        dump: oracle,
        window: { x: bounds.x, y: bounds.y, w: bounds.width, h: bounds.height },
        screen: { w: envelope.screen?.w ?? 0, h: envelope.screen?.h ?? 0 },
        shown,
        full: tree ?? [],
        ...(cap ? { capped: cap } : {}),
      });
    let checks = compare(dump, compact.state.elements, envelope.tree, capFooter);
    if (checks.violations.length > 0) {
      // An app that changes by itself between the oracle's reading and ours (jEdit clears its status bar's "Input/output
      // complete" a few seconds after a load) is compared once more, ours read right after the oracle's second reading.
      const again = onScreen(await settledDump(live, desktop.env(), app.launchTimeoutMs ?? 30_000), live);
      const [compactAgain, jsonAgain] = [await windowState(context, live), await windowState(context, live, { format: 'json', include_screenshot: false })];
      const recheck = compare(again, compactAgain.state.elements, (JSON.parse(jsonAgain.result.body ?? '{}') as CupEnvelope).tree, (compactAgain.result.body ?? '').match(/^# output truncated at .*$/m)?.[0]);
      log(`${app.id}: ${checks.violations.length} violations, compared again after both readings: ${recheck.violations.length}`);
      checks = recheck;
    }
    Object.assign(report, checks);
    log(`${app.id}: ${checks.covered}/${checks.checked} covered, ${checks.violations.length} violations, median ${report.medianMs} ms`);
    return report;
  } catch (error) {
    return { ...report, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  } finally {
    stopApp(running);
    // Let the app's windows go before the next one starts, so titles never mix.
    await sleep(500);
  }
}

export function violationsByRule(report: AppReport): Record<Rule, number> {
  const counts = Object.fromEntries(RULES.map((rule) => [rule, 0])) as Record<Rule, number>;
  for (const violation of report.violations ?? []) counts[violation.rule]++;
  return counts;
}

/** Whether an app passes: full coverage and no violation, or for an inaccessible app an honest degraded result. */
export function passes(report: AppReport): boolean {
  if (report.error) return false;
  if (report.degradedHonest !== undefined) return report.degradedHonest;
  return report.checked !== undefined && report.covered === report.checked && (report.violations?.length ?? 0) === 0;
}
