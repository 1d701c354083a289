import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SessionRegistry } from '../../src/server/daemon/sessions.js';

function registry(limits = { maxSessions: 3, idleMs: 1000 }) {
  let now = 0;
  const created: string[] = [];
  const dropped: string[] = [];
  const sessions = new SessionRegistry(
    (id) => {
      created.push(id);
      return { id, snapshots: [] as number[] };
    },
    limits,
    (id, value) => dropped.push(`${id}=${value.id}`),
    () => now,
  );
  /** One finished call: acquire, then release, as the daemon does around each call. */
  const use = (id: string) => {
    const value = sessions.acquire(id);
    sessions.release(id);
    return value;
  };
  return { sessions, created, dropped, use, advance: (ms: number) => (now += ms) };
}

describe('daemon sessions', () => {
  test('the same id gives the same state until it is dropped', () => {
    const { use, created } = registry();
    const first = use('s1');
    first.snapshots.push(42);
    assert.equal(use('s1'), first);
    assert.deepEqual(use('s1').snapshots, [42]);
    assert.notEqual(use('s2'), first);
    assert.deepEqual(created, ['s1', 's2']);
  });

  test('beyond the cap the least recently used session is dropped, and handed to onDrop', () => {
    const { sessions, use, dropped, advance } = registry();
    use('a');
    advance(1);
    use('b');
    advance(1);
    use('c');
    advance(1);
    use('a'); // now b is the least recently used
    advance(1);
    use('d');
    assert.deepEqual(sessions.list().map((entry) => entry.id), ['c', 'a', 'd']);
    assert.equal(sessions.has('b'), false);
    assert.deepEqual(dropped, ['b=b']);
  });

  test('a session unused for the idle time is dropped; using it keeps it', () => {
    const { sessions, use, created, dropped, advance } = registry();
    use('kept');
    use('idle');
    advance(600);
    use('kept');
    advance(400);
    assert.equal(sessions.has('idle'), false, 'idle for 1000 ms');
    assert.equal(sessions.has('kept'), true, 'idle for 400 ms');
    assert.deepEqual(sessions.list(), [{ id: 'kept', idleMs: 400, busy: false, idleLimitMs: 1000 }]);
    assert.deepEqual(dropped, ['idle=idle']);
    const fresh = use('idle');
    assert.deepEqual(fresh.snapshots, [], 'a dropped session comes back empty');
    assert.deepEqual(created, ['kept', 'idle', 'idle']);
    assert.equal(sessions.size, 2);
  });

  test('a session with a call running is neither expired nor evicted; its idle time starts when the call ends', () => {
    const { sessions, use, dropped, advance } = registry({ maxSessions: 2, idleMs: 1000 });
    sessions.acquire('long'); // a call that runs for a while
    advance(5000);
    use('x');
    use('y');
    assert.deepEqual(dropped, ['x=x'], 'the busy session is the least recently used, but an idle one goes instead');
    assert.deepEqual(sessions.list().map((entry) => [entry.id, entry.busy]), [
      ['long', true],
      ['y', false],
    ]);
    sessions.release('long');
    advance(999);
    assert.equal(sessions.has('long'), true, 'idle for 999 ms since its call ended');
    use('z');
    assert.deepEqual(dropped, ['x=x', 'long=long'], 'released, it is an ordinary least recently used session');
    assert.deepEqual(sessions.list().map((entry) => entry.id), ['y', 'z']);
  });

  test('a session with an idle limit of its own expires on it; sweep says when the next one will', () => {
    const { sessions, use, dropped, advance } = registry({ maxSessions: 5, idleMs: 1000 });
    use('short');
    use('default');
    sessions.touch('short', 200);
    assert.equal(sessions.sweep(), 200);
    advance(150);
    assert.equal(sessions.sweep(), 50);
    advance(50);
    assert.equal(sessions.sweep(), 800, 'short is gone; default has 800 ms left');
    assert.deepEqual(dropped, ['short=short']);
    sessions.acquire('default');
    assert.equal(sessions.sweep(), undefined, 'a busy session has no expiry');
  });

  test('end drops a session at once, even one a call holds, and says whether there was one', () => {
    const { sessions, dropped } = registry();
    sessions.acquire('held');
    assert.equal(sessions.end('held'), true);
    assert.equal(sessions.end('held'), false);
    assert.deepEqual(dropped, ['held=held']);
    sessions.release('held'); // the call that held it finishes: nothing to release any more
    assert.equal(sessions.has('held'), false);
  });
});
