// Moving focus to a node. A program that reports its own frames is asked over the side channel; on a
// screen read by heuristics the driver does what a person would: arrow keys to the item of a list,
// a click when the program takes the mouse, Tab until the button lights up. Every way is checked on
// the screen afterwards, and a failure says what was tried.
import { ToolError } from '../errors.js';
import { encodeClick, encodeKey, shortcutKey } from './keys.js';
import { matchOnScreen } from './node-text.js';
import type { Selector } from './selector/parse.js';
import type { ScreenState, TerminalSession } from './session.js';
import { centre, flattenNodes, type UINode } from './ui-node.js';
import { waitForState } from './wait.js';

const CONFIRM_MS = 1500;
const ITEM_ROLES = new Set(['listitem', 'checkbox', 'radio', 'option', 'menuitem', 'treeitem', 'row']);
const MAX_TABS = 12;

export type FocusMethod = 'already' | 'program' | 'keys' | 'mouse' | 'shortcut';

function findOne(state: ScreenState, selector: Selector, source: string): UINode {
  const matches = matchOnScreen(state, selector);
  if (matches.length !== 1) {
    throw new ToolError(
      matches.length === 0
        ? `focus: selector ${JSON.stringify(source)} matches no node`
        : `focus: selector ${JSON.stringify(source)} matches ${matches.length} nodes (${matches.slice(0, 5).map((node) => node.id).join(', ')}${matches.length > 5 ? ', ...' : ''}); refine it or add [index=N]`,
      'focus_failed',
      { count: matches.length },
    );
  }
  return matches[0]!;
}

function hasFocus(state: ScreenState, id: string): boolean {
  const node = flattenNodes(state.frame.nodes).find((candidate) => candidate.id === id);
  if (state.frame.focus === id || node?.focused === true) return true;
  // A selected item has the focus unless another item of its list does (marked rows beside the cursor bar).
  const parent = flattenNodes(state.frame.nodes).find((candidate) => node !== undefined && candidate.children?.includes(node));
  return node !== undefined && ITEM_ROLES.has(node.role) && node.selected === true && !parent?.children?.some((child) => child !== node && child.focused && ITEM_ROLES.has(child.role));
}

/**
 * Arrow keys from the current item to `node` when the items stand in a grid, several to a row (a shell's
 * completion menu): rows down or up, then columns right or left. Undefined for a list of one item a row.
 */
function gridMoves(items: readonly UINode[], current: number, node: UINode): { key: string; times: number }[] | undefined {
  const from = items[current]?.bounds;
  const to = node.bounds;
  if (!from || !to || !items.includes(node)) return undefined;
  const ys = [...new Set(items.map((item) => item.bounds?.y ?? -1))].sort((a, b) => a - b);
  const xs = [...new Set(items.map((item) => item.bounds?.x ?? -1))].sort((a, b) => a - b);
  if (ys.length === items.length) return undefined;
  const down = ys.indexOf(to.y) - ys.indexOf(from.y);
  const right = xs.indexOf(to.x) - xs.indexOf(from.x);
  const moves = [
    { key: down > 0 ? 'Down' : 'Up', times: Math.abs(down) },
    { key: right > 0 ? 'Right' : 'Left', times: Math.abs(right) },
  ];
  return moves.filter((move) => move.times > 0);
}

export async function focusNode(session: TerminalSession, selector: Selector, source: string): Promise<{ node: UINode; method: FocusMethod }> {
  const state = await session.settledState();
  const node = findOne(state, selector, source);
  if (hasFocus(state, node.id)) return { node, method: 'already' };
  const tried: string[] = [];
  const confirm = async () => (await waitForState(session, (next) => hasFocus(next, node.id), CONFIRM_MS)) !== undefined;

  if (state.frame.source === 'program') {
    if (session.sendCommand({ type: 'focus', id: node.id }) && (await confirm())) return { node, method: 'program' };
    throw new ToolError(`focus: asked the program to focus ${node.id} over the LiveFrame channel, but its frames did not report that focus within ${CONFIRM_MS} ms`, 'focus_failed', { id: node.id });
  }

  // A key hint is never focused on the screen: what a person does with it is press its key.
  const key = node.role === 'button' && node.shortcut ? shortcutKey(node.shortcut) : undefined;
  if (key) {
    session.write(encodeKey(key, session));
    return { node, method: 'shortcut' };
  }

  const parent = flattenNodes(state.frame.nodes).find((candidate) => candidate.children?.includes(node));
  const items = parent?.children?.filter((child) => ITEM_ROLES.has(child.role)) ?? [];
  // With rows marked (selected) beside the cursor bar, the bar's row is the focused one: the keys move from there.
  const focusedItem = items.findIndex((child) => child.focused);
  const current = focusedItem >= 0 ? focusedItem : items.findIndex((child) => child.selected);
  const grid = gridMoves(items, current, node);
  if (grid) {
    session.write(grid.map((move) => encodeKey(move.key, session).repeat(move.times)).join(''));
    if (await confirm()) return { node, method: 'keys' };
    tried.push(grid.map((move) => `${move.times}x ${move.key}`).join(' then '));
  } else if (ITEM_ROLES.has(node.role) && current >= 0) {
    const delta = items.indexOf(node) - current;
    const key = encodeKey(delta > 0 ? 'Down' : 'Up', session);
    session.write(key.repeat(Math.abs(delta)));
    if (await confirm()) return { node, method: 'keys' };
    tried.push(`${Math.abs(delta)}x ${delta > 0 ? 'Down' : 'Up'}`);
  }

  // A menu of buttons with one lit (cfdisk's, wrapped over two rows; dialog's OK and Cancel) moves with Left
  // and Right, in reading order; the lit one is the one Enter presses, whether or not a list has the focus.
  const buttons = (parent?.children ?? []).filter((child) => child.role === 'button' && !child.shortcut);
  const lit = buttons.findIndex((child) => child.selected || child.focused);
  if (node.role === 'button' && lit >= 0 && buttons.includes(node)) {
    const delta = buttons.indexOf(node) - lit;
    session.write(encodeKey(delta > 0 ? 'Right' : 'Left', session).repeat(Math.abs(delta)));
    const litNow = (next: ScreenState) => hasFocus(next, node.id) || flattenNodes(next.frame.nodes).some((other) => other.id === node.id && other.selected === true);
    if ((await waitForState(session, litNow, CONFIRM_MS)) !== undefined) return { node, method: 'keys' };
    tried.push(`${Math.abs(delta)}x ${delta > 0 ? 'Right' : 'Left'}`);
  }

  // A click on a button presses it, so only fields and items are clicked to focus them.
  if (session.mouse.reporting && node.bounds && node.role !== 'button') {
    const { x, y } = centre(node.bounds);
    session.write(encodeClick(x, y, 'left', session.mouse.sgr));
    if (await confirm()) return { node, method: 'mouse' };
    tried.push(`a click at cell ${x},${y}`);
  }

  // Tab walks the focus ring of dialogs and forms; in a list it would do something else entirely.
  if (node.role === 'button' || node.role === 'textbox') {
    const tab = encodeKey('Tab', { applicationCursorKeys: false });
    for (let presses = 1; presses <= MAX_TABS; presses++) {
      session.write(tab);
      if (await waitForState(session, (next) => hasFocus(next, node.id), 300)) return { node, method: 'keys' };
    }
    tried.push(`Tab up to ${MAX_TABS} times`);
  }

  throw new ToolError(
    `focus: could not move focus to ${node.id} (${node.role} "${node.name}")${tried.length ? `; tried ${tried.join(', ')}` : ''}. ` +
      `${session.mouse.reporting ? '' : 'The program has not enabled mouse reporting. '}Use tui_press with the program's own keys instead.`,
    'focus_failed',
    { id: node.id, tried },
  );
}
