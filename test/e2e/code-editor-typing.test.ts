// A code editor changes what keys type into it: the GTK3 fixture's GtkSourceView (--source-view) indents a new line as
// the line before it after each Return, so the spaces typed come on top of its own. Real keys then leave the editor
// holding other text than was typed, and the result says how (which lines it indented), where it said the Return
// "acted on" the text as a form's Return does. Text typed in the background goes in through EditableText, as given.
// pyatspi reads the editor's text. The editor's word list, a popup of its own that it hides when it loses the focus (as
// Geany's), stays open after real keys opened it: the window keeps its activation (pyatspi sees the list showing,
// xprop the window active), where giving the window active before its place back closed the list. Keys that only move
// the caret (ctrl+Home, End) are confirmed by where it went, as pyatspi reads it, where they read "no effect seen". So are
// real clicks in the text: one that puts the caret in a word, a double click selecting a word and a triple click the
// line, each by the selection and caret it leaves (pyatspi's as judge), where they read "no effect seen".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';
import { XReaders } from '../helpers/x-readers.js';

interface Typed {
  effect: string;
  evidence?: string[];
  refuted?: boolean;
}

const title = 'Code editor';
const typed = 'if ready:\n    go()\n    wait()\nend()';

describe('typing into a code editor that auto-indents', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title, extraArgs: ['--source-view'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  const editor = async () => {
    const code = (await fixtures.elements(window)).find((element) => element.name === 'Code');
    assert.ok(code, 'the fixture shows its Code editor');
    return code;
  };

  test('real keys: the lines the editor indented are told, and what it holds', async () => {
    const code = await editor();
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: code.index, value: '' });
    const result = (await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: code.index, text: typed, delivery_mode: 'foreground' })).structured as unknown as Typed;
    const held = (await fixtures.oracle.find(window.pid, title, 'text', 'Code')).text;
    // The editor's own indentation (the line before's: four spaces after "    go()", eight after "        wait()") went
    // before the typed spaces.
    assert.equal(held, 'if ready:\n    go()\n        wait()\n        end()', 'pyatspi reads the auto-indented text');
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.equal(result.refuted, undefined, JSON.stringify(result));
    const evidence = result.evidence ?? [];
    assert.ok(evidence.some((line) => line.includes('changed what they typed: the editor indented lines 3 and 4 otherwise than typed')), JSON.stringify(evidence));
    assert.ok(evidence.some((line) => line.includes(`gained ${JSON.stringify(held)} where ${JSON.stringify(typed)} was typed`)), JSON.stringify(evidence));
    assert.ok(!evidence.some((line) => line.includes('Return press acted on it')), JSON.stringify(evidence));
  });

  test('real keys that open a word list leave it open, the window active', async () => {
    const other = await fixtures.launch('gtk3', { title: 'Other window' });
    const readers = new XReaders(fixtures.desktop.env());
    const code = await editor();
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: code.index, value: '' });
    await readers.activate(other.id);
    const result = (await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: code.index, text: 'x = comp', delivery_mode: 'foreground' })).structured as unknown as Typed;
    assert.equal((await fixtures.oracle.find(window.pid, title, 'text', 'Code')).text, 'x = comp');
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    const popups = (await fixtures.oracle.topLevels(window.pid)).filter((top) => top.role === 'window' && top.showing);
    assert.equal(popups.length, 1, `pyatspi: the word list shows (${JSON.stringify(await fixtures.oracle.topLevels(window.pid))})`);
    assert.equal(await readers.activeWindow(), window.id, 'the editor\'s window stays active');
    assert.ok((result.evidence ?? []).some((line) => line.includes(`window ${window.id} stays active with the popup it opened`)), JSON.stringify(result));
  });

  test('keys that only move the caret are told by where it went', async () => {
    const code = await editor();
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: code.index, value: '    indented\nsecond' });
    const home = (await callOk(fixtures.context, 'press_key', { window_id: window.id, element_index: code.index, key: 'ctrl+Home', delivery_mode: 'foreground' })).structured as unknown as Typed;
    assert.equal((await fixtures.oracle.find(window.pid, title, 'text', 'Code')).caret, 0, 'pyatspi: the caret went to the start');
    assert.equal(home.effect, 'confirmed', JSON.stringify(home));
    assert.ok(home.evidence?.includes(`caret of [e${code.index}] moved: line 2, column 7 → line 1, column 1`), JSON.stringify(home));
    const end = (await callOk(fixtures.context, 'press_key', { window_id: window.id, element_index: code.index, key: 'End', delivery_mode: 'foreground' })).structured as unknown as Typed;
    assert.equal((await fixtures.oracle.find(window.pid, title, 'text', 'Code')).caret, 12, 'pyatspi: the caret went to the end of the line');
    assert.equal(end.effect, 'confirmed', JSON.stringify(end));
    assert.ok(end.evidence?.includes(`caret of [e${code.index}] moved: line 1, column 1 → line 1, column 13`), JSON.stringify(end));
  });

  test('real clicks in the text are told by the caret and the selection they leave', async () => {
    const code = await editor();
    const text = 'alpha beta gamma delta';
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: code.index, value: text });
    // The middle of the character at an offset, in window-local screenshot pixels (pyatspi's screen box of it).
    const at = async (offset: number) => {
      const [x, y, w, h] = await fixtures.oracle.characterExtents(window.pid, title, 'text', 'Code', offset);
      return { x: Math.round(x + w / 2) - window.bounds.x, y: Math.round(y + h / 2) - window.bounds.y };
    };
    await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const gamma = text.indexOf('gamma');
    const double = (await callOk(fixtures.context, 'double_click', { window_id: window.id, ...(await at(gamma + 2)), delivery_mode: 'foreground' })).structured as unknown as Typed;
    assert.deepEqual(await fixtures.oracle.selection(window.pid, title, 'text', 'Code'), [[gamma, gamma + 5]], 'pyatspi: the word is selected');
    assert.equal(double.effect, 'confirmed', JSON.stringify(double));
    assert.ok(double.evidence?.some((line) => line.endsWith(`→ "${gamma}..${gamma + 5}" ("gamma")`)), JSON.stringify(double));
    const beta = text.indexOf('beta');
    const single = (await callOk(fixtures.context, 'click', { window_id: window.id, ...(await at(beta + 1)), delivery_mode: 'foreground' })).structured as unknown as Typed;
    const caret = (await fixtures.oracle.find(window.pid, title, 'text', 'Code')).caret;
    assert.ok(caret === beta + 1 || caret === beta + 2, `pyatspi: the caret is in "beta" (${caret})`);
    assert.deepEqual(await fixtures.oracle.selection(window.pid, title, 'text', 'Code'), [], 'pyatspi: the click left nothing selected');
    assert.equal(single.effect, 'confirmed', JSON.stringify(single));
    assert.ok(single.evidence?.some((line) => line.endsWith(`"${gamma}..${gamma + 5}" → "none"`)), JSON.stringify(single));
    const triple = (await callOk(fixtures.context, 'click', { window_id: window.id, ...(await at(1)), count: 3, delivery_mode: 'foreground' })).structured as unknown as Typed;
    assert.deepEqual(await fixtures.oracle.selection(window.pid, title, 'text', 'Code'), [[0, text.length]], 'pyatspi: the line is selected');
    assert.equal(triple.effect, 'confirmed', JSON.stringify(triple));
    assert.ok(triple.evidence?.some((line) => line.endsWith(`"none" → "0..${text.length}" ("${text}")`)), JSON.stringify(triple));
  });

  test('text typed into an editor without the focus replaces the text selected in it, as real keys do', async () => {
    const code = await editor();
    for (const mode of ['foreground', 'background']) {
      await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: code.index, value: 'alpha beta gamma delta' });
      await fixtures.focus(window, 'Name field');
      assert.deepEqual(await fixtures.oracle.selectText(window.pid, title, 'text', 'Code', 11, 16), [11, 16], 'pyatspi selects "gamma"');
      const result = (await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: code.index, text: 'ZZ', delivery_mode: mode })).structured as unknown as Typed;
      assert.equal((await fixtures.oracle.find(window.pid, title, 'text', 'Code')).text, 'alpha beta ZZ delta', `${mode}: pyatspi reads the word replaced`);
      assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    }
  });

  test('in the background the text goes in as given, as the advice says', async () => {
    const code = await editor();
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: code.index, value: '' });
    const result = (await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: code.index, text: typed })).structured as unknown as Typed;
    assert.equal((await fixtures.oracle.find(window.pid, title, 'text', 'Code')).text, typed);
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.ok(!(result.evidence ?? []).some((line) => line.includes('changed what they typed')), JSON.stringify(result));
  });

  test("an overview map of the editor's text, hidden, is no evidence of typing: its text is the editor's", async () => {
    // Pluma's "Display overview map" off: a GtkSourceMap of the document's buffer stays in the tree, hidden, and typing
    // into the document read '[e121] textbox: text is now "…"' of it, an element no reading shows, beside the document's line.
    const mapped = await fixtures.launch('gtk3', { title: 'Mapped editor', extraArgs: ['--source-view', '--overview-map', 'hidden'] });
    try {
      const code = (await fixtures.elements(mapped)).find((element) => element.name === 'Code');
      assert.ok(code, 'the fixture shows its Code editor');
      for (const mode of ['background', 'foreground'] as const) {
        const result = (await callOk(fixtures.context, 'type_text', { window_id: mapped.id, element_index: code.index, text: `${mode} words`, delivery_mode: mode })).structured as unknown as Typed;
        const texts = (await pyatspiWalk(mapped.pid, mapped.title, fixtures.desktop.env())).filter((node) => node.role === 'text' && node.name !== 'Name field' && node.name !== 'Paste target');
        const held = (await fixtures.oracle.find(mapped.pid, mapped.title, 'text', 'Code')).text;
        assert.ok(held?.endsWith(`${mode} words`), `pyatspi: the editor holds what was typed: ${held}`);
        assert.equal(texts.length, 2, `pyatspi: the editor and its map: ${JSON.stringify(texts)}`);
        assert.ok(texts.some((node) => node.name === '' && !node.states.includes('showing')), `pyatspi: the map is not showing: ${JSON.stringify(texts)}`);
        assert.equal(result.effect, 'confirmed', JSON.stringify(result));
        const evidence = result.evidence ?? [];
        assert.ok(evidence.some((line) => line.startsWith(`text of [e${code.index}]`)), `${mode}: the editor's text is told: ${JSON.stringify(evidence)}`);
        assert.ok(!evidence.some((line) => /textbox: text is now/.test(line)), `${mode}: the map's text is not told again: ${JSON.stringify(evidence)}`);
      }
    } finally {
      process.kill(mapped.pid);
    }
  });
});
