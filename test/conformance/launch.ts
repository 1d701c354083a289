// Starting one corpus app with fresh configuration directories, finding its main window, and stopping it
// with everything it forked (its whole process group), and nothing else.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { moveTo } from '../../src/platform/linux/input/pointer.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import type { TestDesktop } from '../helpers/desktop.js';
import type { CorpusApp } from './corpus.js';

export interface RunningApp {
  app: CorpusApp;
  child: ChildProcess;
  window: ClientWindow;
  home: string;
  stderr: () => string;
}

/** The process group of a pid, from /proc (undefined once it is gone). */
function processGroup(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses; the fields after its last ")" are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

/** Starts the app in a process group of its own and waits (bounded) for its main window to map. */
export async function launchApp(desktop: TestDesktop, app: CorpusApp): Promise<RunningApp> {
  const home = mkdtempSync(join(tmpdir(), `cup-conformance-${app.id}-`));
  const xdg = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true });
  app.prepare?.(home);
  // The pointer rests in the screen's corner, so no tooltip pops up over the app under it.
  await moveTo(await desktop.x11(), { x: 0, y: 0 });
  const child = spawn(app.command, app.args?.(home) ?? [], {
    cwd: home,
    env: desktop.env({ ...xdg, ...app.env }),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const running = { app, child, home, stderr: () => stderr };
  const x = await desktop.x11();
  const deadline = Date.now() + (app.launchTimeoutMs ?? 30_000);
  try {
    while (Date.now() < deadline) {
      // Launchers (LibreOffice's oosplash, Chromium's wrapper script) may exit once the real process runs;
      // the window then belongs to a process of the same group.
      const windows = (await listClientWindows(x)).filter((window) => window.isOnScreen && app.title.test(window.title));
      const own = windows.find((window) => window.pid === 0 || window.pid === child.pid || processGroup(window.pid) === child.pid);
      if (own) return { ...running, window: own };
      await sleep(200);
    }
  } catch (error) {
    stopApp(running);
    throw error;
  }
  stopApp(running);
  throw new Error(`${app.id}: no window titled ${app.title} within ${app.launchTimeoutMs ?? 30_000} ms; stderr: ${stderr.slice(-1000)}`);
}

/** SIGKILL to the app's process group (it was started as its leader), then its private home goes. */
export function stopApp(running: Pick<RunningApp, 'child' | 'home'>): void {
  if (running.child.pid !== undefined) {
    try {
      process.kill(-running.child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  }
  try {
    // A service the session bus started for the app (dconf, gvfs) may still be writing there for a moment.
    rmSync(running.home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch {
    // Left in the temporary directory; nothing depends on it being gone.
  }
}
