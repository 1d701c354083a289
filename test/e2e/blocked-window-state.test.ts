import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { desktopRig, xClient } from '../helpers/desktop-rig.js';
import { callOk } from '../helpers/tools.js';

// Ristretto opened its viewer with a modal warning over it; get_window_state of the viewer listed its buttons and
// said nothing of the dialog, so the agent's next click on one was refused (blocked_by_modal_dialog) as its first
// news of it. A reading of a window under its modal dialog now names that dialog. Mousepad's Save As dialog is the
// case here (GTK3, in the test packages); the X server is the oracle: the dialog xdotool finds by the app's pid is
// marked _NET_WM_STATE_MODAL and WM_TRANSIENT_FOR the editor's window (xprop).
describe('get_window_state of a window under its modal dialog names the dialog (Mousepad\'s Save As)', () => {
  const rig = desktopRig();
  let window: ClientWindow;
  const x = xClient(rig);

  before(async () => {
    window = (await rig.desktop.launch('mousepad', [], /Mousepad/, 30_000, { HOME: mkdtempSync(join(tmpdir(), 'cup-mousepad-')) })).window;
  });

  /** The X window of the app titled `title`, as xdotool finds it (at most 15 s), or undefined. */
  async function xWindow(title: string): Promise<number | undefined> {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(200)) {
      const found = (await x('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(window.pid), '--name', `^${title}$`])).trim().split('\n').filter(Boolean);
      if (found.length > 0) return Number(found[0]);
    }
    return undefined;
  }

  test('the reading says which dialog it waits on, and stops saying so once the dialog is closed', async () => {
    const free = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    assert.equal(free.structured.blocked_by_dialog, undefined, free.summary);

    await callOk(rig.context, 'invoke_menu', { window_id: window.id, path: ['File', 'Save As...'] });
    const dialog = await xWindow('Save As');
    assert.ok(dialog, 'xdotool: the Save As dialog is up');
    const props = await x('xprop', ['-id', String(dialog), '_NET_WM_STATE', 'WM_TRANSIENT_FOR']);
    assert.match(props, /_NET_WM_STATE_MODAL/, `xprop: the dialog is modal\n${props}`);
    assert.match(props, new RegExp(`WM_TRANSIENT_FOR\\(WINDOW\\): window id # 0x${window.id.toString(16)}\\b`), `xprop: a dialog of the editor's window\n${props}`);

    const blocked = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    assert.deepEqual(blocked.structured.blocked_by_dialog, { window_id: dialog, title: 'Save As' }, blocked.summary);
    assert.match(blocked.summary, new RegExp(`waits on its modal dialog ${dialog} "Save As".*window_id ${dialog}`));

    // Escape closes it (real keys, as a person closes it); the editor's reading is free again.
    await x('xdotool', ['windowactivate', '--sync', String(dialog), 'key', 'Escape']);
    for (const deadline = Date.now() + 10_000; (await x('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(window.pid), '--name', '^Save As$'])).trim() && Date.now() < deadline; ) await sleep(200);
    const again = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    assert.equal(again.structured.blocked_by_dialog, undefined, again.summary);
    assert.doesNotMatch(again.summary, /modal dialog/);
  });
});
