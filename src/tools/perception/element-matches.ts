// The elements a desktop selector matched, as find_elements and wait_for return them: each with the token
// that names it in the snapshot just stored, so a following click can act on it.
import { z } from 'zod';
import type { CupNode } from '../../cup/types.js';
import type { DesktopWindow } from '../../platform/windows.js';
import { unreadCounts, unreadWhileHidden } from '../../cup/prune.js';
import { editDistance } from '../../cup/closest-name.js';
import { boundsResult } from '../schemas.js';
import type { WindowSnapshot } from '../state/snapshot-store.js';
import { elementToken, indexOf } from './window-snapshot.js';
import { matchDesktop, nameAskedAs, nameSources, soughtRole, soughtText, type DesktopSelector } from './desktop-selector.js';
import { counted } from '../../cup/counted.js';

/** One element as every perception result gives it; index is its element_index. */
export const elementResult = z.object({
  index: z.number(),
  role: z.string(),
  name: z.string(),
  value: z.string().optional(),
  states: z.array(z.string()),
  actions: z.array(z.string()),
  // A new user clicked x, y taken from a tree's bounds and missed by the window's place on the screen.
  bounds: boundsResult
    .optional()
    .describe("Screen pixels, as the tree's boxes; a click's x, y are the screenshot's: the window's own pixels (x - window.bounds.x, y - window.bounds.y), divided by the screenshot's scale"),
});

/** Whether a node is drawn on screen now: neither hidden nor off screen (on a notebook page not shown, scrolled away). */
function onScreen(node: CupNode): boolean {
  return !node.states?.includes('hidden') && !node.states?.includes('offscreen');
}

/**
 * Matches on screen first, then those that are not, each group in document order: a cut list showed a dialog's
 * hidden pages' buttons before its shown ones (Gnumeric's Format Cells: 67 buttons, the first 10 mostly on
 * notebook pages not shown). Returns the order and how many lead it on screen.
 */
export function onScreenFirst(found: readonly CupNode[]): { ordered: CupNode[]; onScreen: number } {
  const shown = found.filter(onScreen);
  return { ordered: [...shown, ...found.filter((node) => !onScreen(node))], onScreen: shown.length };
}

export function elementRecord(node: CupNode): z.infer<typeof elementResult> {
  return {
    index: indexOf(node),
    role: node.role,
    name: node.name,
    ...(node.value !== undefined ? { value: node.value } : {}),
    states: node.states ?? [],
    actions: node.actions ?? [],
    ...(node.bounds ? { bounds: node.bounds } : {}),
  };
}

export const matchResult = elementResult.extend({
  description: z
    .string()
    .optional()
    .describe('Its description (tool tip, aria-describedby) when it says more than the name: an app may name a button by an identifier ("divide") and describe it as a person reads it ("Divide [/]").'),
  element_token: z.string().describe('"<snapshot_id>:<index>": what click, type_text and the other actions take as element_token.'),
  window_id: z.number(),
});
export type MatchResult = z.infer<typeof matchResult>;

export function matchRecord(snapshot: WindowSnapshot, window: DesktopWindow, node: CupNode): MatchResult {
  // The compact tree shows no description, so a match found by it (description~=) read as "x_squared" alone.
  const described = node.description && node.description !== node.name ? { description: node.description } : {};
  return { element_token: elementToken(snapshot, node), window_id: window.id, ...elementRecord(node), ...described };
}

/** One line per match for the text result: `[eN] role "name" token`. */
export function matchLine(match: MatchResult): string {
  const value = match.value !== undefined ? ` = ${JSON.stringify(match.value)}` : '';
  const description = match.description !== undefined ? ` described ${JSON.stringify(match.description)}` : '';
  const states = match.states.length > 0 ? ` {${match.states.join(',')}}` : '';
  return `[e${match.index}] ${match.role} ${JSON.stringify(match.name)}${value}${description}${states} token=${match.element_token} window=${match.window_id}`;
}

/**
 * What containers of a reading hold beyond it, each as `[e196] list "Contacts" holds 992 more items not in the tree:
 * scroll it down to bring them in`: a selector that matched nothing may name one of them (a virtualised list keeps
 * only the rows in view in the page; a huge list is read in part).
 */
export function unreadItemNotes(nodes: readonly CupNode[], limit = 3): string[] {
  return nodes
    .flatMap((node) => {
      const counts = unreadCounts(node);
      const directions = (['up', 'down', 'left', 'right'] as const).filter((direction) => counts[direction] > 0);
      const total = directions.reduce((sum, direction) => sum + counts[direction], 0);
      if (total === 0) return [];
      const bring = unreadWhileHidden(node) ? 'it is hidden: show it (the pane, tab or expander holding it) to bring them in' : `scroll it ${directions.join('/')} to bring them in`;
      return [`[e${indexOf(node)}] ${node.role} ${JSON.stringify(node.name)} holds ${counted(total, 'more item')} not in the tree: ${bring}`];
    })
    .slice(0, limit);
}

/**
 * The few element names nearest to what a selector sought, for a result that found nothing: names that contain it
 * (or that it contains) first, then those of elements in the role it asked for, then by edit distance. A wait for
 * `role=alert name~="Saved"` that timed out named a page's buttons and not the alert it held ("Disk almost full").
 */
export function nearestNames(roots: readonly CupNode[], selector: DesktopSelector, limit = 5): string[] {
  const sought = soughtText(selector);
  const role = soughtRole(selector);
  const nodes = nameSources(roots, selector).filter((node) => node.name.trim() !== '');
  const inRole = new Set(nodes.filter((node) => node.role === role).map((node) => node.name));
  const names = [...new Set(nodes.map((node) => node.name))];
  const wanted = sought?.toLowerCase();
  const rank = (name: string) => {
    const lower = name.toLowerCase();
    const related = wanted !== undefined && (lower.includes(wanted) || wanted.includes(lower)) ? 0 : 1;
    return related * 2_000_000 + (inRole.has(name) ? 0 : 1_000_000) + (wanted === undefined ? 0 : editDistance(wanted, lower.slice(0, 200)));
  };
  // A stable sort: names of equal rank keep their document order.
  return names
    .map((name) => ({ name, rank: rank(name) }))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map((entry) => entry.name);
}

/** At most this many elements whose value (or description) holds what was sought as a name are listed. */
const listedInstead = 3;

/**
 * With no match by name: the elements whose `field` the selector's name terms match instead, each as `[e38] button
 * "clear" described "Clear Display [Escape]"` (a sheet's cells are named by their place and hold what they show as
 * their value; an app may name a button by an identifier and describe it as a person reads it).
 */
export function matchedInstead(roots: readonly CupNode[], selector: DesktopSelector, field: 'value' | 'description'): string[] {
  const asked = nameAskedAs(selector, field);
  if (!asked) return [];
  const shown = (node: CupNode) => (field === 'value' ? `= ${JSON.stringify(node.value ?? '')}` : `described ${JSON.stringify(node.description ?? '')}`);
  return matchDesktop(roots, asked)
    .slice(0, listedInstead)
    .map((node) => `[e${indexOf(node)}] ${node.role} ${JSON.stringify(node.name)} ${shown(node)}`);
}

/** What matchedInstead found, as a sentence for a result that matched nothing ("" when it found nothing). */
export function insteadSentence(byValue: readonly string[], byDescription: readonly string[]): string {
  return (
    `${byValue.length > 0 ? `; it is the value, not the name, of ${byValue.join(', ')}: ask value in place of name` : ''}` +
    `${byDescription.length > 0 ? `; it is the description, not the name, of ${byDescription.join(', ')}: ask description in place of name` : ''}`
  );
}
