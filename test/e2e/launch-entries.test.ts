import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { commandLine, processIds } from '../../src/platform/linux/desktop/processes.js';
import { cliPath, fixtureApps, TestDesktop } from '../helpers/desktop.js';

interface LaunchResult {
  error?: string;
  message?: string;
  pid: number;
  already_running: boolean;
  opened_in_running: boolean;
  desktop_entry?: string;
  matched_by?: string;
  windows: { window_id: number; title: string }[];
}

/**
 * launch_app through the real CLI on a desktop of its own: the .desktop entry that answers to a name exactly is
 * the one started, and urls for an app that already runs reach it (or are refused, saying why). Judged by
 * xdotool/xprop (windows, their titles and pids) and /proc (which processes run).
 */
describe('launch_app: which entry starts, and urls for an app that already runs', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;
  let home: string;

  before(async () => {
    desktop = await TestDesktop.start({ width: 1024, height: 768 });
    home = mkdtempSync(join(tmpdir(), 'cup-launch-'));
    const applications = join(home, 'data', 'applications');
    mkdirSync(applications, { recursive: true });
    mkdirSync(join(home, 'config'));
    const fixture = join(fixtureApps, 'gtk3_fixture.py');
    const entry = (id: string, name: string, exec: string) =>
      writeFileSync(join(applications, id), `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\n`);
    // Two entries running the same program, as Thunar and its Bulk Rename do; the exact id must pick the first.
    entry('cupfix.desktop', 'CUP Launch Main', `/usr/bin/python3 ${fixture} --title "CUP Launch Main" %F`);
    entry('cupfix-tool.desktop', 'cupfix', `/usr/bin/python3 ${fixture} --title "CUP Launch Tool"`);
    entry('cupfix-nourls.desktop', 'CUP No URLs', `/usr/bin/python3 ${fixture} --title "CUP No URLs"`);
    // An app that cannot start: it says why on stderr and exits with status 3, as a program missing a library does.
    const broken = join(home, 'broken-app.sh');
    writeFileSync(broken, '#!/bin/sh\necho "starting CUP Broken"\necho "broken-app: cannot load libcupbroken.so.1" >&2\nexit 3\n', { mode: 0o755 });
    entry('cupfix-broken.desktop', 'CUP Broken', broken);
    // An app that declines to run: it says why and exits with 0, as Notepadqq run as root does.
    const declines = join(home, 'declining-app.sh');
    writeFileSync(declines, '#!/bin/sh\necho "declining-app: will not run as root; use --allow-root"\nexit 0\n', { mode: 0o755 });
    entry('cupfix-declines.desktop', 'CUP Declines', declines);
    // The user's own entries come first; the system's (mousepad's) stay visible.
    env = desktop.env({ XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') });
  });

  after(async () => {
    await desktop?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  function launch(args: Record<string, unknown>): { status: number | null; result: LaunchResult; stderr: string; text: string } {
    const run = spawnSync(process.execPath, [cliPath, 'call', 'launch_app', JSON.stringify(args), '--no-daemon', '--json'], { env, encoding: 'utf8', timeout: 60_000 });
    const parsed = JSON.parse(run.stdout) as { structuredContent: LaunchResult; content?: { type: string; text?: string }[] };
    return { status: run.status, result: parsed.structuredContent, stderr: run.stderr, text: parsed.content?.map((part) => part.text ?? '').join('\n') ?? '' };
  }

  /** Windows whose title matches, by xdotool, with the pid and title xprop reads on each. */
  function windowsTitled(pattern: string): { id: number; pid: number; title: string }[] {
    const search = spawnSync('xdotool', ['search', '--name', pattern], { env, encoding: 'utf8', timeout: 10_000 });
    return search.stdout
      .split('\n')
      .filter(Boolean)
      .map((id) => {
        const props = spawnSync('xprop', ['-id', id, '_NET_WM_PID', 'WM_NAME'], { env, encoding: 'utf8', timeout: 10_000 }).stdout;
        return { id: Number(id), pid: Number(/_NET_WM_PID\(CARDINAL\) = (\d+)/.exec(props)?.[1] ?? 0), title: /WM_NAME\(\w+\) = "(.*)"/.exec(props)?.[1] ?? '' };
      })
      .filter((window) => window.pid > 0);
  }

  /** Processes on this desktop (they carry its session bus) whose command line mentions the text. */
  function processesMentioning(text: string): number[] {
    const bus = `DBUS_SESSION_BUS_ADDRESS=${desktop.state.sessionBusAddress}`;
    return processIds().filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(bus) && commandLine(pid).some((arg) => arg.includes(text));
      } catch {
        return false;
      }
    });
  }

  test('the exact desktop id wins over an entry whose Name is the same word and runs the same program', () => {
    const run = launch({ name: 'cupfix' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.result.desktop_entry, 'cupfix.desktop');
    assert.equal(run.result.matched_by, 'id');
    const main = windowsTitled('^CUP Launch Main$');
    assert.equal(main.length, 1, 'xdotool finds the main window');
    assert.equal(main[0]!.pid, run.result.pid, 'owned by the pid the call returned (xprop _NET_WM_PID)');
    assert.deepEqual(windowsTitled('^CUP Launch Tool$'), [], 'the other entry was not started');
    assert.deepEqual(processesMentioning('CUP Launch Tool'), []);
  });

  test('urls for an entry whose Exec takes none are refused with the reason, and nothing starts', async () => {
    const file = join(home, 'refused.txt');
    writeFileSync(file, 'x\n');
    const run = launch({ name: 'CUP No URLs', urls: [file] });
    assert.equal(run.status, 1);
    assert.equal(run.result.error, 'urls_not_opened');
    assert.match(run.result.message ?? '', /takes no files or URLs: its Exec line .* has no %u, %U, %f or %F/);
    await sleep(1000);
    assert.deepEqual(windowsTitled('^CUP No URLs$'), []);
    assert.deepEqual(processesMentioning('CUP No URLs'), []);
  });

  test('an app that exits in failure before any window is answered at once, with its status and its last output', () => {
    const started = Date.now();
    const run = launch({ name: 'CUP Broken' });
    const elapsed = Date.now() - started;
    assert.equal(run.status, 1);
    assert.equal(run.result.error, 'no_window', run.text);
    // The program's own words, from the log file the message names (read from disk here).
    const log = /all of its output is in (\S+)$/.exec(run.result.message ?? '')?.[1];
    assert.ok(log, run.result.message);
    const lastLine = readFileSync(log, 'utf8').trim().split('\n').pop()!;
    assert.equal(lastLine, 'broken-app: cannot load libcupbroken.so.1');
    assert.ok(run.result.message!.includes(`exited with status 3 without showing a window; its last output: "${lastLine}"`), run.result.message);
    // It waited out the 20 s window deadline for a window that could not come (bound generous for a loaded machine).
    assert.ok(elapsed < 12_000, `answered after ${elapsed} ms`);
  });

  test('an app that exits with 0 and no window, no instance of it running before, is told with its status and its last output', () => {
    const run = launch({ name: 'CUP Declines' });
    assert.equal(run.status, 1);
    assert.equal(run.result.error, 'no_window', run.text);
    const log = /all of its output is in (\S+)$/.exec(run.result.message ?? '')?.[1];
    assert.ok(log, run.result.message);
    const lastLine = readFileSync(log, 'utf8').trim().split('\n').pop()!;
    assert.equal(lastLine, 'declining-app: will not run as root; use --allow-root');
    assert.ok(run.result.message!.includes(`exited with status 0 without showing a window; its last output: "${lastLine}"`), run.result.message);
  });

  test('urls for an app that already runs are opened in it: one mousepad process, now showing the second file', async () => {
    const first = join(home, 'first-note.txt');
    const second = join(home, 'second-note.txt');
    writeFileSync(first, 'first\n');
    writeFileSync(second, 'second\n');
    const started = launch({ name: 'mousepad', urls: [first] });
    assert.equal(started.status, 0, started.stderr);
    assert.equal(started.result.already_running, false);
    assert.equal(started.result.opened_in_running, false);
    assert.equal(started.result.desktop_entry, 'org.xfce.mousepad.desktop');
    assert.deepEqual(
      windowsTitled('first-note').map((window) => window.pid),
      [started.result.pid],
      'xprop: the window showing the first file belongs to the started pid',
    );

    const handed = launch({ name: 'mousepad', urls: [second] });
    assert.equal(handed.status, 0, handed.stderr);
    assert.equal(handed.result.already_running, true);
    assert.equal(handed.result.opened_in_running, true);
    assert.equal(handed.result.pid, started.result.pid);
    // Mousepad opens it in a tab (the window's title follows it) or in a new window; either way in the same process.
    const showing = windowsTitled('second-note');
    assert.ok(showing.length >= 1, 'xdotool finds a window titled after the second file');
    assert.ok(showing.every((window) => window.pid === started.result.pid), 'owned by the running mousepad');
    const mousepads = processIds().filter((pid) => commandLine(pid)[0]?.endsWith('mousepad') && processesMentioning('mousepad').includes(pid));
    assert.deepEqual(mousepads, [started.result.pid], 'still one mousepad process on this desktop (/proc)');

    // Another instance asked for: mousepad's launcher hands the file to the running one and exits, which is said so.
    const third = join(home, 'third-note.txt');
    writeFileSync(third, 'third\n');
    const another = launch({ name: 'mousepad', urls: [third], creates_new_application_instance: true });
    assert.equal(another.status, 0, another.stderr);
    assert.equal(another.result.pid, started.result.pid);
    assert.deepEqual([another.result.already_running, another.result.opened_in_running], [true, true]);
    assert.match(another.text, /keeps a single instance: its launcher \(pid \d+\) handed the url to the one running/);
    const thirdShowing = windowsTitled('third-note');
    assert.ok(thirdShowing.length >= 1 && thirdShowing.every((window) => window.pid === started.result.pid), 'xdotool: the third file shows in the running mousepad');
  });
});
