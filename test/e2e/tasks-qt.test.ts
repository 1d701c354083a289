// One real task per Qt app of the corpus, done the way an agent does it, through the CLI (`cup-driver call`,
// which goes through the daemon, so element indexes of one call resolve in the next), and judged by an
// independent oracle: the file on disk, the config file the app wrote, or Debian's pyatspi.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { delivery, need } from '../helpers/agent.js';
import { corpusApp, eventually, fileContent, withApp, withDocument, taskRig } from '../helpers/task-apps.js';
import { pyatspiWalk } from '../helpers/tools.js';

describe('agent tasks on Qt apps, through the CLI and its daemon', () => {
  const rig = taskRig('cli');

  test('featherpad: type a line and click the Save tool button', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, withDocument('featherpad', 'note.txt', 'first line\n'), async ({ window, home }) => {
      const target = { pid: window.pid, id: window.id };
      const text = (await rig.agent.state(target)).find((element) => element.role === 'textbox' && element.states.includes('focused') && element.states.includes('editable'));
      assert.ok(text, `no focused editable text box\n${rig.agent.trace()}`);
      const typed = await rig.agent.act('type_text', { window_id: window.id, element_index: text.index, text: 'typed by an agent in featherpad\n' });
      // The Save button is enabled once the document is modified; an agent re-reads to see that.
      const save = need(await rig.agent.state(target), 'button', 'Save');
      assert.ok(!save.states.includes('disabled'), `Save is still disabled after typing\n${rig.agent.trace()}`);
      const saved = await rig.agent.act('click', { window_id: window.id, element_index: save.index });
      const path = join(home, 'note.txt');
      const content = await fileContent(path, (written) => written.includes('typed by an agent'));
      assert.equal(content, 'typed by an agent in featherpad\nfirst line\n', `${path}\n${rig.agent.trace()}`);
      return `type_text ${delivery(typed)}, Save ${delivery(saved)}`;
    });
    t.diagnostic(`featherpad: ${how}; ${Date.now() - started} ms`);
  });

  test('featherpad: Save As through the Qt file dialog; no evidence line names an object by a bare number', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, withDocument('featherpad', 'note.txt', 'first line\n'), async ({ window, home }) => {
      const chosen = await rig.agent.call('invoke_menu', { pid: window.pid, window_id: window.id, path: ['File', 'Save As'] });
      assert.ok(chosen.ok, chosen.text);
      // Qt names, then drops, objects while it builds the dialog: gone before they were read back, they were told as
      // 'object 2147483844: name is now "(unreadable)"', which names nothing an agent can find.
      const evidence = (chosen.structured.evidence as string[] | undefined) ?? [];
      assert.ok(!evidence.some((line) => /^object \d+:|\(unreadable\)/.test(line)), `evidence: ${JSON.stringify(evidence, null, 1)}`);
      const dialog = await rig.agent.window(/^Save as/i, { pid: window.pid, except: window.id });
      assert.ok(dialog, `no Save as dialog\n${rig.agent.trace()}`);
      const elements = await rig.agent.state(dialog);
      const path = join(home, 'copy.txt');
      const named = await rig.agent.act('set_value', { window_id: dialog.id, element_index: need(elements, 'textbox', 'File name:').index, value: path });
      const saved = await rig.agent.act('click', { window_id: dialog.id, element_index: need(elements, 'button', 'Save').index });
      const savedEvidence = (saved[0]!.structured.evidence as string[] | undefined) ?? [];
      assert.ok(!savedEvidence.some((line) => /^object \d+:|\(unreadable\)/.test(line)), `evidence: ${JSON.stringify(savedEvidence, null, 1)}`);
      assert.equal(await fileContent(path, (content) => content.length > 0), 'first line\n', `${path}\n${rig.agent.trace()}`);
      return `invoke_menu ${chosen.structured.path}, name ${delivery(named)}, Save ${delivery(saved)}`;
    });
    t.diagnostic(`featherpad Save As: ${how}; ${Date.now() - started} ms`);
  });

  test('speedcrunch: show the keypad from the View menu, click 6 ∗ 7 =; pyatspi reads 42', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('speedcrunch'), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      const ways: string[] = [];
      const view = need(await rig.agent.state(target), 'menuitem', 'View');
      ways.push(delivery(await rig.agent.act('click', { window_id: window.id, element_index: view.index })));
      const keypad = await rig.agent.waitFor(target, 'menuitem', 'Keypad');
      ways.push(delivery(await rig.agent.act('click', { window_id: window.id, element_index: keypad.index })));
      for (const key of ['6', '∗', '7', '=']) {
        const button = await rig.agent.waitFor(target, 'button', key);
        ways.push(delivery(await rig.agent.act('click', { window_id: window.id, element_index: button.index })));
      }
      const texts = await eventually(() => rig.oracle.texts(window.pid, ''), (all) => all.some((text) => /6\s*\*\s*7\s*=\s*42/.test(text)));
      assert.ok(texts.some((text) => /6\s*\*\s*7\s*=\s*42/.test(text)), `pyatspi texts: ${JSON.stringify(texts)}\n${rig.agent.trace()}`);
      return [...new Set(ways)].join(', ');
    });
    t.diagnostic(`speedcrunch: menu and keys ${how}; ${Date.now() - started} ms`);
  });

  test('pcmanfm-qt: select notes.txt in the folder; pyatspi sees it selected', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('pcmanfm-qt'), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      const file = need(await rig.agent.state(target), 'listitem', 'notes.txt');
      const attempts = await rig.agent.act('click', { window_id: window.id, element_index: file.index });
      const selected = await eventually(
        async () => (await pyatspiWalk(window.pid, '', rig.desktop.env())).filter((node) => node.states.includes('selected')).map((node) => node.name),
        (names) => names.includes('notes.txt') && !names.some((name) => /\.(csv|odt|png|md)$/.test(name)),
      );
      assert.ok(selected.includes('notes.txt'), `pyatspi's selected objects: ${JSON.stringify(selected)}\n${rig.agent.trace()}`);
      for (const other of ['budget.csv', 'report.odt', 'photo.png', 'todo.md']) assert.ok(!selected.includes(other), `${other} selected too: ${JSON.stringify(selected)}`);
      return `click ${delivery(attempts)}`;
    });
    t.diagnostic(`pcmanfm-qt: ${how}; ${Date.now() - started} ms`);
  });

  test('qt6ct: choose the Custom palette and Apply; qt6ct.conf says custom_palette=true', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('qt6ct'), async ({ window, home }) => {
      const target = { pid: window.pid, id: window.id };
      const custom = need(await rig.agent.state(target), 'radio', 'Custom');
      assert.ok(!custom.states.includes('checked'), 'Custom is already chosen in a fresh home');
      const chosen = await rig.agent.act('click', { window_id: window.id, element_index: custom.index });
      const apply = need(await rig.agent.state(target), 'button', 'Apply');
      const applied = await rig.agent.act('click', { window_id: window.id, element_index: apply.index });
      const path = join(home, '.config', 'qt6ct', 'qt6ct.conf');
      const conf = await fileContent(path, (written) => /^custom_palette=true$/m.test(written));
      assert.match(conf, /^custom_palette=true$/m, `${path}\n${rig.agent.trace()}`);
      return `radio ${delivery(chosen)}, Apply ${delivery(applied)}`;
    });
    t.diagnostic(`qt6ct: ${how}; ${Date.now() - started} ms`);
  });

  test('qt6ct: pick the Windows style in a combo box; set_value claims only what pyatspi shows, and the foreground route it names sets style=Windows', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('qt6ct'), async ({ window, home }) => {
      const target = { pid: window.pid, id: window.id };
      // Qt names a combo box by the text it shows; its closed popup's items can be toggled through
      // accessibility without the combo box taking the choice.
      const shownCombos = async () => (await pyatspiWalk(window.pid, '', rig.desktop.env())).filter((node) => node.role === 'combo box' && node.states.includes('showing')).map((node) => node.name);
      assert.ok((await shownCombos()).includes('Fusion'), `a fresh home shows the Fusion style: ${JSON.stringify(await shownCombos())}`);
      // The "Style:" label beside the combo box names it; Qt names it by the text it shows.
      const style = need(await rig.agent.state(target), 'combobox', 'Style:');
      assert.equal(style.value, 'Fusion');
      const set = await rig.agent.call('set_value', { window_id: window.id, element_index: style.index, value: 'Windows' });
      const combos = await shownCombos();
      let ways = '';
      if (set.ok) {
        assert.equal(set.structured.effect, 'confirmed', set.text);
        assert.ok(combos.includes('Windows'), `set_value said ${set.text.split('\n')[0]} but pyatspi's combo boxes are ${JSON.stringify(combos)}\n${rig.agent.trace()}`);
        ways = 'set_value';
      } else {
        assert.equal(set.structured.error, 'choice_not_taken', set.text);
        assert.ok(combos.includes('Fusion') && !combos.includes('Windows'), `pyatspi's combo boxes: ${JSON.stringify(combos)}`);
        // The tree says what the combo box shows, not what its popup last had toggled.
        const reread = need(await rig.agent.state(target), 'combobox', 'Style:');
        assert.equal(reread.value, 'Fusion', `the combo box's value after the refused choice\n${rig.agent.trace()}`);
        // The way the error names: the window in front, the combo box and the option clicked for real.
        assert.ok((await rig.agent.call('bring_to_front', { pid: window.pid, window_id: window.id })).ok, rig.agent.trace());
        await rig.agent.act('click', { window_id: window.id, element_index: style.index, delivery_mode: 'foreground' });
        const option = await rig.agent.waitFor(target, 'listitem', 'Windows');
        await rig.agent.act('click', { window_id: window.id, element_index: option.index, delivery_mode: 'foreground' });
        const now = await eventually(shownCombos, (names) => names.includes('Windows'));
        assert.ok(now.includes('Windows'), `pyatspi's combo boxes after the foreground clicks: ${JSON.stringify(now)}\n${rig.agent.trace()}`);
        ways = 'choice_not_taken, then foreground clicks';
      }
      const apply = need(await rig.agent.state(target), 'button', 'Apply');
      await rig.agent.act('click', { window_id: window.id, element_index: apply.index });
      const path = join(home, '.config', 'qt6ct', 'qt6ct.conf');
      const conf = await fileContent(path, (written) => /^style=Windows$/m.test(written));
      assert.match(conf, /^style=Windows$/m, `${path}\n${rig.agent.trace()}`);
      return ways;
    });
    t.diagnostic(`qt6ct combo box: ${how}; ${Date.now() - started} ms`);
  });
});
