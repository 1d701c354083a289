// Node fields shared by the compact and Markdown renderings, so both show the same facts.
import type { PrunedHint } from './prune.js';
import { oneLine, truncate } from './text.js';
import type { CupNode, CupRect } from './types.js';
import { counted } from './counted.js';

const NAME_LIMIT = 80;
const VALUE_LIMIT = 120;

// COMPACT.md shows values for the first five; a spreadsheet cell's value is its content (LibreOffice names a
// cell by its address, "B2"), which is what an agent reads a sheet for.
// A text or live region named apart from its words (a web page's aria-labelled log, whose words Gecko keeps in the
// block itself) holds them as its value (convert.ts), shown as a cell's is, when it differs from the name.
// A progress bar's value is how far the work is, all a script's progress dialog (zenity --progress) says of it: the
// line showed its range=0..1 and no value.
// A container's words between the objects it holds (a nav's "Page 1 of 3", Gecko's: convert.ts's wordsAroundChildren)
// are its value whatever its role, as its platform fields mark it.
const VALUE_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'progressbar', 'cell', 'text', 'log', 'status', 'timer', 'marquee']);
const NAMED_APART_ROLES: ReadonlySet<string> = new Set(['cell', 'text', 'log', 'status', 'timer', 'marquee']);

/**
 * A button that shows a setting as its text, named by its row's label (a font button's "Sans Regular", convert.ts's
 * mayShowValue): its value is what it shows. A button holding a number in a range (COMPACT.md's example's "Speaker:
 * 45%") shows its range, as the format has it, and no value.
 */
function showsSetting(node: CupNode): boolean {
  return node.role === 'button' && node.attributes?.valueMin === undefined && node.attributes?.valueMax === undefined;
}

/**
 * The value a node's line shows, the compact tree's and the diff's alike: a diff told `+ cel "Fig" val="Fig"` of a cell
 * the tree reads `cel "Fig"`.
 */
export function shownValue(node: CupNode): string | undefined {
  if (!node.value || !(VALUE_ROLES.has(node.role) || isDrawnSurface(node) || showsSetting(node) || platformFlag(node, 'wordsAroundChildren'))) return undefined;
  return NAMED_APART_ROLES.has(node.role) && node.value === node.name ? undefined : node.value;
}

/** Actions as written: `focus` is implied for anything interactive, so it is left out. */
export function actionsWithoutFocus(node: CupNode): string[] {
  return (node.actions ?? []).filter((action) => action !== 'focus');
}

/** Something to act on: a verb besides focus, or a control real input alone operates (isInputOnly), kept and placed alike. */
export function hasNonFocusAction(node: CupNode): boolean {
  return actionsWithoutFocus(node).length > 0 || isInputOnly(node);
}

/**
 * A surface the app draws itself, as the platform marked it (`drawnSurface` in its platform fields): what it shows
 * is in the screenshot only, and it is acted on by points there.
 */
export function isDrawnSurface(node: CupNode): boolean {
  return platformFlag(node, 'drawnSurface');
}

/** A control the toolkit names no action for, which real input alone operates (GTK 4.8's check boxes). */
export function isInputOnly(node: CupNode): boolean {
  return platformFlag(node, 'inputOnly');
}

/** Whether any platform's fields of the node set this flag (the schema leaves them open to each platform's own). */
export function platformFlag(node: CupNode, flag: string): boolean {
  return Object.values(node.platform ?? {}).some((fields) => fields?.[flag] === true);
}

/** The sum of one count in the node's platform fields. */
export function platformCount(node: CupNode, field: string): number {
  let count = 0;
  for (const fields of Object.values(node.platform ?? {})) {
    const items = fields?.[field];
    if (typeof items === 'number' && items > 0) count += items;
  }
  return count;
}

/**
 * Bounds are only worth their tokens when the agent can act on the node: by its actions, or, on a drawn surface, by
 * a point in it.
 */
export function shownBounds(node: CupNode): CupRect | undefined {
  return hasNonFocusAction(node) || isDrawnSurface(node) ? node.bounds : undefined;
}

export function formatRect(rect: CupRect): string {
  return `${rect.x},${rect.y} ${rect.w}x${rect.h}`;
}

/** `"name"`: cut first, then escaped, so an escape never pushes text past the cut. */
export function quoteName(name: string): string {
  return `"${oneLine(truncate(name, NAME_LIMIT).replaceAll('\\', '\\\\').replaceAll('"', '\\"'))}"`;
}

/** `"value"`: values keep their backslashes (paths, regexes); only quotes are escaped. */
export function quoteValue(value: string): string {
  return `"${oneLine(truncate(value, VALUE_LIMIT).replaceAll('"', '\\"'))}"`;
}

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** `<total> more items — scroll <dirs> to see` (or `— open the menu to see`, that they are hidden, or that the items are not exposed), the hint text without its line prefix. */
export function hintText({ counts, total, closedMenu, choices, notExposed, hidden }: Pick<PrunedHint, 'counts' | 'total' | 'closedMenu' | 'choices' | 'notExposed' | 'hidden'>): string {
  if (notExposed) return 'items drawn here are not exposed by the toolkit \u2014 read them on the screenshot';
  // A closed combo box's line lists no verb that chooses (its toolkit's action opens the list): the count says how.
  if (closedMenu && choices) return `${counted(total, 'more item')} \u2014 open the list to see, or set_value with a choice's text`;
  if (closedMenu) return `${counted(total, 'more item')} \u2014 open the menu to see`;
  if (hidden) return `${counted(total, 'more item')}, hidden with this \u2014 show it (the pane, tab or expander holding it) to see`;
  const dirs = DIRECTIONS.filter((direction) => counts[direction] > 0).join('/');
  return `${counted(total, 'more item')} \u2014 scroll ${dirs} to see`;
}
