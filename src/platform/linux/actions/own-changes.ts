// What an application changes on its own: a clock's label, a CPU meter, a page's ticker, a progress bar of work
// started earlier. Such an object changes during any action, and its change, taken for the action's effect,
// confirmed a click that did nothing (System Monitor's CPU cells beside an idle control). An object that kept
// changing in the seconds before the action, while no action of ours was under way on the app, is changing by
// itself: what it does during the action is not counted as the action's effect.
import { performance } from 'node:perf_hooks';
import type { AccessibilityEvent, EventMonitor } from '../atspi/event-monitor.js';

/** How far back before an action the app's own changes are looked for, in ms (within what the monitor keeps). */
const lookBackMs = 4000;
/**
 * How long after an action's observation its late effects may still come, in ms (a dialog's late answer, a list
 * refilled a moment later): changes then are the action's, not the app's own.
 */
const lateEffectsMs = 1500;
/** A change counts as the app's own when it came at least twice, at least this far apart (not one burst), in ms. */
const apartMs = 150;
/**
 * An action's span matters while its late effects may still lie in a later action's look-back. Spans are kept by
 * that age, not by count: 32 kept by count lasted a second of quick actions (a plan's clicks, 25 ms each), after
 * which their effects within the look-back counted as the app's own, and every action after it was "no effect".
 */
const spanMattersMs = lookBackMs + lateEffectsMs;
/** A bound on the spans kept per process, far above what any pace of actions leaves within spanMattersMs. */
const spansBound = 4096;

interface Span {
  from: number;
  to: number;
}

/** What the rules need of an event connection (one per desktop): the events it heard lately. */
type Heard = Pick<EventMonitor, 'heard'>;

/** The spans of the actions on each process, per event connection. */
const actionSpans = new WeakMap<Heard, Map<number, Span[]>>();
/**
 * The changes found to be each process's own, per event connection, with when each last came. Quick actions in a
 * row cover the whole look-back with their spans and late effects, so a ticking label seen ticking by itself before
 * them is seen ticking only within them after a few seconds, and was then taken for each action's effect (an idle
 * button's clicks confirmed). What was found the app's own stays so while it goes on changing, with no pause as
 * long as the look-back; a change made only within actions (a counter the clicks move) is never found so.
 */
const knownOwn = new WeakMap<Heard, Map<number, Map<string, number>>>();

/** One kind of change of one object: its events of one kind and detail (a label's name, a bar's value). */
export function changeOf(event: AccessibilityEvent): string {
  return `${event.sender}\u0000${event.path}\u0000${event.kind}\u0000${event.detail}`;
}

/**
 * Marks an action on the process as under way from now: what its applications change then, and for lateEffectsMs
 * after the returned function is called, is the action's doing. Every action tool marks its span (its readings
 * included), whichever way it acts: through accessibility, real input, or a browser's page.
 */
export function actionUnderway(monitor: Heard, pid: number): () => void {
  let spans = actionSpans.get(monitor);
  if (!spans) actionSpans.set(monitor, (spans = new Map()));
  const now = performance.now();
  const recent = (spans.get(pid) ?? []).filter((span) => span.to + spanMattersMs >= now);
  const span: Span = { from: now, to: Infinity };
  spans.set(pid, [...recent.slice(1 - spansBound), span]);
  return () => void (span.to = performance.now());
}

/** The times the spans and their late effects cover, as sorted disjoint intervals. */
function coveredTimes(spans: readonly Span[]): Span[] {
  const covered: Span[] = [];
  for (const { from, to } of [...spans].sort((a, b) => a.from - b.from)) {
    const last = covered.at(-1);
    if (last && from <= last.to) last.to = Math.max(last.to, to + lateEffectsMs);
    else covered.push({ from, to: to + lateEffectsMs });
  }
  return covered;
}

/** Whether a time lies in one of the sorted disjoint intervals (a binary search: an app may send thousands of events). */
function within(covered: readonly Span[], at: number): boolean {
  let [low, high] = [0, covered.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = covered[middle]!;
    if (at < span.from) high = middle - 1;
    else if (at > span.to) low = middle + 1;
    else return true;
  }
  return false;
}

/**
 * The changes (changeOf) the application (`bus`, of process `pid`) made on its own in the seconds before `before` (a
 * performance.now() time): those it made at least twice, apart, while no action of ours on it was under way or just over.
 */
export function ownChanges(monitor: Heard, bus: string, pid: number, before: number): Set<string> {
  const covered = coveredTimes(actionSpans.get(monitor)?.get(pid) ?? []);
  const ours = (at: number) => within(covered, at);
  const heard = monitor.heard(bus, before - lookBackMs, before);
  // Per change, when it came while no action was near.
  const apart = new Map<string, number[]>();
  for (const { at, event } of heard) {
    if (ours(at)) continue;
    const change = changeOf(event);
    const list = apart.get(change);
    if (list) list.push(at);
    else apart.set(change, [at]);
  }
  const own = new Set([...apart].filter(([, at]) => at.length >= 2 && at.at(-1)! - at[0]! >= apartMs).map(([change]) => change));
  let known = knownOwn.get(monitor);
  if (!known) knownOwn.set(monitor, (known = new Map()));
  const ofProcess = known.get(pid) ?? new Map<string, number>();
  // When the changes found or known the app's own came at all (first and last), actions' spans included. Only those
  // are looked for: the events of the look-back are mostly the actions' own (a typing's hundreds), and most apps
  // change nothing by themselves.
  const came = new Map<string, { first: number; last: number }>();
  if (own.size > 0 || ofProcess.size > 0) {
    for (const { at, event } of heard) {
      const change = changeOf(event);
      if (!own.has(change) && !ofProcess.has(change)) continue;
      const seen = came.get(change);
      if (seen) seen.last = at;
      else came.set(change, { first: at, last: at });
    }
  }
  for (const [change, lastAt] of ofProcess) {
    const seen = came.get(change);
    if (seen && seen.first - lastAt <= lookBackMs) own.add(change);
  }
  const kept = new Map([...own].map((change) => [change, came.get(change)!.last]));
  if (kept.size > 0) known.set(pid, kept);
  else known.delete(pid);
  return own;
}
