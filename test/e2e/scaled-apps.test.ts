// Apps scaled on their own (GTK3 under GDK_SCALE, Qt 5 under QT_SCALE_FACTOR) report their accessible boxes in their
// logical pixels while the X server draws them twice as large. The oracles: pyatspi's extents (logical) times the scale
// the app was started with, the screen's size, and what the app's own status and states say a real click did.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element, type OracleNode } from '../helpers/tools.js';

const scale = 2;
/** The screen the test desktop has (TestDesktop's default). */
const screen = { width: 1280, height: 800 };

/** The element's box agrees with pyatspi's logical box times the app's scale, to a pixel of rounding. */
function assertScaled(element: Element, node: OracleNode): void {
  const expected = node.extents!.map((value) => value * scale);
  const actual = [element.bounds!.x, element.bounds!.y, element.bounds!.w, element.bounds!.h];
  assert.ok(actual.every((value, i) => Math.abs(value - expected[i]!) <= scale), `"${element.name}": ${JSON.stringify(actual)} is pyatspi's ${JSON.stringify(node.extents)} × ${scale}`);
}

describe('apps scaled on their own', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let qt5: ClientWindow;
  let gtk4: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3', { title: 'Scaled GTK3', env: { GDK_SCALE: String(scale) }, extraArgs: ['--context-menu'] });
    qt5 = await fixtures.launch('qt5', { title: 'Scaled Qt', env: { QT_SCALE_FACTOR: String(scale) } });
    gtk4 = await fixtures.launch('gtk4', { title: 'Scaled GTK4', env: { GDK_SCALE: String(scale) } });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('GTK3 under GDK_SCALE: boxes are in screen pixels, what lies below the screen is offscreen, and a real click lands on its element', async () => {
    await callOk(fixtures.context, 'bring_to_front', { window_id: gtk3.id });
    const nodes = await pyatspiWalk(gtk3.pid, gtk3.title, fixtures.desktop.env());
    const { elements } = (await accessibleWindowState(fixtures.context, gtk3, { include_screenshot: false, detail: 'full' })).state;
    const increment = elements.find((element) => element.name === 'Increment')!;
    assertScaled(increment, nodes.find((node) => node.role === 'push button' && node.name === 'Increment')!);
    // The window is twice as tall as the screen allows: the status line at its foot lies below the screen's bottom.
    const statusNode = nodes.find((node) => node.role === 'label' && node.name.startsWith('counter='))!;
    assert.ok(statusNode.extents![1] * scale >= screen.height && statusNode.extents![1] < screen.height, `pyatspi: the status is at logical y ${statusNode.extents![1]}`);
    const status = elements.find((element) => element.name.startsWith('counter='))!;
    assert.ok(status.states.includes('offscreen'), `the status line below the screen is offscreen: ${JSON.stringify(status)}`);

    const before = await fixtures.status(gtk3);
    const clicked = await callOk(fixtures.context, 'click', { window_id: gtk3.id, element_index: increment.index, delivery_mode: 'foreground' });
    assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.summary);
    const after = await fixtures.waitForStatus(gtk3, (status) => status.counter > before.counter);
    assert.equal(after.counter, before.counter + 1, 'the app counted the click on Increment');
    assert.equal(after.checked, before.checked, 'and the check box above it was not toggled');
  });

  test('GTK3 under GDK_SCALE: a context menu in a popup of its own is in the tree, and a real click on its item chooses it', async () => {
    await callOk(fixtures.context, 'right_click', { window_id: gtk3.id, selector: 'name="Click pad"', delivery_mode: 'foreground' });
    const popup = (await fixtures.oracle.topLevels(gtk3.pid)).find((top) => top.name !== gtk3.title && top.showing);
    assert.deepEqual(popup?.items, ['Copy pad', 'Clear pad'], 'pyatspi: a top level of its own shows the menu');
    // Its popup window's box is twice its object's: matched all the same, the menu is read with the window.
    const { elements } = (await accessibleWindowState(fixtures.context, gtk3, { include_screenshot: false })).state;
    assert.deepEqual(elements.filter((element) => element.role === 'menuitem' && element.name.endsWith(' pad')).map((element) => element.name), ['Copy pad', 'Clear pad']);
    const chosen = await callOk(fixtures.context, 'click', { window_id: gtk3.id, selector: 'role=menuitem name="Copy pad"', delivery_mode: 'foreground' });
    assert.equal((chosen.structured as unknown as ActionResult).path, 'x11_pixel_fg', chosen.summary);
    assert.equal((await fixtures.waitForStatus(gtk3, (status) => status.lastKey !== '')).lastKey, 'context:Copy pad', 'the fixture: that item was chosen');
  });

  test('GTK3 under GDK_SCALE: a question titled as its main window is read as itself, and a real click on its Yes answers it', async () => {
    const asking = await fixtures.launch('gtk3', { title: 'Scaled Asking', rows: 3, extraArgs: ['--ask-button'], env: { GDK_SCALE: String(scale) } });
    try {
      const called = await callOk(fixtures.context, 'click', { window_id: asking.id, selector: 'role=button name="Ask…"' });
      const dialog = (called.structured as unknown as ActionResult).new_windows?.find((opened) => opened.title === asking.title);
      assert.ok(dialog, `the question is a new window: ${called.summary}`);
      assert.equal((await fixtures.oracle.find(asking.pid, 'Question', 'push button', 'Yes')).found, true, 'pyatspi reads the question\'s Yes');
      // Its object, 'Question', is no box of either window as the app reports it: half each way.
      assert.match(dialog.tree ?? '', /btn "Yes"/, dialog.tree);
      assert.doesNotMatch(dialog.tree ?? '', /"Ask…"/, 'not the main window\'s tree');
      const answered = await callOk(fixtures.context, 'click', { window_id: dialog.window_id, selector: 'role=button name=Yes', delivery_mode: 'foreground' });
      assert.equal((answered.structured as unknown as ActionResult).path, 'x11_pixel_fg', answered.summary);
      assert.equal((await fixtures.waitForStatus(asking, (status) => status.lastKey !== '')).lastKey, 'asked:yes', 'the fixture: Yes answered it');
    } finally {
      process.kill(asking.pid);
    }
  });

  test('Qt under QT_SCALE_FACTOR: boxes are in screen pixels and a real click toggles the check box clicked', async () => {
    await callOk(fixtures.context, 'bring_to_front', { window_id: qt5.id });
    const checkBoxes = (nodes: OracleNode[]) => nodes.filter((node) => node.role === 'check box');
    const before = checkBoxes(await pyatspiWalk(qt5.pid, qt5.title, fixtures.desktop.env()));
    const elements = (await fixtures.elements(qt5)).filter((element) => element.role === 'checkbox');
    assertScaled(elements[0]!, before[0]!);
    const clicked = await callOk(fixtures.context, 'click', { window_id: qt5.id, element_index: elements[0]!.index, delivery_mode: 'foreground' });
    assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.summary);
    const after = checkBoxes(await pyatspiWalk(qt5.pid, qt5.title, fixtures.desktop.env()));
    assert.deepEqual(
      after.map((node) => node.states.includes('checked')),
      before.map((node, i) => (i === 0 ? !node.states.includes('checked') : node.states.includes('checked'))),
      'pyatspi: the first check box toggled, and only it',
    );
  });

  test('Qt under QT_SCALE_FACTOR: a background click at a screenshot point acts on the row drawn there', async () => {
    const rows = (nodes: OracleNode[]) => nodes.filter((node) => node.role === 'list item');
    const before = rows(await pyatspiWalk(qt5.pid, qt5.title, fixtures.desktop.env()));
    const target = before.find((node) => !node.states.includes('selected'))!;
    // Where the screen shows it: pyatspi's logical box times the scale, less the window's place by xwininfo. Near its
    // left end, where the same numbers taken as the app's own units fall on the window too (on the button below the list).
    const origin = await fixtures.readers.geometry(qt5.id);
    const [x, y, , h] = target.extents!.map((value) => value * scale);
    const point = { x: Math.round(x! + 20 - origin.x), y: Math.round(y! + h! / 2 - origin.y) };
    const clicked = await callOk(fixtures.context, 'click', { window_id: qt5.id, ...point, delivery_mode: 'background' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    const after = rows(await pyatspiWalk(qt5.pid, qt5.title, fixtures.desktop.env()));
    assert.deepEqual(after.filter((node) => node.states.includes('selected')).map((node) => node.name), [target.name], `pyatspi: "${target.name}" is selected`);
  });

  test('GTK4 under GDK_SCALE (boxes relative to its window, no compositor): a real click lands on its element', async () => {
    await callOk(fixtures.context, 'bring_to_front', { window_id: gtk4.id });
    const before = await fixtures.status(gtk4);
    const clicked = await callOk(fixtures.context, 'click', { window_id: gtk4.id, selector: 'role=button name=Increment', delivery_mode: 'foreground' });
    assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.summary);
    const after = await fixtures.waitForStatus(gtk4, (status) => status.counter > before.counter);
    assert.equal(after.counter, before.counter + 1, 'the app counted the click on Increment');
    assert.equal(after.checked, before.checked, 'and nothing else was clicked');
  });
});
