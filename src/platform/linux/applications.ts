import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import type { DesktopEntry } from './desktop-entries.js';
import { processName, type ClientWindow } from './windows.js';

export interface RunningApplication {
  pid: number;
  name: string;
  active: boolean;
  entry?: DesktopEntry;
}

function executableName(pid: number): string {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '');
  } catch {
    return '';
  }
}

/** The installed entry a running process most likely came from: WM class first, then the program it runs. */
export function entryForProcess(pid: number, windowClass: string, entries: readonly DesktopEntry[]): DesktopEntry | undefined {
  const klass = windowClass.toLowerCase();
  const byClass =
    entries.find((entry) => entry.startupWmClass?.toLowerCase() === klass) ??
    entries.find((entry) => entry.id.replace(/\.desktop$/, '').toLowerCase() === klass) ??
    entries.find((entry) => entry.program.toLowerCase() === klass);
  if (byClass || !pid) return byClass;
  const programs = new Set([executableName(pid), processName(pid)].filter(Boolean));
  return entries.find((entry) => programs.has(entry.program));
}

/** Applications with at least one top-level window, one record per process. */
export function runningApplications(windows: readonly ClientWindow[], entries: readonly DesktopEntry[]): RunningApplication[] {
  const byPid = new Map<number, RunningApplication>();
  for (const window of windows) {
    if (window.pid <= 0) continue;
    const known = byPid.get(window.pid);
    if (known) {
      known.active ||= window.active;
      continue;
    }
    const entry = entryForProcess(window.pid, window.appName, entries);
    byPid.set(window.pid, { pid: window.pid, name: entry?.name ?? window.appName ?? processName(window.pid), active: window.active, entry });
  }
  return [...byPid.values()];
}
