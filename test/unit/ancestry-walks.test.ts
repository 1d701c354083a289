// Walking up to an object's window, one parent asked at a time: the evidence of an action reads back every object the
// app changed, and objects of one window share their ancestors. KeePassXC's Discard changed 127 objects some 15 levels
// deep in its main window, each walked up to it alone (2.9 s); walked once for all, the walks stop where one went before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AtspiClient } from '../../src/platform/linux/atspi/client.js';
import { ROOT_PATH, type ObjectRef } from '../../src/platform/linux/atspi/object-ref.js';
import { ancestry, type KnownAncestry } from '../../src/platform/linux/atspi/operations.js';

const BUS = ':1.42';

/** An app whose objects' parents are as given (by path), answering Parent as an AT-SPI bridge does; counts the asks. */
function app(parents: Record<string, string>): { client: AtspiClient; asked: () => number } {
  let asked = 0;
  const client = {
    callObject: async (ref: ObjectRef, message: { member: string; body?: unknown[] }) => {
      assert.deepEqual([message.member, message.body?.[1]], ['Get', 'Parent']);
      asked++;
      return [{ value: [BUS, parents[ref.path] ?? '/org/a11y/atspi/null'] }];
    },
  } as unknown as AtspiClient;
  return { client, asked: () => asked };
}

// A window 12 levels under the application's root, and two siblings at the bottom.
const depth = 12;
const parents: Record<string, string> = { '/w': ROOT_PATH };
for (let level = 1; level <= depth; level++) parents[`/w/${level}`] = level === 1 ? '/w' : `/w/${level - 1}`;
parents['/leaf/a'] = `/w/${depth}`;
parents['/leaf/b'] = `/w/${depth}`;

test("a walk stops at an ancestor an earlier walk went through, with the same ancestors as a walk of its own", async () => {
  const alone = app(parents);
  const own = await ancestry(alone.client, { bus: BUS, path: '/leaf/b' });
  assert.equal(own.paths.at(-1), ROOT_PATH);
  assert.equal(alone.asked(), depth + 2, 'one ask per level, up to the root');

  const shared = app(parents);
  const walked: KnownAncestry = new Map();
  const first = await ancestry(shared.client, { bus: BUS, path: '/leaf/a' }, undefined, walked);
  const asksForFirst = shared.asked();
  const second = await ancestry(shared.client, { bus: BUS, path: '/leaf/b' }, undefined, walked);
  assert.deepEqual(second, own, "the sibling's ancestors, as its own walk finds them");
  assert.equal(shared.asked() - asksForFirst, 1, 'only its parent is asked: the rest was walked for its sibling');
  assert.deepEqual(first.paths.slice(1), own.paths.slice(1));
  // A walk from an ancestor of a walked object asks nothing; one limited to a few levels gets that many.
  const middle = await ancestry(shared.client, { bus: BUS, path: '/w/6' }, undefined, walked);
  assert.deepEqual(middle.paths, own.paths.slice(depth - 5));
  assert.deepEqual((await ancestry(shared.client, { bus: BUS, path: '/leaf/a' }, 3, walked)).paths, own.paths.slice(0, 3));
  assert.equal(shared.asked() - asksForFirst, 1);
});

test('a walk that did not reach the root (an object no window holds) is not taken for one that did', async () => {
  const detachedParents = { ...parents, '/aside/1': '/aside/0', '/aside/leaf': '/aside/1' };
  const shared = app(detachedParents);
  const walked: KnownAncestry = new Map();
  const aside = await ancestry(shared.client, { bus: BUS, path: '/aside/leaf' }, undefined, walked);
  assert.equal(aside.detached, true);
  assert.equal(walked.size, 0, 'nothing is kept of a walk that met an object with no parent');
  assert.equal((await ancestry(shared.client, { bus: BUS, path: '/aside/leaf' }, undefined, walked)).detached, true);
});
