import { test, mock, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { KeeperSchedule } from '../../src/platform/linux/atspi/keeper-schedule.js';

/** A schedule on node's mock clock (reset after the test), and the keepers it started, in order. */
function onMockClock(t: TestContext): { schedule: KeeperSchedule; started: string[] } {
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  t.after(() => mock.timers.reset());
  return { schedule: new KeeperSchedule(), started: [] };
}

// A keeper's process start holds this process's thread for milliseconds: it waits for the actions under way to end,
// though never more than a few seconds past its due time.
test('a keeper due during an action starts once the action ends, and not before', (t) => {
  const { schedule, started } = onMockClock(t);
  schedule.schedule('app', () => started.push('app'));
  const end = schedule.actionUnderway();
  mock.timers.tick(1000);
  assert.deepEqual(started, [], 'due at 1 s, while the action runs: it waits');
  mock.timers.tick(2000);
  assert.deepEqual(started, []);
  end();
  mock.timers.tick(0);
  assert.deepEqual(started, ['app'], 'started as the action ended');
});

test('with no action under way a keeper starts a second after its connection parked, once per application', (t) => {
  const { schedule, started } = onMockClock(t);
  schedule.schedule('app', () => started.push('first'));
  mock.timers.tick(500);
  schedule.schedule('app', () => started.push('second'));
  mock.timers.tick(499);
  assert.deepEqual(started, []);
  mock.timers.tick(1);
  assert.deepEqual(started, ['first'], 'one keeper for what parked within the second');
  mock.timers.tick(5000);
  assert.deepEqual(started, ['first']);
});

test('actions that never pause hold a keeper off for 5 s past its due time at most', (t) => {
  const { schedule, started } = onMockClock(t);
  schedule.schedule('app', () => started.push('app'));
  const end = schedule.actionUnderway();
  mock.timers.tick(5999);
  assert.deepEqual(started, []);
  mock.timers.tick(1);
  assert.deepEqual(started, ['app']);
  end();
  mock.timers.tick(10_000);
  assert.deepEqual(started, ['app'], 'started once');
});

test('a cancelled keeper never starts, and an action ended twice counts once', (t) => {
  const { schedule, started } = onMockClock(t);
  const first = schedule.actionUnderway();
  const second = schedule.actionUnderway();
  schedule.schedule('gone', () => started.push('gone'));
  schedule.schedule('app', () => started.push('app'));
  schedule.cancel('gone');
  first();
  first();
  mock.timers.tick(2000);
  assert.deepEqual(started, [], 'the second action still runs');
  second();
  mock.timers.tick(0);
  assert.deepEqual(started, ['app']);
});
