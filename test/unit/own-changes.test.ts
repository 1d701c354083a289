// Which of an app's changes are its own (own-changes.ts): those it made at least twice, apart, in the seconds before
// an action, while no action of ours on it was under way or just over.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { AccessibilityEvent, HeardEvent } from '../../src/platform/linux/atspi/event-monitor.js';
import { actionUnderway, changeOf, ownChanges } from '../../src/platform/linux/actions/own-changes.js';

const bus = ':1.7';
const nameChange = (path: string): AccessibilityEvent => ({ sender: bus, path, kind: 'PropertyChange', detail: 'accessible-name', detail1: 0, detail2: 0, data: undefined });

/** An event connection that heard `heard` (ages in ms before now). */
function connection(heard: { agoMs: number; event: AccessibilityEvent }[]) {
  const now = performance.now();
  const events: HeardEvent[] = heard.map(({ agoMs, event }) => ({ at: now - agoMs, event }));
  return { now, monitor: { heard: (_bus: string, from: number, to: number) => events.filter(({ at }) => at >= from && at < to) } };
}

describe('an app\'s own changes', () => {
  test('a label renamed twice, a second apart, with no action near, is the app\'s own doing', () => {
    const clock = nameChange('/clock');
    const { now, monitor } = connection([{ agoMs: 2100, event: clock }, { agoMs: 1100, event: clock }, { agoMs: 100, event: clock }]);
    assert.deepEqual([...ownChanges(monitor, bus, 7, now)], [changeOf(clock)]);
  });

  test('one change, or two within one burst, or one older than the look-back, is not', () => {
    const once = nameChange('/once');
    const burst = nameChange('/burst');
    const old = nameChange('/old');
    const { now, monitor } = connection([
      { agoMs: 500, event: once },
      { agoMs: 300, event: burst },
      { agoMs: 290, event: burst },
      { agoMs: 9000, event: old },
      { agoMs: 200, event: old },
    ]);
    assert.deepEqual([...ownChanges(monitor, bus, 7, now)], []);
  });

  test('changes while an action of ours was under way, or just after it, are that action\'s, not the app\'s own', () => {
    const counter = nameChange('/counter');
    const events: HeardEvent[] = [];
    const heard = (_bus: string, from: number, to: number) => events.filter(({ at }) => at >= from && at < to);
    const monitor = { heard };
    const start = performance.now();
    actionUnderway(monitor, 7)();
    // Twice and apart, during the action's late effects.
    events.push({ at: start + 1, event: counter }, { at: start + 400, event: counter });
    assert.deepEqual([...ownChanges(monitor, bus, 7, start + 500)], []);
    // The same events on a connection that ran no action: the app's own.
    assert.deepEqual([...ownChanges({ heard }, bus, 7, start + 500)], [changeOf(counter)]);
  });

  test('an action\'s changes stay its own however many quick actions follow it within the look-back', async () => {
    const counter = nameChange('/counter');
    const events: HeardEvent[] = [];
    const monitor = { heard: (_bus: string, from: number, to: number) => events.filter(({ at }) => at >= from && at < to) };
    // A first action that runs for 200 ms and renames the counter twice while it runs, 180 ms apart.
    const end = actionUnderway(monitor, 7);
    const start = performance.now();
    await sleep(200);
    end();
    events.push({ at: start + 5, event: counter }, { at: start + 185, event: counter });
    // Then forty quick actions (a plan's steps) that change nothing.
    for (let i = 0; i < 40; i++) actionUnderway(monitor, 7)();
    assert.deepEqual([...ownChanges(monitor, bus, 7, performance.now())], [], 'the first action\'s changes are still its own');
  });
});
