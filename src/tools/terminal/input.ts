import { z } from 'zod';
import { focusNode } from '../../tui/focus.js';
import { encodeClick, encodeKey, shortcutKey } from '../../tui/keys.js';
import { matchOnScreen } from '../../tui/node-text.js';
import { parseSelectorOrThrow } from '../../tui/selector/errors.js';
import { centre } from '../../tui/ui-node.js';
import { defineTerminalTool } from './define.js';

import { ToolError } from '../../errors.js';
import { selectorArgument } from './schemas.js';

const sentResult = z.object({ bytes: z.number() });

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const keyArgument = z
  .string()
  .min(1)
  .max(64)
  .describe('A key: a single character, a name (Enter, Escape, Tab, Backspace, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12), or a combination such as ctrl+c, alt+x, shift+Tab, ctrl+alt+Delete; a key hint as the screen spells it (^X, M-U) works too.');

export const tuiPress = defineTerminalTool({
  name: 'tui_press',
  title: 'Press a key in a terminal',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description: 'Press one key in a terminal. Arrow keys follow the program\'s cursor-key mode, so they work in vim, less and curses menus alike.',
  input: { key: keyArgument },
  output: sentResult,
  async handle(args, { session }) {
    const bytes = encodeKey(args.key, session);
    session.write(bytes);
    return { summary: `✅ pressed ${args.key}`, structured: { bytes: byteLength(bytes) } };
  },
});

export const tuiPressSequence = defineTerminalTool({
  name: 'tui_press_sequence',
  title: 'Press keys in a terminal',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description: 'Press several keys in order, with no delay between them. All key names are checked before any is sent.',
  input: { keys: z.array(keyArgument).min(1).max(100) },
  output: sentResult,
  async handle(args, { session }) {
    const encoded = args.keys.map((key) => encodeKey(key, session)).join('');
    session.write(encoded);
    return { summary: `✅ pressed ${args.keys.join(' ')}`, structured: { bytes: byteLength(encoded) } };
  },
});

export const tuiType = defineTerminalTool({
  name: 'tui_type',
  title: 'Type into a terminal',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description: 'Type literal text into a terminal as if from the keyboard. A newline is sent as Enter (carriage return), so multi-line input works.',
  input: { text: z.string().min(1).max(10_000) },
  output: sentResult,
  async handle(args, { session }) {
    const text = args.text.replace(/\r?\n/g, '\r');
    session.write(text);
    return { summary: `✅ typed ${args.text.length} characters`, structured: { bytes: byteLength(text) } };
  },
});

export const tuiFocus = defineTerminalTool({
  name: 'tui_focus',
  title: 'Focus a terminal element',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Move focus to the one node a selector matches: over the LiveFrame channel for programs that report their own tree, else by arrow keys ' +
    'within a list, a mouse click when the program enabled mouse reporting, or Tab; confirmed on the screen, else the error focus_failed. ' +
    'A key hint (a button with a shortcut, such as "F10 Quit") has no focus of its own: its key is pressed (method "shortcut").',
  input: { selector: selectorArgument },
  output: z.object({ id: z.string(), method: z.enum(['already', 'program', 'keys', 'mouse', 'shortcut']) }),
  async handle(args, { session }) {
    const { node, method } = await focusNode(session, parseSelectorOrThrow(args.selector), args.selector);
    return { summary: `✅ focused ${node.id} (${node.role} "${node.name}") by ${method}`, structured: { id: node.id, method } };
  },
});

export const tuiClick = defineTerminalTool({
  name: 'tui_click',
  title: 'Click a terminal element',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Click a cell (x = column, y = row, from 0) or the centre of the node a selector matches, as an xterm mouse event; only for programs that enabled mouse reporting. ' +
    'A node that names its key (a key hint such as "F10 Quit" or "^X Exit") is activated by pressing that key instead, with or without mouse reporting.',
  input: {
    selector: selectorArgument.optional(),
    x: z.number().int().min(0).optional(),
    y: z.number().int().min(0).optional(),
    button: z.enum(['left', 'middle', 'right']).default('left'),
  },
  output: z.object({ x: z.number(), y: z.number(), key: z.string().optional().describe('The key pressed instead of a click, for a node that names its key.') }),
  async handle(args, { name, session }) {
    let x = args.x;
    let y = args.y;
    if (args.selector !== undefined) {
      if (x !== undefined || y !== undefined) throw new ToolError('give either selector or x and y, not both', 'invalid_arguments');
      // The node first: a selector matching nothing is not_found whether or not the program reads the mouse (calcurse's
      // hint bar, with no mouse: a misspelt hint answered mouse_unavailable, sending the agent to tui_press).
      const matches = matchOnScreen(await session.settledState(), parseSelectorOrThrow(args.selector));
      if (matches.length !== 1 || !matches[0]!.bounds) {
        throw new ToolError(`selector ${JSON.stringify(args.selector)} matches ${matches.length} nodes${matches.length === 1 ? ' without bounds' : ''}; a click needs exactly one node with bounds`, matches.length > 1 ? 'ambiguous' : 'not_found');
      }
      const node = matches[0]!;
      ({ x, y } = centre(node.bounds!));
      const key = node.shortcut ? shortcutKey(node.shortcut) : undefined;
      if (key) {
        session.write(encodeKey(key, session));
        return { summary: `✅ pressed ${key}, the key ${node.id} ("${node.name}") names`, structured: { x, y, key } };
      }
    }
    if (!session.mouse.reporting) {
      throw new ToolError(`the program in session "${name}" has not enabled mouse reporting, so a click would arrive as stray text; use tui_press or tui_focus`, 'mouse_unavailable');
    }
    if (x === undefined || y === undefined) throw new ToolError('give a selector, or both x (column) and y (row)', 'invalid_arguments');
    if (x >= session.cols || y >= session.rows) throw new ToolError(`cell ${x},${y} is outside the ${session.cols}x${session.rows} screen`, 'invalid_arguments');
    session.write(encodeClick(x, y, args.button, session.mouse.sgr));
    return { summary: `✅ ${args.button}-clicked cell ${x},${y}`, structured: { x, y } };
  },
});
