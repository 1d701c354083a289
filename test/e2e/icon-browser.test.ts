import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { resultText } from '../../src/tools/call-result.js';
import type { ToolContext } from '../../src/tools/context.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, testContext, type Element } from '../helpers/tools.js';

const execFileAsync = promisify(execFile);
/** GTK's "no position" coordinate: what it answers for an icon view item outside the view. */
const NO_POSITION = -(2 ** 31);

// gtk3-icon-browser (Debian's gtk-3-examples), an app outside the fixtures: a category list, a GtkIconView of
// icons that re-filters when the category or the search text changes, and a search toggle in the header bar.
// pyatspi and the X server (xdotool's real click) are the oracles.
describe('gtk3-icon-browser: icon view items, a toggle button and a search that re-filters late', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let window: ClientWindow;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    window = (await desktop.launch('gtk3-icon-browser', [], 'Icon Browser')).window;
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  const items = () => oracle.items(window.pid, window.title, 'layered pane');

  async function elements(): Promise<Element[]> {
    return (await accessibleWindowState(context, window, { include_screenshot: false, detail: 'full' })).state.elements;
  }

  /** The icon view's items as get_window_state shows them: the selectable images. */
  const icons = (list: Element[]) => list.filter((element) => element.role === 'img' && element.actions.includes('select'));

  test('after a category switch re-fills the icon view, the items on screen have their boxes, those below the view are offscreen', async () => {
    const other = (await elements()).find((element) => element.role === 'option' && element.name === 'Other');
    assert.ok(other, 'the "Other" category');
    await callOk(context, 'click', { window_id: window.id, element_index: other.index });
    // The app's own word (pyatspi) that the view was re-filled: "Other" has far more icons than fit.
    let oracleItems = await items();
    for (const deadline = Date.now() + 10_000; oracleItems.length < 50 && Date.now() < deadline; await sleep(100)) oracleItems = await items();
    assert.ok(oracleItems.length >= 50, `${oracleItems.length} items`);

    const shown = icons(await elements());
    assert.equal(shown.length, oracleItems.length, 'every item is in the tree');
    const onScreen = shown.filter((icon) => !icon.states.includes('offscreen'));
    const below = shown.filter((icon) => icon.states.includes('offscreen'));
    assert.ok(onScreen.length >= 4 && below.length >= 20, `${onScreen.length} on screen, ${below.length} offscreen`);
    // GTK works an item's extents out when asked: those offscreen here are the ones it places nowhere.
    for (const icon of below) {
      const item = oracleItems.find((candidate) => candidate.text === icon.name)!;
      assert.equal(item.extents[1], NO_POSITION, `"${icon.name}" is offscreen, and GTK places it nowhere`);
      assert.equal(icon.bounds, undefined);
    }
    for (const icon of onScreen) assert.ok(icon.bounds && icon.bounds.w > 0 && icon.bounds.h > 0, `"${icon.name}" has a box`);

    // A real click (xdotool) at the middle of an on-screen item's box activates that item: the app opens a window
    // titled with the item's name, as the X server (xdotool) reports. Escape closes it again.
    const xdotool = (args: string[]) => execFileAsync('xdotool', args, { env: desktop.env(), timeout: 10_000 });
    const opened = async (name: string): Promise<string | undefined> => {
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(50)) {
        const found = (await xdotool(['search', '--name', `^${name}$`]).catch(() => ({ stdout: '' }))).stdout.trim();
        if (found) return found.split('\n')[0];
      }
      return undefined;
    };
    for (const icon of [onScreen[1]!, onScreen.at(-1)!]) {
      const box = icon.bounds!;
      await xdotool(['mousemove', String(Math.round(box.x + box.w / 2)), String(Math.round(box.y + box.h / 2)), 'click', '1']);
      const details = await opened(icon.name);
      assert.ok(details, `a click inside the box of "${icon.name}" opens its details`);
      await xdotool(['windowactivate', '--sync', details, 'key', 'Escape']);
    }

    // Our own real click on an item lands on it too: the element has a place to click.
    const third = onScreen[2]!;
    const clicked = await callOk(context, 'click', { window_id: window.id, element_index: third.index, delivery_mode: 'foreground' });
    assert.notEqual(clicked.structured.effect, 'suspected_noop', clicked.summary);
    const details = await opened(third.name);
    assert.ok(details, `our click on "${third.name}" opens its details`);
    assert.ok((clicked.structured as unknown as ActionResult).new_windows?.some((entry) => entry.title === third.name), 'and the result names that window');
    await xdotool(['windowactivate', '--sync', details, 'key', 'Escape']);
  });

  test('a toggle button: the evidence and the diff both say +prs (CUP\'s pressed), as pyatspi sees it checked', async () => {
    const list = await elements();
    // The header bar's search toggle: the one unnamed button there (the others are Minimize, Maximize, Close).
    const toggle = list.find((element) => element.role === 'button' && element.name === '' && element.bounds && element.bounds.y < 40);
    assert.ok(toggle, 'the search toggle');
    const called = await callOk(context, 'click', { window_id: window.id, element_index: toggle.index });
    const result = called.structured as unknown as ActionResult;
    const text = resultText(called);
    assert.equal((await oracle.find(window.pid, window.title, 'toggle button', '')).states?.includes('checked'), true, 'the app says it is on');
    const evidence = result.evidence ?? [];
    assert.ok(evidence.some((line) => /\+prs\b/.test(line)), JSON.stringify(evidence));
    assert.ok(!evidence.some((line) => /checked/.test(line)), `no AT-SPI word for it: ${JSON.stringify(evidence)}`);
    const change = result.diff?.changed.find((entry) => entry.index === toggle.index);
    assert.deepEqual(change?.changes.states?.added, ['pressed'], text);
    assert.match(text, new RegExp(`^~ \\[e${toggle.index}\\] btn states: \\+prs`, 'm'));
  });

  test('typing in the search field with diff_settle_ms: the view re-filters a moment later, and that change is in the diff', async () => {
    const list = await elements();
    const field = list.find((element) => element.role === 'textbox' && element.name === 'Search' && !element.states.includes('offscreen'));
    assert.ok(field, 'the search field is shown once the toggle is on');
    const before = icons(list).map((icon) => icon.name);
    assert.ok(before.some((name) => !name.includes('mail')), 'some icons do not match');
    // The agent asked for late changes: the reading waits until the app has been quiet for 250 ms.
    await callOk(context, 'set_config', { diff_settle_ms: 250 });
    const typed = await callOk(context, 'type_text', { window_id: window.id, element_index: field.index, text: 'mail' });
    const result = typed.structured as unknown as ActionResult;
    // The app's word: the view now holds the matching icons only.
    const now = (await items()).map((item) => item.text ?? '');
    assert.ok(now.length > 0 && now.every((name) => name.includes('mail')), JSON.stringify(now));
    assert.ok(result.settled_ms! > 0, 'the reading waited for the app to settle');
    // Every icon that went away is a - line of this action's diff: the re-filter came after the typing, yet is in it.
    const whole = result.diff_file ? readFileSync(result.diff_file, 'utf8') : resultText(typed);
    const removed = new Set([...whole.matchAll(/^- img "([^"]*)" \(was e\d+\)$/gm)].map((match) => match[1]!));
    const gone = before.filter((name) => !now.includes(name));
    assert.ok(gone.length > 0);
    assert.deepEqual(gone.filter((name) => !removed.has(name)), [], resultText(typed));
  });
});
