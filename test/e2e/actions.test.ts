import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { isAlive } from '../../src/platform/linux/desktop/processes.js';
import { moveTo } from '../../src/platform/linux/input/index.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { runTool } from '../../src/tools/run.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, failsWith, type Element } from '../helpers/tools.js';

interface Action {
  path: string;
  effect: string;
  verified: boolean;
  evidence?: string[];
  escalation?: { recommended: string; reason: string };
}

const unicodeText = 'héllo wörld — ✓ 你好';

describe('action tools on real apps', () => {
  let fixtures: FixtureDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let gtk3: ClientWindow;
  let gtk4: ClientWindow;

  async function state(window: ClientWindow): Promise<{ snapshot: string; elements: Element[] }> {
    const { state } = await accessibleWindowState(context, window, { include_screenshot: false, detail: 'full' });
    return { snapshot: state.snapshot_id, elements: state.elements };
  }

  function find(elements: Element[], role: string, name: string): Element {
    const found = elements.find((element) => element.role === role && element.name === name);
    assert.ok(found, `no ${role} "${name}"`);
    return found;
  }

  /** The CLIPBOARD as another X client reads it (xclip), awaited (up to 3 s) until it is `expected`: GTK answers the owner's requests from its main loop. */
  async function clipboardSoon(expected: string): Promise<string> {
    let copied = '';
    for (const deadline = Date.now() + 3000; copied !== expected && Date.now() < deadline; await sleep(50)) {
      copied = await promisify(execFile)('xclip', ['-o', '-selection', 'clipboard'], { env: fixtures.desktop.env(), timeout: 2000 }).then((out) => out.stdout, () => '');
    }
    return copied;
  }

  async function act(tool: string, args: Record<string, unknown>): Promise<Action> {
    return (await callOk(context, tool, args)).structured as unknown as Action;
  }

  before(async () => {
    fixtures = await FixtureDesktop.start();
    context = fixtures.context;
    oracle = new PyatspiOracle(fixtures.desktop.env());
    gtk3 = await fixtures.launch('gtk3');
    gtk4 = await fixtures.launch('gtk4');
  });

  after(async () => {
    oracle?.close();
    await fixtures?.stop();
  });

  for (const [toolkit, mode] of [
    ['gtk3', 'background'],
    ['gtk3', 'foreground'],
    ['gtk4', 'background'],
    ['gtk4', 'foreground'],
  ] as const) {
    test(`${toolkit}: type_text "${unicodeText}" (${mode}) arrives exactly`, async () => {
      const window = toolkit === 'gtk3' ? gtk3 : gtk4;
      const { elements } = await state(window);
      const field = find(elements, 'textbox', 'Paste target');
      await act('set_value', { window_id: window.id, element_index: field.index, value: '' });
      const result = await act('type_text', { window_id: window.id, element_index: field.index, text: unicodeText, delivery_mode: mode });
      assert.equal(result.effect, 'confirmed', JSON.stringify(result));
      assert.equal(result.path, mode === 'background' ? 'x11_atspi' : 'key_events_fg');
      const read = await oracle.find(window.pid, window.title, 'text', 'Paste target');
      assert.equal(read.text, unicodeText);
    });
  }

  test('type_text into a field with the focus replaces the text selected in it, as typed keys do (background)', async () => {
    // Thunar's Rename dialog selects the name before the extension: "three" typed there made "two.txt" "twothree.txt".
    const { elements } = await state(gtk3);
    const field = find(elements, 'textbox', 'Paste target');
    await act('set_value', { window_id: gtk3.id, element_index: field.index, value: 'two.txt' });
    // A field takes the focus in the background only in the active window: GTK3 raises the window it focuses a field of.
    await callOk(context, 'bring_to_front', { pid: gtk3.pid, window_id: gtk3.id });
    await act('click', { window_id: gtk3.id, element_index: field.index });
    assert.ok((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).states?.includes('focused'), 'pyatspi: the click focused the field');
    assert.deepEqual(await oracle.selectText(gtk3.pid, gtk3.title, 'text', 'Paste target', 0, 3), [0, 3]);
    const result = await act('type_text', { window_id: gtk3.id, element_index: field.index, text: 'three' });
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.equal((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).text, 'three.txt', 'pyatspi: the typing replaced the selected "two"');
  });

  test('type_text in the foreground over text selected in the field: the keys replace it, and the evidence names what they replaced', async () => {
    // zenity opens its entry with its text selected: " World" typed into "Hello" made " World", and only the text
    // before and after told why.
    const { elements } = await state(gtk3);
    const field = find(elements, 'textbox', 'Paste target');
    await act('set_value', { window_id: gtk3.id, element_index: field.index, value: 'two.txt' });
    assert.deepEqual(await oracle.selectText(gtk3.pid, gtk3.title, 'text', 'Paste target', 0, 3), [0, 3]);
    const result = await act('type_text', { window_id: gtk3.id, element_index: field.index, text: 'three', delivery_mode: 'foreground' });
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.equal((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).text, 'three.txt', 'pyatspi: the keys replaced the selected "two"');
    assert.ok(result.evidence?.some((line) => line.startsWith('the keys replaced the text selected in') && line.includes('"two"')), JSON.stringify(result.evidence));
  });

  test('type_text ending in a newline into a GTK3 search field (background): the text goes in through accessibility, the Return through the field\'s activate action', async () => {
    // Catfish's search field refused "three\n" (GTK reads no key events sent in the background), while "three" and then
    // press_key Return, which the field takes as its activate action, searched.
    const window = await fixtures.launch('gtk3', { title: 'Search Return Fixture', rows: 3, extraArgs: ['--history'] });
    try {
      const history = async () => (await oracle.texts(window.pid, window.title)).find((line) => line.startsWith('searches=')) ?? '';
      const field = (await callOk(context, 'find_elements', { window_id: window.id, selector: 'name=Search >> role=textbox' })).structured as { matches: Element[] };
      await act('set_value', { window_id: window.id, element_index: field.matches[0]!.index, value: '' });
      const result = await act('type_text', { window_id: window.id, element_index: field.matches[0]!.index, text: 'needle\n' });
      assert.equal(result.path, 'x11_atspi', JSON.stringify(result));
      assert.equal(result.effect, 'confirmed', JSON.stringify(result));
      assert.match(await history(), /^searches=1 .* search=needle$/, 'pyatspi: the Return searched for the typed text, once');
    } finally {
      process.kill(window.pid);
    }
  });

  test('hotkeys through the real clipboard: ctrl+a, ctrl+c in one field, ctrl+v in another (foreground)', async () => {
    const { elements } = await state(gtk3);
    const name = find(elements, 'textbox', 'Name field');
    const target = find(elements, 'textbox', 'Paste target');
    await act('set_value', { window_id: gtk3.id, element_index: name.index, value: 'copied through the clipboard ✓' });
    await act('set_value', { window_id: gtk3.id, element_index: target.index, value: '' });
    const selectAll = await act('hotkey', { window_id: gtk3.id, element_index: name.index, keys: ['ctrl', 'a'], delivery_mode: 'foreground' });
    assert.equal(selectAll.path, 'key_events_fg');
    await act('hotkey', { window_id: gtk3.id, element_index: name.index, keys: ['ctrl', 'c'], delivery_mode: 'foreground' });
    assert.equal(await clipboardSoon('copied through the clipboard ✓'), 'copied through the clipboard ✓', 'ctrl+c put the text on the CLIPBOARD, as xclip reads it');
    const paste = await act('hotkey', { window_id: gtk3.id, element_index: target.index, keys: ['ctrl', 'v'], delivery_mode: 'foreground' });
    assert.equal(paste.effect, 'confirmed', JSON.stringify(paste));
    // GTK pastes once the clipboard's owner has answered, which may come after the key's first effects.
    let pasted = '';
    for (const deadline = Date.now() + 3000; pasted !== 'copied through the clipboard ✓' && Date.now() < deadline; await sleep(50)) {
      pasted = (await oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).text ?? '';
    }
    assert.equal(pasted, 'copied through the clipboard ✓');

    // Keys for a field that is not focused: focusing it first leaves its selection as it was. (GTK3 reports a field
    // FOCUSED only a moment after its window's focus-in, so the field of the ctrl+a above can also be taken for
    // unfocused; its GrabFocus selects the whole text, and putting the caret back after it selected nothing.)
    assert.deepEqual(await oracle.selectText(gtk3.pid, gtk3.title, 'text', 'Name field', 7, 14), [7, 14]);
    await act('hotkey', { window_id: gtk3.id, element_index: name.index, keys: ['ctrl', 'c'], delivery_mode: 'foreground' });
    assert.equal(await clipboardSoon('through'), 'through', 'ctrl+c copied the selected word, as xclip reads it');
  });

  test('a key takes the same background route whatever it is called: " " presses a check box as "space" does, and X\'s names are keys too', async () => {
    const checked = async () => (await oracle.find(gtk3.pid, gtk3.title, 'check box', 'Enable feature')).states?.includes('checked') ?? false;
    const box = find((await state(gtk3)).elements, 'checkbox', 'Enable feature');
    const before = await checked();
    // The space character was refused (`"  has no accessibility equivalent"`) while "space" pressed the box.
    for (const key of [' ', 'space', 'Space']) {
      const was = await checked();
      const pressed = await act('press_key', { window_id: gtk3.id, element_index: box.index, key });
      assert.equal(pressed.path, 'x11_atspi', `${JSON.stringify(key)}: ${JSON.stringify(pressed)}`);
      assert.equal(await checked(), !was, `${JSON.stringify(key)} flipped the box, as pyatspi reads it`);
    }
    assert.equal(await checked(), !before);
    // xdotool's spelling of a combination ("Control_L+a") is the combination: the Name field's text is all selected.
    const name = find((await state(gtk3)).elements, 'textbox', 'Name field');
    await act('set_value', { window_id: gtk3.id, element_index: name.index, value: 'select me' });
    const all = await act('press_key', { window_id: gtk3.id, element_index: name.index, key: 'Control_L+A' });
    assert.equal(all.path, 'x11_atspi', JSON.stringify(all));
    assert.deepEqual(await oracle.selection(gtk3.pid, gtk3.title, 'text', 'Name field'), [[0, 9]]);
    const dashed = await failsWith(context, 'press_key', { window_id: gtk3.id, key: 'ctrl-s' }, 'invalid_key');
    assert.match(dashed.summary, /a combination is written with "\+", as "ctrl\+s"/);
  });

  test('a key repeated in the background, where accessibility stands for one press only, is refused saying so, not as a key with no equivalent', async () => {
    const checked = async () => (await oracle.find(gtk3.pid, gtk3.title, 'check box', 'Enable feature')).states?.includes('checked') ?? false;
    const box = find((await state(gtk3)).elements, 'checkbox', 'Enable feature');
    const was = await checked();
    const twice = await act('press_key', { window_id: gtk3.id, element_index: box.index, key: 'space', repeat: 2 });
    assert.equal(twice.path, 'none', JSON.stringify(twice));
    // It read '"space" has no accessibility equivalent on [eN]', which one press of it has.
    assert.match(twice.escalation?.reason ?? '', /"space" has an accessibility equivalent on \[e\d+\] for one press, not for 2 in a row.*nothing was sent: press it once per call/);
    assert.equal(await checked(), was, 'pyatspi: the box is as it was');
  });

  test('a combination\'s modifiers are held around its key wherever they are written; a second key is refused, nothing sent (foreground)', async () => {
    const name = find((await state(gtk3)).elements, 'textbox', 'Name field');
    await act('set_value', { window_id: gtk3.id, element_index: name.index, value: 'keep me' });
    // Real keys pressed in the order given typed "a" over the text.
    const all = await act('hotkey', { window_id: gtk3.id, element_index: name.index, keys: ['a', 'ctrl'], delivery_mode: 'foreground' });
    assert.equal(all.path, 'key_events_fg', JSON.stringify(all));
    const field = await oracle.find(gtk3.pid, gtk3.title, 'text', 'Name field');
    assert.equal(field.text, 'keep me');
    assert.deepEqual(await oracle.selection(gtk3.pid, gtk3.title, 'text', 'Name field'), [[0, 7]]);
    const chord = await failsWith(context, 'press_key', { window_id: gtk3.id, element_index: name.index, key: 'x+y', delivery_mode: 'foreground' }, 'invalid_key');
    assert.match(chord.summary, /holds 2 keys that are not modifiers \("x", "y"\)/);
    assert.equal((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Name field')).text, 'keep me');
  });

  test('keypad keys by X\'s names reach the app as themselves, the digits too (foreground)', async () => {
    // The app's own word for the key it read: KP_5 had gone as Shift with KP_Begin's key, which Num Lock alone shifts.
    for (const [key, heard] of [['KP_5', 'KP_5'], ['kp_decimal', 'KP_Decimal'], ['KP_Enter', 'KP_Enter'], ['kp_add', 'KP_Add']]) {
      await act('press_key', { window_id: gtk3.id, key, delivery_mode: 'foreground' });
      let lastKey = '';
      for (const deadline = Date.now() + 3000; lastKey !== heard && Date.now() < deadline; await sleep(50)) lastKey = String((await oracle.status(gtk3.pid, gtk3.title)).last_key);
      assert.equal(lastKey, heard, key);
    }
  });

  test('Tab in an inactive GTK4 window (foreground, no element) says where the focus went, which GTK4 forgets once the activation is given back', async () => {
    // The focus is put in the Name field (a real click), whose next control in Tab order is the check box; GTK4 keeps
    // it there with its window inactive (pyatspi names the check box as the driver does; a list row it names not).
    const nameField = find((await state(gtk4)).elements, 'textbox', 'Name field');
    await act('click', { window_id: gtk4.id, element_index: nameField.index, delivery_mode: 'foreground' });
    await callOk(context, 'bring_to_front', { pid: gtk3.pid, window_id: gtk3.id });
    const { elements } = await state(gtk4);
    assert.ok(!elements.some((element) => element.states.includes('focused')), 'an inactive GTK4 window reports no focus');
    const tab = await act('press_key', { window_id: gtk4.id, key: 'Tab', delivery_mode: 'foreground' });
    const line = tab.evidence?.find((evidence) => evidence.startsWith('the keyboard focus is on '));
    const [, index] = /^the keyboard focus is on \[e(\d+)\]/.exec(line ?? '') ?? [];
    assert.ok(index, `the evidence names the focused element by its index: ${JSON.stringify(tab)}`);
    const named = elements.find((element) => element.index === Number(index));
    assert.ok(named, `[e${index}] is in the reading before`);
    assert.deepEqual([named.role, named.name], ['checkbox', 'Enable feature'], line);
    // pyatspi, with the window active again (GTK4 gives the focus back to the widget that had it), agrees.
    await callOk(context, 'bring_to_front', { pid: gtk4.pid, window_id: gtk4.id });
    let states: string[] = [];
    for (const deadline = Date.now() + 3000; !states.includes('focused') && Date.now() < deadline; await sleep(50)) states = (await oracle.find(gtk4.pid, gtk4.title, 'check box', 'Enable feature')).states ?? [];
    assert.ok(states.includes('focused'), `${named.role} "${named.name}" has the focus, by pyatspi: ${states.join(' ')}`);
    await callOk(context, 'bring_to_front', { pid: gtk3.pid, window_id: gtk3.id });
  });

  test('foreground typing into a field of an inactive window replaces the text selected in it, and goes at the end of one with none', async () => {
    const { elements } = await state(gtk3);
    const name = find(elements, 'textbox', 'Name field');
    await act('set_value', { window_id: gtk3.id, element_index: name.index, value: 'Hello world' });
    // The selection is pyatspi's; then the other window is made active, so the typing activates the field's window.
    assert.deepEqual(await oracle.selectText(gtk3.pid, gtk3.title, 'text', 'Name field', 6, 11), [6, 11]);
    await callOk(context, 'bring_to_front', { pid: gtk4.pid, window_id: gtk4.id });
    assert.equal(await fixtures.readers.activeWindow(), gtk4.id, 'the other window is active (xprop)');
    const replaced = await act('type_text', { window_id: gtk3.id, element_index: name.index, text: 'there', delivery_mode: 'foreground' });
    assert.equal(replaced.effect, 'confirmed', JSON.stringify(replaced));
    assert.equal((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Name field')).text, 'Hello there', 'pyatspi: the selected word was replaced');
    // Nothing selected and the caret at the start: the next typing, from the other window again, goes at the field's end.
    assert.deepEqual(await oracle.selectText(gtk3.pid, gtk3.title, 'text', 'Name field', 0, 0), [], 'pyatspi: nothing selected');
    await callOk(context, 'bring_to_front', { pid: gtk4.pid, window_id: gtk4.id });
    const appended = await act('type_text', { window_id: gtk3.id, element_index: name.index, text: '!', delivery_mode: 'foreground' });
    assert.equal(appended.effect, 'confirmed', JSON.stringify(appended));
    assert.equal((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Name field')).text, 'Hello there!', 'pyatspi: typed at the end');
  });

  test('a window fully covered by another is clicked and typed into by element in the background; the cover stays on top and focused', async () => {
    const { elements } = await state(gtk3);
    // A real app window over the fixture, activated (the window manager gives it the focus).
    const cover = await fixtures.desktop.launchFixture('gtk4', { title: 'Cover', size: `${gtk3.bounds.width + 40}x${gtk3.bounds.height + 40}` });
    await fixtures.x.configureWindow(cover.window.id, { x: gtk3.bounds.x - 20, y: gtk3.bounds.y - 40 });
    await callOk(context, 'bring_to_front', { pid: cover.window.pid, window_id: cover.window.id });
    await sleep(300);
    // Focus and stacking as xprop, xdotool and xwininfo read them from the X server, not as list_windows says.
    const readers = fixtures.readers;
    assert.equal(await readers.activeWindow(), cover.window.id, 'the cover is active');
    assert.equal(await readers.inputFocus(), cover.window.id, 'the cover has the keyboard focus');
    assert.equal(await readers.frontMost([cover.window.id, gtk3.id, gtk4.id]), cover.window.id, 'the cover is in front');
    const pointerBefore = await readers.pointer();
    const counterBefore = Number((await oracle.status(gtk3.pid, gtk3.title)).counter);

    const clicked = await act('click', { window_id: gtk3.id, element_index: find(elements, 'button', 'Increment').index });
    assert.equal(clicked.effect, 'confirmed');
    const field = find(elements, 'textbox', 'Name field');
    await act('set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    const typed = await act('type_text', { window_id: gtk3.id, element_index: field.index, text: 'under cover' });
    assert.equal(typed.effect, 'confirmed');

    const status = await oracle.status(gtk3.pid, gtk3.title);
    assert.equal(Number(status.counter), counterBefore + 1);
    assert.equal(status.text, 'under cover');
    assert.equal(await readers.activeWindow(), cover.window.id, 'the cover stays the active window');
    assert.equal(await readers.inputFocus(), cover.window.id, 'the cover keeps the keyboard focus');
    assert.equal(await readers.frontMost([cover.window.id, gtk3.id, gtk4.id]), cover.window.id, 'the cover stays on top: the background input raised nothing');
    assert.deepEqual(await readers.pointer(), pointerBefore, 'the real pointer did not move');
    cover.process.kill('SIGKILL');
  });

  test('a foreground click reaches a window behind, then the previously active window is active and in front again and the pointer is back', async () => {
    const readers = fixtures.readers;
    await callOk(context, 'bring_to_front', { pid: gtk3.pid, window_id: gtk3.id });
    assert.equal(await readers.activeWindow(), gtk3.id);
    const parked = { x: 3, y: 5 };
    await moveTo(fixtures.x, parked);
    assert.deepEqual(await readers.pointer(), parked);
    const counter = Number((await oracle.status(gtk4.pid, gtk4.title)).counter);
    const increment = find((await state(gtk4)).elements, 'button', 'Increment');

    const clicked = await act('click', { window_id: gtk4.id, element_index: increment.index, delivery_mode: 'foreground' });
    assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
    assert.equal(Number((await oracle.status(gtk4.pid, gtk4.title)).counter), counter + 1, 'the click arrived (pyatspi)');
    assert.equal(await readers.activeWindow(), gtk3.id, 'the previous window is re-activated (xprop)');
    assert.equal(await readers.inputFocus(), gtk3.id, 'and has the keyboard focus back (xdotool)');
    assert.equal(await readers.frontMost([gtk3.id, gtk4.id]), gtk3.id, 'and is in front again (xwininfo)');
    assert.deepEqual(await readers.pointer(), parked, 'the pointer is restored (xdotool)');
  });

  test('a click at a point of the last zoom image (from_zoom) lands on that button; evidence names objects by their index in the window\'s latest snapshot', async () => {
    const button = find((await state(gtk3)).elements, 'button', 'Increment');
    const box = button.bounds!;
    const centre = { x: box.x - gtk3.bounds.x + box.w / 2, y: box.y - gtk3.bounds.y + box.h / 2 };
    const zoomed = await callOk(context, 'zoom', { pid: gtk3.pid, window_id: gtk3.id, x1: centre.x - 60, y1: centre.y - 30, x2: centre.x + 60, y2: centre.y + 30 });
    const region = zoomed.structured.region as { x: number; y: number; w: number; h: number };
    const image = zoomed.structured as unknown as { width: number; height: number };
    const inZoom = { x: ((centre.x - region.x) * image.width) / region.w, y: ((centre.y - region.y) * image.height) / region.h };
    const counter = Number((await oracle.status(gtk3.pid, gtk3.title)).counter);
    const clicked = await act('click', { pid: gtk3.pid, window_id: gtk3.id, x: inZoom.x, y: inZoom.y, from_zoom: true });
    assert.equal(clicked.effect, 'confirmed');
    assert.equal(Number((await oracle.status(gtk3.pid, gtk3.title)).counter), counter + 1);
    const label = (await state(gtk3)).elements.find((element) => element.role === 'text' && element.name.startsWith('counter='));
    assert.ok(label, 'the status label is in the snapshot');
    assert.ok(clicked.evidence?.some((line) => line.startsWith(`[e${label.index}] text "counter=`)), JSON.stringify(clicked.evidence));
  });

  test('stale handles: after the app rebuilds its list, an old token errors clearly and clicks nothing', async () => {
    const { snapshot, elements } = await state(gtk3);
    const row = elements.find((element) => element.role === 'option' && element.name === 'Row 2')!;
    assert.ok(row);
    const rebuilt = await act('click', { window_id: gtk3.id, element_index: find(elements, 'button', 'Rebuild list').index });
    assert.equal(rebuilt.effect, 'confirmed');
    await sleep(200);
    const statusBefore = await oracle.status(gtk3.pid, gtk3.title);
    const stale = await runTool('click', { element_token: `${snapshot}:${row.index}` }, context);
    assert.equal(stale.ok, false);
    assert.equal(stale.structured.error, 'stale_element');
    assert.match(stale.summary, /call get_window_state again.*Nothing was clicked/);
    // The same bare index against the same (old) snapshot: still refused, never redirected to a new row.
    const staleIndex = await runTool('click', { element_token: `${snapshot}:${row.index}`, window_id: gtk3.id }, context);
    assert.equal(staleIndex.ok, false);
    assert.deepEqual(await oracle.status(gtk3.pid, gtk3.title), statusBefore);
    // A fresh snapshot resolves the new row.
    const fresh = await state(gtk3);
    assert.ok(fresh.elements.some((element) => element.name === 'Row 2 (rebuilt 1)'));
  });

  test('element tokens and bare indices resolve to the same object; bad references are clear errors', async () => {
    const { snapshot, elements } = await state(gtk4);
    const increment = find(elements, 'button', 'Increment');
    const byToken = await act('click', { element_token: `${snapshot}:${increment.index}` });
    assert.equal(byToken.effect, 'confirmed');
    const unknown = await runTool('click', { element_token: 'szzzz:1' }, context);
    assert.equal(unknown.structured.error, 'no_snapshot');
    const noWindow = await runTool('click', { element_index: 3 }, context);
    assert.match(noWindow.summary, /element_index needs window_id/);
    // With pid alone, the index is of the one window of that process read in the session (as get_window_state {pid}
    // reads an app's only window).
    const counter = Number((await oracle.status(gtk4.pid, gtk4.title)).counter);
    const byPid = await act('click', { pid: gtk4.pid, element_index: increment.index });
    assert.equal(byPid.effect, 'confirmed', JSON.stringify(byPid));
    assert.equal(Number((await oracle.status(gtk4.pid, gtk4.title)).counter), counter + 1, 'the click with pid alone arrived (pyatspi)');
    const unread = await runTool('click', { pid: process.pid, element_index: 3 }, context);
    assert.equal(unread.structured.error, 'no_snapshot', unread.summary);
    assert.match(unread.summary, new RegExp(`no snapshot of pid ${process.pid}.*call get_window_state first`));
    const both = await runTool('click', { window_id: gtk4.id, element_index: 3, x: 1, y: 1 }, context);
    assert.match(both.summary, /either an element .* or pixels .* not both/);
    const outside = await runTool('click', { window_id: gtk4.id, x: 5000, y: 5 }, context);
    assert.match(outside.summary, /outside window/);
    const badToken = await runTool('click', { element_token: 'nonsense' }, context);
    assert.equal(badToken.failure, 'usage');
  });

  test('typing at an element that takes no text in the background is refused, sending nothing, with advice that fits an element given', async () => {
    const { elements } = await state(gtk3);
    const label = elements.find((element) => element.role === 'text' && element.name.startsWith('counter='))!;
    const before = await oracle.status(gtk3.pid, gtk3.title);
    const refused = await runTool('type_text', { window_id: gtk3.id, element_index: label.index, text: 'x' }, context);
    assert.equal(refused.structured.path, 'none', refused.summary);
    const reason = String((refused.structured.escalation as { reason?: string } | undefined)?.reason);
    assert.match(reason, /does not accept text through accessibility.*nothing was typed: retry with delivery_mode "foreground"/);
    assert.doesNotMatch(reason, /pass the text field's element_index/, 'an element was passed already');
    assert.deepEqual(await oracle.status(gtk3.pid, gtk3.title), before, 'pyatspi: the app shows no change');
  });

  test('launch_app starts a .desktop app without taking the focus and waits for its tree; kill_app ends it', async () => {
    await callOk(context, 'bring_to_front', { pid: gtk3.pid, window_id: gtk3.id });
    const launched = (await callOk(context, 'launch_app', { name: 'Calculator' })).structured as {
      pid: number;
      name: string;
      accessible: boolean;
      self_activation_suppressed: boolean;
      windows: { window_id: number; pid: number; title: string }[];
    };
    assert.equal(launched.name, 'Calculator');
    assert.equal(launched.accessible, true);
    assert.equal(launched.windows[0]?.title, 'Calculator');
    assert.equal(launched.self_activation_suppressed, true);
    assert.equal(await fixtures.readers.activeWindow(), gtk3.id, 'the previously active window keeps the focus (xprop)');
    assert.equal(await fixtures.readers.inputFocus(), gtk3.id, 'and the keyboard focus (xdotool)');
    assert.equal(await fixtures.readers.frontMost([gtk3.id, launched.windows[0]!.window_id]), gtk3.id, 'and stays in front (xwininfo)');
    const again = (await callOk(context, 'launch_app', { name: 'gnome-calculator' })).structured as { already_running: boolean; pid: number };
    assert.equal(again.already_running, true);
    assert.equal(again.pid, launched.pid);
    const killed = (await callOk(context, 'kill_app', { pid: launched.pid })).structured as { killed: boolean };
    assert.equal(killed.killed, true);
    assert.equal(isAlive(launched.pid), false);
    assert.ok(!(await fixtures.readers.clientList()).includes(launched.windows[0]!.window_id), 'its window is no longer managed (xprop)');
    // Started again right away, it is a new process: the dead one's window is not taken for a running instance.
    const relaunched = (await callOk(context, 'launch_app', { name: 'Calculator' })).structured as { already_running: boolean; pid: number };
    assert.equal(relaunched.already_running, false);
    assert.notEqual(relaunched.pid, launched.pid);
    assert.equal((await callOk(context, 'kill_app', { pid: relaunched.pid })).structured.killed, true);
    const unknown = await runTool('launch_app', { name: 'no-such-app-anywhere' }, context);
    assert.match(unknown.summary, /no installed application or program named "no-such-app-anywhere"/);
    const self = await runTool('kill_app', { pid: process.pid }, context);
    assert.match(self.summary, /refusing to kill/);
  });

  test('bring_to_front activates a window; move_cursor moves the agent cursor, not the pointer', async () => {
    const front = (await callOk(context, 'bring_to_front', { pid: gtk4.pid })).structured as { window_id: number; active: boolean };
    assert.deepEqual(front, { window_id: gtk4.id, active: true });
    assert.equal(await fixtures.readers.activeWindow(), gtk4.id, 'active for the window manager (xprop)');
    assert.equal(await fixtures.readers.inputFocus(), gtk4.id, 'with the keyboard focus (xdotool)');
    assert.equal(await fixtures.readers.frontMost([gtk3.id, gtk4.id]), gtk4.id, 'in front (xwininfo)');
    const pointer = await fixtures.readers.pointer();
    assert.deepEqual((await callOk(context, 'get_cursor_position')).structured, pointer, 'get_cursor_position tells where xdotool sees the pointer');
    const moved = (await callOk(context, 'move_cursor', { x: 400, y: 300 })).structured as { x: number; y: number; visible: boolean };
    assert.deepEqual(moved, { cursor_id: context.session, x: 400, y: 300, visible: true });
    assert.deepEqual(await fixtures.readers.pointer(), pointer, 'the real pointer did not move (xdotool)');
    const hidden = (await callOk(context, 'move_cursor', { x: 400, y: 300, visible: false })).structured as { visible: boolean };
    assert.equal(hidden.visible, false);
  });

  test('an icon view\'s item: a background click selects it alone, as a person\'s click does; a double click opens it', async () => {
    // GTK's icon view gives its items only "activate", which opens them (PCManFM opened a file in AbiWord on a click),
    // and takes several selected: a click added to the selection, and a double click on a folder opened the other file too.
    const window = await fixtures.launch('gtk3', { title: 'Icon Fixture', rows: 3, extraArgs: ['--icon-view'] });
    const selected = async () => (await oracle.items(window.pid, window.title, 'layered pane')).filter((item) => item.selected).map((item) => item.text);
    const click = (tool: string, name: string) => callOk(context, tool, { window_id: window.id, selector: `name=Files >> role=img name=${JSON.stringify(name)}` });
    await click('click', 'beta.txt');
    assert.deepEqual(await selected(), ['beta.txt'], 'pyatspi: the click selected the item');
    await click('click', 'alpha.txt');
    assert.deepEqual(await selected(), ['alpha.txt'], 'pyatspi: the next click selected its item alone');
    assert.equal((await fixtures.status(window)).lastKey, '', 'the fixture: no click opened anything');
    await click('double_click', 'gamma');
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey !== '')).lastKey, 'activated:gamma', 'the fixture: the double click opened gamma');
    assert.deepEqual(await selected(), ['gamma']);

    // Ctrl+A on the view selects all its items in the background, through its Selection (a file manager's select-all:
    // it was refused, as if only a text field took it), read back by the count of items selected: GTK3 announces none.
    const all = await act('hotkey', { window_id: window.id, selector: 'name=Files', keys: ['ctrl', 'a'] });
    assert.deepEqual(await selected(), ['alpha.txt', 'beta.txt', 'gamma'], 'pyatspi: every item is selected');
    assert.equal(all.effect, 'confirmed', JSON.stringify(all));
    assert.match(all.evidence!.join('\n'), /the number of items selected in \[e\d+\]: "1" → "3"/);
  });

  test('drag from one window to another (to_window_id): the drop lands in the other app, is judged there, and the window active before is active again', async () => {
    // A file dragged between two Thunar windows: drag took both points in one window and refused the drop point as outside it.
    const source = await fixtures.launch('gtk3', { title: 'Drag Source', rows: 3, extraArgs: ['--drop-zone'] });
    const target = await fixtures.launch('gtk3', { title: 'Drop Target', rows: 3, extraArgs: ['--drop-zone'] });
    await callOk(context, 'set_window_frame', { window_id: source.id, x: 0, y: 40, width: 480, height: 640 });
    await callOk(context, 'set_window_frame', { window_id: target.id, x: 500, y: 40, width: 480, height: 640 });
    const placed = async (window: ClientWindow, selector: string) => {
      const found = (await callOk(context, 'find_elements', { window_id: window.id, selector })).structured as { matches: Element[]; window: { bounds: { x: number; y: number } } };
      assert.ok(found.matches[0]?.bounds, JSON.stringify(found));
      const bounds = found.matches[0].bounds;
      return { x: bounds.x - found.window.bounds.x + bounds.w / 2, y: bounds.y - found.window.bounds.y + bounds.h / 2 };
    };
    const from = await placed(source, 'name="Drag source"');
    const to = await placed(target, 'name="Drop here"');
    await callOk(context, 'bring_to_front', { window_id: target.id });
    const active = await fixtures.readers.activeWindow();
    const drag = { window_id: source.id, from_x: from.x, from_y: from.y, to_x: to.x, to_y: to.y, delivery_mode: 'foreground' };

    const outside = await failsWith(context, 'drag', { ...drag, to_x: to.x + 500 }, 'outside_window');
    assert.match(outside.summary, /give its window_id as to_window_id/);
    const result = await act('drag', { ...drag, to_window_id: target.id });
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.match(result.evidence!.join('\n'), /"Drop here": name is now "Dropped: payload from Drag Source"/);
    assert.equal((await fixtures.status(target)).lastKey, 'dropped:payload from Drag Source', 'the fixture: the drop reached the other app');
    assert.equal(await fixtures.readers.activeWindow(), active, 'xprop: the window active before is active again (GTK\'s drag keeps a 1x1 window mapped off screen, no popup)');

    // The window dragged from, in front, covering the drop point: nothing is sent.
    await callOk(context, 'set_window_frame', { window_id: target.id, x: 100, y: 40, width: 480, height: 640 });
    const covered = await placed(target, 'name^=Dropped:');
    await failsWith(context, 'drag', { ...drag, to_x: covered.x, to_y: covered.y, to_window_id: target.id }, 'drop_point_covered');
    assert.equal((await fixtures.status(source)).lastKey, '', 'the fixture: nothing was dropped on the window dragged from');

    // Between two blank points of the row beside the drop zone nothing is dragged: the advice then is not to address by
    // pixels a drag that was given by pixels (it was).
    const source0 = await placed(source, 'name="Drag source"');
    const blank = await act('drag', { window_id: source.id, from_x: source0.x + 250, from_y: source0.y, to_x: source0.x + 330, to_y: source0.y, delivery_mode: 'foreground' });
    assert.equal(blank.effect, 'suspected_noop', JSON.stringify(blank));
    assert.match(blank.escalation!.reason, /under the start point/);
    assert.doesNotMatch(blank.escalation!.reason, /address it by pixels/);
    assert.equal((await fixtures.status(source)).lastKey, '', 'the fixture: nothing was dragged or dropped');
  });

  test('a drop the app reaches late, showing a window of its own first (a drag image): its own sign is waited for from that window on', async () => {
    // A loaded Firefox made its drag image only after the release and moved the card over 1.5 s later: the drag read
    // "confirmed" by the drag image window alone, and named nothing the page did.
    const window = await fixtures.launch('gtk3', { title: 'Late Drop', rows: 3, extraArgs: ['--drop-zone', '--late-drop'] });
    const token = async (selector: string) => {
      const found = (await callOk(context, 'find_elements', { window_id: window.id, selector })).structured as { matches: { element_token: string }[] };
      assert.ok(found.matches[0], `${selector}: ${JSON.stringify(found)}`);
      return found.matches[0].element_token;
    };
    const [from, to] = [await token('name="Drag source"'), await token('name="Drop here"')];
    const result = await act('drag', { window_id: window.id, from_element_token: from, to_element_token: to, delivery_mode: 'foreground' });
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey !== '')).lastKey, 'dropped:payload from Late Drop', 'the fixture: the drop was taken');
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.match(result.evidence!.join('\n'), /"Drop here": name is now "Dropped: payload from Late Drop"/, 'the evidence names what the drop did, not only the window shown before it');
  });

  test('a context menu, shown in a popup window of its own, is in the tree of the window it opened over, and its item is chosen there in the background', async () => {
    // xfce4-taskmanager's right click showed Stop, Terminate and Kill on screen, and in no tree the driver read.
    const window = await fixtures.launch('gtk3', { title: 'Context Fixture', rows: 3, extraArgs: ['--context-menu'] });
    try {
      const opened = await act('right_click', { window_id: window.id, selector: 'name="Click pad"', delivery_mode: 'foreground' });
      const popup = (await oracle.topLevels(window.pid)).find((top) => top.name !== window.title && top.showing);
      assert.deepEqual(popup?.items, ['Copy pad', 'Clear pad'], 'pyatspi: a top level of its own shows the menu');
      // The app has no other window: its menu's objects read "the app changed 4 objects in its other windows" and
      // "application: child added", and no line said a menu opened.
      const said = opened.evidence!.join('\n');
      assert.match(said, /menu opened over the window \(\[e\d+\]\): 2 items, "Copy pad", "Clear pad"/, JSON.stringify(opened.evidence));
      assert.doesNotMatch(said, /other windows|child added/, JSON.stringify(opened.evidence));
      const { elements } = await state(window);
      assert.deepEqual(elements.filter((element) => element.role === 'menuitem' && element.name.endsWith(' pad')).map((element) => element.name), ['Copy pad', 'Clear pad']);
      const chosen = await act('click', { window_id: window.id, selector: 'role=menuitem name="Clear pad"' });
      assert.equal(chosen.path, 'x11_atspi', JSON.stringify(chosen));
      assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey !== '')).lastKey, 'context:Clear pad', 'the fixture: the item was chosen');
      assert.equal((await state(window)).elements.filter((element) => element.name === 'Clear pad').length, 0, 'the menu closed with it');

      // A combo box's list is in its popup's top level too: it is read where it belongs, under the combo box, once.
      await act('click', { window_id: window.id, selector: 'role=combobox name=Color', delivery_mode: 'foreground' });
      assert.ok((await oracle.topLevels(window.pid)).some((top) => top.showing && top.items.includes('Green') && top.name !== window.title), 'pyatspi: the list shows in a popup');
      assert.deepEqual((await state(window)).elements.filter((element) => element.name === 'Green').map((element) => element.role), ['menuitem']);
      await act('press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });

      // The keyboard's route to a context menu (shift+F10, the Menu key) on a field: the same lines, and Escape's.
      for (const key of ['shift+F10', 'Menu']) {
        const shown = await act('press_key', { window_id: window.id, selector: 'name="Name field"', key, delivery_mode: 'foreground' });
        const items = (await oracle.topLevels(window.pid)).find((top) => top.name !== window.title && top.showing)?.items ?? [];
        assert.ok(items.includes('Select All'), `pyatspi: ${key} showed the field's menu: ${JSON.stringify(items)}`);
        const line = shown.evidence!.find((text) => text.startsWith('menu opened over the window'));
        assert.ok(line?.includes(`${items.length} items`) && line.includes('"Select All"'), `${key}: ${JSON.stringify(shown.evidence)}`);
        assert.doesNotMatch(shown.evidence!.join('\n'), /other windows/, JSON.stringify(shown.evidence));
        const escaped = await act('press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
        assert.ok(!(await oracle.topLevels(window.pid)).some((top) => top.name !== window.title && top.showing && top.items.includes('Select All')), 'pyatspi: the menu closed');
        assert.ok(escaped.evidence!.some((text) => text.startsWith('menu over the window closed') && text.includes('"Select All"')), JSON.stringify(escaped.evidence));
      }
    } finally {
      process.kill(window.pid);
    }
  });

  test('a multi-column tree view\'s row: a background click selects it alone, and the tree says so in every cell; a double click opens it', async () => {
    // GTK3's tree view takes no DeselectSelectedChild (its Selection has no remove), only its Table's RemoveRowSelection:
    // a click on a file in Thunar's detailed list added it to the folder Thunar had selected, and F2 then renamed both.
    const window = await fixtures.launch('gtk3', { title: 'File List Fixture', rows: 3, extraArgs: ['--file-list'] });
    const selectedCells = async () => (await oracle.selected(window.pid, window.title, 'File list')).sort();
    const selected = async () => [...new Set((await selectedCells()).filter((name) => /^(alpha|beta|gamma)/.test(name)))];
    // The name's cell holds an icon's cell and a text's cell, whose states follow their row without events of their own.
    const selectedSeen = async () => {
      const found = (await callOk(context, 'find_elements', { window_id: window.id, selector: 'name="File list" >> role=cell selected' })).structured as { matches: Element[] };
      return found.matches.map((cell) => cell.name).sort();
    };
    const click = (tool: string, name: string) => callOk(context, tool, { window_id: window.id, selector: `name="File list" >> role=cell name=${JSON.stringify(name)} [index=0]` });
    await click('click', 'beta.txt');
    assert.deepEqual(await selected(), ['beta.txt'], 'pyatspi: the click selected the row');
    await click('click', 'alpha.txt');
    assert.deepEqual(await selected(), ['alpha.txt'], 'pyatspi: the next click selected its row alone');
    assert.deepEqual(await selectedSeen(), ['', '6 bytes', 'alpha.txt', 'alpha.txt'], 'the driver reads every cell of the row selected, the icon\'s and the text\'s inside its name\'s too');
    assert.deepEqual(await selectedSeen(), await selectedCells(), 'pyatspi reads the same');
    assert.equal((await fixtures.status(window)).lastKey, '', 'the fixture: no click opened anything');
    await click('double_click', 'gamma');
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey !== '')).lastKey, 'activated:gamma', 'the fixture: the double click opened gamma');
    assert.deepEqual(await selected(), ['gamma']);
    assert.deepEqual(await selectedSeen(), await selectedCells(), 'pyatspi reads the same cells selected');

    // Ctrl+A selects every row in the background: GTK3's tree view refuses its Selection's SelectAll (and says no
    // MULTISELECTABLE) but takes several rows, added through its Table. Thunar's detailed list read "no effect seen".
    const all = await act('hotkey', { window_id: window.id, selector: 'name="File list"', keys: ['ctrl', 'a'] });
    assert.deepEqual(await selected(), ['alpha.txt', 'beta.txt', 'gamma'], 'pyatspi: every row is selected');
    assert.equal(all.effect, 'confirmed', JSON.stringify(all));
  });
});
