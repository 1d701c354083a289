// Evaluating a parsed selector against a UI tree, in document order.
import { flattenNodes, type UINode } from '../ui-node.js';
import type { Selector, SelectorField, Term } from './parse.js';

export interface MatchContext {
  /** The screen text a node covers (for text= terms). */
  textOf(node: UINode): string;
}

function fieldValue(node: UINode, field: SelectorField, context: MatchContext): string | undefined {
  switch (field) {
    case 'role':
      return node.role;
    case 'name':
      return node.name;
    case 'id':
      return node.id;
    case 'value':
      return node.value;
    case 'text':
      return context.textOf(node);
  }
}

function termHolds(node: UINode, term: Term, context: MatchContext): boolean {
  switch (term.kind) {
    case 'flag':
      return node[term.flag] === true;
    case 'index':
      return true;
    case 'regex': {
      const value = fieldValue(node, term.field, context);
      return value !== undefined && term.regex.test(value);
    }
    case 'field': {
      const value = fieldValue(node, term.field, context);
      if (value === undefined) return false;
      if (term.op === '=') return value === term.value;
      if (term.op === '^=') return value.startsWith(term.value);
      return value.toLowerCase().includes(term.value.toLowerCase());
    }
  }
}

/** Every node the selector matches, in document order, without duplicates. */
export function matchSelector(roots: readonly UINode[], selector: Selector, context: MatchContext): UINode[] {
  // A virtual root makes the first segment search the whole tree, roots included.
  let scopes: UINode[] = [{ id: '', role: '', name: '', children: [...roots] }];
  for (const segment of selector.segments) {
    const index = segment.terms.find((term): term is Extract<Term, { kind: 'index' }> => term.kind === 'index')?.index;
    const found: UINode[] = [];
    const seen = new Set<UINode>();
    for (const scope of scopes) {
      let matches = flattenNodes(scope.children ?? []).filter((node) => segment.terms.every((term) => termHolds(node, term, context)));
      if (index !== undefined) {
        const picked = matches[index < 0 ? matches.length + index : index];
        matches = picked ? [picked] : [];
      }
      for (const node of matches) {
        if (seen.has(node)) continue;
        seen.add(node);
        found.push(node);
      }
    }
    scopes = found;
  }
  return scopes;
}
