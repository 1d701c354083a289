import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { browserLaunch, ownProfile, prepareProfile, type BrowserLaunch } from './browser/browser-launch.js';
import { launchedAppEnvironment } from './desktop/accessible-session.js';
import { ToolError } from '../../errors.js';
import { bestEntry, execWords, installedApplications, urlFieldCode, type DesktopEntry, type EntryMatchKind } from './desktop-entries.js';
import { spawnDetachedWatched, statFields } from './desktop/processes.js';
import type { StartedApp } from '../apps.js';
import { findProgram } from './desktop/requirements.js';
import { logDirectory } from './desktop/state-dir.js';

export interface LaunchPlan {
  command: string;
  args: string[];
  /** What a browser (or an Electron app given a debugging port) starts with besides. */
  browser?: BrowserLaunch;
  /** The .desktop entry the name matched, if it matched one, and how. */
  entry?: DesktopEntry;
  matchedBy?: EntryMatchKind;
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
 * The entry's Exec with the urls in place, or a refusal: urls an entry cannot take would otherwise be
 * dropped without a word (an Exec with no %u/%U/%f/%F), or all but the first (%u/%f).
 */
function commandForEntry(entry: DesktopEntry, urls: readonly string[]): string[] {
  const code = urlFieldCode(entry.exec);
  if (urls.length > 0 && code === undefined) {
    throw new ToolError(
      `${entry.name} (${entry.id}) takes no files or URLs: its Exec line "${entry.exec}" has no %u, %U, %f or %F, so the urls were not opened; ` +
        'pass them in additional_arguments if the program takes them as arguments',
      'urls_not_opened',
      { desktop_entry: entry.id, exec: entry.exec },
    );
  }
  if (urls.length > 1 && (code === '%u' || code === '%f')) {
    throw new ToolError(
      `${entry.name} (${entry.id}) takes one file or URL per start (its Exec line has ${code}); open them one call at a time`,
      'urls_not_opened',
      { desktop_entry: entry.id, exec: entry.exec },
    );
  }
  return expandExec(entry.exec, urls);
}

/**
 * How to start an app named by the caller: the .desktop entry that answers to the name exactly (id, then
 * Name, then program; see bestEntry), else a program on PATH or an absolute path, else an entry whose name
 * or id contains it. An unknown name is an error that lists close installed names.
 */
export function planLaunch(name: string, urls: readonly string[], extraArgs: readonly string[], options: LaunchOptions = {}): LaunchPlan {
  const entries = installedApplications();
  // A program named exactly is a closer answer than an entry whose name merely contains the word.
  const match = bestEntry(entries, name) ?? (findProgram(name) === undefined ? bestEntry(entries, name, { substrings: true }) : undefined);
  if (match) {
    const { entry, matchedBy } = match;
    const [command, ...args] = commandForEntry(entry, urls);
    if (!command) throw new Error(`the desktop entry ${entry.path} has an empty Exec line`);
    return withBrowser({ command, args: [...args, ...extraArgs], entry, matchedBy, name: entry.name }, extraArgs, options);
  }
  const command = findProgram(name);
  if (command === undefined) {
    const close = entries.filter((candidate) => candidate.name.toLowerCase().includes(name.toLowerCase().slice(0, 4))).slice(0, 8);
    throw new ToolError(
      `no installed application or program named "${name}"` +
        (close.length ? `; installed apps with similar names: ${close.map((candidate) => `"${candidate.name}"`).join(', ')}` : '; call list_apps for installed apps'),
      'app_not_found',
    );
  }
  return withBrowser({ command, args: [...urls, ...extraArgs], name }, extraArgs, options);
}

export interface LaunchOptions {
  /** Open the DevTools protocol (WebDriver BiDi for Firefox) on this port; 0 lets the browser pick one. */
  debuggingPort?: number;
}

/** A browser's plan gets its launch options first, before the urls (the caller's own options come after and win). */
function withBrowser(plan: LaunchPlan, extraArgs: readonly string[], options: LaunchOptions): LaunchPlan {
  const browser = browserLaunch(plan.command, extraArgs, options.debuggingPort);
  if (!browser) return plan;
  return { ...plan, args: [...browser.args, ...plan.args], browser };
}

/**
 * Starts the app detached, so it outlives the driver call, with its output in a log file. The startup
 * id ends in _TIME0: a window whose user time is 0 must not take the focus when it maps (EWMH), so the
 * user's active window stays active. The environment is that of a session with accessibility on, and GTK 4's
 * renderer suits the display (directRendering: whether it offers GL clients direct rendering).
 */
export function startDetached(plan: LaunchPlan, cwd: string, directRendering: boolean): StartedApp {
  const program = programFor(plan.command);
  if (program === undefined) {
    throw new ToolError(
      `could not start "${plan.command}"${plan.entry ? `, which the desktop entry ${plan.entry.path} runs` : ''}: it is not on PATH (${process.env.PATH ?? ''}) ` +
        `nor in ${sessionProgramDirectories.join(' or ')}; nothing was started. Install its package, or give launch_app the program's full path as name`,
      'app_not_found',
    );
  }
  const log = join(logDirectory(), `app-${Date.now()}.log`);
  const env = { ...process.env, DESKTOP_STARTUP_ID: `cup-driver-${process.pid}-${Date.now()}_TIME0`, ...launchedAppEnvironment(process.env, directRendering), ...plan.browser?.env };
  if (plan.browser) prepareProfile(plan.browser);
  // A folder that is gone would make the start fail with a misleading ENOENT: the app then starts where the driver runs.
  const started = spawnDetachedWatched(program, plan.args, env, log, isDirectory(cwd) ? cwd : undefined);
  if (plan.browser?.profile) ownProfile(plan.browser.profile, started.pid, started.exited);
  return { ...started, log, lastOutput: () => lastLineOf(log) };
}

/** The last non-empty line of a log, read from its last 4 KiB (a program that failed says why there). */
function lastLineOf(path: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const size = statSync(path).size;
    const tail = Buffer.alloc(Math.min(size, 4096));
    readSync(descriptor, tail, 0, tail.length, size - tail.length);
    const line = tail.toString('utf8').split(/\r?\n/).map((text) => text.trim()).filter(Boolean).pop();
    return line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 300)}…` : line;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Directories a desktop session's PATH has that a root or service environment's leaves out: Debian installs games
 * there (GNOME Mines' entry runs "gnome-mines", which is /usr/games/gnome-mines), and launch_app failed with an
 * internal error where a person's launcher starts them.
 */
export const sessionProgramDirectories = ['/usr/local/games', '/usr/games'];

/** The program an Exec line (or a name) runs, as a session finds it: on PATH, else in its other directories. */
export function programFor(command: string, directories: readonly string[] = sessionProgramDirectories): string | undefined {
  if (command.includes('/')) return findProgram(command);
  return findProgram(command) ?? directories.map((directory) => join(directory, command)).find((path) => findProgram(path) !== undefined);
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
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
