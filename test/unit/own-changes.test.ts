// Which of an app's changes are its own (own-changes.ts): those it made at least twice, apart, in the seconds before
// an action, while no action of ours on it was under way or just over.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, mock, test } from 'node:test';
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

  test('a change found the app\'s own stays so while it goes on, though quick actions come to cover the whole look-back', () => {
    const clock = nameChange('/clock');
    const counter = nameChange('/counter');
    const events: HeardEvent[] = [];
    const monitor = { heard: (_bus: string, from: number, to: number) => events.filter(({ at }) => at >= from && at < to) };
    const start = performance.now();
    // The clock ticks every 300 ms for twenty seconds; actions, one after the other, fill the last ten, and each
    // moves the counter.
    for (let at = start - 10_000; at < start + 10_000; at += 300) events.push({ at, event: clock });
    for (let at = start; at < start + 10_000; at += 100) events.push({ at: at + 20, event: counter });
    const found = actionsAt(monitor, start, 10_000, (at) => [...ownChanges(monitor, bus, 7, at)]);
    assert.deepEqual(found[0], [changeOf(clock)], 'before the actions, the clock ticks by itself');
    assert.deepEqual(found.at(-1), [changeOf(clock)], 'ten seconds of actions on, it still does');
  });

  test('a change found the app\'s own is forgotten after a pause longer than the look-back', () => {
    const clock = nameChange('/clock');
    const events: HeardEvent[] = [];
    const monitor = { heard: (_bus: string, from: number, to: number) => events.filter(({ at }) => at >= from && at < to) };
    const start = performance.now();
    events.push({ at: start - 1000, event: clock }, { at: start - 500, event: clock });
    // Six seconds of quiet, then actions during which the label changes: their doing now.
    for (let at = start + 6000; at < start + 10_000; at += 100) events.push({ at: at + 20, event: clock });
    assert.deepEqual([...ownChanges(monitor, bus, 7, start)], [changeOf(clock)]);
    const found = actionsAt(monitor, start + 6000, 4000, (at) => [...ownChanges(monitor, bus, 7, at)]);
    assert.deepEqual(found.flat(), []);
  });
});

/**
 * Runs actions one after the other from `from` for `forMs` (100 ms each, 80 of them under way), with the clock the
 * spans are kept by (performance.now) set to their times; `judge` is called as each begins, as verification does.
 */
function actionsAt<T>(monitor: { heard: (bus: string, from: number, to: number) => HeardEvent[] }, from: number, forMs: number, judge: (at: number) => T): T[] {
  let clock = from;
  const now = mock.method(performance, 'now', () => clock);
  const judged: T[] = [];
  try {
    for (; clock < from + forMs; clock += 20) {
      judged.push(judge(clock));
      const end = actionUnderway(monitor, 7);
      clock += 80;
      end();
    }
  } finally {
    now.mock.restore();
  }
  return judged;
}
