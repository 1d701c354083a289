// Shared by the terminal tests: a tool context whose terminals are stopped afterwards, recorded screens,
// and the check that no process of a stopped session is left.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../../src/server/session.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { ToolCallResult } from '../../src/tools/call-result.js';
import { runTool } from '../../src/tools/run.js';
import type { CellGrid } from '../../src/tui/grid.js';
import { sessionMembers } from '../../src/tui/process-session.js';
import { buildStructure } from '../../src/tui/structure/index.js';
import { flattenNodes, type UINode } from '../../src/tui/ui-node.js';
import { gridFromVisualFrame, type VisualFrame } from '../../src/tui/visual-frame.js';
import { repositoryRoot } from '../helpers/desktop.js';

export const tuiFixtures = join(repositoryRoot, 'test', 'fixtures', 'tui');

/** Programs from Debian by absolute path, so a version manager's shim on PATH cannot stand in for them. */
export const PYTHON = '/usr/bin/python3';

/**
 * A context like the MCP server's, with a config directory of its own so a policy file in the user's
 * home cannot change what the tests see.
 */
export function terminalContext(session = 'test'): ToolContext {
  process.env.XDG_CONFIG_HOME ??= mkdtempSync(join(tmpdir(), 'cup-tui-config-'));
  return createContext({ session, persistConfig: false });
}

/** The error code of a failed call (and that it failed). */
export async function failsWith(context: ToolContext, name: string, args: Record<string, unknown>, code: string): Promise<ToolCallResult> {
  const result = await runTool(name, args, context);
  assert.equal(result.ok, false, `${name} should have failed with ${code}, but: ${result.summary}`);
  assert.equal((result.structured.error as { code: string }).code, code, result.summary);
  return result;
}

/** Stops every terminal of the context and checks that nothing of those sessions survived. */
export async function stopAll(context: ToolContext, pids: readonly number[]): Promise<void> {
  await context.terminals.stopAll();
  for (const pid of pids) assert.deepEqual(sessionMembers(pid), [], `processes of the session led by ${pid} remain`);
}

export function nodes(result: ToolCallResult): UINode[] {
  return flattenNodes((result.structured.frame as { nodes: UINode[] }).nodes);
}

export interface RecordedScreen extends VisualFrame {
  program: string;
  note: string;
}

export function recordedScreen(name: string): RecordedScreen {
  return JSON.parse(readFileSync(join(tuiFixtures, `${name}.json`), 'utf8')) as RecordedScreen;
}

export function recordedGrid(name: string): CellGrid {
  return gridFromVisualFrame(recordedScreen(name));
}

/** The structure heuristics' tree of a recorded screen, flattened. */
export function structureOf(name: string): { all: UINode[]; focus: string | null } {
  const built = buildStructure(recordedGrid(name), { title: name });
  return { all: flattenNodes(built.nodes), focus: built.focus };
}
