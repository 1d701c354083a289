import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { desktopRig, xClient } from '../helpers/desktop-rig.js';
import { callOk, failsWith } from '../helpers/tools.js';

// get_window_state {pid} alone was refused as an invalid argument (window_id: required), with no word of the app's
// windows, though the app had one. Now pid alone reads the app's only window and names it; an app with several is
// refused (missing_window_id) naming each window's id and title, and window_id is asked for. The X server is the
// oracle: the windows xdotool finds for the fixture's pid, and their titles as xdotool reads them.
describe('get_window_state by pid alone (GTK3 fixture, --message-button)', () => {
  const rig = desktopRig();
  const x = xClient(rig);
  const title = 'CUP Window By Pid';
  let main: ClientWindow;

  before(async () => {
    main = (await rig.desktop.launchFixture('gtk3', { title, extraArgs: ['--message-button'] })).window;
  });

  /** The visible X windows of the fixture's pid, as xdotool finds them, with their titles. */
  async function xWindows(): Promise<{ id: number; title: string }[]> {
    const ids = (await x('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(main.pid), '--name', '.'])).trim().split('\n').filter(Boolean);
    return Promise.all(ids.map(async (id) => ({ id: Number(id), title: (await x('xdotool', ['getwindowname', id])).trim() })));
  }

  test('one window: pid alone reads it and says which; two: refused, naming both, and window_id still reads each', async () => {
    const alone = await xWindows();
    assert.deepEqual(alone, [{ id: main.id, title }], 'xdotool: the fixture has one window');
    const read = await callOk(rig.context, 'get_window_state', { pid: main.pid, include_screenshot: false });
    assert.equal((read.structured.window as { window_id: number }).window_id, main.id, read.summary);
    assert.match(read.summary, new RegExp(`only window, window_id ${main.id}\\b`));
    assert.match(read.body ?? '', /Check host…/, 'the reading is the fixture\'s tree');

    await callOk(rig.context, 'click', { window_id: main.id, selector: 'role=button name="Check host…"' });
    let both: { id: number; title: string }[] = [];
    for (const deadline = Date.now() + 15_000; both.length < 2 && Date.now() < deadline; await sleep(200)) both = await xWindows();
    assert.equal(both.length, 2, `xdotool: the message box is up beside the window: ${JSON.stringify(both)}`);

    const refused = await failsWith(rig.context, 'get_window_state', { pid: main.pid, include_screenshot: false }, 'missing_window_id');
    for (const window of both) assert.match(refused.summary, new RegExp(`window_id ${window.id} "${window.title}"`), refused.summary);
    assert.match(refused.summary, /pass window_id/);

    const box = both.find((window) => window.id !== main.id)!;
    const boxRead = await callOk(rig.context, 'get_window_state', { pid: main.pid, window_id: box.id, include_screenshot: false });
    assert.match(boxRead.body ?? '', /You have to enter a hostname\./, boxRead.body);
    assert.doesNotMatch(boxRead.summary, /only window/, 'a call naming the window says nothing of a choice');
  });
});
