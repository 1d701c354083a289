// An element of one snapshot described so that it can be found again in another reading, even of a fresh run of
// the app: its role and name, the roles and names of the elements it lies in, and which of the alike it was.
import type { SnapshotRef } from '../../platform/targets.js';

export interface ElementStep {
  role: string;
  name: string;
}

export interface ElementDescriptor extends ElementStep {
  /** The elements it lies in, the window's root first, its parent last. */
  ancestry: ElementStep[];
  /** How many elements with the same role, name and ancestry come before it in the window (0: the first). */
  occurrence: number;
  /** Where it was in the recorded snapshot, for people reading action.json; never used to find it again. */
  index: number;
  snapshot_id: string;
}

function ancestryOf(snapshot: SnapshotRef, index: number): ElementStep[] {
  const steps: ElementStep[] = [];
  for (let at = snapshot.elements.get(index)?.parent; at !== undefined; ) {
    const element = snapshot.elements.get(at);
    if (!element) break;
    steps.unshift({ role: element.role, name: element.name });
    at = element.parent;
  }
  return steps;
}

function pathKey(steps: readonly ElementStep[]): string {
  return JSON.stringify(steps.map((step) => [step.role, step.name]));
}

/**
 * Elements of the snapshot in document order: the order a snapshot holds them in. Not by index: a window keeps
 * its elements' indices across snapshots, so an element added later has a higher index wherever it lies.
 */
function inOrder(snapshot: SnapshotRef) {
  return [...snapshot.elements.values()];
}

export function describeElement(snapshot: SnapshotRef, index: number): ElementDescriptor {
  const element = snapshot.elements.get(index)!;
  const ancestry = ancestryOf(snapshot, index);
  const key = pathKey(ancestry);
  const elements = inOrder(snapshot);
  const occurrence = elements
    .slice(0, elements.indexOf(element))
    .filter((other) => other.role === element.role && other.name === element.name && pathKey(ancestryOf(snapshot, other.index)) === key).length;
  return { role: element.role, name: element.name, ancestry, occurrence, index, snapshot_id: snapshot.id };
}

/** How far up two ancestries agree, from the parent: 2 a level for role and name, 1 for the role alone. */
function agreement(recorded: readonly ElementStep[], found: readonly ElementStep[]): number {
  let score = 0;
  for (let up = 1; up <= Math.min(recorded.length, found.length); up++) {
    const a = recorded[recorded.length - up]!;
    const b = found[found.length - up]!;
    if (a.role !== b.role) break;
    score += a.name === b.name ? 2 : 1;
  }
  return score;
}

function describePath(steps: readonly ElementStep[]): string {
  return steps.map((step) => `${step.role}${step.name ? ` "${step.name}"` : ''}`).join(' > ') || '(the window itself)';
}

/**
 * The element of `snapshot` that is the recorded one: the same role and name under the same ancestry, the same
 * occurrence of the alike; failing an exact ancestry, the one whose ancestry agrees furthest up, when only one
 * does. Otherwise why not, in words.
 */
export function locateElement(snapshot: SnapshotRef, wanted: ElementDescriptor): { index: number } | { problem: string } {
  const label = `${wanted.role}${wanted.name ? ` "${wanted.name}"` : ''}`;
  const alike = inOrder(snapshot).filter((element) => element.role === wanted.role && element.name === wanted.name);
  if (alike.length === 0) {
    const sameRole = inOrder(snapshot).filter((element) => element.role === wanted.role).map((element) => JSON.stringify(element.name));
    return { problem: `no ${label} in the window now (its ${wanted.role} elements: ${sameRole.slice(0, 12).join(', ') || 'none'})` };
  }
  const key = pathKey(wanted.ancestry);
  const exact = alike.filter((element) => pathKey(ancestryOf(snapshot, element.index)) === key);
  if (exact.length > wanted.occurrence) return { index: exact[wanted.occurrence]!.index };
  if (exact.length > 0) {
    return { problem: `the recorded ${label} was number ${wanted.occurrence + 1} of its kind under ${describePath(wanted.ancestry)}, and the window now has ${exact.length}` };
  }
  const scored = alike.map((element) => ({ element, score: agreement(wanted.ancestry, ancestryOf(snapshot, element.index)) }));
  const best = Math.max(...scored.map((entry) => entry.score));
  const top = scored.filter((entry) => entry.score === best);
  if (top.length === 1) return { index: top[0]!.element.index };
  return {
    problem:
      `${top.length} elements are ${label} and none lies under the recorded ${describePath(wanted.ancestry)}; ` +
      `they lie under: ${top.slice(0, 4).map((entry) => describePath(ancestryOf(snapshot, entry.element.index))).join('; ')}`,
  };
}
