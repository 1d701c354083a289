// A page in a GTK app's WebKitGTK view (the GTK3 fixture's --web-view with --web-page): its objects are on the bus of
// WebKit's web process, which answers no application root, inside a GTK3 window. pyatspi is the judge of the names.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

const page = (name: string) => join(repositoryRoot, 'test', 'fixtures', 'web', name);

describe('a page in a WebKitGTK web view', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The fixture showing the page, once its document is in the tree with what the page holds. */
  async function open(file: string, title: string, ready: (elements: Element[]) => boolean): Promise<{ window: ClientWindow; elements: Element[] }> {
    const window = await fixtures.launch('gtk3', { title, extraArgs: ['--web-view', '--web-page', page(file)] });
    for (const deadline = Date.now() + 15_000; ; await sleep(200)) {
      const { elements } = (await accessibleWindowState(fixtures.context, window, { include_screenshot: false, detail: 'full' })).state;
      if (ready(elements)) return { window, elements };
      assert.ok(Date.now() < deadline, `the page did not show in the tree: ${JSON.stringify(elements.map((each) => `${each.role} "${each.name}"`))}`);
    }
  }

  test('an unnamed icon button is not named by its aria-describedby text: WebKit named it as accname does, from the tool tip too', async () => {
    const { window, elements } = await open('icon-buttons.html', 'WebKit icon buttons', (shown) => shown.some((each) => each.role === 'button' && each.name === 'Bold'));
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    // The page's buttons: those of the web document's subtree (the fixture's own GTK buttons are not the case).
    const at = walked.findIndex((node) => node.role === 'document web');
    const end = walked.findIndex((node, i) => i > at && node.depth <= walked[at]!.depth);
    const expected = walked.slice(at, end < 0 ? undefined : end).filter((node) => node.role === 'push button').map((node) => node.name);
    // The case: WebKit named the titled button by its title and left the described one unnamed.
    assert.ok(expected.includes('Refresh list') && expected.filter((name) => name === '').length === 3, `pyatspi: ${JSON.stringify(expected)}`);
    const inside = (element: Element, box: NonNullable<Element['bounds']>) =>
      element.bounds !== undefined && element.bounds.x >= box.x && element.bounds.y >= box.y && element.bounds.x + element.bounds.w <= box.x + box.w && element.bounds.y + element.bounds.h <= box.y + box.h;
    const documentBox = elements.find((each) => each.role === 'document')?.bounds;
    assert.ok(documentBox, 'the page\'s document is placed');
    const buttons = elements.filter((each) => each.role === 'button' && inside(each, documentBox)).map((each) => each.name ?? '');
    assert.deepEqual(buttons, expected, 'the buttons are named as WebKit names them, none by the help text that describes it');
  });

  test('typing into a page field in the background is refused without advice to relaunch with a debugging port WebKitGTK does not have', async () => {
    const { window, elements } = await open('form.html', 'WebKit form', (shown) => shown.some((each) => each.role === 'textbox' && each.name === 'Full name'));
    const field = elements.find((each) => each.role === 'textbox' && each.name === 'Full name')!;
    const typed = await callOk(fixtures.context, 'type_text', { pid: window.pid, window_id: window.id, element_index: field.index, text: 'Ada' });
    const result = typed.structured as { path: string; escalation?: { recommended: string; reason: string } };
    // WebKitGTK's fields answer no EditableText: nothing goes in the background, and the foreground is the way.
    assert.equal(result.path, 'none', typed.summary);
    assert.equal(result.escalation?.recommended, 'foreground', typed.summary);
    assert.doesNotMatch(result.escalation?.reason ?? '', /debugging/, typed.summary);
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(walked.some((node) => node.role === 'entry' && node.name === 'Full name'), 'pyatspi reads the field');
  });
});
