// A tree diff in the terms of the compact format: one line per node, its [eN] and role code as the tree shows them.
import { roleCode, stateCode } from './codes.js';
import type { ChangedNode, DiffNode, TextChange, TreeDiff } from './diff.js';
import { quoteName, quoteValue } from './fields.js';

export const DEFAULT_DIFF_LINES = 40;

function nodeText(node: DiffNode): string {
  return [roleCode(node.role), ...(node.name ? [quoteName(node.name)] : []), ...(node.value ? [`val=${quoteValue(node.value)}`] : [])].join(' ');
}

function changeText(field: string, change: TextChange): string {
  return `${field}: ${quoteValue(change.from)} \u2192 ${quoteValue(change.to)}`;
}

/** States gained and lost in compact codes, e.g. "+prs -foc": how a diff line and an action's evidence both say it. */
export function stateChangesText(added: readonly string[], removed: readonly string[]): string {
  return [...added.map((state) => `+${stateCode(state)}`), ...removed.map((state) => `-${stateCode(state)}`)].join(' ');
}

function changedLine(node: ChangedNode): string {
  const { name, value, description, states } = node.changes;
  const parts = [
    ...(name ? [changeText('name', name)] : []),
    ...(value ? [changeText('value', value)] : []),
    ...(description ? [changeText('description', description)] : []),
    ...(states ? [`states: ${stateChangesText(states.added, states.removed)}`] : []),
  ];
  // A changed name is shown by its change alone, as COMPACT terms put it: `~ [e3] txt name: "a" → "b"`.
  const known = { ...node, name: name ? '' : node.name, value: undefined };
  return `~ [e${node.index}] ${nodeText(known)} ${parts.join('; ')}`;
}

function movedLine(diff: TreeDiff): string[] {
  const { count, notable } = diff.moved;
  if (count === 0) return [];
  const named = notable.map((node) => `[e${node.index}] ${nodeText(node)}${node.reparented ? ' (new parent)' : ''}`);
  // With none named, the count says it all ("↕ 2 moved", never "↕ 2 moved: and 2 more").
  if (named.length === 0) return [`\u2195 ${count} moved`];
  const rest = count > notable.length ? `, and ${count - notable.length} more` : '';
  return [`\u2195 ${count} moved: ${named.join(', ')}${rest}`];
}

/**
 * Every line of a diff: changes first (what the action did to what was there), then what appeared, what
 * went away (a removed node has no index in the new reading: it is named by the one it had), and the moves.
 */
export function diffLines(diff: TreeDiff): string[] {
  return [
    ...diff.changed.map(changedLine),
    ...diff.added.map((node) => `+ [e${node.index}] ${nodeText(node)}`),
    ...diff.removed.map((node) => `- ${nodeText(node)} (was e${node.index})`),
    ...movedLine(diff),
  ];
}

export function diffCounts(diff: TreeDiff): { added: number; removed: number; changed: number; moved: number } {
  return { added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length, moved: diff.moved.count };
}

/** The diff cut to its first `lines` lines, in diffLines' order (the moves' line last). */
function firstLines(diff: TreeDiff, lines: number): TreeDiff {
  let left = lines;
  const take = <T>(items: readonly T[]): T[] => {
    const taken = items.slice(0, Math.max(0, left));
    left -= taken.length;
    return taken;
  };
  const changed = take(diff.changed);
  const added = take(diff.added);
  const removed = take(diff.removed);
  const moved = left > 0 ? diff.moved : { count: 0, notable: [] };
  return { changed, added, removed, moved };
}

/**
 * The lines to show inline: all of them up to `maxLines`; past it, a count line and the first lines, the
 * rest left to a file. `shown` is the diff cut to the lines shown.
 */
export function diffSummary(diff: TreeDiff, maxLines = DEFAULT_DIFF_LINES): { lines: string[]; total: number; truncated: boolean; shown: TreeDiff } {
  const lines = diffLines(diff);
  if (lines.length <= maxLines) return { lines, total: lines.length, truncated: false, shown: diff };
  const counts = diffCounts(diff);
  const shown = Math.max(0, maxLines - 1);
  const head = `${counts.changed} changed, ${counts.added} added, ${counts.removed} removed, ${counts.moved} moved: ${lines.length} lines, first ${shown} shown`;
  return { lines: [head, ...lines.slice(0, shown)], total: lines.length, truncated: true, shown: firstLines(diff, shown) };
}
