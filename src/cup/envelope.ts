// Building envelopes that validate against schema/cup.schema.json.
import type { CupEnvelope, CupNode } from './types.js';

export const CUP_VERSION = '0.1.0';

/** Everything of an envelope but its version, which buildEnvelope sets. */
export type EnvelopeInput = Omit<CupEnvelope, 'version'>;

/** An envelope with the current version; optional fields left undefined are omitted, not set. */
export function buildEnvelope(input: EnvelopeInput): CupEnvelope {
  // Key order follows the schema so serialized envelopes read like the spec's examples.
  return withoutUndefined({
    version: CUP_VERSION,
    platform: input.platform,
    timestamp: input.timestamp,
    screen: withoutUndefined(input.screen),
    app: input.app && withoutUndefined(input.app),
    scope: input.scope,
    tree: input.tree,
    windows: input.windows,
    tools: input.tools,
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** Copies of the trees with ids renumbered `e0, e1, ...` in depth-first pre-order. */
export function assignIds(roots: readonly CupNode[]): CupNode[] {
  let next = 0;
  const renumber = (node: CupNode): CupNode => {
    const id = `e${next++}`;
    const copy: CupNode = { ...node, id };
    if (node.children) copy.children = node.children.map(renumber);
    return copy;
  };
  return roots.map(renumber);
}

/** Every node in the trees, roots included. */
export function countNodes(roots: readonly CupNode[]): number {
  return roots.reduce((sum, node) => sum + 1 + countNodes(node.children ?? []), 0);
}
