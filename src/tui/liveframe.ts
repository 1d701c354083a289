// Messages a program sends about itself on the LiveFrame side channel (docs/tui-liveframe-protocol.md).
import { z } from 'zod';
import { flattenNodes, type UINode } from './ui-node.js';

export const MAX_PROGRAM_NODES = 5000;
const MAX_PROGRAM_DEPTH = 64;

const boundsSchema = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  w: z.number().int().min(0),
  h: z.number().int().min(0),
});

const text = (limit: number) => z.string().max(limit);

const programNodeSchema: z.ZodType<UINode> = z.object({
  id: z.string().min(1).max(200),
  role: z.string().min(1).max(64),
  name: text(10_000).default(''),
  value: text(100_000).optional(),
  text: text(100_000).optional(),
  bounds: boundsSchema.optional(),
  focused: z.boolean().optional(),
  selected: z.boolean().optional(),
  disabled: z.boolean().optional(),
  checked: z.boolean().optional(),
  shortcut: z.string().max(64).optional(),
  get children() {
    return z.array(programNodeSchema).optional();
  },
}) as z.ZodType<UINode>;

const frameMessage = z.object({
  type: z.literal('frame'),
  focus: z.string().nullable().optional(),
  nodes: z.array(programNodeSchema),
});
const clearMessage = z.object({ type: z.literal('clear') });
const eventMessage = z.object({ type: z.literal('event'), name: z.string().min(1).max(200), data: z.unknown().optional() });

export interface ProgramFrame {
  focus: string | null;
  nodes: UINode[];
}

export type ProgramMessage =
  | { type: 'frame'; frame: ProgramFrame; nodeCount: number }
  | { type: 'clear' }
  | { type: 'event'; name: string; data: unknown }
  | { type: 'error'; error: string };

function depth(nodes: readonly UINode[]): number {
  let deepest = 0;
  for (const node of nodes) deepest = Math.max(deepest, 1 + depth(node.children ?? []));
  return deepest;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`)
    .join('; ');
}

/** One line from the program, checked; anything malformed becomes an error message, never an exception. */
export function parseProgramMessage(line: string): ProgramMessage {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { type: 'error', error: `not JSON: ${(error as Error).message}` };
  }
  const type = json !== null && typeof json === 'object' ? (json as { type?: unknown }).type : undefined;
  switch (type) {
    case 'clear':
      return clearMessage.safeParse(json).success ? { type: 'clear' } : { type: 'error', error: 'bad clear message' };
    case 'event': {
      const parsed = eventMessage.safeParse(json);
      return parsed.success ? { type: 'event', name: parsed.data.name, data: parsed.data.data ?? null } : { type: 'error', error: `bad event: ${describeIssues(parsed.error)}` };
    }
    case 'frame': {
      const parsed = frameMessage.safeParse(json);
      if (!parsed.success) return { type: 'error', error: `bad frame: ${describeIssues(parsed.error)}` };
      const nodes = parsed.data.nodes;
      if (depth(nodes) > MAX_PROGRAM_DEPTH) return { type: 'error', error: `frame nested deeper than ${MAX_PROGRAM_DEPTH} levels` };
      const all = flattenNodes(nodes);
      if (all.length > MAX_PROGRAM_NODES) return { type: 'error', error: `frame has ${all.length} nodes, more than ${MAX_PROGRAM_NODES}` };
      const ids = new Set<string>();
      for (const node of all) {
        if (ids.has(node.id)) return { type: 'error', error: `node id ${JSON.stringify(node.id)} appears twice` };
        ids.add(node.id);
      }
      const focus = parsed.data.focus ?? all.find((node) => node.focused)?.id ?? null;
      if (focus !== null && !ids.has(focus)) return { type: 'error', error: `focus ${JSON.stringify(focus)} names no node of the frame` };
      return { type: 'frame', frame: { focus, nodes }, nodeCount: all.length };
    }
    default:
      return { type: 'error', error: `unknown message type ${JSON.stringify(type)}; expected "frame", "clear" or "event"` };
  }
}
