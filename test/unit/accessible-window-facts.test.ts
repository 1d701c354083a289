// What the desktop's window listing takes from accessible top levels (AccessibleWindowFacts): the names of windows with
// no title and the modality of dialogs not marked modal, looked up for those alone, once each, never holding a listing
// up past its bound. The lookup stands in for the accessibility bus.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import { AccessibleWindowFacts } from '../../src/platform/linux/accessible-window-facts.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { windowName } from '../../src/platform/windows.js';

function window(id: number, title: string, pid = 10, more: Partial<ClientWindow> = {}): ClientWindow {
  return { id, pid, title, appName: 'app', bounds: { x: 0, y: 0, width: 100, height: 100 }, zIndex: 0, isOnScreen: true, onCurrentSpace: true, minimized: false, active: false, ...more };
}

describe('AccessibleWindowFacts: the accessible names of windows with no title, and dialogs modal only to accessibility', () => {
  test('an untitled window is named, a titled one is not looked up, and a name found is asked once', async () => {
    const asked: number[] = [];
    const names = new AccessibleWindowFacts(async (w) => {
      asked.push(w.id);
      return { name: 'Warning', modal: false };
    });
    const listing = [window(1, 'Main'), window(2, '')];
    const first = await names.completed(listing);
    await names.completed(listing);
    assert.deepEqual(asked, [2]);
    assert.equal(first[0]!.accessibleName, undefined);
    assert.equal(first[1]!.accessibleName, 'Warning');
    assert.equal(windowName(first[1]!), '"Warning" (no title; its accessible name)');
    assert.equal(windowName(first[0]!), '"Main"');
  });

  test('a lookup that never answers leaves the window unnamed within the bound', async () => {
    const names = new AccessibleWindowFacts(() => new Promise(() => undefined));
    const started = performance.now();
    const listed = await names.completed([window(3, '')]);
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
    assert.equal(listed[0]!.accessibleName, undefined);
    assert.equal(windowName(listed[0]!), '""');
  });

  test('a window id given to another process is looked up again', async () => {
    let answer = 'Warning';
    const names = new AccessibleWindowFacts(async () => ({ name: answer, modal: false }));
    assert.equal((await names.completed([window(4, '', 10)]))[0]!.accessibleName, 'Warning');
    answer = 'Question';
    assert.equal((await names.completed([window(4, '', 11)]))[0]!.accessibleName, 'Question');
  });

  test('a dialog not marked modal is modal when its top level says so, asked once; a main window and a marked dialog are not asked', async () => {
    const asked: number[] = [];
    const facts = new AccessibleWindowFacts(async (w) => {
      asked.push(w.id);
      return { name: w.title, modal: w.id !== 8 };
    });
    const listing = [window(5, 'Main'), window(6, 'About', 10, { transientFor: 5 }), window(7, 'Save As', 10, { transientFor: 5, modal: true }), window(8, 'Find', 10, { transientFor: 5 })];
    const first = await facts.completed(listing);
    assert.deepEqual(first.map((w) => w.modal), [undefined, true, true, undefined]);
    assert.deepEqual(await facts.completed(listing), first);
    assert.deepEqual(asked, [6, 8]);
  });

  test('a dialog not found on the bus yet is asked again on a later listing', async () => {
    let registered = false;
    const facts = new AccessibleWindowFacts(async (w) => (registered ? { name: w.title, modal: true } : undefined));
    const listing = [window(9, 'Main'), window(10, 'About', 10, { transientFor: 9 })];
    assert.equal((await facts.completed(listing))[1]!.modal, undefined);
    registered = true;
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal((await facts.completed(listing))[1]!.modal, true);
  });
});
