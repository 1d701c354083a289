// One real task per LibreOffice app of the corpus, done the way an agent does it through the in-process tool
// registry (the same declarations MCP and the CLI serve), judged by the saved file (Writer) and by pyatspi
// reading the sheet's cells through their table (Calc).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { delivery, need, type Target } from '../helpers/agent.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { corpusApp, eventually, withApp, taskRig } from '../helpers/task-apps.js';
import { pyatspiWalk } from '../helpers/tools.js';

const execFileAsync = promisify(execFile);

/**
 * The texts a pattern captures in one member of a saved zip file (an .odt's content.xml, a .docx's word/document.xml),
 * read by Python's zipfile (not by LibreOffice).
 */
async function savedTexts(path: string, member: string, pattern: string): Promise<string[]> {
  const script = 'import json,re,sys,zipfile\nxml=zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode()\nprint(json.dumps(re.findall(sys.argv[3], xml)))';
  try {
    const { stdout } = await execFileAsync('/usr/bin/python3', ['-c', script, path, member, pattern], { timeout: 10_000 });
    return JSON.parse(stdout) as string[];
  } catch {
    return []; // not written (completely) yet
  }
}

const odtParagraphs = (path: string) => savedTexts(path, 'content.xml', '<text:p[^>]*>(.*?)</text:p>');
const docxRuns = (path: string) => savedTexts(path, 'word/document.xml', '<w:t(?: [^>]*)?>(.*?)</w:t>');

/** The names of the table cells in the app's popup windows shown now (a drop-down's choices), read by pyatspi. */
async function popupTableCells(pid: number, env: NodeJS.ProcessEnv): Promise<string[]> {
  const script = [
    'import json, sys, pyatspi',
    'names = []',
    'def walk(node):',
    '    if node.getRoleName() == "table cell": names.append(node.name)',
    '    for child in node: walk(child)',
    'for app in pyatspi.Registry.getDesktop(0):',
    '    if app and app.get_process_id() == int(sys.argv[1]):',
    '        for top in app:',
    '            if top.getRoleName() == "window" and top.getState().contains(pyatspi.STATE_SHOWING): walk(top)',
    'print(json.dumps(names))',
  ].join('\n');
  const { stdout } = await execFileAsync('/usr/bin/python3', ['-c', script, String(pid)], { env, timeout: 30_000 });
  return JSON.parse(stdout) as string[];
}

/** Cells of the window's sheet by (row, column), read by pyatspi through the table's Table interface. */
async function sheetCells(pid: number, title: string, positions: string[], env: NodeJS.ProcessEnv): Promise<Record<string, { name: string; text: string }>> {
  const script = join(repositoryRoot, 'test', 'fixtures', 'oracle', 'table_cells.py');
  const { stdout } = await execFileAsync('/usr/bin/python3', [script, String(pid), title, ...positions], { env, timeout: 60_000 });
  const reply = JSON.parse(stdout) as { cells?: Record<string, { name: string; text: string }>; error?: string };
  if (!reply.cells) throw new Error(`table_cells.py: ${reply.error}`);
  return reply.cells;
}

describe('agent tasks on LibreOffice, through the tool registry', () => {
  const rig = taskRig('registry');

  /** A first start shows "Tip of the Day" over the document; an agent closes it with its OK button. */
  async function dismissTip(pid: number): Promise<void> {
    const tip = await rig.agent.window(/^Tip of the Day/, { pid, timeoutMs: 20_000 });
    if (!tip) return;
    const ok = need(await rig.agent.state(tip), 'button', 'OK');
    await rig.agent.act('click', { window_id: tip.id, element_index: ok.index });
  }

  test('libreoffice-writer: type a sentence, save it as an .odt through the Save dialog, add a table and type into a cell, save as a .docx (file type and Keep format named with "-")', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('libreoffice-writer'), async ({ window, home }) => {
      await dismissTip(window.pid);
      const main: Target = { pid: window.pid, id: window.id };
      const shown = await rig.agent.state(main);
      const document = need(shown, 'document', /LibreOffice Document/);
      // LibreOffice keeps its own menu bar, 0 pixels high, under the GTK one it draws: pyatspi reads a File menu in each,
      // and the window showed both, the hidden one's over the toolbar. Shown are the File menus of bars with a height.
      const title = (await rig.agent.window(/LibreOffice Writer$/, { pid: window.pid }))!.title;
      const oracle = await pyatspiWalk(window.pid, title, rig.desktop.env());
      const barHeights = oracle.flatMap((node, at) => {
        if (node.role !== 'menu' || node.name !== 'File') return [];
        const bar = oracle.slice(0, at).reverse().find((above) => above.depth === node.depth - 1);
        return bar?.role === 'menu bar' ? [bar.extents?.[3] ?? 0] : [];
      });
      assert.ok(barHeights.includes(0), `pyatspi reads no File menu in a menu bar 0 pixels high: ${JSON.stringify(barHeights)}`);
      assert.equal(
        shown.filter((element) => element.role === 'menuitem' && element.name === 'File').length,
        barHeights.filter((height) => height > 0).length,
        `File menus shown, against pyatspi's menu bars' heights ${JSON.stringify(barHeights)}`,
      );
      const sentence = 'An agent wrote this sentence.';
      const typed = await rig.agent.act('type_text', { window_id: window.id, element_index: document.index, text: sentence });
      const keys = await rig.agent.act('hotkey', { window_id: window.id, keys: ['ctrl', 's'] });
      const dialog = await rig.agent.window(/^Save$/, { pid: window.pid });
      assert.ok(dialog, `no Save dialog after ctrl+s\n${rig.agent.trace()}`);
      const path = join(home, 'letter.odt');
      const name = need(await rig.agent.state(dialog), 'textbox', 'Name:');
      const named = await rig.agent.act('set_value', { window_id: dialog.id, element_index: name.index, value: path });
      const save = need(await rig.agent.state(dialog), 'button', 'Save');
      const saved = await rig.agent.act('click', { window_id: dialog.id, element_index: save.index });
      const paragraphs = await eventually(() => odtParagraphs(path), (found) => found.includes(sentence), 20_000);
      assert.deepEqual(paragraphs, [sentence], `${path}'s paragraphs\n${rig.agent.trace()}`);

      // A table (Table > Insert Table, its default 2 x 2) and a word typed into its first cell. Writer's cells hold the
      // Value 0 whatever they show, and announce it: the evidence read 'cell "A1": value is now "0"' of a cell showing
      // "Name". A value the evidence tells of the cell is the text the saved file holds.
      const tableKeys = await rig.agent.act('hotkey', { window_id: window.id, keys: ['ctrl', 'F12'] });
      const insertTable = await rig.agent.window(/^Insert Table$/, { pid: window.pid });
      assert.ok(insertTable, `no Insert Table dialog after ctrl+F12\n${rig.agent.trace()}`);
      await rig.agent.act('click', { window_id: insertTable.id, element_index: need(await rig.agent.state(insertTable), 'button', 'Insert').index });
      const cellText = await rig.agent.freshly(async () => {
        const found = await rig.agent.call('find_elements', { window_id: window.id, selector: 'role=cell name=A1 >> role=textbox' });
        const [field] = found.structured.matches as { index: number }[];
        assert.ok(field, `no text field in cell A1\n${rig.agent.trace()}`);
        return rig.agent.act('type_text', { window_id: window.id, element_index: field.index, text: 'Name' });
      });
      const cellEvidence = cellText.flatMap((attempt) => (attempt.structured.evidence as string[] | undefined) ?? []);
      assert.deepEqual(cellEvidence.filter((line) => /cell "A1": value is now/.test(line) && !line.includes('value is now "Name"')), [], JSON.stringify(cellEvidence));

      // Save As Word. LibreOffice spells the file type "Word 2007–365 (.docx)" and its question's button "Use Word
      // 2007–365 Format!" with an en dash; an agent types "-", and got no_such_option listing the same-looking name.
      const saveAs = await rig.agent.act('hotkey', { window_id: window.id, keys: ['ctrl', 'shift', 's'] });
      const asDialog = await rig.agent.window(/^Save$/, { pid: window.pid });
      assert.ok(asDialog, `no Save dialog after ctrl+shift+s\n${rig.agent.trace()}`);
      const asElements = await rig.agent.state(asDialog);
      const fileType = need(asElements, 'combobox', /\(\.odt\)$/);
      const typeChosen = await rig.agent.act('set_value', { window_id: asDialog.id, element_index: fileType.index, value: 'Word 2007-365 (.docx)' });
      const docx = join(home, 'letter.docx');
      await rig.agent.act('set_value', { window_id: asDialog.id, element_index: need(asElements, 'textbox', 'Name:').index, value: docx });
      await rig.agent.act('click', { window_id: asDialog.id, element_index: need(asElements, 'button', 'Save').index });
      const question = await rig.agent.call('wait_for', { pid: window.pid, window_title: 'file format', timeout_ms: 15_000 });
      assert.ok(question.ok, `no Keep format question\n${rig.agent.trace()}`);
      const questionId = (question.structured.windows as { window_id: number }[])[0]!.window_id;
      const kept = await rig.agent.act('click', { window_id: questionId, selector: 'role=button name^="Use Word 2007-365"' });
      const runs = await eventually(() => docxRuns(docx), (found) => found.includes(sentence), 20_000);
      assert.deepEqual(runs, [sentence, 'Name'], `${docx}'s text runs\n${rig.agent.trace()}`);
      return `type_text ${delivery(typed)}, ctrl+s ${delivery(keys)}, file name ${delivery(named)}, Save ${delivery(saved)}; ctrl+F12 ${delivery(tableKeys)}, cell ${delivery(cellText)}; ctrl+shift+s ${delivery(saveAs)}, file type ${delivery(typeChosen)}, Keep format ${delivery(kept)}`;
    });
    t.diagnostic(`libreoffice-writer: ${how}; ${Date.now() - started} ms`);
  });

  test('libreoffice-writer: a heading styled through the Paragraph Style box reads as a heading, Bold clicked in the foreground in a window the pointer never entered is pressed, and the .odt holds the heading, two paragraphs and the bold word', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('libreoffice-writer'), async ({ window, home }) => {
      await dismissTip(window.pid);
      // A second document opened with the pointer parked outside its window: LibreOffice places its toolbars for
      // accessibility 25 pixels too high (above its GTK menu bar) until the pointer first enters the window, and a
      // foreground click on Bold, placed so, landed on the Standard toolbar's separator and read "no effect seen".
      const first = (await rig.agent.window(/LibreOffice Writer$/, { pid: window.pid }))!;
      const env = rig.desktop.env();
      const { stdout: geometry } = await execFileAsync('xdotool', ['getdisplaygeometry'], { env });
      const [screenW, screenH] = geometry.trim().split(/\s+/).map(Number) as [number, number];
      const listed = (await rig.agent.call('list_windows', { pid: window.pid })).structured.windows as { window_id: number; bounds: { x: number; y: number; w: number; h: number } }[];
      const box = listed.find((each) => each.window_id === first.id)!.bounds;
      const outside = box.y > 2 ? [box.x + 10, box.y - 2] : box.x + box.w < screenW - 2 ? [screenW - 2, box.y + 10] : box.y + box.h < screenH - 2 ? [box.x + 10, screenH - 2] : undefined;
      assert.ok(outside, `a point of the screen outside ${JSON.stringify(box)}`);
      await execFileAsync('xdotool', ['mousemove', String(outside[0]), String(outside[1])], { env });
      await rig.agent.act('invoke_menu', { window_id: first.id, path: ['File', 'New', 'Text Document'] });
      const second = await rig.agent.window(/^Untitled 2 - LibreOffice Writer$/, { pid: window.pid });
      assert.ok(second, `no second document\n${rig.agent.trace()}`);
      const doc: Target = { pid: window.pid, id: second.id };
      await rig.agent.state(doc);
      const style = (await rig.agent.call('find_elements', { window_id: doc.id, selector: 'name="Paragraph Style" >> role=textbox' })).structured.matches as { index: number }[];
      const apply = (name: string) =>
        rig.agent.call('run_actions', {
          window_id: doc.id,
          steps: [
            { tool: 'set_value', arguments: { element_index: style[0]!.index, value: name } },
            { tool: 'press_key', arguments: { element_index: style[0]!.index, key: 'return' } },
          ],
        });
      await apply('Heading 1');
      // The Return moves the caret into a new paragraph, an object of its own: the heading holding only the first line is
      // no rewriting of the typed text. The evidence had said 'a Return typed on line 1 made no line break'.
      const lines = await rig.agent.act('type_text', { window_id: doc.id, text: 'Quarterly Report\nThe first paragraph has a ', delivery_mode: 'foreground' });
      assert.doesNotMatch(lines.at(-1)!.text, /made no line break|changed what they typed/, lines.at(-1)!.text);
      assert.match(lines.at(-1)!.text, /moved the keyboard focus to another object/, lines.at(-1)!.text);
      const bold = await rig.agent.act('click', { window_id: doc.id, selector: 'role=button name=Bold', delivery_mode: 'foreground' });
      assert.equal(bold.at(-1)!.effect, 'confirmed', `Bold pressed\n${rig.agent.trace()}`);
      await rig.agent.act('type_text', { window_id: doc.id, text: 'bold', delivery_mode: 'foreground' });
      await rig.agent.act('click', { window_id: doc.id, selector: 'role=button name=Bold', delivery_mode: 'foreground' });
      await rig.agent.act('type_text', { window_id: doc.id, text: ' word.\nThe second paragraph.', delivery_mode: 'foreground' });
      // The heading, read as one: LibreOffice turns the paragraph into a heading in place (announcing its new role),
      // and the window's mirror read it as the paragraph it had been, with no level.
      const heading = await rig.agent.call('find_elements', { window_id: doc.id, selector: 'role=heading' });
      assert.deepEqual((heading.structured.matches as { name: string }[]).map((match) => match.name), ['Quarterly Report'], heading.text);

      await rig.agent.act('hotkey', { window_id: doc.id, keys: ['ctrl', 's'] });
      const dialog = await rig.agent.window(/^Save$/, { pid: window.pid });
      assert.ok(dialog, `no Save dialog after ctrl+s\n${rig.agent.trace()}`);
      const path = join(home, 'report.odt');
      await rig.agent.act('set_value', { window_id: dialog.id, selector: 'role=textbox name=Name:', value: path });
      await rig.agent.act('click', { window_id: dialog.id, selector: 'role=button name=Save' });
      const keep = await rig.agent.call('wait_for', { pid: window.pid, window_title: 'file format', timeout_ms: 3_000 });
      if (keep.ok) await rig.agent.act('click', { window_id: (keep.structured.windows as { window_id: number }[])[0]!.window_id, selector: 'role=button name^="Use ODF"' });
      // The file's own structure: the heading (text:h, level 1), the paragraphs, and "bold" in a span of a bold style.
      const content = await eventually(() => savedTexts(path, 'content.xml', '(?s)^(.*)$'), (found) => found.length > 0 && found[0]!.includes('second paragraph'), 20_000);
      const xml = content[0] ?? '';
      assert.match(xml, /<text:h [^>]*text:outline-level="1"[^>]*>Quarterly Report<\/text:h>/, xml);
      // Only "bold" is in a span whose automatic style sets a bold weight (the click that ended it may leave the rest of
      // the text in a span of a normal weight).
      const boldStyles = [...xml.matchAll(/<style:style style:name="([^"]+)"[^>]*>\s*<style:text-properties [^>]*fo:font-weight="bold"/g)].map((match) => match[1]);
      const boldRuns = [...xml.matchAll(/<text:span text:style-name="([^"]+)">([^<]*)<\/text:span>/g)].filter((match) => boldStyles.includes(match[1])).map((match) => match[2]);
      assert.deepEqual(boldRuns, ['bold'], xml);
      const paragraphs = (await odtParagraphs(path)).map((paragraph) => paragraph.replace(/<[^>]+>/g, ''));
      assert.deepEqual(paragraphs, ['The first paragraph has a bold word.', 'The second paragraph.']);
      return `Bold ${delivery(bold)}`;
    });
    t.diagnostic(`libreoffice-writer heading: ${how}; ${Date.now() - started} ms`);
  });

  test('libreoffice-calc: 6 in A1, 7 in B1, =A1*B1 in C1 (set_value of the formula names the typing route); pyatspi reads 42 in C1; the Sort dialog\'s drop-down shows its choices', async (t) => {
    const started = Date.now();
    const how = await withApp(rig.desktop, corpusApp('libreoffice-calc'), async ({ window }) => {
      await dismissTip(window.pid);
      const main: Target = { pid: window.pid, id: window.id };
      const ways: string[] = [];
      for (const [cell, entry] of [['A1', '6'], ['B1', '7'], ['C1', '=A1*B1']] as const) await rig.agent.freshly(async () => {
        // Re-read before each cell: the first-start info bar moves the sheet down a moment after it opens.
        const target = need(await rig.agent.state(main), 'cell', cell);
        if (entry.startsWith('=')) {
          // A cell's Value takes numbers only, and it has no EditableText: set_value of a formula said only "takes a
          // number". It names the route the loop takes next.
          const refused = await rig.agent.call('set_value', { window_id: window.id, element_index: target.index, value: entry });
          assert.equal(refused.ok, false, refused.text);
          assert.match(refused.text, /takes a number[\s\S]*click it with delivery_mode "foreground", text "=A1\*B1" and press_key "return"/, refused.text);
        }
        // A background click selects the cell through accessibility, but LibreOffice's cell cursor (where typed
        // keys go) stays put, so the agent clicks with real input here (reported as a driver gap).
        ways.push(delivery(await rig.agent.act('click', { window_id: window.id, element_index: target.index, delivery_mode: 'foreground' })));
        ways.push(delivery(await rig.agent.act('type_text', { window_id: window.id, text: `${entry}\n` })));
      });
      const title = (await rig.agent.window(/LibreOffice Calc$/, { pid: window.pid }))!.title;
      const cells = await eventually(() => sheetCells(window.pid, title, ['0,0', '0,1', '0,2'], rig.desktop.env()), (read) => read['0,2']?.text === '42');
      assert.deepEqual(
        Object.values(cells).map((cell) => `${cell.name}=${cell.text}`),
        ['A1=6', 'B1=7', 'C1=42'],
        rig.agent.trace(),
      );

      // Data > Sort, and its first sort key's drop-down opened. LibreOffice shows the choices in a popup window of
      // their own, a table in it, and the tree held none of them: they are read over the dialog, as pyatspi reads them.
      await rig.agent.act('click', { window_id: window.id, selector: 'role=menuitem name=Data' });
      await rig.agent.act('click', { window_id: window.id, selector: 'role=menuitem name="Sort..."' });
      const sort = await rig.agent.window(/^Sort$/, { pid: window.pid });
      assert.ok(sort, `no Sort dialog\n${rig.agent.trace()}`);
      await rig.agent.act('click', { window_id: sort.id, selector: 'name="Sort Key 1" >> role=button' });
      const popupCells = await eventually(() => popupTableCells(window.pid, rig.desktop.env()), (names) => names.length > 0);
      const shown = await rig.agent.call('wait_for', { window_id: sort.id, selector: `role=cell name="${popupCells[0]}"`, timeout_ms: 10_000 });
      assert.ok(shown.ok, `the drop-down's choices ${JSON.stringify(popupCells)} are not in the Sort dialog's tree\n${shown.text}`);
      const listed = await rig.agent.call('find_elements', { window_id: sort.id, selector: 'role=cell' });
      assert.deepEqual((listed.structured.matches as { name: string }[]).map((cell) => cell.name), popupCells, rig.agent.trace());
      return [...new Set(ways)].join(', ');
    });
    t.diagnostic(`libreoffice-calc: ${how}; ${Date.now() - started} ms`);
  });
});
