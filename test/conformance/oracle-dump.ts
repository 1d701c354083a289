// The independent side of the conformance checks: Debian's pyatspi dumps the window's whole tree
// (test/fixtures/oracle/pyatspi_dump.py), in screen coordinates.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { repositoryRoot } from '../helpers/desktop.js';

const execFileAsync = promisify(execFile);

export type Extents = [number, number, number, number];

export interface DumpNode {
  path: number[];
  role: string;
  name: string;
  states: string[];
  extents: Extents | null;
  actions: string[];
  text?: string;
  value?: number | null;
  is_label: boolean;
  child_count: number;
  manages_descendants: boolean;
}

export interface OracleDump {
  toolkit: string;
  toolkit_version: string;
  nodes: DumpNode[];
  truncated: boolean;
  skipped_managed: number;
  seconds: number;
  /** Added to every extent, when the toolkit reports extents relative to its window (see translate). */
  offset: [number, number];
}

/** Dumps the frame of the window's process whose name is the window's title, as the toolkit reported it. */
export async function dumpWindow(window: ClientWindow, env: NodeJS.ProcessEnv, budgetSeconds = 90): Promise<OracleDump> {
  const script = `${repositoryRoot}/test/fixtures/oracle/pyatspi_dump.py`;
  const { stdout } = await execFileAsync('/usr/bin/python3', [script, String(window.pid), window.title, '--budget', String(budgetSeconds)], {
    env,
    timeout: (budgetSeconds + 60) * 1000,
    maxBuffer: 256 << 20,
  });
  const parsed = JSON.parse(stdout) as Omit<OracleDump, 'offset'> & { error?: string };
  if (parsed.error) throw new Error(`pyatspi oracle: ${parsed.error}`);
  return { ...parsed, offset: [0, 0] };
}

/**
 * The dump in screen coordinates. GTK 4 answers extents relative to its surface even when asked for screen
 * coordinates; those are moved by the window's position on the screen plus its client-side-decoration margin
 * (_GTK_FRAME_EXTENTS, else half the difference between the X window and the frame: the shadow GTK draws
 * evenly around it). Take the window's geometry when the app has settled: it may still grow while it starts.
 */
export function onScreen(dump: OracleDump, window: ClientWindow): OracleDump {
  const frame = dump.nodes[0]?.extents;
  if (!(dump.toolkit === 'GTK' && dump.toolkit_version.startsWith('4.') && frame)) return dump;
  const margins = window.csdMargins ?? {
    left: Math.round((window.bounds.width - frame[2]) / 2),
    top: Math.round((window.bounds.height - frame[3]) / 2),
  };
  const offset: [number, number] = [window.bounds.x + margins.left - frame[0], window.bounds.y + margins.top - frame[1]];
  const move = (extents: Extents | null): Extents | null =>
    extents && !isSentinel(extents) ? [extents[0] + offset[0], extents[1] + offset[1], extents[2], extents[3]] : extents;
  return { ...dump, offset, nodes: dump.nodes.map((node) => ({ ...node, extents: move(node.extents) })) };
}

const INT_MIN = -(2 ** 31);

/** Extents that say "position unknown" rather than a place: -1 sizes, INT_MIN coordinates. */
export function isSentinel(extents: Extents): boolean {
  const [x, y, w, h] = extents;
  return x <= INT_MIN || y <= INT_MIN || w < 0 || h < 0 || (x === -1 && y === -1 && (w === -1 || h === -1));
}

/** A real place on the screen: not a sentinel and not empty. */
export function isReal(extents: Extents | null): extents is Extents {
  return extents !== null && !isSentinel(extents) && extents[2] > 0 && extents[3] > 0;
}
