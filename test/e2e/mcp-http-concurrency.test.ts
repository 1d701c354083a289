import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { TestDesktop } from '../helpers/desktop.js';
import { percentile } from '../../scripts/bench-report.js';
import { callTool, HttpServerProcess, resultText } from '../helpers/mcp-http.js';

interface LoggedAction {
  what: string;
  at: number;
}

/** The fixture's own record (--action-log): what reached the app, in the order it did, with its clock. */
function actionLog(path: string): LoggedAction[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const cut = line.lastIndexOf(' ');
      return { what: line.slice(0, cut), at: Number(line.slice(cut + 1)) };
    });
}

async function tokenOf(client: Client, window: ClientWindow, selector: string): Promise<string> {
  const found = await callTool(client, 'find_elements', { pid: window.pid, window_id: window.id, selector });
  assert.ok(!found.isError, resultText(found));
  const matches = (found.structuredContent as { matches: { element_token: string }[] }).matches;
  assert.equal(matches.length, 1, `one element matches ${selector}`);
  return matches[0]!.element_token;
}

describe('MCP over HTTP with several clients at once: reads in parallel, actions on one app in arrival order, apps in parallel', () => {
  let desktop: TestDesktop;
  let server: HttpServerProcess;
  const apps: { window: ClientWindow; log: string }[] = [];

  const connect = async (): Promise<Client> => (await server.connect()).client;

  before(async () => {
    desktop = await TestDesktop.start();
    const logs = mkdtempSync(join(tmpdir(), 'cup-http-actions-'));
    for (const name of ['A', 'B']) {
      const log = join(logs, `${name}.log`);
      const { window } = await desktop.launchFixture('gtk3', { title: `CUP Fixture ${name}`, extraArgs: ['--action-log', log] });
      apps.push({ window, log });
    }
    server = await HttpServerProcess.start(['mcp', '--http', '0'], desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-http-config-')) }));
  });

  after(async () => {
    await server?.stop();
    await desktop?.stop();
  });

  test('four clients reading one window at once each get the whole window, none held (the bench measures the ratio: npm run bench)', async () => {
    const { window } = apps[0]!;
    const readers = await Promise.all([0, 1, 2, 3].map(() => connect()));
    const read = async (client: Client): Promise<number> => {
      const started = performance.now();
      const result = await callTool(client, 'get_window_state', { pid: window.pid, window_id: window.id });
      assert.ok(!result.isError, resultText(result));
      assert.match(resultText(result), /btn "Increment"/);
      return performance.now() - started;
    };
    // Warm: the first reading of a window builds its live mirror.
    for (const reader of readers) await read(reader);
    // Rounds of one client alone, then four at once, so a machine whose speed drifts weighs on both alike.
    const alone: number[] = [];
    const together: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 4; i++) alone.push(await read(readers[0]!));
      together.push(...(await Promise.all(readers.map(async (reader) => [await read(reader), await read(reader), await read(reader)]))).flat());
    }
    const median = percentile(alone, 0.5);
    const p95 = percentile(together, 0.95);
    const aloneP95 = percentile(alone, 0.95);
    console.log(
      `get_window_state over HTTP: one client p50 ${median.toFixed(1)} ms, p95 ${aloneP95.toFixed(1)} ms; four clients p50 ${percentile(together, 0.5).toFixed(1)} ms, ` +
        `p95 ${p95.toFixed(1)} ms (${(p95 / median).toFixed(2)}x the one-client p50, issue 13's measure; ${(p95 / aloneP95).toFixed(2)}x its p95)`,
    );
    // Issue 13's measure is the bench's (npm run bench, its HTTP rows, where each client is a process of its own): here
    // the four clients share this process, which parses their answers one after another, and on a loaded 2-core
    // machine CI saw 3.5x with the server answering in parallel. The test holds a bound against a read held or hung.
    const slowest = Math.max(...together);
    assert.ok(slowest < 10_000, `every read of four at once answered within 10 s (slowest ${slowest.toFixed(0)} ms)`);
  });

  test('concurrent readers asking for different views each get their own, and every round shows the value set before it', async () => {
    const { window } = apps[0]!;
    const [writer, ...readers] = await Promise.all([0, 1, 2, 3, 4].map(() => connect()));
    const field = await tokenOf(writer!, window, 'name="Name field"');
    const target = { pid: window.pid, window_id: window.id, include_screenshot: false };
    const views = [{}, { format: 'markdown' }, { max_elements: 3 }, { query: 'Name field' }];
    const read = async (client: Client, view: Record<string, unknown>) => {
      const result = await callTool(client, 'get_window_state', { ...target, ...view });
      assert.ok(!result.isError, resultText(result));
      return result;
    };
    // What each view looks like read alone: markdown names elements its own way, a cap of 3 shows 3 nodes.
    const alone = await Promise.all(views.map(async (view, i) => (await read(readers[i]!, view)).structuredContent as { node_count: number; shown_count: number }));
    assert.equal(alone[2]!.node_count, 3, 'max_elements 3 shows 3 nodes');
    assert.ok(alone[0]!.node_count > 3, 'the full read shows more');
    for (let round = 0; round < 4; round++) {
      const value = `round ${round} ${Date.now()}`;
      const set = await callTool(writer!, 'set_value', { element_token: field, value, diff: false });
      assert.ok(!set.isError, resultText(set));
      // The four read at once, each after the value was set: each must show it, in the view it asked for.
      const results = await Promise.all(views.map((view, i) => read(readers[i]!, view)));
      const [compact, markdown, capped, queried] = results.map((result) => resultText(result));
      assert.match(compact!, new RegExp(`\\[e\\d+\\] tbx "Name field".*${value}`), `round ${round}: the compact view shows the value set before it`);
      assert.match(markdown!, /\[element_index \d+\]/, `round ${round}: the markdown reader got markdown`);
      assert.ok(markdown!.includes(value), `round ${round}: the markdown view shows the value set before it`);
      assert.equal((results[2]!.structuredContent as { node_count: number }).node_count, 3, `round ${round}: the capped reader got its cap`);
      assert.ok(!capped!.includes(value), `round ${round}: the capped view stops before the field`);
      assert.ok(queried!.includes(value) && !queried!.includes('"Increment"'), `round ${round}: the filtered view holds the field only`);
    }
  });

  test('a read is not held behind an action running on the same window', async () => {
    const { window } = apps[0]!;
    const actor = await connect();
    const reader = await connect();
    const plan = callTool(actor, 'run_actions', { pid: window.pid, window_id: window.id, diff: false, steps: [{ tool: 'wait', arguments: { ms: 4000 } }] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const read = await callTool(reader, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    const elapsed = Date.now() - started;
    assert.ok(!read.isError, resultText(read));
    const planned = await plan;
    assert.ok(!planned.isError, resultText(planned));
    assert.ok(elapsed < 3000, `the read took ${elapsed} ms while a 4 s action held the window's line`);
  });

  test('two clients\' actions on one window run in the order they arrived, never interleaved', async () => {
    const { window, log } = apps[0]!;
    const first = await connect();
    const second = await connect();
    const increment = await tokenOf(first, window, 'role=button name="Increment"');
    const field = await tokenOf(second, window, 'name="Name field"');
    const before = actionLog(log).length;
    const click = { tool: 'click', arguments: { element_token: increment } };
    const plan = callTool(first, 'run_actions', {
      pid: window.pid,
      window_id: window.id,
      diff: false,
      steps: [click, { tool: 'wait', arguments: { ms: 400 } }, click, { tool: 'wait', arguments: { ms: 400 } }, click],
    }).then((result) => ({ result, at: Date.now() }));
    // Well after the plan arrived (a busy machine may take a while to read a request), well before it ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sentAt = Date.now();
    const typed = await callTool(second, 'set_value', { element_token: field, value: 'second client', diff: false });
    const planned = await plan;
    assert.ok(!planned.result.isError, resultText(planned.result));
    assert.ok(!typed.isError, resultText(typed));
    assert.ok(sentAt < planned.at, 'the second client\'s action was sent while the first client\'s plan was running');
    const seen = actionLog(log).slice(before).map((entry) => entry.what.replace(/^increment \d+$/, 'increment'));
    assert.deepEqual(seen, ['increment', 'increment', 'increment', 'text second client'], `the app saw: ${seen.join(', ')}`);
  });

  test('actions on two apps run at the same time', async () => {
    const plans = await Promise.all(
      apps.map(async ({ window, log }) => {
        const client = await connect();
        const increment = await tokenOf(client, window, 'role=button name="Increment"');
        const before = actionLog(log).length;
        const click = { tool: 'click', arguments: { element_token: increment } };
        return { client, log, before, args: { pid: window.pid, window_id: window.id, diff: false, steps: [click, { tool: 'wait', arguments: { ms: 800 } }, click] } };
      }),
    );
    const results = await Promise.all(plans.map((plan) => callTool(plan.client, 'run_actions', plan.args)));
    for (const result of results) assert.ok(!result.isError, resultText(result));
    const [a, b] = plans.map((plan) => actionLog(plan.log).slice(plan.before));
    assert.equal(a!.length, 2);
    assert.equal(b!.length, 2);
    // Each app's first click came before the other's last one: the plans overlapped in the apps' own clocks.
    assert.ok(b![0]!.at < a![1]!.at && a![0]!.at < b![1]!.at, `A at ${a!.map((entry) => entry.at)}, B at ${b!.map((entry) => entry.at)}`);
  });
});
