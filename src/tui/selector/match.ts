// Evaluating a parsed selector against a UI tree, in document order. The walk (segments, ">>", [index=N])
// is the same for every tree; only how a node's fields and flags are read differs (terminal nodes here,
// CUP nodes in the desktop tools).
import { flattenNodes, shownName, type UINode } from '../ui-node.js';
import { ToolError } from '../../errors.js';
import type { Selector, SelectorField, SelectorFlag, Term } from './parse.js';
import { RegexBudgetError } from './safe-regex.js';
import { typedSpelling } from '../../cup/text.js';

export interface MatchContext {
  /** The screen text a node covers (for text= terms). */
  textOf(node: UINode): string;
}

/** How a tree's nodes answer a selector's fields and flags. */
export interface NodeReader<N, F extends string, G extends string> {
  /** The field's text, or undefined when the node has none (no term on that field holds then). */
  field(node: N, field: F): string | undefined;
  flag(node: N, flag: G): boolean;
  /** A node no segment matches, whatever its terms (one of what the tree holds but does not show). */
  excluded?(node: N): boolean;
  /**
   * The field as the tree an agent reads spells it, where that differs from the field (a terminal key hint's name,
   * shown with its key: "F10 Quit" for the button named "Quit"); a term holding on either spelling holds.
   */
  shown?(node: N, field: F): string | undefined;
}

/**
 * A node's field as terms compare it: in its typed spelling (typedSpelling), as the parser spells a term's value.
 * Letters and punctuation have spellings that look alike: a name written decomposed ("O" + U+0308, as files named on
 * macOS are) or with an en dash (LibreOffice's "Word 2007–365") and a selector written as keyboards write it ("Ö",
 * "-") matched nothing, and nearest_names offered the same-looking name back.
 */
function fieldText<N, F extends string, G extends string>(node: N, field: F, reader: NodeReader<N, F, G>): string | undefined {
  const text = reader.field(node, field);
  return text === undefined ? undefined : typedSpelling(text);
}

function termHolds<N, F extends string, G extends string>(node: N, term: Term<F, G>, reader: NodeReader<N, F, G>): boolean {
  if (term.kind === 'flag') return reader.flag(node, term.flag) !== (term.not === true);
  if (term.kind === 'index') return true;
  const shown = reader.shown?.(node, term.field);
  return valueHolds(term, fieldText(node, term.field, reader)) || (shown !== undefined && valueHolds(term, typedSpelling(shown)));
}

/** Whether a field's or a regex's term holds on one spelling of the field (undefined: the node has no such field). */
function valueHolds<F extends string, G extends string>(term: Extract<Term<F, G>, { kind: 'field' | 'regex' }>, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (term.kind === 'regex') {
    try {
      return term.regex.test(value);
    } catch (error) {
      if (error instanceof RegexBudgetError) throw new ToolError(`invalid selector: ${error.message}`, 'invalid_selector', { problem: 'regex too costly' });
      throw error;
    }
  }
  if (term.op === '=') return value === term.value;
  if (term.op === '^=') return value.startsWith(term.value);
  return value.toLowerCase().includes(term.value.toLowerCase());
}

/** Every node of any tree the selector matches, in document order, without duplicates. */
export function matchNodes<N extends { children?: N[] }, F extends string, G extends string>(
  roots: readonly N[],
  selector: Selector<F, G>,
  reader: NodeReader<N, F, G>,
): N[] {
  // The first segment searches the whole tree, roots included; each later one inside the matches before it.
  let scopes: (readonly N[])[] = [roots];
  let found: N[] = [];
  for (const segment of selector.segments) {
    const index = segment.terms.find((term): term is Extract<Term<F, G>, { kind: 'index' }> => term.kind === 'index')?.index;
    found = [];
    const seen = new Set<N>();
    for (const scope of scopes) {
      let matches = flattenNodes(scope).filter((node) => !reader.excluded?.(node) && segment.terms.every((term) => termHolds(node, term, reader)));
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
    scopes = found.map((node) => node.children ?? []);
  }
  return found;
}

function terminalField(node: UINode, field: SelectorField, context: MatchContext): string | undefined {
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

/**
 * A selector whose `id=eN` terms name the nodes the CUP tree of tui_snapshot tags [eN] (numbered in document order,
 * roots included, as the tree is built): that tree is what an agent reads, and it shows no other id. A node whose own
 * id is "eN" (a program's LiveFrame may use any) keeps it.
 */
function withTreeIds(roots: readonly UINode[], selector: Selector): Selector {
  const treeId = (term: Term<SelectorField, SelectorFlag>): term is Extract<Term<SelectorField, SelectorFlag>, { kind: 'field' }> =>
    term.kind === 'field' && term.field === 'id' && term.op === '=' && /^e\d+$/.test(term.value);
  if (!selector.segments.some((segment) => segment.terms.some(treeId))) return selector;
  const nodes = flattenNodes(roots);
  const own = new Set(nodes.map((node) => node.id));
  return {
    ...selector,
    segments: selector.segments.map((segment) => ({
      terms: segment.terms.map((term) => {
        if (!treeId(term) || own.has(term.value)) return term;
        // An index past the tree matches nothing: no node's id is empty.
        return { ...term, value: nodes[Number(term.value.slice(1))]?.id ?? '' };
      }),
    })),
  };
}

/** Every terminal node the selector matches, in document order, without duplicates. */
export function matchSelector(roots: readonly UINode[], selector: Selector, context: MatchContext): UINode[] {
  return matchNodes<UINode, SelectorField, SelectorFlag>(roots, withTreeIds(roots, selector), {
    field: (node, field) => terminalField(node, field, context),
    flag: (node, flag) => node[flag] === true,
    shown: (node, field) => (field === 'name' ? shownName(node) : undefined),
  });
}
