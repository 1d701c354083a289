// Shared by the terminal tests: a tool context whose terminals are stopped afterwards, recorded screens,
// and the check that no process of a stopped session is left.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { createContext } from '../../src/server/session.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { ToolCallResult } from '../../src/tools/call-result.js';
import type { CellGrid } from '../../src/tui/grid.js';
import { DEFAULT_SESSION } from '../../src/tui/manager.js';
import { sessionMembers } from '../../src/tui/process-session.js';
import { buildStructure } from '../../src/tui/structure/index.js';
import { flattenNodes, type UINode } from '../../src/tui/ui-node.js';
import { gridFromVisualFrame, type VisualFrame } from '../../src/tui/visual-frame.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { callOk } from '../helpers/tools.js';

export const tuiFixtures = join(repositoryRoot, 'test', 'fixtures', 'tui');

/** Programs from Debian by absolute path, so a version manager's shim on PATH cannot stand in for them. */
export const PYTHON = '/usr/bin/python3';

/**
 * A context like the MCP server's, with a config directory of its own so a policy file in the user's
 * home cannot change what the tests see.
 */
function terminalContext(session = 'test'): ToolContext {
  process.env.XDG_CONFIG_HOME ??= mkdtempSync(join(tmpdir(), 'cup-tui-config-'));
  return createContext({ session, persistConfig: false });
}

/**
 * The terminals of one test file (or describe block): `start` calls tui_start and remembers the program's
 * pid; afterwards every terminal is stopped and nothing of those sessions may survive.
 */
export function useTerminals(): { context: ToolContext; start: (args: Record<string, unknown>) => Promise<ToolCallResult> } {
  const context = terminalContext();
  const pids: number[] = [];
  after(async () => {
    await context.terminals.registry.stopAll();
    // A process killed a moment ago may still be on its way out on a loaded machine: a bounded second to go.
    const deadline = Date.now() + 2000;
    while (pids.some((pid) => sessionMembers(pid).length > 0) && Date.now() < deadline) await sleep(20);
    for (const pid of pids) assert.deepEqual(sessionMembers(pid), [], `processes of the session led by ${pid} remain`);
  });
  const start = async (args: Record<string, unknown>) => {
    const started = await callOk(context, 'tui_start', args);
    pids.push(started.structured.pid as number);
    return started;
  };
  return { context, start };
}

/** Waits for the program of a session to exit and reads its exit code from the exit event. */
export async function exitCode(context: ToolContext, session = DEFAULT_SESSION): Promise<number> {
  await callOk(context, 'tui_wait_for', { exited: true, session });
  const exit = await callOk(context, 'tui_last_event', { kind: 'exit', session });
  return (exit.structured.event as { data: { code: number } }).data.code;
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
