// Debian desktop apps a new user tried, and what they showed wrong: GHex (GTK 4), whose hex view and find bar are
// focusable widgets painting on drawing areas beside their scroll bar, read as empty focused groups with no word of a
// drawn surface, and a search typed into the find bar read "no effect seen"; qps (Qt 5), whose process list, filtered
// until it fits (its viewport alone, its scroll bars gone), vanished from the reading; dconf Editor (GTK3), whose folder rows hold their
// label two unnamed boxes deep, and a folder opened read each new row twice in the diff, and whose row clicked in the
// background was confirmed by its selection, the folder not opened; qpdfview (Qt 5), whose page box
// took set_value 3 as confirmed while the document stayed on page 1 until a real Return; Gnote (GTK3), whose
// preferences put a check box and the field it switches in a box of their own, and read the field unnamed or by its
// value, and whose second new note read its other notes' cells destroyed. Judged by pyatspi and the apps' own state (GHex's offset label after a search, qpdfview's Jump backward).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { pdfOfPages } from '../helpers/pdf.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk, childIndices, pyatspiWalk, type OracleNode, type WindowState } from '../helpers/tools.js';

/** get_window_state's drawn surfaces: element index and box in screenshot pixels. */
type Surfaces = { element_index: number; bounds: { x: number; y: number; w: number; h: number } }[];

/** The objects pyatspi reads as a focusable plain container holding only empty unfocusable plain containers and scroll bars. */
function paintingWidgets(walked: readonly OracleNode[]): OracleNode[] {
  const plain = new Set(['filler', 'panel']);
  return walked.filter((node, at) => {
    const held = childIndices(walked, at).map((child) => walked[child]!);
    if (!plain.has(node.role) || !node.states.includes('focusable') || !node.states.includes('visible') || held.length === 0) return false;
    const parts = held.filter((child, i) => plain.has(child.role) && childIndices(walked, walked.indexOf(child, at + i)).length === 0 && !child.states.includes('focusable'));
    return parts.length > 0 && held.every((child) => child.role === 'scroll bar' || parts.includes(child));
  });
}

describe('Debian desktop apps a new user tried (GTK 4 GHex, Qt 5 qps, GTK3 dconf Editor, Qt 5 qpdfview, GTK3 Gnote), judged by pyatspi and the apps themselves', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;
  let home: string;

  before(async () => {
    user = await startUserDesktop('cup-deskapps6-home-');
    ({ desktop, context, home } = user);
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test('GHex: the hex view and the find bar, drawn on drawing areas beside a scroll bar, read as drawn surfaces, and bytes typed into the find bar read as the surface changing', async () => {
    const file = join(home, 'sample.bin');
    writeFileSync(file, 'Hello hex world\nline two of the file\n');
    const { process, window } = await desktop.launch('ghex', [file], 'sample.bin - GHex', 20_000, user.env());
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      // The case: pyatspi reads the hex view as a focused filler holding three empty fillers (GTK 4's drawing areas) and a scroll bar.
      const painting = paintingWidgets(await pyatspiWalk(window.pid, window.title, desktop.env()));
      assert.equal(painting.length, 1, `pyatspi: one widget painting on its parts: ${JSON.stringify(painting)}`);
      const view = state.elements.find((element) => element.states.includes('focused'))!;
      const surfaces = (state as unknown as { drawn_surfaces?: Surfaces }).drawn_surfaces ?? [];
      assert.ok(view && surfaces.some((surface) => surface.element_index === view.index), `the focused hex view [e${view?.index}] is a drawn surface: ${JSON.stringify(surfaces)}`);
      const [, , w, h] = painting[0]!.extents!;
      assert.deepEqual([view.bounds?.w, view.bounds?.h], [w, h], 'its box is the widget pyatspi reads');

      // The find bar: a second such widget, focused; "6C" typed there in the foreground shows, and Find Next finds 'l' at offset 2.
      await callOk(context, 'click', { window_id: window.id, selector: 'role=button name="Find a string in the hex document"' });
      const find = (await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false })).structured as unknown as WindowState & { drawn_surfaces?: Surfaces };
      const bar = find.elements.find((element) => element.states.includes('focused'))!;
      assert.ok(bar && find.drawn_surfaces?.some((surface) => surface.element_index === bar.index), `the focused find bar [e${bar?.index}] is a drawn surface: ${JSON.stringify(find.drawn_surfaces)}`);
      const typed = await callOk(context, 'type_text', { window_id: window.id, element_index: bar.index, text: '6C', delivery_mode: 'foreground' });
      assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.body);
      assert.match(typed.body ?? '', /the surface the app draws changed/, typed.body);
      await callOk(context, 'click', { window_id: window.id, selector: 'role=button name="Find Next"' });
      const offset = (await pyatspiWalk(window.pid, window.title, desktop.env())).find((node) => node.role === 'label' && node.name.startsWith('Offset:'));
      assert.equal(offset?.name, 'Offset: 0x2', 'GHex found the typed byte at offset 2');
    } finally {
      process.kill();
    }
  });

  test('qps: the process list it paints reads as a drawn surface once filtered to fit, its scroll bars gone, as before', async () => {
    const { process, window } = await desktop.launch('qps', [], /./, 20_000, { ...user.env(), QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' });
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      const filter = state.elements.find((element) => element.role === 'textbox' && element.states.includes('editable'));
      assert.ok(filter, JSON.stringify(state.elements));
      // Filtered to qps itself: one row, no scroll bar.
      await callOk(context, 'type_text', { window_id: window.id, element_index: filter.index, text: 'qps' });
      const deadline = Date.now() + 10_000;
      let painting: OracleNode[] = [];
      while (Date.now() < deadline) {
        const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
        painting = paintingWidgets(walked).filter((node) => node.extents && node.extents[3] > 100);
        if (painting.length === 1 && !walked.some((node) => node.role === 'scroll bar' && node.states.includes('showing'))) break;
      }
      assert.equal(painting.length, 1, `pyatspi: the list is a focusable filler holding its empty viewport alone: ${JSON.stringify(painting)}`);
      const read = (await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false })).structured as unknown as WindowState & { drawn_surfaces?: Surfaces };
      const [, , w, h] = painting[0]!.extents!;
      const list = read.elements.find((element) => element.bounds?.w === w && element.bounds?.h === h);
      assert.ok(list && read.drawn_surfaces?.some((surface) => surface.element_index === list.index), `the list (${w}x${h}) is a drawn surface: ${JSON.stringify(read.drawn_surfaces)} in ${JSON.stringify(read.elements)}`);
    } finally {
      process.kill();
    }
  });

  test("dconf Editor: a background click on a folder row, which offers no action, says it only selected it; a folder opened tells each new row once in the diff, not again by the label it holds two unnamed boxes deep", async () => {
    // Its first start shows a warning over its window, with no title of its own.
    const { process, window } = await desktop.launch('dconf-editor', [], 'dconf Editor', 20_000, user.env());
    try {
      const x = await desktop.x11();
      let warning: ClientWindow | undefined;
      for (const deadline = Date.now() + 10_000; !warning && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
        warning = (await listClientWindows(x)).find((each) => each.pid === window.pid && each.id !== window.id);
      }
      assert.ok(warning, 'dconf Editor warns at its first start');
      await accessibleWindowState(context, warning, { include_screenshot: false });
      await callOk(context, 'click', { window_id: warning.id, selector: 'role=button' });
      await accessibleWindowState(context, window, { include_screenshot: false });
      // A click in the background selects the row through its list, the row offering no action (pyatspi), and opens
      // nothing: pyatspi still reads the root folder's rows. The evidence says the click was a selection only.
      const rowsNow = async () => (await pyatspiWalk(window.pid, window.title, desktop.env())).filter((node) => node.role === 'list item' && node.states.includes('showing'));
      const before = await rowsNow();
      const selected = await callOk(context, 'click', { window_id: window.id, selector: 'role=option name=org' });
      const after = await rowsNow();
      assert.deepEqual(after.map((row) => row.actions), before.map(() => []), 'pyatspi: the rows offer no action');
      assert.equal(after.length, before.length, 'the root folder is still shown');
      assert.match(selected.body ?? '', /the item was only selected, through its list: it offers no action of its own.*delivery_mode "foreground"/, selected.body);
      // A real click opens a row (the list's Selection only selects it).
      const opened = await callOk(context, 'click', { window_id: window.id, selector: 'role=option name=org', delivery_mode: 'foreground' });
      const diff = (opened.structured as unknown as ActionResult).diff;
      // The case: pyatspi reads each folder row with its label inside two unnamed boxes.
      const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
      const rows = walked.flatMap((node, at) => (node.role === 'list item' && node.states.includes('showing') ? [at] : []));
      const deep = rows.filter((at) => {
        const [box] = childIndices(walked, at);
        const [inner] = box === undefined ? [] : childIndices(walked, box);
        const held = inner === undefined ? [] : childIndices(walked, inner).map((child) => walked[child]!);
        return walked[box!]?.name === '' && held.length === 1 && held[0]!.role === 'label';
      });
      assert.ok(deep.length >= 2, `pyatspi: rows holding their label two boxes deep: ${deep.length}`);
      const options = new Set(diff?.added.filter((node) => node.role === 'option').map((node) => node.name));
      const labels = deep.map((at) => walked[childIndices(walked, childIndices(walked, childIndices(walked, at)[0]!)[0]!)[0]!]!.name);
      assert.ok(labels.every((label) => options.has(label)), `each row is added: ${JSON.stringify(labels)}\n${opened.body}`);
      const echoes = diff?.added.filter((node) => node.role === 'text' && options.has(node.name)) ?? [];
      assert.deepEqual(echoes, [], opened.body);
    } finally {
      process.kill();
    }
  });

  test('qpdfview: set_value on the page box, which changes nothing but the box, says the app may act on it only at a Return, which then turns the page', async () => {
    const file = join(home, 'three.pdf');
    writeFileSync(file, pdfOfPages(['Page 1', 'Page 2', 'Page 3']));
    const { process, window } = await desktop.launch('qpdfview', [file], 'three - qpdfview', 20_000, { ...user.env(), QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' });
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      const box = state.elements.find((element) => element.role === 'spinbutton');
      assert.ok(box, JSON.stringify(state.elements));
      // qpdfview's own state: a jump to another page enables Edit's "Jump backward".
      const jumpedBack = async () => {
        const item = (await pyatspiWalk(window.pid, window.title, desktop.env())).find((node) => node.role === 'menu item' && node.name === 'Jump backward');
        assert.ok(item, 'pyatspi reads Edit > Jump backward');
        return item.states.includes('enabled');
      };
      assert.equal(await jumpedBack(), false, 'no jump yet');
      const set = await callOk(context, 'set_value', { window_id: window.id, element_index: box.index, value: '3' });
      assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.body);
      assert.equal(await jumpedBack(), false, 'the page box holds 3, and the document did not jump');
      assert.match(set.body ?? '', new RegExp(`nothing but \\[e${box.index}\\] changed: .*press_key "return"`), set.body);
      await callOk(context, 'press_key', { window_id: window.id, element_index: box.index, key: 'return', delivery_mode: 'foreground' });
      assert.equal(await jumpedBack(), true, 'a real Return there jumped to page 3');
    } finally {
      process.kill();
    }
  });

  test("Gnote: cells made anew as a new note is listed are not said destroyed; a check box alone in a box with the field it switches names that field, colon or not, shown or on a page not shown", async () => {
    const { process, window } = await desktop.launch('gnote', [], 'Gnote', 20_000, user.env());
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      // A second new note: GTK3 makes the note list's cells anew as a row is added above them, and pyatspi still reads them.
      await callOk(context, 'click', { window_id: window.id, selector: 'role=button name=Add' });
      const added = await callOk(context, 'click', { window_id: window.id, selector: 'role=button name=Add' });
      const cells = new Set((await pyatspiWalk(window.pid, window.title, desktop.env())).filter((node) => node.role === 'table cell').map((node) => node.name));
      assert.ok(cells.has('Start Here'), JSON.stringify([...cells]));
      const saidDestroyed = ((added.structured as unknown as ActionResult).evidence ?? []).filter((line) => / "(.*)": destroyed$/.exec(line) && cells.has(/ "(.*)": destroyed$/.exec(line)![1]!));
      assert.deepEqual(saidDestroyed, [], added.body);
      // Its main menu is the rightmost of its unnamed header buttons.
      const menu = state.elements.filter((element) => element.role === 'button' && element.name === '' && element.bounds).sort((a, b) => b.bounds!.x - a.bounds!.x)[0];
      assert.ok(menu, JSON.stringify(state.elements));
      await callOk(context, 'click', { window_id: window.id, element_index: menu.index });
      const opened = await callOk(context, 'click', { window_id: window.id, selector: 'role=button name=Preferences' });
      const prefs = (opened.structured as unknown as ActionResult).new_windows?.find((entry) => entry.title === 'Gnote Preferences');
      assert.ok(prefs, opened.body);
      // The case: pyatspi reads each check box in a panel of two with an unnamed spin button, or a font button named by its size.
      const walked = await pyatspiWalk(window.pid, 'Gnote Preferences', desktop.env());
      const pairs = walked.flatMap((node, at) => {
        const held = childIndices(walked, at).map((child) => walked[child]!);
        const box = held.find((child) => child.role === 'check box');
        const field = held.find((child) => child.role === 'spin button' || child.role === 'push button');
        return node.role === 'panel' && held.length === 2 && box && field ? [{ box: box.name, field }] : [];
      });
      const sync = pairs.find((pair) => pair.field.role === 'spin button');
      const font = pairs.find((pair) => pair.field.role === 'push button');
      assert.ok(sync && sync.field.name === '' && font && /^\d+$/.test(font.field.name), `pyatspi: ${JSON.stringify(pairs)}`);
      // Its Synchronization page not shown, then shown: the spin button is named by its check box both times.
      const hidden = await callOk(context, 'find_elements', { window_id: prefs.window_id, selector: `role=spinbutton name="${sync.box}"` });
      assert.equal((hidden.structured as unknown as { matches: unknown[] }).matches.length, 1, hidden.body);
      const read = await callOk(context, 'get_window_state', { window_id: prefs.window_id, include_screenshot: false });
      assert.match(read.body ?? '', new RegExp(`btn "${font.box}" .*val="${font.field.name}"`), read.body);
      await callOk(context, 'click', { window_id: prefs.window_id, selector: 'role=tab name=Synchronization' });
      const checked = await callOk(context, 'set_value', { window_id: prefs.window_id, selector: `role=checkbox name="${sync.box}"`, value: 'true' });
      const set = await callOk(context, 'set_value', { window_id: prefs.window_id, selector: `role=spinbutton name="${sync.box}"`, value: '30' });
      // The spin button pyatspi reads holds the number, enabled by its check box.
      const spins = await new PyatspiOracle(desktop.env()).values(window.pid, 'Gnote Preferences', 'spin button');
      assert.deepEqual(spins, [30], `${checked.body}\n${set.body}`);
    } finally {
      process.kill();
    }
  });
});
