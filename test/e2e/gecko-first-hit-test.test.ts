import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { desktopRig } from '../helpers/desktop-rig.js';
import { launchBrowser, pageUrl, stopBrowser, waitForText, type Launched } from '../helpers/page-suite.js';
import { callOk } from '../helpers/tools.js';

// Firefox answers a hit test (GetAccessibleAtPoint) in a page from the cache its content process fills only once a
// client first asks one: a fresh Firefox's first hit test in its page answers nothing, though reads had filled every
// box. The agent here does what it would right after launch_app: reads where the button is, then clicks that point.
// The judge is the page's own line, read by pyatspi.

describe("firefox-esr: a point clicked by the browser's first hit test", () => {
  let browser: Launched | undefined;
  after(() => stopBrowser(browser));
  const rig = desktopRig();

  test("a background click at the button's point, the first on a fresh process, presses the button", async () => {
    browser = await launchBrowser(rig.context, 'firefox-esr', { urls: [pageUrl('first-point.html')] }, 'CUP Web First Point');
    const found = await callOk(rig.context, 'find_elements', { window_id: browser.windowId, selector: 'role=button name=Go' });
    const [button] = found.structured.matches as { bounds: { x: number; y: number; w: number; h: number } }[];
    const frame = (found.structured.window as { bounds: { x: number; y: number } }).bounds;
    assert.ok(button && button.bounds.w > 0, `the button has a box: ${JSON.stringify(button?.bounds)}`);
    const point = { x: button.bounds.x - frame.x + Math.floor(button.bounds.w / 2), y: button.bounds.y - frame.y + Math.floor(button.bounds.h / 2) };
    // pyatspi reads text only: it asks no hit test, so the click's is still the browser's first.
    assert.equal(await waitForText(rig.oracle, browser, /^clicked \d+$/), 'clicked 0', 'the page has its first line');
    const clicked = await callOk(rig.context, 'click', { window_id: browser.windowId, ...point });
    await waitForText(rig.oracle, browser, 'clicked 1').catch((error: Error) => assert.fail(`${error.message}; the click said: ${clicked.summary}`));
  });
});
