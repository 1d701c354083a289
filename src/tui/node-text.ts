// The screen text a node covers, for text= selector terms and predicates, and matching selectors on a screen.
import { rectText } from './grid.js';
import { matchSelector } from './selector/match.js';
import type { Selector } from './selector/parse.js';
import type { ScreenState } from './session.js';
import type { UINode } from './ui-node.js';

/** A reader bound to one screen state: a program's own text wins, else the cells inside the node's bounds. */
export function nodeTextReader(state: ScreenState): (node: UINode) => string {
  const cache = new Map<UINode, string>();
  return (node) => {
    let text = cache.get(node);
    if (text === undefined) {
      text = node.text ?? (node.bounds ? rectText(state.grid, node.bounds) : node.name);
      cache.set(node, text);
    }
    return text;
  };
}

/** The nodes of one screen state a selector matches; text= terms read that screen. */
export function matchOnScreen(state: ScreenState, selector: Selector, textOf = nodeTextReader(state)): UINode[] {
  return matchSelector(state.frame.nodes, selector, { textOf });
}
