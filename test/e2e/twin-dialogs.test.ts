import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { desktopRig, xClient } from '../helpers/desktop-rig.js';
import { callOk, type Element } from '../helpers/tools.js';

// Ristretto (Debian's ristretto, GTK3) warns twice at start that its thumbnailer cannot be reached (the test desktop's
// session bus has none): two alerts of one name and box over its viewer. With another app active, neither alert is,
// and both X windows were read as the first alert: a background click on the top one's OK went to the OK under it,
// which GTK cannot close before the top one (nested dialog loops), so nothing closed. The X server (xdotool, xprop) is
// the oracle: which dialog windows are up.
describe('two identical dialogs of one app: each window is read as its own (Ristretto\'s double warning)', () => {
  const rig = desktopRig();
  let viewer: ClientWindow;
  const x = xClient(rig);

  before(async () => {
    const home = mkdtempSync(join(tmpdir(), 'cup-ristretto-'));
    const image = join(home, 'square.png');
    await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: 0, g: 128, b: 255 } } }).png().toFile(image);
    viewer = (await rig.desktop.launch('ristretto', [image], /Image Viewer/, 30_000, { HOME: home })).window;
  });

  /** The app's shown dialogs (windows with WM_TRANSIENT_FOR), by X id, oldest first, as xdotool and xprop see them. */
  async function dialogs(): Promise<number[]> {
    const ids = (await x('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(viewer.pid), '--name', '.*'])).trim().split('\n').filter(Boolean).map(Number);
    const transient = await Promise.all(ids.map(async (id) => /WM_TRANSIENT_FOR\(WINDOW\)/.test(await x('xprop', ['-id', String(id), 'WM_TRANSIENT_FOR']))));
    return ids.filter((_, i) => transient[i]).sort((a, b) => a - b);
  }

  test('a background click on the top dialog\'s OK closes that dialog', async () => {
    let shown: number[] = [];
    for (const deadline = Date.now() + 15_000; shown.length < 2 && Date.now() < deadline; await sleep(250)) shown = await dialogs();
    assert.equal(shown.length, 2, `xdotool: Ristretto shows its warning twice: ${JSON.stringify(shown)}`);
    // Another app in front: neither dialog is the active window, which would tell them apart.
    const other = await rig.desktop.launch('xterm', ['-T', 'Somewhere else'], 'Somewhere else', 20_000);
    await x('xdotool', ['windowactivate', '--sync', String(other.window.id)]);
    const [under, top] = shown as [number, number];

    const state = await callOk(rig.context, 'get_window_state', { window_id: top, include_screenshot: false });
    const ok = (state.structured.elements as Element[]).find((element) => element.role === 'button' && element.name === 'OK');
    assert.ok(ok, state.body);
    const clicked = await callOk(rig.context, 'click', { window_id: top, element_index: ok.index });

    let left = await dialogs();
    for (const deadline = Date.now() + 5000; left.includes(top) && Date.now() < deadline; await sleep(200)) left = await dialogs();
    assert.deepEqual(left, [under], `xdotool: the top dialog closed, the one under it is still up\n${clicked.summary}\n${clicked.body}`);
  });
});
