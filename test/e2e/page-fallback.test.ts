// A browser started without a debugging port: execute_javascript is refused with the way to relaunch, and
// get_text and query_dom (tag selectors) answer from the accessibility tree, judged by pyatspi.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { launchBrowser, pageUrl, stopBrowser, type Launched } from '../helpers/page-suite.js';
import { callOk, failsWith, testContext } from '../helpers/tools.js';

describe('page on a Chromium without a debugging port', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let page: Launched;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    page = await launchBrowser(context, 'chromium', { urls: [pageUrl('page-actions.html')], additional_arguments: ['--disable-gpu'] }, 'CUP Page Actions');
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await stopBrowser(page);
    await desktop?.stop();
  });

  test('launch_app opened no port, and execute_javascript is refused with how to relaunch', async () => {
    assert.equal(page.structured.debugging_port, undefined);
    assert.equal(page.structured.page_ready, true);
    const refused = await failsWith(context, 'page', { window_id: page.windowId, action: 'execute_javascript', javascript: '1' }, 'no_debugging_endpoint');
    assert.match(refused.summary, /launch_app .*"electron_debugging_port": 0/);
    await failsWith(context, 'page', { window_id: page.windowId, action: 'click_element', selector: '#count' }, 'no_debugging_endpoint');
  });

  test('get_text reads the page from the accessibility tree', async () => {
    const result = await callOk(context, 'page', { window_id: page.windowId, action: 'get_text' });
    assert.equal(result.structured.via, 'accessibility');
    const texts = await oracle.texts(page.pid, page.title);
    for (const expected of ['Page actions', 'Count clicks', 'clicks=0']) {
      assert.ok(texts.some((text) => text.includes(expected)), `pyatspi reads no "${expected}"`);
      assert.match(result.structured.text as string, new RegExp(expected));
    }
  });

  test('query_dom answers a tag selector from the tree with pyatspi\'s bounds, and refuses what the tree cannot tell', async () => {
    const result = await callOk(context, 'page', { window_id: page.windowId, action: 'query_dom', css_selector: 'button' });
    const elements = result.structured.elements as { tag: string; text: string; screen_bounds?: { x: number; y: number; w: number; h: number } }[];
    assert.deepEqual(elements.map((element) => element.text), ['Count clicks', 'Far below']);
    const button = await oracle.find(page.pid, page.title, 'push button', 'Count clicks');
    assert.ok(button.extents && elements[0]!.screen_bounds);
    assert.deepEqual(Object.values(elements[0]!.screen_bounds), button.extents);
    // A role is not a tag: the buttons are not inputs, the textarea is not one either (it is a textbox as the
    // inputs are), and each element found carries the tag the page gave it (the fixture's own markup is the judge).
    const inputs = (await callOk(context, 'page', { window_id: page.windowId, action: 'query_dom', css_selector: 'input' })).structured.elements as { tag: string; text: string }[];
    // The file input is an input too, though Blink shows it as a button (named by its label and the browser's "No file chosen").
    assert.deepEqual(inputs.map((element) => [element.tag, element.text]), [['input', 'Oslo'], ['input', '2'], ['input', 'fixed'], ['input', 'Attachment: No file chosen']]);
    const textarea = (await callOk(context, 'page', { window_id: page.windowId, action: 'query_dom', css_selector: 'textarea, button' })).structured.elements as { tag: string; text: string }[];
    assert.deepEqual(textarea.map((element) => element.tag), ['textarea', 'button', 'button']);
    const refused = await failsWith(context, 'page', { window_id: page.windowId, action: 'query_dom', css_selector: '.hidden' }, 'no_debugging_endpoint');
    assert.match(refused.summary, /plain tag names/);
  });
});
