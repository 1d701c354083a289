import { z } from 'zod';
import { matchOnScreen, nodeTextReader } from '../../tui/node-text.js';
import { evaluatePredicate, predicateSchema } from '../../tui/predicate.js';
import { parseSelectorOrThrow } from '../../tui/selector/errors.js';
import type { TerminalSession } from '../../tui/session.js';
import { withoutChildren, type UINode } from '../../tui/ui-node.js';
import { defineTerminalTool } from './define.js';
import { ToolError } from '../../errors.js';
import { selectorArgument, uiNodeResult } from './schemas.js';

const QUERY_ALL_LIMIT = 500;

async function select(session: TerminalSession, selector: string): Promise<{ matches: UINode[]; textOf: (node: UINode) => string; seq: number }> {
  const parsed = parseSelectorOrThrow(selector);
  const state = await session.settledState();
  const textOf = nodeTextReader(state);
  return { matches: matchOnScreen(state, parsed, textOf), textOf, seq: state.seq };
}

function label(node: UINode): string {
  return `${node.id} (${node.role}${node.name ? ` "${node.name.length > 60 ? `${node.name.slice(0, 57)}...` : node.name}"` : ''})`;
}

export const tuiQuery = defineTerminalTool({
  name: 'tui_query',
  title: 'Find one terminal element',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'The one node a selector matches (with its subtree), or null; more than one match is the error "ambiguous" (use tui_query_all or [index=N]).',
  input: { selector: selectorArgument },
  output: z.object({ node: uiNodeResult.nullable(), seq: z.number() }),
  async handle(args, terminal) {
    const { matches, seq } = await select(terminal.session, args.selector);
    if (matches.length > 1) {
      throw new ToolError(
        `selector ${JSON.stringify(args.selector)} matches ${matches.length} nodes: ${matches.slice(0, 8).map(label).join(', ')}${matches.length > 8 ? ', ...' : ''}; use tui_query_all or refine it (e.g. [index=0])`,
        'ambiguous',
        { count: matches.length, ids: matches.slice(0, 50).map((node) => node.id) },
      );
    }
    const node = matches[0] ?? null;
    return { summary: node ? `✅ ${label(node)}` : `✅ no node matches ${JSON.stringify(args.selector)}`, structured: { node, seq } };
  },
});

export const tuiQueryAll = defineTerminalTool({
  name: 'tui_query_all',
  title: 'Find terminal elements',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: `Every node a selector matches, in screen order (without their subtrees; at most ${QUERY_ALL_LIMIT}).`,
  input: { selector: selectorArgument },
  output: z.object({ nodes: z.array(uiNodeResult), count: z.number(), truncated: z.boolean(), seq: z.number() }),
  async handle(args, terminal) {
    const { matches, seq } = await select(terminal.session, args.selector);
    const nodes = matches.slice(0, QUERY_ALL_LIMIT).map(withoutChildren);
    return {
      summary: `✅ ${matches.length} node${matches.length === 1 ? '' : 's'} match ${JSON.stringify(args.selector)}`,
      body: nodes.map(label).join('\n') || undefined,
      structured: { nodes, count: matches.length, truncated: matches.length > QUERY_ALL_LIMIT, seq },
    };
  },
});

export const tuiCount = defineTerminalTool({
  name: 'tui_count',
  title: 'Count terminal elements',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'How many nodes a selector matches.',
  input: { selector: selectorArgument },
  output: z.object({ count: z.number(), seq: z.number() }),
  async handle(args, terminal) {
    const { matches, seq } = await select(terminal.session, args.selector);
    return { summary: `${matches.length}`, structured: { count: matches.length, seq } };
  },
});

export const tuiExpect = defineTerminalTool({
  name: 'tui_expect',
  title: 'Check a terminal element',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Evaluate a predicate against the first node a selector matches: {field, op, rhs} with fields role/name/id/value/text/focused/selected/disabled/checked, ' +
    '{flag, value}, or {all: [...]}, {any: [...]}, {not: ...}. Returns true or false (false when nothing matches).',
  input: { selector: selectorArgument, predicate: predicateSchema },
  output: z.object({ result: z.boolean(), matched: z.boolean(), node: z.string().optional(), seq: z.number() }),
  async handle(args, terminal) {
    const { matches, textOf, seq } = await select(terminal.session, args.selector);
    const node = matches[0];
    const result = node ? evaluatePredicate(node, args.predicate, textOf) : false;
    return {
      summary: `${result}`,
      body: node ? `evaluated on ${label(node)}` : `no node matches ${JSON.stringify(args.selector)}`,
      structured: { result, matched: node !== undefined, ...(node ? { node: node.id } : {}), seq },
    };
  },
});
