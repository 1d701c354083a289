// An action's element named by a selector (the grammar of find_elements and wait_for) instead of an index: read
// the window when the call runs, match, and name the one element matched by its element token. Done once, before
// the call's observer and handler run (run.ts), so the recording, the agent cursor and the action all see the
// same element and the handler needs no second path.
import type { CupNode } from '../../cup/types.js';
import { ToolError } from '../../errors.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { matchDesktop, parseDesktopSelector, soughtText } from '../perception/desktop-selector.js';
import { nearestNames } from '../perception/element-matches.js';
import { resolveWindow, windowsOfProcess } from '../perception/window-records.js';
import { elementToken, indexOf, readSnapshot } from '../perception/window-snapshot.js';
import type { WindowSnapshot } from '../state/snapshot-store.js';
import type { Selected } from './schemas.js';

const walkBudgetMs = 10_000;
/** Matches named in an ambiguous selector's error. */
const LISTED_MATCHES = 8;

interface SelectorArgs {
  selector?: unknown;
  pid?: unknown;
  window_id?: unknown;
  element_index?: unknown;
  element_token?: unknown;
  x?: unknown;
  y?: unknown;
}

function elementLine(window: DesktopWindow, node: CupNode): string {
  return `[e${indexOf(node)}] ${node.role} ${JSON.stringify(node.name)} (window ${window.id})`;
}

/**
 * The arguments of an action that names its element by `selector`, with the element's token in its place (and the
 * window and pid it was found in), plus what was selected; undefined when the call gives no selector. Throws
 * conflicting_target beside another target, not_found when nothing matches (with the nearest names and the
 * windows read), ambiguous when several do (listing them, and how to pick one). Nothing is sent in either case.
 */
export async function selectElement(context: ToolContext, tool: string, args: Record<string, unknown>): Promise<{ args: Record<string, unknown>; selected: Selected } | undefined> {
  const given = args as SelectorArgs;
  if (typeof given.selector !== 'string') return undefined;
  const source = given.selector;
  const other = (['element_index', 'element_token', 'x', 'y'] as const).filter((key) => given[key] !== undefined);
  if (other.length > 0) {
    throw new ToolError(`${tool}: give either selector or ${other.join(' + ')}, not both; nothing was sent`, 'conflicting_target');
  }
  const selector = parseDesktopSelector(source);
  const pid = typeof given.pid === 'number' ? given.pid : undefined;
  let windows: DesktopWindow[];
  if (typeof given.window_id === 'number') windows = [await resolveWindow(context, given.window_id, pid)];
  else if (pid !== undefined) windows = await windowsOfProcess(context, pid);
  else throw new ToolError(`${tool}: selector ${JSON.stringify(source)} needs window_id (the window to look in) or pid (every window of it); nothing was sent`, 'missing_window_id');
  const found: { window: DesktopWindow; snapshot: WindowSnapshot; node: CupNode }[] = [];
  const seen: CupNode[] = [];
  const unread: string[] = [];
  for (const window of windows) {
    const { reading, snapshot, nodes } = await readSnapshot(context, window, { maxNodes: 5000, maxDepth: 1000, budgetMs: walkBudgetMs });
    seen.push(...nodes);
    if (reading.missingReason) unread.push(`window ${window.id}: ${reading.missingReason}`);
    for (const node of matchDesktop(reading.root ? [reading.root] : [], selector)) found.push({ window, snapshot, node });
  }
  const where = windows.map((window) => `${window.id} ${JSON.stringify(window.title)}`).join(', ');
  if (found.length === 0) {
    const nearest = nearestNames(seen, soughtText(selector));
    throw new ToolError(
      `${tool}: selector ${JSON.stringify(source)} matches no element in window${windows.length === 1 ? '' : 's'} ${where}` +
        `${nearest.length > 0 ? `; nearest names: ${nearest.map((name) => JSON.stringify(name)).join(', ')}` : ''}${unread.length > 0 ? `; unread: ${unread.join('; ')}` : ''}. ` +
        'Nothing was sent. If the element is still to appear, wait for it first (a wait_for step with this selector); find_elements lists what matches a looser one.',
      'not_found',
      { selector: source, windows: windows.map((window) => window.id), nearest_names: nearest, ...(unread.length > 0 ? { unread } : {}) },
    );
  }
  if (found.length > 1) {
    const listed = found.slice(0, LISTED_MATCHES).map(({ window, node }) => elementLine(window, node));
    throw new ToolError(
      `${tool}: selector ${JSON.stringify(source)} matches ${found.length} elements, and one is needed: ${listed.join(', ')}${found.length > listed.length ? ', ...' : ''}. ` +
        `Nothing was sent. ${new Set(found.map(({ window }) => window.id)).size > 1 ? 'Give window_id to look in one window only; ' : ''}` +
        `Add terms that tell them apart (name=..., a state such as focused, "A >> B" for one inside another), or pick one by its place: "${source} [index=0]" is the first, [index=-1] the last.`,
      'ambiguous',
      { selector: source, count: found.length, matches: listed },
    );
  }
  const { window, snapshot, node } = found[0]!;
  const token = elementToken(snapshot, node);
  const resolved: Record<string, unknown> = { ...args, element_token: token, window_id: window.id, pid: window.pid };
  delete resolved.selector;
  return { args: resolved, selected: { selector: source, element_token: token, window_id: window.id, index: indexOf(node), role: node.role, name: node.name } };
}
