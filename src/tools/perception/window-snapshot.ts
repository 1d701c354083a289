// A window's tree read and kept as the session's latest snapshot of it, so the element indices and tokens a
// result shows are the ones click, type_text and the others accept.
import { indexOf } from '../../cup/diff.js';
import { platformFlag } from '../../cup/fields.js';
import type { CupNode } from '../../cup/types.js';
import type { TreeLimits, WindowReading } from '../../platform/desktop.js';
import type { SnapshotElement } from '../../platform/targets.js';
import type { DesktopWindow } from '../../platform/windows.js';
import { flattenNodes } from '../../tui/ui-node.js';
import type { ToolContext } from '../context.js';
import type { WindowSnapshot } from '../state/snapshot-store.js';

/** A CUP node's element_index: its id is "eN". */
export { indexOf };

/** The element token of a node of a snapshot: "<snapshot_id>:<index>". */
export function elementToken(snapshot: WindowSnapshot, node: CupNode): string {
  return `${snapshot.id}:${indexOf(node)}`;
}

/** What an element token names: its snapshot's id and the element's index (the schema checked its shape). */
export function parseElementToken(token: string): { snapshotId: string; index: number } {
  const [snapshotId, index] = token.split(':') as [string, string];
  return { snapshotId, index: Number(index) };
}

/**
 * A reading in its window's numbering for this session (see cup/numbering.ts): every index the tools show,
 * store or compare is one of these, so an index means the same element in every snapshot of the window.
 */
export interface NumberedReading extends WindowReading {
  readonly numbered: true;
  /** Objects of the window's last reading this one does not hold that the app still keeps (DiffReading.kept). */
  readonly kept?: ReadonlySet<string>;
  /** Nodes back from behind a modal dialog that closed, under their old indices (DiffReading.returned). */
  readonly returned?: ReadonlySet<number>;
}

function remapped<T>(byIndex: ReadonlyMap<number, T>, numbers: ReadonlyMap<number, number>): Map<number, T> {
  const result = new Map<number, T>();
  for (const [index, value] of byIndex) {
    const number = numbers.get(index);
    if (number !== undefined) result.set(number, value);
  }
  return result;
}

/**
 * Readings whose numbering in a session is the backend's own (every index maps to itself: a window's first
 * reading, and any after which nothing moved), one object per backend reading: the calls of several sessions that
 * shared a reading then share what is derived from it too (window-view.ts keeps a view per reading object).
 */
const asNumbered = new WeakMap<WindowReading, NumberedReading>();

/**
 * The reading in the window's numbering; the next reading of the window is matched to it. The objects its nodes
 * would be taken for the replacements of are asked of the app first: those it still keeps (another page of a stack,
 * a closed popup) were not replaced, and keep their indices for when they come back.
 */
async function numberReading(context: ToolContext, window: DesktopWindow, reading: WindowReading): Promise<NumberedReading> {
  if (!reading.root) return { ...reading, numbered: true };
  const replaced = context.state.snapshots.numbering(window.pid, window.id).replacedObjects({ root: reading.root, identities: reading.identities });
  const kept = replaced.length > 0 ? await context.desktop.keptObjects(replaced) : undefined;
  // Asked anew after the wait: another reading of the window may have been numbered meanwhile.
  const numbering = context.state.snapshots.numbering(window.pid, window.id);
  const { root, numbers, identities, returned } = numbering.number({ root: reading.root, identities: reading.identities, ...(kept?.size ? { kept } : {}) });
  if (root === reading.root && !kept?.size && !returned.size) {
    let same = asNumbered.get(reading);
    if (!same) asNumbered.set(reading, (same = { ...reading, numbered: true }));
    return same;
  }
  return {
    ...reading,
    root,
    handles: remapped(reading.handles, numbers),
    identities,
    ...(reading.current ? { current: new Set([...reading.current].flatMap((index) => (numbers.has(index) ? [numbers.get(index)!] : []))) } : {}),
    // The diff of this reading against the last (diffTrees) takes none of them for replaced either.
    ...(kept?.size ? { kept } : {}),
    ...(returned.size ? { returned } : {}),
    numbered: true,
  };
}

/** Reads a window's tree in its numbering (not stored as a snapshot: rememberReading does that). */
export async function readNumbered(context: ToolContext, window: DesktopWindow, limits: TreeLimits): Promise<NumberedReading> {
  return numberReading(context, window, await context.desktop.readWindow(window, limits));
}

/** Stores a reading as the session's latest snapshot of the window; returns it with the nodes in document order. */
export function rememberReading(context: ToolContext, window: DesktopWindow, reading: NumberedReading): { snapshot: WindowSnapshot; nodes: CupNode[] } {
  const nodes = flattenNodes(reading.root ? [reading.root] : []);
  const parents = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(indexOf(child), indexOf(node));
  const records: SnapshotElement[] = nodes.map((node) => ({
    index: indexOf(node),
    handle: reading.handles.get(indexOf(node))!,
    role: node.role,
    name: node.name,
    ...(node.description ? { description: node.description } : {}),
    ...(node.value !== undefined ? { value: node.value } : {}),
    ...(node.states?.length ? { states: node.states } : {}),
    bounds: node.bounds,
    ...(parents.has(indexOf(node)) ? { parent: parents.get(indexOf(node))! } : {}),
    ...(node.actions?.includes('scroll') ? { scrolls: true as const } : {}),
    ...(platformFlag(node, 'itemsNotExposed') ? { drawsItems: true as const } : {}),
    ...(platformFlag(node, 'drawnSurface') ? { drawn: true as const } : {}),
  }));
  return { snapshot: context.state.snapshots.add(window.pid, window.id, records), nodes };
}

/**
 * Why a reading holds only part of its window, when it does: the reason it gives, else its walk cut short (its
 * budget spent, its node limit reached). A search of such a reading proves no element absent.
 */
export function partialReason(reading: WindowReading): string | undefined {
  return reading.missingReason ?? (reading.truncated ? 'the window was read in part (the read\'s time budget or node limit was reached): elements past that were not searched' : undefined);
}

/** The limits of a reading that looks for what the caller did not name (a selector's matches, find_elements', the region to scroll). */
export const wholeWindowLimits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 10_000 } as const;

/** Reads a window's tree and stores it as its latest snapshot. */
export async function readSnapshot(context: ToolContext, window: DesktopWindow, limits: TreeLimits) {
  const reading = await readNumbered(context, window, limits);
  return { reading, ...rememberReading(context, window, reading) };
}
