// A dialog the window manager is not told is modal is modal when its accessible top level says so (Java's JDialog:
// accessible-window-facts.ts), and such dialogs are now looked up on the accessibility bus. GTK 4 marks a modal window
// _NET_WM_STATE_MODAL, and a palette transient for its window just as it marks a dialog, unmarked: the palette must not
// be taken for modal, or every action on the window beside it would be refused. The X server (xprop, xdotool) and
// pyatspi are the oracles: which windows are modal and up, and the fixture's counter.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith } from '../helpers/tools.js';

describe('GTK 4 windows transient for the fixture\'s: the modal one blocks it, the palette, modal to no one, does not', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'GTK4 Modal Fixture', rows: 3, extraArgs: ['--dialogs'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The X windows of that title as xdotool finds them, once there are some (`up`) or none, or at the deadline. */
  async function windowsNamed(title: string, up = true): Promise<number[]> {
    let found = await fixtures.readers.windowsNamed(`^${title}$`);
    for (const deadline = Date.now() + 5000; (found.length > 0) !== up && Date.now() < deadline; await sleep(100)) found = await fixtures.readers.windowsNamed(`^${title}$`);
    return found;
  }

  const counter = async () => (await fixtures.oracle.status(window.pid, window.title)).counter;

  test('clicks on the parent are refused while the modal window is up, and run once it is closed though the palette stays', async () => {
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: "role=button name='Open dialogs'" });
    const [modal] = await windowsNamed('GTK4 Modal');
    const [palette] = await windowsNamed('GTK4 Palette');
    assert.ok(modal && palette, 'xdotool: both windows are up');
    // The premise: both are dialogs of the fixture's window (list_windows's dialog_of), only the modal one marked so.
    assert.ok((await fixtures.readers.wmState(modal)).includes('_NET_WM_STATE_MODAL'), 'xprop: GTK4 Modal is marked modal');
    assert.ok(!(await fixtures.readers.wmState(palette)).includes('_NET_WM_STATE_MODAL'), 'xprop: GTK4 Palette is not');
    const listed = await fixtures.context.desktop.windows();
    assert.deepEqual([modal, palette].map((id) => listed.find((each) => each.id === id)?.transientFor), [window.id, window.id]);
    assert.ok((await fixtures.oracle.find(window.pid, 'GTK4 Modal', 'frame', 'GTK4 Modal')).states?.includes('modal'), 'pyatspi: GTK4 Modal says modal');
    assert.ok(!(await fixtures.oracle.find(window.pid, 'GTK4 Palette', 'frame', 'GTK4 Palette')).states?.includes('modal'), 'pyatspi: GTK4 Palette does not');
    const before = await counter();

    const refused = await failsWith(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Increment' }, 'blocked_by_modal_dialog');
    assert.match(refused.summary, new RegExp(`waits on its modal dialog ${modal} "GTK4 Modal"`), refused.summary);
    assert.equal(await counter(), before, 'pyatspi: the fixture counted no click');

    await callOk(fixtures.context, 'click', { window_id: modal, selector: 'role=button name=Close' });
    assert.deepEqual(await windowsNamed('GTK4 Modal', false), [], 'xdotool: the modal window closed');
    assert.deepEqual(await windowsNamed('GTK4 Palette'), [palette], 'xdotool: the palette is still up');
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Increment' });
    assert.equal(Number(await counter()), Number(before) + 1, 'pyatspi: the fixture counted the click');
  });
});
