// The screen text a node covers, for text= selector terms and predicates.
import { rectText } from './grid.js';
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
