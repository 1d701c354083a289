import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { repositoryRoot, TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element } from '../helpers/tools.js';
import { chromiumOnPage } from '../helpers/web-browser.js';

const page = join(repositoryRoot, 'test', 'fixtures', 'web', 'form.html');
const title = 'CUP Web Form - Chromium';
const objectReplacement = '\uFFFC';

/** A CUP node and all its descendants, in pre-order. */
function subtree(node: CupNode): CupNode[] {
  return [node, ...(node.children ?? []).flatMap(subtree)];
}

/** The active window as the X server's root window says (xprop, an independent reader). */
async function activeWindow(env: NodeJS.ProcessEnv): Promise<number> {
  const { stdout } = await promisify(execFile)('/usr/bin/xprop', ['-root', '_NET_ACTIVE_WINDOW'], { env, timeout: 5000 });
  return Number.parseInt(/window id # (0x[0-9a-f]+)/i.exec(stdout)?.[1] ?? '0', 16);
}

/** The ATK role names pyatspi prints for the AT-SPI roles of the page's controls. */
const pyatspiRoles: Record<string, string> = {
  ROLE_ENTRY: 'entry',
  ROLE_CHECK_BOX: 'check box',
  ROLE_LIST_ITEM: 'list item',
  ROLE_MENU_ITEM: 'menu item',
  ROLE_PUSH_BUTTON: 'push button',
  ROLE_COMBO_BOX: 'combo box',
  ROLE_LINK: 'link',
  ROLE_LIST_BOX: 'list box',
};

// Debian's Chromium (Blink) on a local form: its text fields, check box, list box and drop-down, read and
// driven in the background through AT-SPI, every claim judged by pyatspi. One browser for the whole file.
describe('Chromium: a web form read and driven through AT-SPI', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let browser: ClientWindow;
  let close: (() => Promise<void>) | undefined;

  before(async () => {
    ({ desktop, context, oracle, browser, close } = await chromiumOnPage(page, title));
    // The window maps before the page's tree reaches the bus; wait (bounded) for the form's fields.
    const deadline = Date.now() + 30_000;
    while (!(await elements()).some((element) => element.role === 'textbox' && element.name === 'Full name')) {
      if (Date.now() > deadline) throw new Error('the form never appeared in Chromium\'s accessibility tree');
      await sleep(250);
    }
  });

  after(async () => {
    await close?.();
  });

  async function elements(detail: 'compact' | 'full' = 'compact'): Promise<Element[]> {
    return (await accessibleWindowState(context, browser, { detail, include_screenshot: false }, 30_000)).state.elements;
  }

  async function element(role: string, name: string, detail: 'compact' | 'full' = 'compact'): Promise<Element> {
    const found = (await elements(detail)).find((candidate) => candidate.role === role && candidate.name === name);
    assert.ok(found, `no ${role} "${name}" among the ${detail} tree's elements`);
    return found;
  }

  /** The web document's node of the CUP envelope (the full tree), with the raw AT-SPI facts under platform.linux. */
  async function envelopeDocument(): Promise<CupNode> {
    const { result } = await accessibleWindowState(context, browser, { detail: 'full', format: 'json', include_screenshot: false });
    const document = (JSON.parse(result.body!) as { tree: CupNode[] }).tree.flatMap(subtree).find((node) => node.role === 'document' && node.name === 'CUP Web Form');
    assert.ok(document, 'no web document in our tree');
    return document;
  }

  test('the compact tree shows the text field, check box, options and button with their bounds (as pyatspi reads them) and action codes', async () => {
    const { result } = await accessibleWindowState(context, browser, { include_screenshot: false });
    const lines = result.body!.split('\n');
    const controls: [string, string, string, string][] = [
      ['tbx', 'Full name', 'typ', 'entry'],
      ['chk', 'Wrap as a gift', 'tog', 'check box'],
      ['opt', 'Apple', 'sel', 'list item'],
      ['opt', 'Damson', 'sel', 'list item'],
      ['btn', 'Send order', 'clk', 'push button'],
    ];
    for (const [code, name, action, oracleRole] of controls) {
      const line = lines.find((candidate) => candidate.includes(`${code} "${name}"`));
      assert.ok(line, `no ${code} "${name}" line in the compact tree:\n${result.body}`);
      const match = /"\s(-?\d+),(-?\d+) (\d+)x(\d+)\s.*\[([a-z,]+)\]/.exec(line);
      assert.ok(match, `"${name}" is printed without bounds or action codes: ${line}`);
      assert.ok(match[5]!.split(',').includes(action), `"${name}" lacks the ${action} action code: ${line}`);
      const seen = await oracle.find(browser.pid, title, oracleRole, name);
      assert.ok(seen.found && seen.extents, `pyatspi finds no ${oracleRole} "${name}"`);
      const [x, y, w, h] = seen.extents;
      [x, y, w, h].forEach((value, i) => assert.ok(Math.abs(value - Number(match[i + 1])) <= 2, `bounds of "${name}": ${line} vs pyatspi ${seen.extents}`));
    }
  });

  test('no name or value carries U+FFFC, and the drop-down\'s value is the choice pyatspi sees selected', async () => {
    // The precondition: Blink's own text of the drop-down is a U+FFFC standing for its popup.
    const rawCombo = await oracle.find(browser.pid, title, 'combo box', 'Shipping');
    assert.ok(rawCombo.text?.includes(objectReplacement), `the drop-down's text is ${JSON.stringify(rawCombo.text)}; this test expects Blink's U+FFFC`);
    const all = await elements('full');
    assert.ok(all.length > 100, `only ${all.length} elements in the full tree`);
    for (const shown of all) {
      assert.ok(!shown.name.includes(objectReplacement), `[e${shown.index}] ${shown.role} has U+FFFC in its name ${JSON.stringify(shown.name)}`);
      assert.ok(!(shown.value ?? '').includes(objectReplacement), `[e${shown.index}] ${shown.role} has U+FFFC in its value ${JSON.stringify(shown.value)}`);
    }
    const chosen = (await pyatspiWalk(browser.pid, title, desktop.env())).filter((node) => node.role === 'menu item' && node.states.includes('selected'));
    assert.equal(chosen.length, 1, JSON.stringify(chosen));
    assert.equal(all.find((shown) => shown.role === 'combobox' && shown.name === 'Shipping')?.value, chosen[0]!.name);
  });

  /**
   * Our raw action names of the page's controls against pyatspi's get_action_name(i), object by object
   * (matched by role and name inside the web document, where both are unique; the browser's own UI around
   * it changes on its own while a test runs).
   */
  async function assertActionNamesAgree(): Promise<number> {
    const oracleNodes = await pyatspiWalk(browser.pid, title, desktop.env());
    const start = oracleNodes.findIndex((node) => node.role === 'document web' && node.name === 'CUP Web Form');
    assert.ok(start >= 0, 'pyatspi finds no web document');
    const end = oracleNodes.findIndex((node, i) => i > start && node.depth <= oracleNodes[start]!.depth);
    const oraclePage = oracleNodes.slice(start, end < 0 ? undefined : end);
    let compared = 0;
    for (const node of subtree(await envelopeDocument())) {
      const linux = node.platform?.linux as { atspiRole: string; actions?: string[] } | undefined;
      const oracleRole = linux && pyatspiRoles[linux.atspiRole];
      if (!oracleRole || !node.name) continue;
      const twins = oraclePage.filter((candidate) => candidate.role === oracleRole && candidate.name === node.name);
      assert.equal(twins.length, 1, `pyatspi finds ${twins.length} ${oracleRole} "${node.name}" in the page`);
      assert.ok(twins[0]!.actions.every(Boolean), `pyatspi reads an empty action name on ${oracleRole} "${node.name}"`);
      assert.deepEqual(linux.actions ?? [], twins[0]!.actions, `action names of ${oracleRole} "${node.name}"`);
      compared++;
    }
    return compared;
  }

  test('action names are the ones pyatspi\'s get_action_name(i) reads, none empty', async () => {
    assert.ok((await assertActionNamesAgree()) >= 12, 'too few of the page\'s controls were compared');
  });

  test('a background click on the check box checks it, confirmed, and its action name follows', async () => {
    const box = await element('checkbox', 'Wrap as a gift');
    assert.equal((await oracle.find(browser.pid, title, 'check box', 'Wrap as a gift')).states?.includes('checked'), false);
    const clicked = await callOk(context, 'click', { window_id: browser.id, element_index: box.index });
    assert.equal(clicked.structured.path, 'x11_atspi', clicked.summary);
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.equal((await oracle.find(browser.pid, title, 'check box', 'Wrap as a gift')).states?.includes('checked'), true);
    // Blink now names the action "uncheck": a repeat capture must not keep the name it read before.
    await assertActionNamesAgree();
  });

  test('a background click on an option of the list box selects it, confirmed', async () => {
    const cherry = await element('option', 'Cherry');
    assert.equal((await oracle.find(browser.pid, title, 'list item', 'Cherry')).states?.includes('selected'), false);
    const clicked = await callOk(context, 'click', { window_id: browser.id, element_index: cherry.index });
    assert.equal(clicked.structured.path, 'x11_atspi', clicked.summary);
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.equal((await oracle.find(browser.pid, title, 'list item', 'Cherry')).states?.includes('selected'), true);
  });

  test('a background click on an option of the closed drop-down chooses it, confirmed, and the drop-down shows it', async () => {
    const express = await element('menuitem', 'Express', 'full');
    assert.equal((await oracle.find(browser.pid, title, 'menu item', 'Express')).states?.includes('selected'), false);
    const clicked = await callOk(context, 'click', { window_id: browser.id, element_index: express.index });
    assert.equal(clicked.structured.path, 'x11_atspi', clicked.summary);
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.equal((await oracle.find(browser.pid, title, 'menu item', 'Express')).states?.includes('selected'), true);
    assert.equal((await element('combobox', 'Shipping', 'full')).value, 'Express');
  });

  test('type_text in the background puts the text in the field pyatspi reads, confirmed by the field\'s own text', async () => {
    const field = await element('textbox', 'Full name');
    const typed = await callOk(context, 'type_text', { window_id: browser.id, element_index: field.index, text: 'Ada Lovelace' });
    assert.equal(typed.structured.effect, 'confirmed', typed.summary);
    assert.equal((await oracle.find(browser.pid, title, 'entry', 'Full name')).text, 'Ada Lovelace');
    assert.equal((await element('textbox', 'Full name')).value, 'Ada Lovelace');
  });

  test('a background click on the button runs the page\'s handler with what was chosen, read by pyatspi in the output', async () => {
    const send = await element('button', 'Send order');
    const clicked = await callOk(context, 'click', { window_id: browser.id, element_index: send.index });
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    const expected = 'Sent: Ada Lovelace / Cherry / gift yes';
    for (const deadline = Date.now() + 5000; !(await oracle.texts(browser.pid, title)).includes(expected); await sleep(100)) {
      assert.ok(Date.now() < deadline, `pyatspi never read "${expected}"`);
    }
  });

  test('behind another window: a background click works and leaves it behind; background typing is refused, as Blink reads keys only in the active window, naming the debugging port that would allow it', async () => {
    const cover = (await desktop.launchFixture('gtk3', { title: 'Cover' })).window;
    for (const deadline = Date.now() + 5000; (await activeWindow(desktop.env())) !== cover.id; await sleep(50)) {
      assert.ok(Date.now() < deadline, 'the covering window never became the active one');
    }
    const apple = await element('option', 'Apple');
    const clicked = await callOk(context, 'click', { window_id: browser.id, element_index: apple.index });
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.equal((await oracle.find(browser.pid, title, 'list item', 'Apple')).states?.includes('selected'), true);
    assert.equal(await activeWindow(desktop.env()), cover.id, 'the click raised Chromium');

    const field = await element('textbox', 'Full name');
    const before = (await oracle.find(browser.pid, title, 'entry', 'Full name')).text;
    const typed = await callOk(context, 'type_text', { window_id: browser.id, element_index: field.index, text: 'unseen' });
    assert.equal(typed.structured.path, 'none', typed.summary);
    assert.equal(typed.structured.effect, 'suspected_noop', typed.summary);
    const escalation = typed.structured.escalation as { recommended: string; reason: string };
    assert.equal(escalation.recommended, 'foreground');
    // Without a debugging port there is no DevTools rung: the refusal names the call that relaunches with one.
    assert.match(escalation.reason, /relaunch the browser with a debugging endpoint: launch_app \{"name": "chromium", "electron_debugging_port": 0/);
    const set = await callOk(context, 'set_value', { window_id: browser.id, element_index: field.index, value: 'unseen' });
    assert.equal(set.structured.path, 'none', set.summary);
    assert.match((set.structured.escalation as { reason: string }).reason, /"electron_debugging_port": 0/);
    assert.equal((await oracle.find(browser.pid, title, 'entry', 'Full name')).text, before);
    assert.equal(await activeWindow(desktop.env()), cover.id, 'typing raised Chromium');
  });
});
