import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { desktopRig } from '../helpers/desktop-rig.js';
import { launchBrowser, stopBrowser, type Launched } from '../helpers/page-suite.js';
import { callOk } from '../helpers/tools.js';
import { subtree } from '../helpers/web-browser.js';

// The browsers' own settings pages, large web apps of their own, driven as a new user drives them through launch_app.

/** Whether the process is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('firefox-esr on about:preferences: controls with access keys', () => {
  let browser: Launched | undefined;
  after(() => stopBrowser(browser));
  const rig = desktopRig();
  before(async () => {
    browser = await launchBrowser(rig.context, 'firefox-esr', { urls: ['about:preferences'] }, 'Settings');
  });

  test("the window is read whole and Firefox lives on: its check boxes' actions are read without the list that aborted it", async () => {
    const { pid, windowId, title } = browser!;
    // The judge of the shape: pyatspi reads the check box's access key as its key binding (Gecko's "<Alt><Shift>s;"),
    // which at-spi2-atk's GetActions sends beside a description Gecko has freed by then.
    const bindings = await rig.oracle.keyBindings(pid, title, ['check box']);
    const restore = bindings.find((node) => node.name === 'Open previous windows and tabs');
    assert.ok(restore?.binding, `pyatspi reads the check box's key binding: ${JSON.stringify(bindings.slice(0, 4))}`);
    for (const detail of ['compact', 'full'] as const) {
      const read = await callOk(rig.context, 'get_window_state', { window_id: windowId, include_screenshot: false, detail, format: 'json' });
      assert.ok(alive(pid), `Firefox (pid ${pid}) exited during the ${detail} read: ${read.summary}`);
      assert.ok(!read.structured.degraded, `the ${detail} read is whole: ${read.summary}`);
      const nodes = (JSON.parse(read.body!) as { tree: CupNode[] }).tree.flatMap(subtree);
      const box = nodes.find((node) => node.role === 'checkbox' && node.name === 'Open previous windows and tabs');
      assert.ok(box, `the ${detail} read holds the check box: ${read.summary}`);
      assert.ok(box.actions?.includes('toggle') && box.actions.includes('click'), `its actions: ${JSON.stringify(box.actions)}`);
    }
  });
});
