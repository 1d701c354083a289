// The terminal's UI tree: what heuristics read off the screen, or what a program reports about itself.

/** A rectangle in cells: column x, row y (both from 0), w columns wide, h rows high. */
export interface Bounds {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What a heuristic node was inferred from: "box" (line drawing: boxes, the rules of a table),
 * "attributes" (colours, reverse video, the cursor, OSC 8 hyperlinks), "alignment" (the text and where it stands: key
 * names, brackets, words set apart on a row), or "program" (the program reported it itself).
 */
export type NodeSource = 'box' | 'attributes' | 'alignment' | 'program';

export interface UINode {
  /** Unique within one frame. Heuristic ids are derived from role and position, so they stay put while the screen does. */
  id: string;
  /** screen, panel, dialog, button, list, listitem, textbox, checkbox, radio, progressbar, toolbar, text, ... */
  role: string;
  name: string;
  value?: string;
  /** The node's own text when a program reports it; heuristic nodes read it from the cells in their bounds. */
  text?: string;
  bounds?: Bounds;
  focused?: boolean;
  selected?: boolean;
  disabled?: boolean;
  checked?: boolean;
  /** Where a link leads: the address the program gave its cells with OSC 8. */
  url?: string;
  /** The key that triggers the node, as the screen shows it ("F10", "^O"). */
  shortcut?: string;
  /** Which heuristic found the node; absent for nodes a program reported. */
  heuristic?: string;
  /** What the node was inferred from; "program" for nodes a program reported. */
  from?: NodeSource;
  children?: UINode[];
}

/** Version of the LiveFrame protocol (fields of frames, nodes and side-channel messages). */
export const LIVEFRAME_PROTOCOL = '1.0.0';

export interface LiveFrame {
  protocol: string;
  /** Strictly increasing per session: every change of the screen or of a program's frame gets a new one. */
  seq: number;
  /** "program" when the tree came over the side channel, "screen" when heuristics built it from the cells. */
  source: 'program' | 'screen';
  /** Id of the focused node, if any. */
  focus: string | null;
  nodes: UINode[];
}

/** Every node in document order (pre-order), roots included. */
export function flattenNodes<T extends { children?: T[] }>(nodes: readonly T[], into: T[] = []): T[] {
  for (const node of nodes) {
    into.push(node);
    if (node.children) flattenNodes(node.children, into);
  }
  return into;
}

/**
 * The name as the CUP tree shows it: a key hint's with its key before it ("F10 Quit" for the button named "Quit",
 * as the screen draws it), since the compact form shows no shortcut. Selectors match it as well as the name.
 */
export function shownName(node: UINode): string {
  return node.shortcut ? `${node.shortcut} ${node.name}` : node.name;
}

/** The middle cell of a rectangle (of two middle ones, the right or lower one): where a click on it lands. */
export function centre(bounds: Bounds): { x: number; y: number } {
  return { x: bounds.x + Math.floor(bounds.w / 2), y: bounds.y + Math.floor(bounds.h / 2) };
}

/** A copy without children, for results that list nodes rather than trees. */
export function withoutChildren(node: UINode): UINode {
  const { children: _children, ...rest } = node;
  return rest;
}
