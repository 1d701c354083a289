// Turns what the heuristics found into one tree: nodes nest inside the smallest box around them, boxes
// become dialogs or panels, every node gets an id from its role and position, and one node gets focus.
import { flattenNodes, type NodeSource, type UINode } from '../ui-node.js';
import { area, contains, type Found } from './scan.js';

/** Roles of the items a list or table selects, which take the focus when selected. */
export const SELECTABLE: ReadonlySet<string> = new Set(['listitem', 'checkbox', 'radio', 'row', 'cell']);

/** What each heuristic infers from, for agents weighing a node (`from` on every heuristic node). */
const SOURCES: Record<string, NodeSource> = {
  'box-drawing': 'box',
  'column-table': 'box',
  'sheet-grid': 'attributes',
  'highlighted-row-list': 'attributes',
  'grid-menu': 'attributes',
  'status-line': 'attributes',
  'cursor-input': 'attributes',
  'bracket-button': 'alignment',
  'checkbox-mark': 'alignment',
  'key-hint-bar': 'alignment',
  'menu-bar': 'alignment',
  'numbered-text': 'alignment',
  'osc8-link': 'attributes',
  'progress-bar': 'alignment',
  'text-run': 'alignment',
};

function byPosition(a: Found, b: Found): number {
  return a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x;
}

function touchesEdge(node: Found, cols: number, rows: number): boolean {
  const { x, y, w, h } = node.bounds;
  return x === 0 || y === 0 || x + w >= cols || y + h >= rows;
}

/**
 * Focus: the node under the cursor, else the current (else the selected) item of a list or table, else the highlighted
 * button. A cursor on a command line outside every box (mc's prompt under its panels) does not take focus
 * from an item selected inside a box: the keys that move through the panels reach that item, and the
 * command line only collects typed text. Of items selected in several boxes, the one in the box holding
 * the cursor wins, else the first.
 */
function chooseFocus(all: readonly Found[], boxes: readonly Found[]): Found | undefined {
  const atCursor = all.find((node) => node.focused);
  const inBox = (node: Found) => boxes.some((box) => box !== node && contains(box.bounds, node.bounds));
  // The current row of a list with marked rows first: the keys act there, not on the marks.
  const items = [...all.filter((node) => node.current), ...all.filter((node) => node.selected && !node.current)].filter((node) => SELECTABLE.has(node.role));
  const boxed = items.filter(inBox);
  if (atCursor && (atCursor.role !== 'textbox' || inBox(atCursor) || boxed.length === 0)) return atCursor;
  const cursor = atCursor?.bounds;
  const cursorBox = cursor ? boxes.find((box) => contains(box.bounds, cursor)) : undefined;
  return (
    (cursorBox && boxed.find((node) => contains(cursorBox.bounds, node.bounds))) ??
    boxed[0] ??
    items[0] ??
    all.find((node) => node.selected && node.role === 'button')
  );
}

/** `focus.id` is set to the id the focused node gets, which depends on the nodes numbered before it. */
function toUINode(node: Found, ids: Map<string, number>, focus: { node: Found | undefined; id: string | null }): UINode {
  const base = `${node.role}-${node.bounds.y}-${node.bounds.x}`;
  const seen = ids.get(base) ?? 0;
  ids.set(base, seen + 1);
  const result: UINode = { id: seen === 0 ? base : `${base}-${seen + 1}`, role: node.role, name: node.name };
  if (node.value !== undefined) result.value = node.value;
  result.bounds = node.bounds;
  if (node.focused) result.focused = true;
  if (node === focus.node) focus.id = result.id;
  if (node.selected) result.selected = true;
  if (node.checked !== undefined) result.checked = node.checked;
  if (node.disabled) result.disabled = true;
  if (node.shortcut) result.shortcut = node.shortcut;
  if (node.url !== undefined) result.url = node.url;
  result.heuristic = node.heuristic;
  const from = SOURCES[node.heuristic];
  if (from) result.from = from;
  if (node.children?.length) result.children = node.children.map((child) => toUINode(child, ids, focus));
  return result;
}

export function assemble(boxes: Found[], others: Found[], screen: { cols: number; rows: number; title: string }): { nodes: UINode[]; focus: string | null } {
  const boxesBySize = [...boxes].sort((a, b) => area(a.bounds) - area(b.bounds));
  const topLevel: Found[] = [];
  const place = (node: Found) => {
    const parent = boxesBySize.find((box) => box !== node && contains(box.bounds, node.bounds) && area(box.bounds) > area(node.bounds));
    if (!parent) topLevel.push(node);
    else (parent.children ??= []).push(node);
  };
  for (const box of boxes) place(box);
  for (const node of others) place(node);

  for (const box of boxes) {
    box.children?.sort(byPosition);
    if (box.role !== 'panel') continue;
    const isTop = topLevel.includes(box);
    const descendants = flattenNodes(box.children ?? []);
    if (isTop && (descendants.some((node) => node.role === 'button') || !touchesEdge(box, screen.cols, screen.rows))) {
      box.role = 'dialog';
      if (!box.name) box.name = descendants.find((node) => node.role === 'text')?.name ?? '';
    }
  }
  topLevel.sort(byPosition);

  const all = flattenNodes(topLevel);
  // A dialog drawn over the rest of the screen (mc's Copy over its panels) has the keyboard: focus is
  // looked for inside it first. Of several, the smallest is the one on top.
  const dialog = topLevel.filter((node) => node.role === 'dialog').sort((a, b) => area(a.bounds) - area(b.bounds))[0];
  const focused = (dialog && chooseFocus(flattenNodes([dialog]), boxes)) ?? chooseFocus(all, boxes);
  for (const node of all) if (node !== focused) delete node.focused;
  if (focused) focused.focused = true;

  const ids = new Map<string, number>();
  const root: UINode = { id: 'screen', role: 'screen', name: screen.title, bounds: { x: 0, y: 0, w: screen.cols, h: screen.rows }, heuristic: 'screen' };
  const focus = { node: focused, id: null as string | null };
  const children = topLevel.map((node) => toUINode(node, ids, focus));
  if (children.length) root.children = children;
  return { nodes: [root], focus: focus.id };
}
