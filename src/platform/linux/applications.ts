import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { bestEntry, type DesktopEntry } from './desktop-entries.js';
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

/**
 * The installed entry a running process most likely came from: the entry claiming its WM class, else the
 * entry that answers to the class or the program's name as launch_app would (so a running Thunar is
 * thunar.desktop, never "Bulk Rename", which runs the same program with an option).
 */
export function entryForProcess(pid: number, windowClass: string, entries: readonly DesktopEntry[]): DesktopEntry | undefined {
  const klass = windowClass.toLowerCase();
  const byClass = entries.find((entry) => entry.startupWmClass?.toLowerCase() === klass) ?? bestEntry(entries, klass)?.entry;
  if (byClass || !pid) return byClass;
  for (const program of new Set([executableName(pid), processName(pid)].filter(Boolean))) {
    const entry = bestEntry(entries, program)?.entry;
    if (entry) return entry;
  }
  return undefined;
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
