// `npm run bench`: cup-driver against its peers, measured in the same run on the same virtual desktop.
// A benchmark, not a test: it prints figures, ratios and the targets they are held to; it does not fail the build.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { atspiToCup } from '../src/cup/atspi/convert.js';
import { buildEnvelope, toCompact } from '../src/cup/index.js';
import { encodePng } from '../src/image/encode.js';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import { TestDesktop, repositoryRoot } from '../test/helpers/desktop.js';
import { PyatspiOracle } from '../test/helpers/oracle.js';
import { testContext } from '../test/helpers/tools.js';
import { actionBenchRows } from './bench-actions.js';
import { browserBenchRows } from './bench-browser.js';
import { diffBenchRows } from './bench-diff.js';
import { fleetBenchRows } from './bench-fleet.js';
import { httpBenchRows } from './bench-http.js';
import { latencyBenchRows } from './bench-latency.js';
import { McpSession } from './bench-mcp.js';
import { median, ms, printRows, type BenchRow } from './bench-report.js';
import { terminalBenchRows } from './bench-tui.js';

const execFileAsync = promisify(execFile);
const runs = Number(process.env.BENCH_RUNS ?? 9);

const rows: BenchRow[] = [];

async function timeRuns<T>(count: number, run: () => Promise<T>): Promise<{ times: number[]; last: T }> {
  const times: number[] = [];
  let last!: T;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    last = await run();
    times.push(performance.now() - started);
  }
  return { times, last };
}

async function main(): Promise<void> {
  const desktop = await TestDesktop.start();
  const context = testContext();
  try {
    // About 200 and about 2000 accessible objects: the fixture has ~70 of its own plus two per list row. A list
    // box of more than 200 rows is read by its visible part, so the 2000-node window spreads its rows over five
    // lists that are read whole; the single list of 965 rows measures the visible-part reading.
    const small = (await desktop.launchFixture('gtk3', { title: 'Bench 200', rows: 85 })).window;
    const large = (await desktop.launchFixture('gtk3', { title: 'Bench 2000', rows: 965, size: '480x640', extraArgs: ['--lists', '5'] })).window;
    const longList = (await desktop.launchFixture('gtk3', { title: 'Bench list', rows: 965, size: '480x640' })).window;
    const calculator = (await desktop.launch('gnome-calculator', [], 'Calculator')).window;
    await waitForAccessible(context, [small, large, longList, calculator]);

    const mcp = await McpSession.connect(desktop.env());
    try {
      // Issue 10's target is the 2000-node window's; the 200-node one is reported beside it.
      await benchTree(context, desktop, small, { session: mcp });
      await benchTree(context, desktop, large, { session: mcp, targetRatio: 10 });
    } finally {
      await mcp.close();
    }
    rows.push(...(await httpBenchRows(desktop, small, runs)));
    await benchTree(context, desktop, longList);
    rows.push(...(await diffBenchRows(context, large)));
    await benchScreenshot(context, desktop, small);
    for (const window of [small, large, longList, calculator]) await benchTokens(context, window);
    const fixture = (await desktop.launchFixture('gtk3', { title: 'Bench actions' })).window;
    await waitForAccessible(context, [fixture]);
    const oracle = new PyatspiOracle(desktop.env());
    try {
      rows.push(...(await actionBenchRows(desktop, context, oracle, fixture, small, runs)));
    } finally {
      oracle.close();
    }
    rows.push(...(await latencyBenchRows(desktop, context, runs)));
    rows.push(...(await browserBenchRows(desktop, runs)));
  } finally {
    context.desktop.close();
    await desktop.stop();
  }
  rows.push(...(await terminalBenchRows()));
  // Its own desktops, after the main one stopped: BENCH_FLEET_DISPLAYS=0 leaves it out.
  const fleetDisplays = Number(process.env.BENCH_FLEET_DISPLAYS ?? 8);
  if (fleetDisplays > 0) rows.push(...(await fleetBenchRows(fleetDisplays, 4, 3)));
  printRows(`cup-driver benchmark (${runs} runs each, medians; peers measured in the same run)`, rows);
}

async function waitForAccessible(context: ReturnType<typeof testContext>, windows: ClientWindow[]): Promise<void> {
  for (const window of windows) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const tree = await context.desktop.readWindowTree(window, { maxNodes: 10, maxDepth: 2, budgetMs: 5000 });
      if (tree.read?.root) break;
      if (Date.now() > deadline) throw new Error(`${window.title} never appeared on the accessibility bus`);
      await sleep(200);
    }
  }
}

async function benchTree(context: ReturnType<typeof testContext>, desktop: TestDesktop, window: ClientWindow, mcp?: { session: McpSession; targetRatio?: number }): Promise<void> {
  const limits = { maxNodes: 100_000, maxDepth: 10_000, budgetMs: 60_000 };
  const capture = async (session: ReturnType<typeof testContext>) => {
    const tree = await session.desktop.readWindowTree(window, limits);
    return atspiToCup(tree.read!.root!, tree.context).nodeCount;
  };
  const pyatspiWalk = async () => {
    const { stdout } = await execFileAsync('/usr/bin/python3', [join(repositoryRoot, 'test/fixtures/oracle/pyatspi_walk.py'), String(window.pid), window.title], {
      env: desktop.env(),
      timeout: 120_000,
    });
    return JSON.parse(stdout) as { count: number; seconds: number };
  };
  // Cold: a new session that has never seen the app (connections open, nothing known about its objects).
  const coldCapture = async () => {
    const fresh = testContext();
    await fresh.desktop.atspi();
    const started = performance.now();
    await capture(fresh);
    const elapsed = performance.now() - started;
    fresh.desktop.close();
    return elapsed;
  };
  // Warm: repeat captures in one session, as an agent's MCP or daemon session makes them.
  await capture(context);
  // Rounds interleave the peer with our cold and warm captures, so load from other tenants of this
  // shared machine falls on both sides alike instead of on whichever ran during a busy spell.
  // The MCP server's session is warmed the same way: its first reading of the window is not a repeat.
  if (mcp) await mcp.session.windowState(window);
  const coldTimes: number[] = [];
  const warmTimes: number[] = [];
  const peerTimes: number[] = [];
  const mcpTimes: number[] = [];
  let peerCount = 0;
  let nodeCount = 0;
  let mcpNodes = 0;
  for (let round = 0; round < runs; round++) {
    const peer = await pyatspiWalk();
    peerTimes.push(peer.seconds * 1000);
    peerCount = peer.count;
    coldTimes.push(await coldCapture());
    const warm = await timeRuns(2, () => capture(context));
    warmTimes.push(...warm.times);
    nodeCount = warm.last;
    for (let call = 0; mcp && call < 2; call++) {
      const state = await mcp.session.windowState(window);
      mcpTimes.push(state.ms);
      mcpNodes = state.nodes;
    }
  }
  const ours = { times: warmTimes, last: nodeCount };
  const coldRatio = median(peerTimes) / median(coldTimes);
  rows.push({
    what: `tree capture, first (cold), ${ours.last} nodes (pyatspi: ${peerCount})`,
    ours: ms(median(coldTimes)),
    peer: `pyatspi walk ${ms(median(peerTimes))}`,
    ratio: `${coldRatio.toFixed(1)}x faster`,
    target: '(reported)',
    met: true,
  });
  const ratio = median(peerTimes) / median(ours.times);
  rows.push({
    what: `tree capture, repeat (warm), ${ours.last} nodes, role+name+states+bounds+actions`,
    ours: ms(median(ours.times)),
    peer: `pyatspi walk ${ms(median(peerTimes))}`,
    ratio: `${ratio.toFixed(1)}x faster`,
    target: '>= 5x',
    met: ratio >= 5,
  });
  if (mcp) {
    const mcpRatio = median(peerTimes) / median(mcpTimes);
    rows.push({
      what: `get_window_state through MCP (stdio), repeat, unchanged window, ${mcpNodes} nodes read, no screenshot`,
      ours: ms(median(mcpTimes)),
      peer: `pyatspi walk ${ms(median(peerTimes))}`,
      ratio: `${mcpRatio.toFixed(1)}x faster`,
      target: mcp.targetRatio ? `>= ${mcp.targetRatio}x` : '(reported)',
      met: mcpRatio >= (mcp.targetRatio ?? 0),
    });
  }
}

async function benchScreenshot(context: ReturnType<typeof testContext>, desktop: TestDesktop, window: ClientWindow): Promise<void> {
  const ours = await timeRuns(runs, async () => (await encodePng(await context.desktop.captureWindow(window), 0)).data.length);
  const out = join(tmpdir(), `cup-bench-import-${process.pid}.png`);
  const peer = await timeRuns(Math.max(3, Math.ceil(runs / 2)), async () =>
    execFileAsync('import', ['-window', String(window.id), `png:${out}`], { env: desktop.env(), timeout: 60_000 }),
  );
  rmSync(out, { force: true });
  const ratio = median(peer.times) / median(ours.times);
  rows.push({
    what: `window screenshot to PNG, ${window.bounds.width}x${window.bounds.height}`,
    ours: ms(median(ours.times)),
    peer: `import -window ${ms(median(peer.times))}`,
    ratio: `${ratio.toFixed(1)}x faster`,
    target: '>= 4x',
    met: ratio >= 4,
  });
}

async function benchTokens(context: ReturnType<typeof testContext>, window: ClientWindow): Promise<void> {
  const tree = await context.desktop.readWindowTree(window, { maxNodes: 5000, maxDepth: 1000, budgetMs: 60_000 });
  const screen = await context.desktop.screen();
  const envelope = buildEnvelope({
    platform: 'linux',
    screen: { w: screen.width, h: screen.height, scale: screen.scale },
    app: { name: window.appName, pid: window.pid },
    scope: 'full',
    tree: [atspiToCup(tree.read!.root!, tree.context).root],
  });
  const compactTokens = encode(toCompact(envelope)).length;
  const jsonTokens = encode(JSON.stringify(envelope)).length;
  const saving = 1 - compactTokens / jsonTokens;
  rows.push({
    what: `tokens (o200k), "${window.title}"`,
    ours: `compact ${compactTokens}`,
    peer: `JSON envelope ${jsonTokens}`,
    ratio: `${(saving * 100).toFixed(1)}% fewer`,
    target: '>= 75% fewer',
    met: saving >= 0.75,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
