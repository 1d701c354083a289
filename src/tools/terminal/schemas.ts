import { z } from 'zod';
import { ATTR_NAMES } from '../../tui/grid.js';
import { DEFAULT_SESSION } from '../../tui/manager.js';
import { MAX_SELECTOR_LENGTH } from '../../tui/selector/parse.js';
import type { UINode } from '../../tui/ui-node.js';
import { boundsResult, sessionName } from '../schemas.js';

/** Argument and result fragments shared by the tui_* tools. */

// The terminal's name is also the call's session, so it is the session tools' name: one a terminal accepted and
// end_session refused ("-0") kept its program and pipes until the idle limit, with no call able to end them.
export const sessionArgument = sessionName
  .optional()
  .describe(
    'Session name: the terminal program started under this name, and the run identity of the call (the same session on other tools sees the ' +
      `same state). Several programs run at once under different names. Default: "${DEFAULT_SESSION}" in the caller's own session.`,
  );

export const selectorArgument = z
  .string()
  .min(1)
  .max(MAX_SELECTOR_LENGTH)
  .describe(
    'Selector: space-separated terms that must all hold, e.g. role=button name~="ok"; fields role, name, id (the node\'s id, or id=e12 for [e12] of tui_snapshot\'s tree), value, text ' +
      '(screen text) with = (exact), ~= (case-insensitive substring), *= (regex), ^= (prefix); flags focus, selected, ' +
      'disabled, checked; [index=N] picks the N-th match; "A >> B" finds B inside matches of A.',
  );

export const uiNodeResult: z.ZodType<UINode> = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  value: z.string().optional(),
  text: z.string().optional(),
  bounds: boundsResult.optional(),
  focused: z.boolean().optional(),
  selected: z.boolean().optional(),
  disabled: z.boolean().optional(),
  checked: z.boolean().optional(),
  shortcut: z.string().optional(),
  url: z.string().optional().describe('Where a link leads: the address the program gave its text with OSC 8.'),
  heuristic: z.string().optional(),
  from: z.enum(['box', 'attributes', 'alignment', 'program']).optional().describe('What a node was inferred from: box (line drawing), attributes (colours, reverse video, the cursor, OSC 8 hyperlinks), alignment (text and its place on the row), program (reported by the program).'),
  get children() {
    return z.array(uiNodeResult).optional();
  },
}) as z.ZodType<UINode>;

export const liveFrameResult = z.object({
  protocol: z.string(),
  seq: z.number(),
  source: z.enum(['program', 'screen']),
  focus: z.string().nullable(),
  nodes: z.array(uiNodeResult),
});

const spanColor = z.union([z.number(), z.string()]);
export const visualFrameResult = z.object({
  cols: z.number(),
  rows: z.number(),
  lines: z.array(z.string()),
  cursor: z.object({ x: z.number(), y: z.number(), visible: z.boolean() }),
  spans: z.array(
    z.object({
      row: z.number(),
      col: z.number(),
      len: z.number(),
      fg: spanColor.optional(),
      bg: spanColor.optional(),
      attrs: z.array(z.enum(ATTR_NAMES as [string, ...string[]])).optional(),
    }),
  ),
  wide: z.array(z.tuple([z.number(), z.number()])),
  links: z
    .array(z.object({ row: z.number(), col: z.number(), len: z.number(), url: z.string() }))
    .optional()
    .describe('OSC 8 hyperlinks: one run of cells per link and row, with its address.'),
  wrapped: z
    .array(z.number())
    .optional()
    .describe('Rows that go on from the row above because the terminal wrapped a line too long for the screen: with it they show one line.'),
});

export const exitResult = z.object({ code: z.number(), signal: z.number().optional() });
