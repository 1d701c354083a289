// run_actions through the real clients: the official MCP SDK over stdio (in process and through the daemon) and
// the CLI as its own process. Cancellation: the SDK client's AbortSignal (notifications/cancelled) and Ctrl-C
// (SIGINT) on the CLI. What the app received is read by pyatspi; the daemon's health by `daemon status`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runCli, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { cliPath, TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';

interface Element {
  index: number;
  name: string;
}

describe('run_actions over MCP and the CLI, cancelled by the client', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let oracle: PyatspiOracle;
  let env: NodeJS.ProcessEnv;
  const clients: Client[] = [];

  async function counter(): Promise<number> {
    return Number((await oracle.status(window.pid, window.title)).counter);
  }

  async function fieldText(): Promise<string> {
    return (await oracle.find(window.pid, window.title, 'text', 'Paste target')).text ?? '';
  }

  function indexOf(elements: Element[], name: string): number {
    const found = elements.find((element) => element.name === name);
    assert.ok(found, `no element "${name}"`);
    return found.index;
  }

  async function mcp(args: string[]): Promise<{ client: Client; stderr: () => string; elements: Element[] }> {
    const connected = await connectMcp(env, args, 'pipe');
    clients.push(connected.client);
    let elements: Element[] = [];
    await waitUntil('the fixture is accessible over MCP', 15_000, async () => {
      const state = (await connected.client.callTool({ name: 'get_window_state', arguments: { pid: window.pid, window_id: window.id, include_screenshot: false } })) as CallToolResult;
      elements = ((state.structuredContent as { elements?: Element[] }).elements ?? []);
      return elements.some((element) => element.name === 'Increment');
    });
    return { ...connected, elements };
  }

  /** The plan every cancel test runs: type a marker (so the test knows the plan runs), wait, then click. */
  function markedPlan(elements: Element[], marker: string): Record<string, unknown> {
    return {
      window_id: window.id,
      steps: [
        { tool: 'set_value', arguments: { element_index: indexOf(elements, 'Paste target'), value: marker } },
        { tool: 'wait', arguments: { ms: 5000 } },
        { tool: 'click', arguments: { element_index: indexOf(elements, 'Increment') } },
      ],
    };
  }

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    oracle = new PyatspiOracle(desktop.env());
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
  });

  after(async () => {
    for (const client of clients) await client.close();
    if (env) await stopDaemon(env);
    oracle?.close();
    await desktop?.stop();
  });

  test('MCP: a plan types, clicks and waits in one tools/call', async () => {
    const { client, elements } = await mcp(['mcp']);
    const before = await counter();
    const result = (await client.callTool({
      name: 'run_actions',
      arguments: {
        window_id: window.id,
        steps: [
          { tool: 'set_value', arguments: { element_index: indexOf(elements, 'Paste target'), value: '' } },
          { tool: 'type_text', arguments: { element_index: indexOf(elements, 'Paste target'), text: 'over mcp' } },
          { tool: 'click', arguments: { element_index: indexOf(elements, 'Increment') } },
          { tool: 'wait', arguments: { ms: 20 } },
        ],
      },
    })) as CallToolResult;
    assert.ok(!result.isError, JSON.stringify(result.content));
    const structured = result.structuredContent as { completed_steps: number; cancelled: boolean };
    assert.equal(structured.completed_steps, 4);
    assert.equal(structured.cancelled, false);
    assert.equal(await fieldText(), 'over mcp');
    assert.equal(await counter(), before + 1);
  });

  test('MCP and the CLI take the same plan by selector and window reference, and answer it alike', async () => {
    const { client } = await mcp(['mcp']);
    const plan = (text: string) => ({
      window_id: window.id,
      steps: [
        { tool: 'find_elements', arguments: { selector: 'role=textbox name="Paste target"' } },
        { tool: 'set_value', arguments: { window_id: { from_step: 0 }, selector: 'role=textbox name="Paste target"', value: text } },
        { tool: 'click', arguments: { window_id: { from_step: 0 }, selector: 'role=button name=Increment' } },
        { tool: 'press_key', arguments: { window_id: { from_step: 2 }, key: 'x' } },
      ],
    });
    type Entry = { tool: string; ok: boolean; error?: { code: string }; window_from_step?: { window_id: number }; result?: { selected?: { role: string; name: string } } };
    const shape = (steps: Entry[]) => steps.map((step) => [step.tool, step.ok, step.error?.code, step.window_from_step?.window_id, step.result?.selected?.name]);
    const expected = [
      ['find_elements', true, undefined, undefined, undefined],
      ['set_value', true, undefined, window.id, 'Paste target'],
      ['click', true, undefined, window.id, 'Increment'],
      // The click opened no window: the key is not sent anywhere.
      ['press_key', false, 'no_step_window', undefined, undefined],
    ];
    const before = await counter();
    const overMcp = (await client.callTool({ name: 'run_actions', arguments: plan('by mcp') })) as CallToolResult;
    assert.ok(!overMcp.isError, JSON.stringify(overMcp.content));
    assert.deepEqual(shape((overMcp.structuredContent as { steps: Entry[] }).steps), expected);
    assert.equal(await fieldText(), 'by mcp');
    const overCli = await runCli(['call', 'run_actions', JSON.stringify(plan('by cli')), '--json'], env);
    assert.equal(overCli.status, 0, overCli.stderr);
    assert.deepEqual(shape((JSON.parse(overCli.stdout) as { structuredContent: { steps: Entry[] } }).structuredContent.steps), expected);
    assert.equal(await fieldText(), 'by cli');
    assert.equal(await counter(), before + 2);
  });

  test('MCP through the daemon: notifications/cancelled during a wait stops the plan before its click; the daemon serves on', async () => {
    const { client, stderr, elements } = await mcp(['mcp', '--daemon']);
    const before = await counter();
    const controller = new AbortController();
    const call = client.callTool({ name: 'run_actions', arguments: markedPlan(elements, 'mcp cancel') }, undefined, { signal: controller.signal, timeout: 30_000 });
    const rejected = call.then(() => 'answered', () => 'rejected');
    while ((await fieldText()) !== 'mcp cancel') await sleep(20);
    const abortedAt = performance.now();
    controller.abort();
    assert.equal(await rejected, 'rejected', 'the SDK client gives up on a cancelled request');
    // The MCP server logs how the cancelled call ended (the client hears no answer, as MCP says).
    let line = '';
    while (!(line = /run_actions cancelled by the client: (.*)/.exec(stderr())?.[1] ?? '') && performance.now() - abortedAt < 5000) await sleep(5);
    const loggedMs = performance.now() - abortedAt;
    console.log(`mcp --daemon cancel: "${line}"; logged ${loggedMs.toFixed(1)} ms after the abort`);
    assert.match(line, /cancelled \(client\) after 1 of 3 steps; stopped [\d.]+ ms after the cancel/);
    const stoppedMs = Number(/stopped ([\d.]+) ms/.exec(line)![1]);
    // A bound against hangs; the latency itself is measured by npm run bench (shared machines are noisy).
    assert.ok(stoppedMs < 1000, `the plan stopped ${stoppedMs} ms after the cancel reached it`);
    assert.ok(loggedMs < 1000, `the cancelled answer came back ${loggedMs} ms after the abort`);
    assert.equal(await counter(), before, 'the click after the wait was never sent');
    const next = (await client.callTool({ name: 'get_config', arguments: {} })) as CallToolResult;
    assert.ok(!next.isError, 'the connection and the daemon serve the next call');
  });

  test('CLI: Ctrl-C during a plan prints the cancelled result and exits 130; the daemon is fine afterwards', async () => {
    const state = await runCli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id, include_screenshot: false }), '--session', 'ctrlc', '--json'], env);
    assert.equal(state.status, 0, state.stderr);
    const elements = (JSON.parse(state.stdout) as { structuredContent: { elements: Element[] } }).structuredContent.elements;
    const statusBefore = await runCli(['daemon', 'status', '--json'], env);
    const daemonPid = (JSON.parse(statusBefore.stdout) as { pid: number }).pid;
    const before = await counter();
    const child = spawn(process.execPath, [cliPath, 'call', 'run_actions', JSON.stringify(markedPlan(elements, 'ctrl-c')), '--session', 'ctrlc', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      while ((await fieldText()) !== 'ctrl-c') await sleep(20);
      const interruptedAt = performance.now();
      child.kill('SIGINT');
      const code = await exited;
      const exitMs = performance.now() - interruptedAt;
      console.log(`cli ctrl-c: exit ${code} ${exitMs.toFixed(1)} ms after SIGINT`);
      assert.equal(code, 130, stderr);
      const output = JSON.parse(stdout) as { isError: boolean; structuredContent: { cancelled: boolean; cancel_reason: string; cancel_latency_ms: number; completed_steps: number } };
      assert.equal(output.isError, false);
      assert.equal(output.structuredContent.cancelled, true);
      assert.equal(output.structuredContent.cancel_reason, 'client');
      assert.equal(output.structuredContent.completed_steps, 1);
      console.log(`cli ctrl-c: the plan stopped ${output.structuredContent.cancel_latency_ms} ms after the cancel reached the daemon`);
      assert.ok(output.structuredContent.cancel_latency_ms < 1000);
      assert.ok(exitMs < 2000, `exited ${exitMs} ms after SIGINT`);
    } finally {
      clearTimeout(killer);
    }
    assert.equal(await counter(), before, 'the click after the wait was never sent');
    const statusAfter = await runCli(['daemon', 'status', '--json'], env);
    assert.equal(statusAfter.status, 0, statusAfter.stderr);
    const after = JSON.parse(statusAfter.stdout) as { pid: number; calls_in_flight: unknown[] };
    assert.equal(after.pid, daemonPid, 'the same daemon');
    assert.deepEqual(after.calls_in_flight, [], 'nothing left running');
    const next = await runCli(['call', 'get_config', '--session', 'ctrlc'], env);
    assert.equal(next.status, 0, next.stderr);
  });
});
