// A tree diff in the terms of the compact format: one line per node, its [eN] and role code as the tree shows them.
import { roleCode, stateCode } from './codes.js';
import type { AttributeChange, ChangedNode, DiffNode, NodeChanges, TextChange, TreeDiff } from './diff.js';
import { quoteName, quoteValue } from './fields.js';
import { textChange } from './text-change.js';
import { counted } from './counted.js';

export const DEFAULT_DIFF_LINES = 40;

function nodeText(node: DiffNode): string {
  const states = node.states?.length ? [`{${node.states.map(stateCode).join(',')}}`] : [];
  return [roleCode(node.role), ...(node.name ? [quoteName(node.name)] : []), ...states, ...(node.value ? [`val=${quoteValue(node.value)}`] : [])].join(' ');
}

/**
 * A change quoted as the evidence quotes one (text-change.ts): a line break written \n, and a long text quoted from a
 * little before where the two sides part. One-lined and cut as a node line's value is, a newline typed into gedit
 * read as a space, and two long texts differing past the cut read the same.
 */
function changeText(field: string, change: TextChange): string {
  return `${field}: ${textChange(change.from, change.to)}`;
}

/** States gained and lost in compact codes, e.g. "+prs -foc": how a diff line and an action's evidence both say it. */
export function stateChangesText(added: readonly string[], removed: readonly string[]): string {
  return [...added.map((state) => `+${stateCode(state)}`), ...removed.map((state) => `-${stateCode(state)}`)].join(' ');
}

/** One side of an attribute's change: a number as it is, a word quoted, `none` where the node did not have it. */
function attributeSide(side: string | number | boolean | undefined): string {
  return side === undefined ? 'none' : typeof side === 'string' ? JSON.stringify(side) : String(side);
}

/** Attribute changes by the envelope's keys, as name and value changes are told: `sort: "ascending" → "descending"`. */
function attributeTexts(attributes: NodeChanges['attributes']): string[] {
  return Object.entries(attributes ?? {}).map(([key, change]: [string, AttributeChange]) => `${key}: ${attributeSide(change.from)} \u2192 ${attributeSide(change.to)}`);
}

function changedLine(node: ChangedNode): string {
  const { name, value, description, states, attributes } = node.changes;
  // A cell named by the words it holds changes both alike: its value's change says it (about:config's "false (default)").
  const valueAsName = name !== undefined && value !== undefined && name.from === value.from && name.to === value.to;
  const parts = [
    ...(name ? [changeText('name', name)] : []),
    ...(value && !valueAsName ? [changeText('value', value)] : []),
    ...(description ? [changeText('description', description)] : []),
    ...(states ? [`states: ${stateChangesText(states.added, states.removed)}`] : []),
    ...attributeTexts(attributes),
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
    ...backLines(diff),
    ...diff.removed.map((node) => `- ${nodeText(node)} (was e${node.index})`),
    ...inertLines(diff),
    ...movedLine(diff),
  ];
}

/** A page a modal dialog opened over, in one line: its nodes are out of the tree while the dialog is open, not gone. */
function inertLines(diff: TreeDiff): string[] {
  return (diff.inert ?? []).map(({ dialog, count }) => `- ${counted(count, 'node')} of the page behind [e${dialog.index}] ${nodeText(dialog)}: inert while that modal dialog is open (left out of the tree, not gone)`);
}

/** A page back from behind a modal dialog that closed, in one line: its nodes keep the indices they had before it opened. */
function backLines(diff: TreeDiff): string[] {
  return (diff.back ?? []).map(({ dialog, count }) => `+ ${counted(count, 'node')} of the page behind ${nodeText(dialog)} (was e${dialog.index}) back: that modal dialog closed (they keep the indices they had before it opened)`);
}

export function diffCounts(diff: TreeDiff): { added: number; removed: number; changed: number; moved: number } {
  return { added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length, moved: diff.moved.count };
}

/** Nodes whose changes are the same state flips are one line in a summary from this many on. */
const GROUP_FROM = 4;
/** How many of a group's nodes its line names. */
const GROUP_NAMED = 3;

/**
 * One line of a summary: a node's own change, or a group of nodes that changed their states alike (a modal dialog
 * disables every item of its window's menus: 275 lines of `+dis` hid what else changed); `changed` holds those it names.
 */
interface SummaryLine {
  text: string;
  changed?: ChangedNode[];
  /** The added nodes it names: one, or those a closed menu's line names (addedLines). */
  added?: DiffNode[];
  /** The removed nodes it names: one, or those a closed menu's line names (removedLines). */
  removed?: DiffNode[];
  /** The line of the pages a modal dialog made inert (inertLines). */
  inert?: true;
  /** The line of the pages back since a modal dialog closed (backLines). */
  back?: true;
  moves?: true;
}

function summaryLines(diff: TreeDiff): SummaryLine[] {
  const onlyStates = (node: ChangedNode) => node.changes.states && !node.changes.name && !node.changes.value && !node.changes.description && !node.changes.attributes;
  const groups = new Map<string, ChangedNode[]>();
  for (const node of diff.changed) {
    if (!onlyStates(node)) continue;
    const key = stateChangesText(node.changes.states!.added, node.changes.states!.removed);
    groups.set(key, [...(groups.get(key) ?? []), node]);
  }
  const lines: SummaryLine[] = [];
  for (const node of diff.changed) {
    const key = onlyStates(node) ? stateChangesText(node.changes.states!.added, node.changes.states!.removed) : undefined;
    const group = key === undefined ? undefined : groups.get(key);
    if (!group || group.length < GROUP_FROM) {
      lines.push({ text: changedLine(node), changed: [node] });
      continue;
    }
    // The group's line stands where its first node would.
    if (group[0] !== node) continue;
    const named = group.slice(0, GROUP_NAMED);
    const list = named.map((member) => `[e${member.index}] ${nodeText(member)}`).join(', ');
    lines.push({ text: `~ ${group.length} nodes, states: ${key}: ${list}, and ${group.length - named.length} more`, changed: named });
  }
  lines.push(...addedLines(diff.added));
  lines.push(...backLines(diff).map((text) => ({ text, back: true as const })));
  lines.push(...removedLines(diff.removed));
  lines.push(...inertLines(diff).map((text) => ({ text, inert: true as const })));
  lines.push(...movedLine(diff).map((text) => ({ text, moves: true as const })));
  return lines;
}

/**
 * The added nodes' lines, those in one closed menu told in one line from GROUP_FROM on, where the menu's own line would
 * stand: an app that makes a menu's items as it opens (Thunar) has them all new after an invoke_menu that opened it on
 * the way, and View's 36 items filled the summary, leaving out the file list the choice put in the window.
 */
function addedLines(added: readonly DiffNode[]): SummaryLine[] {
  const inMenu = new Map<number, DiffNode[]>();
  for (const node of added) if (node.closedMenu) inMenu.set(node.closedMenu.index, [...(inMenu.get(node.closedMenu.index) ?? []), node]);
  return added.flatMap((node): SummaryLine[] => {
    const group = node.closedMenu && inMenu.get(node.closedMenu.index);
    if (!group || group.length < GROUP_FROM) return [{ text: `+ [e${node.index}] ${nodeText(node)}`, added: [node] }];
    if (group[0] !== node) return [];
    const named = group.filter((member) => member.name).slice(0, GROUP_NAMED);
    const list = named.map((member) => `[e${member.index}] ${nodeText(member)}`).join(', ');
    return [{ text: `+ ${group.length} items in the closed menu [e${node.closedMenu!.index}] ${nodeText(node.closedMenu!)} (open it to see them): ${list}, and ${group.length - named.length} more`, added: named }];
  });
}

/**
 * The removed nodes' lines, those of one closed menu told in one line from GROUP_FROM on, as addedLines tells new ones:
 * KCharSelect's search put Miscellaneous Symbols in its block list's place, and the 23 Latin blocks gone from the
 * closed list took 23 lines of the summary beside the one line of the blocks that came, leaving out the cells gone.
 */
function removedLines(removed: readonly DiffNode[]): SummaryLine[] {
  const inMenu = new Map<number, DiffNode[]>();
  for (const node of removed) if (node.closedMenu) inMenu.set(node.closedMenu.index, [...(inMenu.get(node.closedMenu.index) ?? []), node]);
  return removed.flatMap((node): SummaryLine[] => {
    const group = node.closedMenu && inMenu.get(node.closedMenu.index);
    if (!group || group.length < GROUP_FROM) return [{ text: `- ${nodeText(node)} (was e${node.index})`, removed: [node] }];
    if (group[0] !== node) return [];
    const named = group.filter((member) => member.name).slice(0, GROUP_NAMED);
    const list = named.map((member) => `${nodeText(member)} (was e${member.index})`).join(', ');
    return [{ text: `- ${group.length} items gone from the closed menu [e${node.closedMenu!.index}] ${nodeText(node.closedMenu!)}: ${list}, and ${group.length - named.length} more`, removed: named }];
  });
}

/** The part of the diff a summary's lines show (a group's line: the nodes it names). */
function shownBy(diff: TreeDiff, lines: readonly SummaryLine[]): TreeDiff {
  return {
    changed: lines.flatMap((line) => line.changed ?? []),
    added: lines.flatMap((line) => line.added ?? []),
    removed: lines.flatMap((line) => line.removed ?? []),
    moved: lines.some((line) => line.moves) ? diff.moved : { count: 0, notable: [] },
    ...(diff.inert && lines.some((line) => line.inert) ? { inert: diff.inert } : {}),
    ...(diff.back && lines.some((line) => line.back) ? { back: diff.back } : {}),
  };
}

/** The kind of change a summary line tells, in the order the kinds are shown. */
function kindOf(line: SummaryLine): number {
  return line.added || line.back ? 1 : line.removed || line.inert ? 2 : line.moves ? 3 : 0;
}

/**
 * The summary lines kept within `room`: each kind of change (changed, added, removed, moved) its first lines, a kind
 * that fits in an even share of what is left shown whole, so no kind fills the room and hides another. A folder
 * opened in a file chooser added 233 cells and removed 56, and its first 39 lines were all added cells: nothing
 * inline said the old rows were gone.
 */
function keptLines(lines: readonly SummaryLine[], room: number): SummaryLine[] {
  const kinds = [0, 1, 2, 3].map((kind) => lines.filter((line) => kindOf(line) === kind)).filter((kind) => kind.length > 0);
  const share = new Map<SummaryLine[], number>();
  let left = room;
  [...kinds].sort((a, b) => a.length - b.length).forEach((kind, i, bySize) => {
    const take = Math.min(kind.length, Math.floor(left / (bySize.length - i)));
    share.set(kind, take);
    left -= take;
  });
  return kinds.flatMap((kind) => kind.slice(0, share.get(kind)));
}

/**
 * The lines to show inline: all of them up to `maxLines`; past it, a count line and the first lines of each kind
 * of change, nodes whose states flipped alike (four or more) told in one line each, the rest left to a file.
 * `shown` is the diff cut to the nodes the lines shown name.
 */
export function diffSummary(diff: TreeDiff, maxLines = DEFAULT_DIFF_LINES): { lines: string[]; total: number; truncated: boolean; shown: TreeDiff } {
  const lines = diffLines(diff);
  if (lines.length <= maxLines) return { lines, total: lines.length, truncated: false, shown: diff };
  const counts = diffCounts(diff);
  const grouped = summaryLines(diff);
  const kept = keptLines(grouped, Math.max(0, maxLines - 1));
  const head = `${counts.changed} changed, ${counts.added} added, ${counts.removed} removed, ${counts.moved} moved: ${lines.length} lines, ${kept.length === grouped.length ? 'summarised' : `${kept.length} of ${grouped.length} summary lines shown, the first of each kind`}`;
  return { lines: [head, ...kept.map((line) => line.text)], total: lines.length, truncated: true, shown: shownBy(diff, kept) };
}
