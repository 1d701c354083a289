// The names the desktop's window listing gives windows with no title (UntitledNames): looked up for those alone, once
// each, never holding a listing up past its bound. The lookup stands in for the accessibility bus.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import { UntitledNames } from '../../src/platform/linux/untitled-names.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { windowName } from '../../src/platform/windows.js';

function window(id: number, title: string, pid = 10): ClientWindow {
  return { id, pid, title, appName: 'app', bounds: { x: 0, y: 0, width: 100, height: 100 }, zIndex: 0, isOnScreen: true, onCurrentSpace: true, minimized: false, active: false };
}

describe('UntitledNames: the accessible names of windows with no title', () => {
  test('an untitled window is named, a titled one is not looked up, and a name found is asked once', async () => {
    const asked: number[] = [];
    const names = new UntitledNames(async (w) => {
      asked.push(w.id);
      return 'Warning';
    });
    const listing = [window(1, 'Main'), window(2, '')];
    const first = await names.named(listing);
    await names.named(listing);
    assert.deepEqual(asked, [2]);
    assert.equal(first[0]!.accessibleName, undefined);
    assert.equal(first[1]!.accessibleName, 'Warning');
    assert.equal(windowName(first[1]!), '"Warning" (no title; its accessible name)');
    assert.equal(windowName(first[0]!), '"Main"');
  });

  test('a lookup that never answers leaves the window unnamed within the bound', async () => {
    const names = new UntitledNames(() => new Promise(() => undefined));
    const started = performance.now();
    const listed = await names.named([window(3, '')]);
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
    assert.equal(listed[0]!.accessibleName, undefined);
    assert.equal(windowName(listed[0]!), '""');
  });

  test('a window id given to another process is looked up again', async () => {
    let answer = 'Warning';
    const names = new UntitledNames(async () => answer);
    assert.equal((await names.named([window(4, '', 10)]))[0]!.accessibleName, 'Warning');
    answer = 'Question';
    assert.equal((await names.named([window(4, '', 11)]))[0]!.accessibleName, 'Question');
  });
});
