import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createContext } from '../../src/server/session.js';
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
export function testContext(): ToolContext {
  if (configHome === undefined) {
    const created = mkdtempSync(join(tmpdir(), 'cup-config-'));
    configHome = created;
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  process.env.XDG_CONFIG_HOME = configHome;
  return createContext({ session: 'test', persistConfig: false });
}

/** Runs a tool and fails the test with the tool's own message when it did not succeed. */
export async function callOk(context: ToolContext, name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> {
  const result = await runTool(name, args, context);
  if (!result.ok) throw new Error(`${name} failed: ${result.summary}`);
  return result;
}

/** Runs the pyatspi oracle (Debian's python3-pyatspi) on one window and returns its pre-order node list. */
export async function pyatspiWalk(pid: number, title: string, env: NodeJS.ProcessEnv): Promise<OracleNode[]> {
  const script = `${repositoryRoot}/test/fixtures/oracle/pyatspi_walk.py`;
  const { stdout } = await execFileAsync('/usr/bin/python3', [script, String(pid), title, '--json'], { env, timeout: 60_000, maxBuffer: 64 << 20 });
  const parsed = JSON.parse(stdout) as { nodes?: OracleNode[]; error?: string };
  if (!parsed.nodes) throw new Error(`pyatspi oracle: ${parsed.error}`);
  return parsed.nodes;
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
