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
/** Spans kept per application: actions older than the look-back no longer matter. */
const spansKept = 32;

interface Span {
  from: number;
  to: number;
}

/** What the rules need of an event connection (one per desktop): the events it heard lately. */
type Heard = Pick<EventMonitor, 'heard'>;

/** The spans of the actions on each process, per event connection. */
const actionSpans = new WeakMap<Heard, Map<number, Span[]>>();

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
  const list = spans.get(pid) ?? [];
  const span: Span = { from: performance.now(), to: Infinity };
  spans.set(pid, [...list.slice(1 - spansKept), span]);
  return () => void (span.to = performance.now());
}

/**
 * The changes (changeOf) the application (`bus`, of process `pid`) made on its own in the seconds before `before` (a
 * performance.now() time): those it made at least twice, apart, while no action of ours on it was under way or just over.
 */
export function ownChanges(monitor: Heard, bus: string, pid: number, before: number): Set<string> {
  const spans = actionSpans.get(monitor)?.get(pid) ?? [];
  const ours = (at: number) => spans.some((span) => at >= span.from && at <= span.to + lateEffectsMs);
  const times = new Map<string, number[]>();
  for (const { at, event } of monitor.heard(bus, before - lookBackMs, before)) {
    if (ours(at)) continue;
    const change = changeOf(event);
    const list = times.get(change);
    if (list) list.push(at);
    else times.set(change, [at]);
  }
  return new Set([...times].filter(([, at]) => at.length >= 2 && at.at(-1)! - at[0]! >= apartMs).map(([change]) => change));
}
