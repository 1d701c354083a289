// The terminal driver's figures for `npm run bench`: snapshot cost with structure, and how soon a
// tui_wait_for notices the output it waits for, each against tmux capture-pane (the usual way agents
// read terminals) measured in the same run.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { buildStructure } from '../src/tui/structure/index.js';
import { gridFromVisualFrame, toVisualFrame, type VisualFrame } from '../src/tui/visual-frame.js';
import { TerminalRegistry } from '../src/tui/manager.js';
import type { TerminalSession } from '../src/tui/session.js';
import { flattenNodes } from '../src/tui/ui-node.js';
import { waitForConditions } from '../src/tui/wait.js';
import { repositoryRoot } from '../test/helpers/desktop.js';
import { corpusFixtures, largeCorpusFixtures, recordedCorpusNames, recordedCorpusScreen } from '../test/tui-corpus/screens.js';

import { ms, percentile, type BenchRow } from './bench-report.js';
const execFileAsync = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const MARKER_PROGRAM = join(repositoryRoot, 'test', 'fixtures', 'tui', 'marker_echo.py');
const SNAPSHOT_RUNS = Number(process.env.BENCH_TUI_SNAPSHOTS ?? 300);
const WAIT_RUNS = Number(process.env.BENCH_TUI_WAITS ?? 40);

function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

/** tmux on a private socket, so the bench neither sees nor disturbs a user's tmux server. */
class Tmux {
  readonly socket = `cup-bench-${process.pid}`;

  async run(...args: string[]): Promise<string> {
    const { stdout } = await execFileAsync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { timeout: 10_000 });
    return stdout;
  }

  async available(): Promise<boolean> {
    try {
      await execFileAsync('tmux', ['-V'], { timeout: 5000 });
      return true;
    } catch {
      return false;
    }
  }

  capture(target: string): Promise<string> {
    return this.run('capture-pane', '-p', '-e', '-t', target);
  }

  async close(): Promise<void> {
    await this.run('kill-server').catch(() => undefined);
  }
}

async function untilScreen(session: TerminalSession, text: string): Promise<void> {
  await waitForConditions(session, { conditions: [{ text }, { stableMs: 300 }], timeoutMs: 15_000 });
}

async function untilPane(tmux: Tmux, target: string, text: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await tmux.capture(target)).includes(text)) {
    if (Date.now() > deadline) throw new Error(`tmux pane ${target} never showed ${JSON.stringify(text)}`);
    await sleep(50);
  }
}

/** What one snapshot costs: read every cell, build the UI tree, and the visual frame with colour spans. */
function snapshotTimes(session: TerminalSession): { times: number[]; nodes: number } {
  const times: number[] = [];
  let nodes = 0;
  for (let i = 0; i < SNAPSHOT_RUNS + 30; i++) {
    const started = performance.now();
    const state = session.rebuildState();
    const { frame } = state;
    toVisualFrame(state.grid);
    const elapsed = performance.now() - started;
    // The first runs warm up the JIT; a long-running driver is past them.
    if (i >= 30) times.push(elapsed);
    nodes = flattenNodes(frame.nodes).length;
  }
  return { times, nodes };
}

async function captureTimes(tmux: Tmux, target: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < Math.min(SNAPSHOT_RUNS, 60); i++) {
    const started = performance.now();
    await tmux.capture(target);
    times.push(performance.now() - started);
  }
  return times;
}

function markerTime(screen: string, n: number): number {
  const match = new RegExp(`MARK ${n} (\\d+\\.\\d+)`).exec(screen);
  if (!match) throw new Error(`marker ${n} not on the screen`);
  return Number(match[1]) * 1000;
}

async function ourWaitLatencies(session: TerminalSession): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 1; n <= WAIT_RUNS; n++) {
    const waiting = waitForConditions(session, { conditions: [{ text: `MARK ${n} ` }], timeoutMs: 10_000 });
    session.write(`${n}\r`);
    await waiting;
    const noticed = wallClockMs();
    latencies.push(noticed - markerTime(session.state().grid.chars.join(''), n));
    await sleep(20);
  }
  return latencies;
}

async function peerWaitLatencies(tmux: Tmux, target: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 1; n <= WAIT_RUNS; n++) {
    await tmux.run('send-keys', '-t', target, String(n), 'Enter');
    // The peer's best case: capture-pane polled back to back, no sleep between polls.
    for (;;) {
      const pane = await tmux.run('capture-pane', '-p', '-J', '-t', target);
      if (pane.includes(`MARK ${n} `)) {
        latencies.push(wallClockMs() - markerTime(pane, n));
        break;
      }
    }
    await sleep(20);
  }
  return latencies;
}

const STRUCTURE_RUNS = Number(process.env.BENCH_TUI_STRUCTURES ?? 200);

/**
 * Median time of the structure heuristics alone on each screen. The screens take turns, one run each per
 * round (after 30 warm-up rounds), so a burst of load from other processes spreads over all screens
 * instead of landing on the one that happened to be measured then.
 */
function structureMedians(screens: readonly { visual: VisualFrame; title: string }[]): number[] {
  const grids = screens.map((screen) => gridFromVisualFrame(screen.visual));
  const times: number[][] = screens.map(() => []);
  for (let round = 0; round < STRUCTURE_RUNS + 30; round++) {
    grids.forEach((grid, index) => {
      const started = performance.now();
      buildStructure(grid, { title: screens[index]!.title });
      if (round >= 30) times[index]!.push(performance.now() - started);
    });
  }
  return times.map((runs) => percentile(runs, 0.5));
}

/**
 * The structure time of every recorded corpus screen (test/fixtures/tui/corpus/: each program at its own
 * size, 80x24 or 100x30; corpus-200x50/: the same steps at 200x50). The target holds for the slowest
 * screen's median, not the median over screens, so one slow program cannot hide behind fast ones.
 */
export function corpusStructureRows(report: (line: string) => void = () => undefined): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const [label, directory, target] of [['own size (80x24, 100x30)', corpusFixtures, 2], ['200x50', largeCorpusFixtures, 10]] as const) {
    const screens = recordedCorpusNames(directory).map((name) => ({ title: name, visual: recordedCorpusScreen(name, directory) }));
    const medians = structureMedians(screens).map((median, index) => {
      const { title, visual } = screens[index]!;
      report(`   ${title} ${visual.cols}x${visual.rows}: ${ms(median)}`);
      return { name: `${title} ${visual.cols}x${visual.rows}`, median };
    });
    const worst = medians.reduce((slowest, entry) => (entry.median > slowest.median ? entry : slowest));
    rows.push({
      what: `tui structure of the corpus screens at ${label} (${medians.length} screens)`,
      ours: `median ${ms(percentile(medians.map((entry) => entry.median), 0.5))} over screens; slowest ${worst.name} ${ms(worst.median)}`,
      peer: '-',
      ratio: '-',
      target: `< ${target} ms (each screen's median)`,
      met: worst.median < target,
    });
  }
  return rows;
}

export async function terminalBenchRows(): Promise<BenchRow[]> {
  const registry = new TerminalRegistry({ policyPath: join(mkdtempSync(join(tmpdir(), 'cup-bench-tui-')), 'terminal-policy.json') });
  const terminals = registry.scope('bench');
  const tmux = new Tmux();
  const hasTmux = await tmux.available();
  const rows: BenchRow[] = [...corpusStructureRows()];
  try {
    for (const [cols, rows_, target] of [[80, 24, 2], [200, 50, 10]] as const) {
      const name = `htop-${cols}x${rows_}`;
      const { session } = await terminals.start({ session: name, command: 'htop', args: [], env: { HTOPRC: '/dev/null' }, cols, rows: rows_ });
      await untilScreen(session, 'F10Quit');
      const ours = snapshotTimes(session);
      await terminals.stop(name);
      let peer = 'tmux not installed';
      let ratio = '-';
      if (hasTmux) {
        await tmux.run('new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows_), 'env', 'HTOPRC=/dev/null', 'htop');
        await untilPane(tmux, name, 'F10');
        const peerTimes = await captureTimes(tmux, name);
        await tmux.run('kill-session', '-t', name);
        peer = `tmux capture-pane -p -e ${ms(percentile(peerTimes, 0.5))} (text only, no structure)`;
        ratio = `${(percentile(peerTimes, 0.5) / percentile(ours.times, 0.5)).toFixed(1)}x faster`;
      }
      const median = percentile(ours.times, 0.5);
      rows.push({
        what: `tui snapshot with structure, htop ${cols}x${rows_} (${ours.nodes} nodes)`,
        ours: `${ms(median)} median, ${ms(percentile(ours.times, 0.95))} p95`,
        peer,
        ratio,
        target: `< ${target} ms`,
        met: median < target,
      });
    }

    const { session } = await terminals.start({ session: 'marker', command: PYTHON, args: ['-u', MARKER_PROGRAM], env: {}, cols: 80, rows: 24 });
    await sleep(300);
    const ours = await ourWaitLatencies(session);
    await terminals.stop('marker');
    let peer = 'tmux not installed';
    let ratio = '-';
    if (hasTmux) {
      await tmux.run('new-session', '-d', '-s', 'marker', '-x', '80', '-y', '24', PYTHON, '-u', MARKER_PROGRAM);
      await sleep(300);
      const peerLatencies = await peerWaitLatencies(tmux, 'marker');
      await tmux.run('kill-session', '-t', 'marker');
      peer = `capture-pane polled back to back: ${ms(percentile(peerLatencies, 0.5))} median, ${ms(percentile(peerLatencies, 0.95))} p95`;
      ratio = `${(percentile(peerLatencies, 0.5) / percentile(ours, 0.5)).toFixed(1)}x sooner`;
    }
    const p95 = percentile(ours, 0.95);
    rows.push({
      what: `output to satisfied tui_wait_for (${WAIT_RUNS} markers)`,
      ours: `${ms(percentile(ours, 0.5))} median, ${ms(p95)} p95`,
      peer,
      ratio,
      target: '< 20 ms (p95)',
      met: p95 < 20,
    });
  } finally {
    await registry.stopAll();
    if (hasTmux) await tmux.close();
  }
  return rows;
}

// Run on its own: node dist/scripts/bench-tui.js
// With --corpus, only the corpus structure times, each screen's median listed.
if (process.argv[1]?.endsWith('bench-tui.js')) {
  const corpusOnly = process.argv.includes('--corpus');
  const write = (line: string) => process.stdout.write(`${line}\n`);
  (corpusOnly ? Promise.resolve(corpusStructureRows(write)) : terminalBenchRows()).then(
    (rows) => {
      for (const row of rows) process.stdout.write(`${row.met ? '✅' : '❌'} ${row.what}\n   ours ${row.ours} | peer ${row.peer} | ${row.ratio} | target ${row.target}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`bench-tui: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
