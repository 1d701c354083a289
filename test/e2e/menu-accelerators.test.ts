import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { desktopRig } from '../helpers/desktop-rig.js';
import { callOk } from '../helpers/tools.js';

// Gnumeric (Debian's gnumeric, GTK3): hotkey ctrl+n in the background, on a window read compactly (its menus closed),
// was refused ("no element reports the keyboard focus ... GTK ignores synthetic key events"), though File > New
// answers to Ctrl+N wherever the focus is and accessibility can choose it. A menu bar item's accelerator is now
// chosen through its action, as invoke_menu chooses it. pyatspi is the oracle: the binding the item reports, and the
// app's top-level windows before and after.
describe('hotkey in the background: a menu item\'s accelerator chooses that item (Gnumeric)', () => {
  const rig = desktopRig();
  let window: ClientWindow;

  before(async () => {
    // A home of its own: no recent files or saved window state from another run.
    window = (await rig.desktop.launch('gnumeric', [], /Gnumeric/, 30_000, { HOME: mkdtempSync(join(tmpdir(), 'cup-gnumeric-')) })).window;
  });

  /** The app's showing top-level frames' names, as pyatspi reads them, once `done` holds of them (at most 15 s). */
  async function framesWhen(done: (names: string[]) => boolean): Promise<string[]> {
    let names: string[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(200)) {
      names = (await rig.oracle.topLevels(window.pid)).filter((top) => top.role === 'frame' && top.showing).map((top) => top.name);
      if (done(names)) break;
    }
    return names;
  }

  test('ctrl+n opens a new workbook through File > New; ctrl+w on it closes it through File > Close; a combination no item has stays refused', async () => {
    const bindings = await rig.oracle.keyBindings(window.pid, window.title, ['menu item']);
    assert.ok(bindings.some((item) => item.name === 'New' && /<Primary>n$/.test(item.binding)), `pyatspi: File > New answers to Ctrl+N: ${JSON.stringify(bindings.slice(0, 5))}`);
    const first = await framesWhen((names) => names.length === 1);
    assert.equal(first.length, 1, `one workbook to begin with: ${JSON.stringify(first)}`);
    // Read as an agent reads it: the compact reading leaves the closed menus' items unread.
    await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });

    const opened = await callOk(rig.context, 'hotkey', { window_id: window.id, keys: ['ctrl', 'n'] });
    assert.equal(opened.structured.effect, 'confirmed', opened.summary);
    assert.match((opened.structured.evidence as string[]).join('\n'), /File > New/, opened.summary);
    const two = await framesWhen((names) => names.length === 2);
    assert.equal(two.length, 2, `pyatspi: a second workbook opened: ${JSON.stringify(two)}`);
    const added = two.find((name) => !first.includes(name))!;

    const second = (await rig.context.desktop.windows()).find((candidate) => candidate.pid === window.pid && candidate.title === added);
    assert.ok(second, `the window list has "${added}"`);
    const closed = await callOk(rig.context, 'hotkey', { window_id: second.id, keys: ['ctrl', 'w'] });
    assert.equal(closed.structured.effect, 'confirmed', closed.summary);
    const left = await framesWhen((names) => names.length === 1);
    assert.deepEqual(left, first, `pyatspi: the new workbook closed, the first stayed: ${JSON.stringify(left)}`);

    // No menu item answers to Ctrl+Shift+F11: nothing is chosen, and the refusal says so as before.
    const none = await callOk(rig.context, 'hotkey', { window_id: window.id, keys: ['ctrl', 'shift', 'f11'] });
    assert.notEqual(none.structured.effect, 'confirmed', none.summary);
    assert.match(JSON.stringify(none.structured), /nothing was sent/, none.summary);
    assert.deepEqual(await framesWhen((names) => names.length === 1), first, 'pyatspi: no window came or went');
  });
});
