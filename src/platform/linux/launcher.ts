import { join } from 'node:path';
import { accessibleSessionEnvironment } from './desktop/accessible-session.js';
import { execWords, installedApplications, type DesktopEntry } from './desktop-entries.js';
import { spawnDetached, statFields } from './desktop/processes.js';
import { requireProgram } from './desktop/requirements.js';
import { logDirectory } from './desktop/state-dir.js';

export interface LaunchPlan {
  command: string;
  args: string[];
  /** The .desktop entry the name matched, if it matched one. */
  entry?: DesktopEntry;
  name: string;
}

/** Expands an Exec line's field codes: %u/%f take the first URL or file, %U/%F all; the others are dropped. */
function expandExec(exec: string, urls: readonly string[]): string[] {
  const words: string[] = [];
  for (const word of execWords(exec)) {
    if (word === '%U' || word === '%F') words.push(...urls);
    else if (word === '%u' || word === '%f') words.push(...urls.slice(0, 1));
    else if (/^%[a-zA-Z]$/.test(word)) continue;
    else words.push(word.replace(/%%/g, '%'));
  }
  return words;
}

/**
 * How well an entry answers to a name, best first, or undefined when it does not: its display name, its id,
 * then its program, where an entry that runs the program plainly beats one that passes options
 * ("pcmanfm" is the file manager, not "pcmanfm --desktop-pref").
 */
function matchRank(entry: DesktopEntry, wanted: string): number | undefined {
  const lower = wanted.toLowerCase();
  if (entry.name.toLowerCase() === lower) return 0;
  if (entry.id.toLowerCase() === lower || entry.id.toLowerCase() === `${lower}.desktop`) return 1;
  if (entry.program.toLowerCase() !== lower) return undefined;
  const options = execWords(entry.exec).slice(1).filter((word) => !/^%[a-zA-Z]$/.test(word));
  return options.length === 0 ? 2 : 3;
}

/**
 * How to start an app named by the caller: a .desktop entry (by name, id or program), else a program on
 * PATH or an absolute path. An unknown name is an error that lists close installed names.
 */
export function planLaunch(name: string, urls: readonly string[], extraArgs: readonly string[]): LaunchPlan {
  const entries = installedApplications();
  let entry: DesktopEntry | undefined;
  let best = Number.POSITIVE_INFINITY;
  for (const candidate of entries) {
    const rank = matchRank(candidate, name);
    if (rank !== undefined && rank < best) [entry, best] = [candidate, rank];
  }
  if (entry) {
    const [command, ...args] = expandExec(entry.exec, urls);
    if (!command) throw new Error(`the desktop entry ${entry.path} has an empty Exec line`);
    return { command, args: [...args, ...extraArgs], entry, name: entry.name };
  }
  let command: string;
  try {
    command = requireProgram(name, name);
  } catch {
    const close = entries.filter((candidate) => candidate.name.toLowerCase().includes(name.toLowerCase().slice(0, 4))).slice(0, 8);
    throw new Error(
      `no installed application or program named "${name}"` +
        (close.length ? `; installed apps with similar names: ${close.map((candidate) => `"${candidate.name}"`).join(', ')}` : '; call list_apps for installed apps'),
    );
  }
  return { command, args: [...urls, ...extraArgs], name };
}

/**
 * Starts the app detached, so it outlives the driver call, with its output in a log file. The startup
 * id ends in _TIME0: a window whose user time is 0 must not take the focus when it maps (EWMH), so the
 * user's active window stays active. The environment is that of a session with accessibility on.
 */
export function startDetached(plan: LaunchPlan): { pid: number; log: string } {
  const log = join(logDirectory(), `app-${Date.now()}.log`);
  const env = { ...process.env, DESKTOP_STARTUP_ID: `cup-driver-${process.pid}-${Date.now()}_TIME0`, ...accessibleSessionEnvironment(process.env) };
  return { pid: spawnDetached(plan.command, plan.args, env, log), log };
}

/** Parent pid from /proc, to tell whether a window's process descends from one we started. */
function parentPid(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : undefined;
}

export function descendsFrom(pid: number, ancestor: number): boolean {
  let current: number | undefined = pid;
  for (let depth = 0; current && current > 1 && depth < 32; depth++) {
    if (current === ancestor) return true;
    current = parentPid(current);
  }
  return false;
}
