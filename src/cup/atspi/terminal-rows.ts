// A terminal widget's screen as rows of text. VTE (GNOME Terminal, xfce4-terminal, LXTerminal, Terminator...)
// exposes one object with the terminal role and no children: what the screen shows is only in its Text, one line
// per row. Without rows an agent saw an empty "Terminal" and had to read pixels; with them, each row that holds
// something is a text node placed on its row, and output shows in diffs as rows whose text changed.
import { ATSPI_ROLE } from './constants.js';
import type { AtspiRawNode } from './raw-node.js';
import { encodeStateSet } from './states.js';

/**
 * A row's path: rows are no objects of the app, so it is the terminal's path with the row's text after it (as a
 * short hash, and how many rows above hold the same text). A row keeps its path as output scrolls it up, so a diff
 * shows the rows that came and went, not every row changed.
 */
function rowPath(terminalPath: string, text: string, repeat: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${terminalPath}#row-${(hash >>> 0).toString(36)}${repeat > 0 ? `-${repeat}` : ''}`;
}

/** Whether a path is a terminal row's (see rowPath): text on a terminal's screen, no object of the app. */
export function isTerminalRow(path: string): boolean {
  return path.includes('#row-');
}

const rowStates = encodeStateSet(['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING']);

/** The rows of one terminal's text, each placed on its share of the terminal's height. */
function rowsOf(terminal: AtspiRawNode, text: string): AtspiRawNode[] {
  const lines = text.split('\n');
  // VTE ends every row with a newline, the last one too.
  if (lines.at(-1) === '') lines.pop();
  const box = terminal.positionUnknown ? undefined : terminal.extents;
  const seen = new Map<string, number>();
  return lines.flatMap((line, row) => {
    const shown = line.trimEnd();
    if (shown.trim() === '') return [];
    const repeat = seen.get(shown) ?? 0;
    seen.set(shown, repeat + 1);
    const top = (of: number) => Math.round((of * box!.h) / lines.length);
    const extents = box && box.h > 0 ? { x: box.x, y: box.y + top(row), w: box.w, h: top(row + 1) - top(row) } : undefined;
    return [{
      bus: terminal.bus,
      path: rowPath(terminal.path, shown, repeat),
      role: ATSPI_ROLE.STATIC,
      name: shown,
      description: '',
      states: rowStates,
      interfaces: [],
      ...(extents ? { extents } : { positionUnknown: true }),
      childCount: 0,
      children: [],
    }];
  });
}

/**
 * The tree with each terminal's rows as its children (a terminal that has children of its own is left as it is).
 * Nodes on the way to a terminal are copied; the tree given is not changed, as a window's mirror keeps it.
 */
export function withTerminalRows(node: AtspiRawNode): AtspiRawNode {
  if (node.role === ATSPI_ROLE.TERMINAL && node.text !== undefined && node.children.length === 0) {
    const rows = rowsOf(node, node.text);
    return rows.length > 0 ? { ...node, children: rows, childCount: rows.length } : node;
  }
  let changed = false;
  const children = node.children.map((child) => {
    const expanded = withTerminalRows(child);
    changed ||= expanded !== child;
    return expanded;
  });
  return changed ? { ...node, children } : node;
}
