// Narrowing a rendered tree (compact text or Markdown) or a JSON tree to what matches a query.
import { ROLE_CODES, STATE_CODES } from './codes.js';
import { typedSpelling } from './text.js';
import type { CupNode } from './types.js';

/** Screen geometry ("935,16 63x24") and element ids are numbers an agent does not search for by substring. */
const GEOMETRY = /-?\d+,-?\d+ \d+x\d+/g;
const COMPACT_ID = /^\[(e\d+)\]/;
const MARKDOWN_ID = /\[element_index (\d+)\]/;

/** The full names behind the compact codes, so a query for "button" or "focused" finds `btn` and `{foc}` lines. */
const roleOfCode = new Map(Object.entries(ROLE_CODES).map(([role, code]) => [code, role]));
const stateOfCode = new Map(Object.entries(STATE_CODES).map(([state, code]) => [code, state]));
const COMPACT_ROLE = /^\[e\d+\] (\S+)/;
const COMPACT_STATES = / \{([^}]*)\}/;

/** A compact node line's role and states in full, as the JSON and Markdown views write them (empty for other lines). */
function fullNames(body: string): string {
  const role = COMPACT_ROLE.exec(body)?.[1];
  const states = COMPACT_STATES.exec(body)?.[1]?.split(',') ?? [];
  return [role && roleOfCode.get(role), ...states.map((code) => stateOfCode.get(code.trim()))].filter(Boolean).join(' ');
}

/**
 * What a tree is narrowed to: text a node's fields contain (see lineMatches and matches), or the ids of the nodes
 * (e12) a selector matched.
 */
export type TreeQuery = string | ReadonlySet<string>;

/** The id of a compact (`[e12] ...`) or Markdown (`[element_index 12]`) node line. */
function lineId(body: string): string | undefined {
  const markdownId = MARKDOWN_ID.exec(body)?.[1];
  return COMPACT_ID.exec(body)?.[1] ?? (markdownId === undefined ? undefined : `e${markdownId}`);
}

/**
 * Whether a node line matches: its id exactly (`e1`, not `e10`), or its text without id and geometry
 * containing the query, so "7" finds the key named 7 and not every element at x=1070. A compact line's role and
 * state codes match their full names too: "button" finds `btn`, as it does in the Markdown and JSON views.
 */
function lineMatches(body: string, needle: string): boolean {
  if (lineId(body) === needle) return true;
  const text = `${body.replace(COMPACT_ID, '').replace(MARKDOWN_ID, '').replace(GEOMETRY, '')} ${fullNames(body)}`;
  return typedSpelling(text).toLowerCase().includes(needle);
}

/**
 * Keeps the header (every line before the first node line, left unchanged, so its counts still
 * describe the unfiltered tree), the node lines that match `query` (text case-insensitively, see
 * lineMatches: names, values, role and state codes; ids, by the line's id), and the ancestors of those lines. A line's parent is the nearest preceding node line with smaller
 * indentation. Lines that are not nodes (hints, a footer) are kept exactly when their parent is kept:
 * a hint describes its parent's children, so it stays relevant while the parent is shown; lines
 * without a parent (the safety-cap footer, a hint at root level) always stay.
 * Hints are never matched themselves. Node lines are `[id] ...` (compact) or `- ...` but not
 * `- *...*` (Markdown); the text's trailing newline is preserved.
 */
export function filterTreeText(text: string, query: TreeQuery): string {
  const trailingNewline = text.endsWith('\n');
  const lines = (trailingNewline ? text.slice(0, -1) : text).split('\n');
  const needle = typeof query === 'string' ? typedSpelling(query).toLowerCase() : undefined;
  const matching = (body: string) => (needle === undefined ? (query as ReadonlySet<string>).has(lineId(body) ?? '') : lineMatches(body, needle));
  const firstNode = lines.findIndex((line) => isNodeLine(line.trimStart()));
  if (firstNode === -1) return text;

  const kept = lines.map((_, index) => index < firstNode);
  const parentOf = new Map<number, number | undefined>();
  const ancestors: { indent: number; index: number }[] = [];
  for (let index = firstNode; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const body = line.trimStart();
    const indent = line.length - body.length;
    while ((ancestors.at(-1)?.indent ?? -1) >= indent) ancestors.pop();
    if (isNodeLine(body)) {
      if (matching(body)) {
        kept[index] = true;
        for (const ancestor of ancestors) kept[ancestor.index] = true;
      }
      ancestors.push({ indent, index });
    } else {
      parentOf.set(index, ancestors.at(-1)?.index);
    }
  }
  for (const [index, parent] of parentOf) kept[index] = parent === undefined || kept[parent] === true;

  const result = lines.filter((_, index) => kept[index]).join('\n');
  return trailingNewline ? `${result}\n` : result;
}

function isNodeLine(body: string): boolean {
  return body.startsWith('[') || (body.startsWith('- ') && !body.startsWith('- *'));
}

/**
 * Keeps the nodes whose role, name or value contains `query` case-insensitively or whose id equals
 * it (so `e1` does not also pick `e10`-`e19`), or whose id is among the ids given, plus their ancestors; other
 * children are dropped, a kept node left without children loses its `children` key. Returns copies with ids unchanged.
 */
export function filterTree(nodes: readonly CupNode[], query: TreeQuery): CupNode[] {
  return keepMatching(nodes, matcherOf(query));
}

/** The nodes themselves that match `query` (as filterTree keeps them), not their ancestors, in document order. */
export function queryMatches(nodes: readonly CupNode[], query: TreeQuery): CupNode[] {
  const matching = matcherOf(query);
  const found: CupNode[] = [];
  const visit = (node: CupNode) => {
    if (matching(node)) found.push(node);
    node.children?.forEach(visit);
  };
  nodes.forEach(visit);
  return found;
}

/** Whether a node matches the query: its words contain the text (see matches), or its id is among the ids given. */
function matcherOf(query: TreeQuery): (node: CupNode) => boolean {
  if (typeof query !== 'string') return (node) => query.has(node.id);
  const needle = typedSpelling(query).toLowerCase();
  return (node) => matches(node, needle);
}

function keepMatching(nodes: readonly CupNode[], matching: (node: CupNode) => boolean): CupNode[] {
  return nodes.flatMap((node) => {
    const children = keepMatching(node.children ?? [], matching);
    if (children.length === 0 && !matching(node)) return [];
    const { children: _dropped, ...rest } = node;
    return [children.length > 0 ? { ...rest, children } : rest];
  });
}

function matches(node: CupNode, needle: string): boolean {
  return (
    node.id.toLowerCase() === needle ||
    // As typed (typedSpelling), as selectors compare: "2007-365" finds LibreOffice's "Word 2007–365".
    [node.role, node.name, node.value ?? ''].some((field) => typedSpelling(field).toLowerCase().includes(needle))
  );
}
