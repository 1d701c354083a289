// One real task per GTK app of the corpus, done the way an agent does it (read the window, pick elements by
// role and name, act, re-read) over the official MCP client SDK against `cup-driver mcp`, and judged by an
// independent oracle: the file on disk, Debian's pyatspi, or the X server's window list (xwininfo).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { delivery, need } from '../helpers/agent.js';
import { corpusApp, eventually, fileContent, withApp, withDocument, taskRig } from '../helpers/task-apps.js';
import { pyatspiWalk, type Element } from '../helpers/tools.js';

const execFileAsync = promisify(execFile);

const editableText = (elements: Element[]) => {
  const text = elements.find((element) => element.role === 'textbox' && element.states.includes('editable') && element.states.includes('focused'));
  assert.ok(text, `no focused editable text box among ${elements.filter((element) => element.role === 'textbox').length} text boxes`);
  return text;
};

/** The ids of the windows titled `title`, other than `except`, read from the X server by xwininfo (not by the driver). */
async function xWindowsTitled(env: NodeJS.ProcessEnv, title: string, except: number): Promise<number[]> {
  const { stdout } = await execFileAsync('xwininfo', ['-root', '-tree'], { env, timeout: 10_000, maxBuffer: 16 << 20 });
  return [...stdout.matchAll(/^\s+(0x[0-9a-f]+) "([^"]*)"/gm)]
    .filter((match) => match[2] === title)
    .map((match) => Number(match[1]))
    .filter((id) => id !== except);
}

describe('agent tasks on GTK apps, over MCP', () => {
  const rig = taskRig('mcp');

  /** A text editor opened on a file: type a line at the caret, save, and read the file back. */
  async function typeAndSave(id: string, save: (window: { pid: number; id: number }, elements: Element[]) => Promise<string>): Promise<string> {
    return withApp(rig.desktop, withDocument(id, 'note.txt', 'first line\n'), async ({ window, home }) => {
      const target = { pid: window.pid, id: window.id };
      const text = editableText(await rig.agent.state(target));
      const typed = await rig.agent.act('type_text', { window_id: window.id, element_index: text.index, text: `typed by an agent in ${id}\n` });
      const how = await save(target, await rig.agent.state(target));
      const path = join(home, 'note.txt');
      const content = await fileContent(path, (saved) => saved.includes('typed by an agent'));
      assert.equal(content, `typed by an agent in ${id}\nfirst line\n`, `${path} after the save\n${rig.agent.trace()}`);
      return `type_text ${delivery(typed)}, save ${how}`;
    });
  }

  const saveByKeys = async (window: { pid: number; id: number }) => delivery(await rig.agent.act('hotkey', { window_id: window.id, keys: ['ctrl', 's'] }));

  test('gedit: type a line and click Save', async (t) => {
    const started = Date.now();
    const how = await typeAndSave('gedit', async (window, elements) => {
      const save = need(elements, 'button', 'Save');
      return `button ${delivery(await rig.agent.act('click', { window_id: window.id, element_index: save.index }))}`;
    });
    t.diagnostic(`gedit: ${how}; ${Date.now() - started} ms`);
  });

  test('mousepad: type a line and save with ctrl+s', async (t) => {
    const started = Date.now();
    const how = await typeAndSave('mousepad', saveByKeys);
    t.diagnostic(`mousepad: ${how}; ${Date.now() - started} ms`);
  });

  test('gnome-text-editor: type a line and save with ctrl+s', async (t) => {
    const started = Date.now();
    const how = await typeAndSave('gnome-text-editor', saveByKeys);
    t.diagnostic(`gnome-text-editor: ${how}; ${Date.now() - started} ms`);
  });

  test('gnome-text-editor: Save As through its dialog; the click on Save is confirmed by the dialog closing, and the file is written', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, withDocument('gnome-text-editor', 'note.txt', 'first line\n'), async ({ window, home }) => {
      // Real keys: a background hotkey to GTK 4 was at times sent as X key events it ignores and judged no effect
      // without advice to go foreground (not what this test is about; noted in the issue).
      const opened = await rig.agent.act('hotkey', { window_id: window.id, keys: ['ctrl', 'shift', 's'], delivery_mode: 'foreground' });
      const dialog = await rig.agent.window(/^Save As$/, { pid: window.pid, except: window.id });
      assert.ok(dialog, `no Save As dialog\n${rig.agent.trace()}`);
      const elements = await rig.agent.state(dialog);
      const name = elements.find((element) => element.role === 'textbox' && element.states.includes('editable'));
      assert.ok(name, `no file name field in the dialog\n${rig.agent.trace()}`);
      const path = join(home, 'copy.txt');
      const named = await rig.agent.act('set_value', { window_id: dialog.id, element_index: name.index, value: path });
      // GTK 4 marks its dialog only transient for the window (not modal) and closes it about 600 ms after Save, with
      // no event before: an action result read at 400 ms said "no effect seen" and told the agent to click again.
      const save = await rig.agent.call('click', { window_id: dialog.id, element_index: need(elements, 'button', 'Save').index });
      assert.ok(save.ok, save.text);
      assert.equal(save.structured.effect, 'confirmed', `${save.text}\n${rig.agent.trace()}`);
      assert.match(save.text, /"Save As" closed/, save.text);
      assert.equal(await fileContent(path, (content) => content.length > 0), 'first line\n', `${path} after Save\n${rig.agent.trace()}`);
      return `hotkey ${delivery(opened)}, name ${delivery(named)}, Save ${save.structured.path}/${save.structured.effect}`;
    });
    t.diagnostic(`gnome-text-editor Save As: ${how}; ${Date.now() - started} ms`);
  });

  test('gnome-text-editor: invoke_menu through its header bar\'s Menu button opens Keyboard Shortcuts, which comes back in new_windows with what it holds', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, withDocument('gnome-text-editor', 'note.txt', 'first line\n'), async ({ window }) => {
      // The cases: invoke_menu followed menu bars only (this window has none), and the window the entry opened, which
      // GTK 4 fills after its object registers, came back as an empty window.
      const chosen = await rig.agent.call('invoke_menu', { window_id: window.id, path: ['Menu', 'Keyboard Shortcuts'] });
      assert.ok(chosen.ok, chosen.text);
      assert.equal(chosen.structured.effect, 'confirmed', chosen.text);
      const opened = (chosen.structured.new_windows as { window_id: number; tree?: string }[] | undefined) ?? [];
      assert.equal(opened.length, 1, chosen.text);
      // The oracles: the X server lists the window, and pyatspi reads a shortcut's words in it.
      const { stdout } = await execFileAsync('xwininfo', ['-root', '-tree'], { env: rig.desktop.env(), timeout: 10_000, maxBuffer: 16 << 20 });
      assert.ok(stdout.includes(`0x${opened[0]!.window_id.toString(16)} `), `xwininfo lists window ${opened[0]!.window_id}`);
      // The app's newest top-level object is the window opened (GTK 4.8 names it by its type).
      const tops = await rig.oracle.topLevels(window.pid);
      assert.equal(tops.length, 2, JSON.stringify(tops));
      const texts = await eventually(() => rig.oracle.texts(window.pid, tops[1]!.name), (all) => all.includes('New document'));
      assert.ok(texts.includes('New document'), `pyatspi: ${JSON.stringify(texts.slice(0, 20))}`);
      assert.match(opened[0]!.tree ?? '', /txt "New document"/, chosen.text);
      return `invoke_menu ${chosen.structured.path}/${chosen.structured.effect}`;
    });
    t.diagnostic(`gnome-text-editor Keyboard Shortcuts: ${how}; ${Date.now() - started} ms`);
  });

  /** Clicks the keys of 6 × 7 = by their names and lets pyatspi read the display. */
  async function multiply(id: string, times: string): Promise<string> {
    return withApp(rig.desktop, corpusApp(id), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      const ways: string[] = [];
      for (const key of ['6', times, '7', '=']) {
        const button = need(await rig.agent.state(target), 'button', key);
        ways.push(delivery(await rig.agent.act('click', { window_id: window.id, element_index: button.index })));
      }
      const texts = await eventually(() => rig.oracle.texts(window.pid, ''), (all) => all.some((text) => /^42\b|= 42$/.test(text.trim())));
      assert.ok(texts.some((text) => /^42\b|= 42$/.test(text.trim())), `pyatspi texts: ${JSON.stringify(texts)}\n${rig.agent.trace()}`);
      return `clicks ${[...new Set(ways)].join(', ')}`;
    });
  }

  test('galculator: 6 * 7 = by clicking its keys; pyatspi reads 42', async (t) => {
    const started = Date.now();
    t.diagnostic(`galculator: ${await multiply('galculator', '*')}; ${Date.now() - started} ms`);
  });

  test('gnome-calculator: 6 × 7 = by clicking its keys; pyatspi reads 42', async (t) => {
    const started = Date.now();
    t.diagnostic(`gnome-calculator: ${await multiply('gnome-calculator', '×')}; ${Date.now() - started} ms`);
  });

  test('pcmanfm: select notes.txt in the folder; pyatspi sees it selected', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('pcmanfm'), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      const file = need(await rig.agent.state(target), await fileRole(target), 'notes.txt');
      const attempts = await rig.agent.act('click', { window_id: window.id, element_index: file.index });
      const selected = await eventually(
        async () => (await pyatspiWalk(window.pid, '', rig.desktop.env())).filter((node) => node.states.includes('selected')).map((node) => node.name),
        (names) => names.includes('notes.txt'),
      );
      assert.ok(selected.includes('notes.txt'), `pyatspi's selected objects: ${JSON.stringify(selected)}\n${rig.agent.trace()}`);
      for (const other of ['budget.csv', 'report.odt', 'todo.md']) assert.ok(!selected.includes(other), `${other} selected too: ${JSON.stringify(selected)}`);
      return `click ${delivery(attempts)}`;
    });
    t.diagnostic(`pcmanfm: ${how}; ${Date.now() - started} ms`);
  });

  /** The role the folder view gives its files (cells in the list view, icons or list items elsewhere). */
  async function fileRole(target: { pid: number; id: number }): Promise<string> {
    const elements = await rig.agent.state(target);
    const file = elements.find((element) => element.name === 'notes.txt' && element.role !== 'menuitem');
    assert.ok(file, `notes.txt is not among the shown elements\n${rig.agent.trace()}`);
    return file.role;
  }

  /** Picks a demo in the list, runs it, and waits for its window on the X server. */
  async function runDemo(id: string, demo: string, rowRole: string): Promise<string> {
    return withApp(rig.desktop, corpusApp(id), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      // The main window takes the selected demo's title; the demo's own window is another one.
      assert.deepEqual(await xWindowsTitled(rig.desktop.env(), demo, window.id), [], `a "${demo}" window before the demo ran`);
      const row = need(await rig.agent.state(target), rowRole, demo);
      const selected = await rig.agent.act('click', { window_id: window.id, element_index: row.index });
      const run = await rig.agent.waitFor(target, 'button', 'Run');
      const ran = await rig.agent.act('click', { window_id: window.id, element_index: run.index });
      const demoWindows = await eventually(() => xWindowsTitled(rig.desktop.env(), demo, window.id), (ids) => ids.length > 0);
      assert.ok(demoWindows.length > 0, `no X window titled "${demo}" besides the main window\n${rig.agent.trace()}`);
      return `row ${delivery(selected)}, Run ${delivery(ran)}`;
    });
  }

  test('gtk3-demo: select the Clipboard demo and Run it; its window maps', async (t) => {
    const started = Date.now();
    t.diagnostic(`gtk3-demo: ${await runDemo('gtk3-demo', 'Clipboard', 'cell')}; ${Date.now() - started} ms`);
  });

  test('gtk4-demo: select the Clipboard demo and Run it; its window maps', async (t) => {
    const started = Date.now();
    t.diagnostic(`gtk4-demo: ${await runDemo('gtk4-demo', 'Clipboard', 'listitem')}; ${Date.now() - started} ms`);
  });
});
