import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { createContext, type LinuxToolContext } from '../../src/server/session.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { ToolCallResult } from '../../src/tools/call-result.js';
import { runTool } from '../../src/tools/run.js';
import { repositoryRoot } from './desktop.js';

const execFileAsync = promisify(execFile);

let configHome: string | undefined;

/**
 * An in-process session like the MCP server's, for calling tools straight through the registry. Its config
 * directory is a private one, so a policy or default in the user's own config cannot change what it sees.
 */
export function testContext(): LinuxToolContext {
  if (configHome === undefined) {
    const created = mkdtempSync(join(tmpdir(), 'cup-config-'));
    configHome = created;
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  process.env.XDG_CONFIG_HOME = configHome;
  return createContext({ session: 'test', persistConfig: false });
}

/** The error code of a failed call (and that it failed). */
export async function failsWith(context: ToolContext, name: string, args: Record<string, unknown>, code: string): Promise<ToolCallResult> {
  const result = await runTool(name, args, context);
  assert.equal(result.ok, false, `${name} should have failed with ${code}, but: ${result.summary}`);
  assert.equal(result.structured.error, code, result.summary);
  return result;
}

/** Runs a tool and fails the test with the tool's own message when it did not succeed. */
export async function callOk(context: ToolContext, name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> {
  const result = await runTool(name, args, context);
  if (!result.ok) throw new Error(`${name} failed: ${result.summary}`);
  return result;
}

/** One element of get_window_state's structured result. */
export interface Element {
  index: number;
  role: string;
  name: string;
  value?: string;
  states: string[];
  actions: string[];
  bounds?: { x: number; y: number; w: number; h: number };
}

/** get_window_state's structured result. */
export interface WindowState {
  snapshot_id: string;
  node_count: number;
  shown_count: number;
  truncated: boolean;
  unread_children?: { up: number; down: number; left: number; right: number };
  degraded: boolean;
  degraded_reason?: string;
  toolkit?: string;
  elements: Element[];
  screenshot?: { width: number; height: number; scale: number; path?: string };
}

/**
 * get_window_state once the app's tree is readable: an app registers on the accessibility bus a moment after
 * its window maps, and until then the result is degraded. Fails when the tree is still missing at the deadline.
 */
export async function accessibleWindowState(
  context: ToolContext,
  window: ClientWindow,
  args: Record<string, unknown> = {},
  timeoutMs = 15_000,
): Promise<{ result: ToolCallResult; state: WindowState }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, ...args });
    const state = result.structured as unknown as WindowState;
    if (!state.degraded) return { result, state };
    if (Date.now() > deadline) throw new Error(`"${window.title}" (window ${window.id}) has no accessibility tree after ${timeoutMs} ms: ${state.degraded_reason}`);
    await sleep(100);
  }
}

/** Runs the pyatspi oracle (Debian's python3-pyatspi) on one window and returns its pre-order node list. */
export async function pyatspiWalk(pid: number, title: string, env: NodeJS.ProcessEnv): Promise<OracleNode[]> {
  const script = `${repositoryRoot}/test/fixtures/oracle/pyatspi_walk.py`;
  // An app still building its window can destroy an object while the walk reads it; a later walk gets the settled tree.
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout } = await execFileAsync('/usr/bin/python3', [script, String(pid), title, '--json'], { env, timeout: 60_000, maxBuffer: 64 << 20 });
      const parsed = JSON.parse(stdout) as { nodes?: OracleNode[]; error?: string };
      if (!parsed.nodes) throw new Error(`pyatspi oracle: ${parsed.error}`);
      return parsed.nodes;
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(300);
    }
  }
}

export interface OracleNode {
  depth: number;
  role: string;
  name: string;
  states: string[];
  extents: [number, number, number, number] | null;
  window_extents: [number, number, number, number] | null;
  actions: string[];
}

/** The indices of a node's children in pyatspiWalk's pre-order list. */
export function childIndices(nodes: readonly OracleNode[], at: number): number[] {
  const found: number[] = [];
  for (let i = at + 1; i < nodes.length && nodes[i]!.depth > nodes[at]!.depth; i++) if (nodes[i]!.depth === nodes[at]!.depth + 1) found.push(i);
  return found;
}
