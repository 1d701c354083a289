// Replaying a recording that spans two windows, where the second (a dialog) is opened by a turn and built by its
// app seconds later: the recording's agent waited for it with reads (not recorded), so the replay must wait for
// it too, and must never aim the dialog's turn at the app's main window meanwhile. The fixture's Details… button
// opens "Later dialog" --later-ms after its click (longer than a click's own wait for its effect) and logs when;
// pyatspi reads the fresh app's windows afterwards.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { callCliJson, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';

const LATER_MS = 3000;

describe('replay of a dialog that shows late', () => {
  let desktop: TestDesktop;
  let oracle: PyatspiOracle;
  let env: NodeJS.ProcessEnv;
  const work = mkdtempSync(join(tmpdir(), 'cup-late-window-'));
  const recorded = join(work, 'trajectory');

  const cli = async (tool: string, args: Record<string, unknown>) => {
    const run = await callCliJson(env, tool, args, ['--session', 'late']);
    assert.equal(run.status, 0, `${tool}: ${run.stderr}`);
    return run.json;
  };
  const launch = (log: string) => desktop.launchFixture('gtk3', { extraArgs: ['--details-button', '--later-ms', String(LATER_MS), '--change-log', log] });
  const indexOf = async (window: ClientWindow, name: string) => {
    let found: { index: number; name: string }[] = [];
    await waitUntil(`"${name}" in window ${window.id}`, 15_000, async () => {
      const state = await callCliJson(env, 'get_window_state', { window_id: window.id, include_screenshot: false }, ['--session', 'late']);
      found = ((state.json.elements as { index: number; name: string }[] | undefined) ?? []).filter((element) => element.name === name);
      return found.length > 0;
    });
    return found[0]!.index;
  };

  before(async () => {
    desktop = await TestDesktop.start();
    oracle = new PyatspiOracle(desktop.env());
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
  });

  after(async () => {
    if (env) await stopDaemon(env);
    oracle?.close();
    await desktop?.stop();
  });

  test('the dialog turn waits for the dialog and acts in it, not in the main window', async () => {
    const first = await launch(join(work, 'first.log'));
    await cli('start_recording', { output_dir: recorded });
    await cli('click', { window_id: first.window.id, element_index: await indexOf(first.window, 'Details…') });
    const waited = await cli('wait_for', { window_title: 'Later dialog', timeout_ms: LATER_MS + 5000 });
    const dialog = (waited.windows as { window_id: number; title: string }[]).find((window) => window.title === 'Later dialog')!;
    await cli('click', { window_id: dialog.window_id, element_index: await indexOf({ ...first.window, id: dialog.window_id }, 'Close dialog') });
    assert.equal((await cli('stop_recording', {})).turns_written, 2);
    first.process.kill('SIGKILL');

    // A fresh run of the app (another pid); the replay goes straight on from turn to turn.
    const log = join(work, 'fresh.log');
    const fresh = await launch(log);
    await indexOf(fresh.window, 'Details…');
    const replay = await callCliJson(env, 'replay_trajectory', { dir: recorded, delay_ms: 0 }, ['--session', 'late']);
    assert.equal(replay.status, 0, `the replay ran both turns: ${replay.stderr}`);
    const steps = replay.json.steps as { turn: string; ok: boolean; window_id?: number }[];
    assert.equal(steps[0]!.window_id, fresh.window.id);
    assert.notEqual(steps[1]!.window_id, fresh.window.id, 'the dialog turn is not aimed at the main window');
    assert.match(readFileSync(log, 'utf8'), /^opened:Later dialog /m, 'the fresh app opened the dialog (its change log)');
    const tops = await oracle.topLevels(fresh.window.pid);
    assert.deepEqual(
      tops.filter((top) => top.name === 'Later dialog' && top.showing),
      [],
      `the replayed Close dialog click closed it (pyatspi: ${JSON.stringify(tops.map((top) => [top.name, top.showing]))})`,
    );
  });
  test('a dialog that never shows fails its turns, waited for once, and nothing is aimed at the main window', async () => {
    // Turn 1 (the Details… click) marked failed when recorded is skipped, so no dialog comes; turn 3 is turn 2 again.
    const edited = join(work, 'never');
    cpSync(recorded, edited, { recursive: true });
    const first = JSON.parse(readFileSync(join(edited, 'turn-00001', 'action.json'), 'utf8')) as { result: Record<string, unknown> };
    first.result = { ...first.result, ok: false, error: { code: 'edited', message: 'edited' } };
    writeFileSync(join(edited, 'turn-00001', 'action.json'), JSON.stringify(first));
    cpSync(join(edited, 'turn-00002'), join(edited, 'turn-00003'), { recursive: true });
    const app = await launch(join(work, 'never.log'));
    await indexOf(app.window, 'Details…');
    const before = await oracle.status(app.window.pid, app.window.title);
    const started = Date.now();
    const replay = await callCliJson(env, 'replay_trajectory', { dir: edited, delay_ms: 0, stop_on_error: false }, ['--session', 'late']);
    const elapsed = Date.now() - started;
    assert.equal(replay.status, 0, replay.stderr);
    const steps = replay.json.steps as { turn: string; ok: boolean; skipped?: string; window_id?: number; error?: { message: string } }[];
    assert.ok(steps[0]!.skipped, 'turn 1 failed when recorded: skipped');
    for (const step of steps.slice(1)) {
      assert.equal(step.ok, false, step.turn);
      assert.equal(step.window_id, undefined, `${step.turn} was aimed at no window`);
      assert.match(step.error!.message, /no window to replay it on: the recording acted on window \d+ "Later dialog".*no window of that title among \d+ "CUP Fixture GTK3"/);
    }
    // The first dialog turn waits its 10 s; the second is not waited for again (a generous bound).
    assert.ok(elapsed >= 10_000 && elapsed < 18_000, `the replay took ${elapsed} ms`);
    assert.deepEqual(await oracle.status(app.window.pid, app.window.title), before, 'the main window got no click (pyatspi)');
  });
});
