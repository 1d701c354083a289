// What a new user met in desktop apps the suite had not tried: KCharSelect (KDE, Qt 5), searched for a character and
// copied it, its To Clipboard reproduced on the PyQt5 fixture (--copy-button). The oracles are Debian's pyatspi,
// reading the same objects from the bus, and xclip, reading the clipboard.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resultText } from '../../src/tools/call-result.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { eventually } from '../helpers/task-apps.js';
import { callOk, pyatspiWalk, type OracleNode } from '../helpers/tools.js';
import { XReaders } from '../helpers/x-readers.js';

describe('Debian desktop apps tried anew (10): KCharSelect', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The names of the items of the combo box pyatspi lists right after `combo` (its list's items, depth below it). */
  function itemsOf(nodes: readonly OracleNode[], combo: OracleNode): string[] {
    const at = nodes.indexOf(combo);
    const end = nodes.findIndex((node, i) => i > at && node.depth <= combo.depth);
    return nodes.slice(at + 1, end < 0 ? undefined : end).filter((node) => node.role === 'list item').map((node) => node.name);
  }

  test("a search that replaces the closed block list's choices: the summary tells the blocks gone in one line, as pyatspi counts them, and keeps room for the cells gone", async () => {
    // A home of its own: KCharSelect comes back to the block and the search its last run left.
    const home = await mkdtemp(join(tmpdir(), 'cup-deskapps10-home-'));
    const { process, window } = await fixtures.desktop.launch('/usr/bin/kcharselect', [], 'KCharSelect', 20_000, { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') });
    try {
      const walked = () => pyatspiWalk(window.pid, '', fixtures.desktop.env());
      const blockList = (nodes: readonly OracleNode[]) => nodes.filter((node) => node.role === 'combo box')[1]!;
      const before = await walked();
      const blocksBefore = itemsOf(before, blockList(before));
      assert.ok(blocksBefore.includes('Basic Latin') && blocksBefore.length > 10, `pyatspi: the block list holds the Latin blocks: ${blocksBefore.join(', ')}`);
      await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const typed = await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: 'role=textbox name="Enter a search term or character here"', text: 'snowman' });
      assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
      const now = await eventually(walked, (nodes) => itemsOf(nodes, blockList(nodes)).includes('Miscellaneous Symbols'));
      const gone = blocksBefore.filter((name) => !itemsOf(now, blockList(now)).includes(name));
      assert.ok(gone.length >= 4, `pyatspi: the search took blocks from the list: ${gone.join(', ')}`);
      const text = resultText(typed);
      const lines = text.split('\n');
      const told = lines.find((line) => line.startsWith(`- ${gone.length} items gone from the closed menu [e`));
      assert.ok(told, `one line tells the ${gone.length} blocks gone: ${text}`);
      assert.match(told, /cmb "Miscellaneous Symbols"/, 'named as the combo box reads now');
      assert.ok(!lines.some((line) => /^- li "Latin/.test(line)), `no line of its own for a Latin block gone: ${text}`);
      assert.ok(lines.some((line) => /^- cel /.test(line)), `the cells gone from the table are told too: ${text}`);
    } finally {
      process.kill();
      await rm(home, { recursive: true, force: true });
    }
  });

  test("a button that only puts text on the clipboard: the click is confirmed by the clipboard taken, and says what it holds, as xclip reads it", async () => {
    const window = await fixtures.launch('qt5', { title: 'Qt Copy', extraArgs: ['--copy-button'] });
    const x = new XReaders(fixtures.desktop.env());
    for (const count of [1, 2]) {
      // The second click finds the clipboard owned by the app already: Qt takes it again all the same.
      const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Copy code"' });
      assert.equal((await x.clipboardBytes())?.toString('utf8'), `code ${count}`, 'xclip: the click put the code on the clipboard');
      const result = clicked.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', resultText(clicked));
      assert.ok(result.evidence?.includes(`the app put "code ${count}" on the clipboard`), JSON.stringify(result.evidence));
    }
    // Watches overlapping (actions of two sessions at once): one ending leaves the other hearing.
    const [first, second] = [await fixtures.context.desktop.watchClipboardTakes(), await fixtures.context.desktop.watchClipboardTakes()];
    await first.close();
    // Taken by xclip, outside any action (whose own watch would select the events again).
    const xclip = await x.ownClipboard(Buffer.from('taken by xclip'));
    try {
      assert.equal((await second.takers()).length, 1, 'the watch still open heard xclip take the clipboard');
    } finally {
      xclip.stop();
      await second.close();
    }
    // The driver's own clipboard_write is no take by the app: a click that copies nothing says nothing of it.
    await callOk(fixtures.context, 'clipboard_write', { text: 'mine' });
    const other = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Line 1"' });
    assert.ok(!(other.structured as unknown as ActionResult).evidence?.some((line) => line.includes('clipboard')), resultText(other));
    assert.equal((await x.clipboardBytes())?.toString('utf8'), 'mine', 'xclip: the clipboard still holds what was written');
  });
});
