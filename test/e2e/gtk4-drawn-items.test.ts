// A view that draws items it exposes none of (GTK 4.8's GtkTreeView): baobab's Folder header, clicked in the
// background, sorted the folders it draws and read "no effect seen" with advice to click again in the foreground,
// which would have sorted them back. The fixture's tree view (gamma, alpha, beta; its Name column sortable) writes each
// new order to a file, its own word of what the click did, which no object on the bus tells; pyatspi shows no row.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';

describe('GTK 4.8: an action whose effect shows only in the items a view draws', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  let logDir: string;
  let sortLog: string;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    logDir = mkdtempSync(join(tmpdir(), 'cup-drawn-items-'));
    sortLog = join(logDir, 'sorted.log');
    window = await fixtures.launch('gtk4', { title: 'GTK4 Drawn Items', rows: 3, extraArgs: ['--tree-view', '--sort-log', sortLog] });
  });

  after(async () => {
    await fixtures?.stop();
    rmSync(logDir, { recursive: true, force: true });
  });

  /** The orders the fixture wrote, one a line. */
  const orders = () => {
    try {
      return readFileSync(sortLog, 'utf8').trim().split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  const click = async (name: string) => {
    await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    return callOk(fixtures.context, 'click', { window_id: window.id, selector: `role=button name="${name}"` });
  };

  test('a header click that sorts the drawn rows is confirmed by their pixels; a click that draws nothing there is not', async () => {
    const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(!onBus.some((node) => ['alpha', 'beta', 'gamma'].includes(node.name)), 'pyatspi: no object holds a row');

    const idle = await click('Do nothing');
    assert.notEqual(idle.structured.effect, 'confirmed', `a click that changed nothing is not confirmed: ${idle.summary}`);
    assert.deepEqual(orders(), [], 'the rows were not sorted');

    const sorted = await click('Name');
    assert.deepEqual(orders(), ['alpha beta gamma'], 'the fixture sorted its rows');
    assert.equal(sorted.structured.effect, 'confirmed', sorted.summary);
    const evidence = (sorted.structured.evidence as string[]).join('\n');
    assert.match(evidence, /the items \[e\d+\] \w+ draws without exposing them changed/, evidence);

    const reversed = await click('Name');
    assert.deepEqual(orders(), ['alpha beta gamma', 'gamma beta alpha'], 'the fixture sorted its rows the other way');
    assert.equal(reversed.structured.effect, 'confirmed', reversed.summary);
  });
});
