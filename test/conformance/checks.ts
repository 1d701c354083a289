// The conformance checks: the compact view's shown elements against the pyatspi oracle's dump of the
// same window. Pure functions over the two readings; the runner collects them.
import type { CupNode, CupRect } from '../../src/cup/types.js';
import type { Element } from '../helpers/tools.js';
import { allowedCupRoles, roleAllowed } from './allowed-roles.js';
import { isReal, isSentinel, type DumpNode, type Extents, type OracleDump } from './oracle-dump.js';

export type Rule =
  /** A node the oracle shows (visible, on screen, actionable, editable or a named label) is not among the shown elements. */
  | 'missing'
  /** Such a node is missing because we marked it (or an ancestor) offscreen, or clipped it into a "more items" hint. */
  | 'offscreen-or-clipped'
  /** Such a node is missing because an ancestor with unknown or sentinel extents (-1, INT_MIN, 0x0, none) hid it. */
  | 'sentinel-hides-subtree'
  /** Kept by the pruning, but the compact text hit its size cap (COMPACT.md's 40,000 characters) before it. */
  | 'cut-by-cap'
  /** A label inside a status bar is missing: COMPACT.md prunes status bars, but an agent must read them. */
  | 'status-label'
  /** Shown at the node's bounds, but with a CUP role mappings.json does not allow for its AT-SPI role. */
  | 'role'
  /** Shown (same name and role) but its bounds differ from the oracle's by more than 2 px. */
  | 'bounds'
  /** A shown element's name has leading or trailing whitespace, or a run of whitespace. */
  | 'whitespace'
  /** A shown element's name or value holds U+FFFC (an object-replacement placeholder). */
  | 'fffc';

export const RULES: readonly Rule[] = ['missing', 'offscreen-or-clipped', 'sentinel-hides-subtree', 'cut-by-cap', 'status-label', 'role', 'bounds', 'whitespace', 'fffc'];

export interface OracleSummary {
  role: string;
  name: string;
  extents: Extents | null;
  states: string[];
  actions: string[];
  /** From the window down: "role 'name'" per ancestor, the node last. */
  path: string;
}

export interface Violation {
  rule: Rule;
  oracle?: OracleSummary;
  /** What we showed for it (role, bounds, violations of our own elements), or why it is not shown. */
  ours?: Partial<Element> & { atspiRole?: string };
  why?: string;
}

export interface CheckResult {
  checked: number;
  covered: number;
  /** Nodes that qualify but whose roles COMPACT.md prunes (scroll bars, separators, tooltips, status bars). */
  prunedBySpec: number;
  /** Nodes that qualify but lie outside the window or their scrolling ancestor's view. */
  outsideView: number;
  /** AT-SPI roles the allowed-role table does not know (their CUP role was not judged). */
  unjudgedRoles: string[];
  /** Every checked node, in one line each ("role 'name' x,y wxh"), with the element that covers it. */
  checkedNodes: { node: string; covered_by?: number }[];
  violations: Violation[];
}

export interface Readings {
  dump: OracleDump;
  /** The window's client area in screen coordinates. */
  window: CupRect;
  screen: { w: number; h: number };
  /** get_window_state's shown elements (compact format). */
  shown: Element[];
  /** The whole tree we read (the JSON envelope's tree), to explain what is missing. */
  full: CupNode[];
  /** The compact text's own truncation footer, when it hit its size cap. */
  capped?: string;
}

const TOLERANCE = 2;
const SPEC_PRUNED_ROLES = new Set(['scroll bar', 'separator', 'tool tip', 'status bar', 'title bar']);
/** GTK 4.8 gives a tooltip's popup no tooltip role: a filler named after its widget type. */
const isTooltipWindow = (node: DumpNode) => node.role === 'tool tip' || (node.role === 'filler' && node.name === 'GtkTooltipWindow');
/** Roles whose extents are a viewport onto content that scrolls: content outside them is not on screen. */
const VIEWPORT_ROLES = new Set(['scroll pane', 'viewport', 'list', 'list box', 'tree', 'tree table', 'table', 'document web', 'document frame', 'terminal']);
const SKIPPED_CUP_ROLES = new Set(['scrollbar', 'separator', 'titlebar', 'tooltip', 'status']);

function rect(extents: Extents): CupRect {
  return { x: extents[0], y: extents[1], w: extents[2], h: extents[3] };
}

function close(a: CupRect, b: CupRect): boolean {
  return Math.abs(a.x - b.x) <= TOLERANCE && Math.abs(a.y - b.y) <= TOLERANCE && Math.abs(a.w - b.w) <= TOLERANCE && Math.abs(a.h - b.h) <= TOLERANCE;
}

function intersection(a: CupRect, b: CupRect): CupRect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, w: Math.min(a.x + a.w, b.x + b.w) - x, h: Math.min(a.y + a.h, b.y + b.h) - y };
}

function contains(outer: CupRect, inner: CupRect): boolean {
  return inner.x >= outer.x - TOLERANCE && inner.y >= outer.y - TOLERANCE && inner.x + inner.w <= outer.x + outer.w + TOLERANCE && inner.y + inner.h <= outer.y + outer.h + TOLERANCE;
}

/** Whitespace runs collapsed and the ends trimmed: how a name reads. */
export function normalise(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

/** Leading or trailing whitespace, or two or more whitespace characters in a row. */
export function strayWhitespace(name: string): boolean {
  return /^\s|\s$|\s{2,}/.test(name);
}

interface OracleEntry {
  node: DumpNode;
  ancestors: DumpNode[];
}

function indexDump(dump: OracleDump): OracleEntry[] {
  const byPath = new Map<string, DumpNode>();
  return dump.nodes.map((node) => {
    byPath.set(node.path.join('/'), node);
    const ancestors: DumpNode[] = [];
    for (let i = 0; i < node.path.length; i++) {
      const ancestor = byPath.get(node.path.slice(0, i).join('/'));
      if (ancestor) ancestors.push(ancestor);
    }
    return { node, ancestors };
  });
}

function describePath(entry: OracleEntry): string {
  const part = (node: DumpNode) => (node.name ? `${node.role} '${normalise(node.name).slice(0, 40)}'` : node.role);
  return [...entry.ancestors, entry.node].map(part).join(' > ');
}

function summary(entry: OracleEntry): OracleSummary {
  const { node } = entry;
  return { role: node.role, name: node.name, extents: node.extents, states: node.states, actions: node.actions, path: describePath(entry) };
}

function elementSummary(element: Element): Partial<Element> {
  return { index: element.index, role: element.role, name: element.name, states: element.states, actions: element.actions, ...(element.bounds ? { bounds: element.bounds } : {}), ...(element.value !== undefined ? { value: element.value } : {}) };
}

/**
 * Whether the toolkit sets SHOWING at all: GTK 4.8 never does (only on the frame), so for it VISIBLE and
 * the geometry alone decide what is on screen.
 */
function setsShowing(dump: OracleDump): boolean {
  return dump.nodes.slice(1).some((node) => node.states.includes('showing'));
}

/** The part of a node a user can see: its extents cut by the window, the screen and every scrolling ancestor. */
function visiblePart(entry: OracleEntry, readings: Readings): CupRect | undefined {
  if (!isReal(entry.node.extents)) return undefined;
  let visible = intersection(rect(entry.node.extents), readings.window);
  visible = intersection(visible, { x: 0, y: 0, w: readings.screen.w, h: readings.screen.h });
  for (const ancestor of entry.ancestors) {
    if (VIEWPORT_ROLES.has(ancestor.role) && isReal(ancestor.extents)) visible = intersection(visible, rect(ancestor.extents));
  }
  return visible.w > 0 && visible.h > 0 ? visible : undefined;
}

/**
 * Actions that do not make a node something to act on: GTK 4 lists the action groups a widget carries
 * ("win.close", "clipboard.copy", "cal.solve") among its accessible actions on every container and label
 * (the app's commands, not something the node does); focusing and a context menu are offered on anything
 * (Qt's SetFocus, Chromium's showContextMenu; Qt's ShowMenu is a menu's real action); Gecko's clickAncestor forwards to an ancestor's handler.
 */
const NOT_OWN_ACTION = /^(?:[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|SetFocus|focus|grab focus|showContextMenu|clickAncestor)$/;

/**
 * Unnamed layout containers and unnamed blocks of text do not qualify by an action alone: toolkits hand them
 * the default action of a handler somewhere above or below (Blink's doDefault on every panel, paragraph and
 * label), and what an agent acts on or reads inside them (the static text carrying a label's words, a link)
 * is checked on its own.
 */
const CONTAINER_ROLES = new Set([
  'panel', 'section', 'filler', 'grouping', 'scroll pane', 'viewport', 'internal frame', 'landmark', 'form', 'document web',
  'document frame', 'split pane', 'layered pane', 'root pane', 'glass pane', 'frame', 'window', 'paragraph', 'label', 'static',
]);

function ownActions(node: DumpNode): string[] {
  return node.actions.filter((action) => !NOT_OWN_ACTION.test(action));
}

function qualifies(node: DumpNode): boolean {
  const acts = ownActions(node).length > 0 && !(CONTAINER_ROLES.has(node.role) && normalise(node.name) === '');
  return acts || node.states.includes('editable') || (node.is_label && normalise(node.name) !== '');
}

/** Our whole tree with parent links, by element index. */
class FullTree {
  readonly nodes: CupNode[] = [];
  private readonly parents = new Map<CupNode, CupNode | undefined>();

  constructor(roots: CupNode[]) {
    const visit = (node: CupNode, parent: CupNode | undefined) => {
      this.nodes.push(node);
      this.parents.set(node, parent);
      for (const child of node.children ?? []) visit(child, node);
    };
    for (const root of roots) visit(root, undefined);
  }

  chain(node: CupNode): CupNode[] {
    const chain: CupNode[] = [];
    for (let current: CupNode | undefined = node; current; current = this.parents.get(current)) chain.unshift(current);
    return chain;
  }
}

function indexOf(node: CupNode): number {
  return Number(node.id.slice(1));
}

function atspiRoleOf(node: CupNode): string | undefined {
  const role = node.platform?.linux?.atspiRole;
  return typeof role === 'string' ? role : undefined;
}

function hasAction(node: CupNode): boolean {
  return (node.actions ?? []).some((action) => action !== 'focus');
}

/** A node COMPACT.md hoists: dropped, its children processed in its place (and not clip-tested themselves). */
function hoisted(node: CupNode): boolean {
  if (node.name) return false;
  return node.role === 'generic' || node.role === 'region' || (node.role === 'group' && !hasAction(node));
}

function ourSummary(node: CupNode): Violation['ours'] {
  return {
    index: indexOf(node),
    role: node.role,
    name: node.name,
    states: node.states ?? [],
    actions: node.actions ?? [],
    ...(node.bounds ? { bounds: node.bounds } : {}),
    ...(atspiRoleOf(node) ? { atspiRole: atspiRoleOf(node) } : {}),
  };
}

function describeNode(node: CupNode): string {
  return `e${indexOf(node)} (${node.role} "${normalise(node.name).slice(0, 40)}", AT-SPI ${atspiRoleOf(node) ?? '?'}, bounds ${JSON.stringify(node.bounds ?? null)}, states ${JSON.stringify(node.states ?? [])})`;
}

/** Entirely outside the viewport (sharing an edge counts as outside), as COMPACT.md's clipping decides. */
function outside(bounds: CupRect, viewport: CupRect): boolean {
  return bounds.y + bounds.h <= viewport.y || bounds.y >= viewport.y + viewport.h || bounds.x + bounds.w <= viewport.x || bounds.x >= viewport.x + viewport.w;
}

/** Why COMPACT.md's pruning drops a node it has reached (not clipped, not hoisted), if it does. */
function skipReason(node: CupNode): { rule: Rule; why: string } | undefined {
  const b = node.bounds;
  // Unknown or sentinel extents: none, INT_MIN coordinates, -1 or zero sizes.
  const unknownPlace = !b || b.w <= 0 || b.h <= 0 || b.x <= -(2 ** 31) || b.y <= -(2 ** 31);
  if (SKIPPED_CUP_ROLES.has(node.role)) return { rule: 'missing', why: `skipped for its CUP role ${node.role}` };
  if (b && (b.w === 0 || b.h === 0)) return { rule: 'sentinel-hides-subtree', why: 'zero-size bounds skip the whole subtree' };
  if (node.states?.includes('offscreen') && !hasAction(node)) {
    return unknownPlace
      ? { rule: 'sentinel-hides-subtree', why: 'marked offscreen with unknown extents, hiding a subtree the oracle shows' }
      : { rule: 'offscreen-or-clipped', why: 'marked offscreen (and it has no action, so skipped)' };
  }
  if (node.role === 'img' && !node.name) return { rule: 'missing', why: 'skipped as an unnamed img' };
  if (node.role === 'text') return { rule: 'missing', why: 'skipped by the text rule (empty name, or a lone text child of a named parent)' };
  return undefined;
}

/**
 * Why a node that qualifies is not shown: walks its chain in our full tree from the window down as
 * COMPACT.md's pruning does (clip test against the inherited viewport unless the parent was hoisted, hoist,
 * skip, narrow the viewport at a kept scrolling node) and names the first node that drops the subtree.
 */
function explainMissing(entry: OracleEntry, tree: FullTree, shownIds: Set<number>, inStatusBar: boolean, readings: Readings): Violation {
  const { node } = entry;
  const target = rect(node.extents as Extents);
  const name = normalise(node.name);
  const ours =
    tree.nodes.find((candidate) => candidate.bounds && close(candidate.bounds, target) && roleAllowed(node.role, candidate.role) && normalise(candidate.name) === name) ??
    tree.nodes.find((candidate) => candidate.bounds && close(candidate.bounds, target) && roleAllowed(node.role, candidate.role)) ??
    tree.nodes.find((candidate) => name !== '' && normalise(candidate.name) === name && roleAllowed(node.role, candidate.role)) ??
    tree.nodes.find((candidate) => candidate.bounds && close(candidate.bounds, target));
  const base = { oracle: summary(entry) };
  const rule = (wanted: Rule): Rule => (inStatusBar ? 'status-label' : wanted);
  if (!ours) return { ...base, rule: rule('missing'), why: 'no node of our tree has these bounds and an allowed role, or this name' };
  const found = (wanted: Rule, why: string, at: CupNode): Violation => ({
    ...base,
    rule: rule(wanted),
    ours: ourSummary(ours),
    why: `${why}: ${at === ours ? 'the node itself' : `its ancestor ${describeNode(at)}`}`,
  });
  let viewport: CupRect = { x: 0, y: 0, w: readings.screen.w, h: readings.screen.h };
  let scroller: CupNode | undefined;
  let parentHoisted = true; // the window itself is never clip-tested
  for (const current of tree.chain(ours)) {
    if (!parentHoisted && current.bounds && outside(current.bounds, viewport)) {
      const by = scroller ? `the viewport of ${describeNode(scroller)}` : `the screen ${JSON.stringify(viewport)}`;
      const b = current.bounds;
      // Unknown or sentinel extents (-1, INT_MIN, zero size) read as a place outside the view.
      if (b.w <= 0 || b.h <= 0 || b.x <= -(2 ** 31) || b.y <= -(2 ** 31)) {
        return found('sentinel-hides-subtree', `unknown or sentinel extents clip the whole subtree into a "more items" hint (entirely outside ${by})`, current);
      }
      return found('offscreen-or-clipped', `clipped into a "more items" hint, entirely outside ${by}`, current);
    }
    parentHoisted = hoisted(current);
    if (parentHoisted) continue;
    const skipped = skipReason(current);
    if (skipped) return found(skipped.rule, skipped.why, current);
    if (current.bounds && current.actions?.includes('scroll')) {
      viewport = intersection(viewport, current.bounds);
      viewport = { ...viewport, w: Math.max(0, viewport.w), h: Math.max(0, viewport.h) };
      scroller = current;
    }
  }
  if (shownIds.has(indexOf(ours))) return { ...base, rule: rule('missing'), ours: ourSummary(ours), why: 'shown, but not where the oracle has it' };
  if (readings.capped) return { ...base, rule: rule('cut-by-cap'), ours: ourSummary(ours), why: `kept by the pruning, but the compact text was cut at its size cap before it ("${readings.capped}")` };
  return { ...base, rule: rule('missing'), ours: ourSummary(ours), why: 'in our tree and not dropped by any pruning rule on its chain, yet not shown' };
}

export function runChecks(readings: Readings): CheckResult {
  const entries = indexDump(readings.dump);
  const showingKnown = setsShowing(readings.dump);
  const tree = new FullTree(readings.full);
  const shownIds = new Set(readings.shown.map((element) => element.index));
  const withBounds = readings.shown.filter((element) => element.bounds);
  const result: CheckResult = { checked: 0, covered: 0, prunedBySpec: 0, outsideView: 0, unjudgedRoles: [], checkedNodes: [], violations: [] };
  const unjudged = new Set<string>();

  for (const entry of entries) {
    const { node } = entry;
    const lineage = [...entry.ancestors, node];
    const visible = lineage.every((n) => n.states.includes('visible')) && (!showingKnown || node.states.includes('showing'));
    if (!visible || !qualifies(node)) continue;
    const specPruned = lineage.find((n) => SPEC_PRUNED_ROLES.has(n.role) || isTooltipWindow(n));
    const inStatusBar = specPruned?.role === 'status bar' && node.is_label;
    if (specPruned && !inStatusBar) {
      result.prunedBySpec++;
      continue;
    }
    if (!visiblePart(entry, readings)) {
      if (isReal(node.extents)) result.outsideView++;
      continue;
    }
    if (!allowedCupRoles(node.role)) unjudged.add(node.role);
    result.checked++;
    const target = rect(node.extents as Extents);
    const line = `${node.role} '${normalise(node.name).slice(0, 60)}' ${target.x},${target.y} ${target.w}x${target.h}`;
    const covered = (by: number) => {
      result.covered++;
      result.checkedNodes.push({ node: line, covered_by: by });
    };
    const atBounds = withBounds.filter((element) => close(element.bounds!, target));
    const match = atBounds.find((element) => roleAllowed(node.role, element.role));
    if (match) {
      covered(match.index);
      if (match.states.includes('offscreen')) result.violations.push({ rule: 'offscreen-or-clipped', oracle: summary(entry), ours: elementSummary(match), why: 'shown, but marked offscreen although the oracle says SHOWING' });
      continue;
    }
    const name = normalise(node.name);
    if (node.is_label && name) {
      // A label whose text a shown ancestor's name already carries only repeats it.
      const repeated = readings.shown.find((element) => element.bounds && contains(element.bounds, target) && normalise(element.name).includes(name));
      if (repeated) {
        covered(repeated.index);
        continue;
      }
      // A label beside the control it names is said on that control's line (README: where the compact view departs).
      // So is a page's <label> around its control, whose words may be the control's name and the value it shows.
      const named = readings.shown.find(
        (element) => element.role !== 'text' && (normalise(element.name) === name || (element.value !== undefined && normalise(`${element.name} ${element.value}`) === name)) && element.actions.some((action) => action !== 'focus'),
      );
      if (named) {
        covered(named.index);
        continue;
      }
    }
    result.checkedNodes.push({ node: line });
    // Our tree has it at these bounds with an allowed role, but the pruning dropped it: say why.
    const pruned = tree.nodes.find((candidate) => candidate.bounds && close(candidate.bounds, target) && roleAllowed(node.role, candidate.role));
    if (pruned) {
      result.violations.push(explainMissing(entry, tree, shownIds, inStatusBar, readings));
      continue;
    }
    if (atBounds.length > 0) {
      result.violations.push({ rule: 'role', oracle: summary(entry), ours: elementSummary(atBounds[0]!), why: `shown at its bounds with another role; allowed for ${node.role}: ${[...(allowedCupRoles(node.role) ?? [])].join(', ')}` });
      continue;
    }
    const sameName = name
      ? readings.shown.find((element) => element.bounds && normalise(element.name) === name && roleAllowed(node.role, element.role) && intersection(element.bounds, target).w > 0 && intersection(element.bounds, target).h > 0)
      : undefined;
    if (sameName) {
      result.violations.push({ rule: 'bounds', oracle: summary(entry), ours: elementSummary(sameName), why: 'same name and role, bounds differ by more than 2 px' });
      continue;
    }
    result.violations.push(explainMissing(entry, tree, shownIds, inStatusBar, readings));
  }

  for (const element of readings.shown) {
    if (strayWhitespace(element.name)) result.violations.push({ rule: 'whitespace', ours: elementSummary(element), why: `name ${JSON.stringify(element.name)}` });
    if (element.name.includes('\uFFFC') || element.value?.includes('\uFFFC')) result.violations.push({ rule: 'fffc', ours: elementSummary(element), why: 'U+FFFC in the name or value' });
  }
  result.unjudgedRoles = [...unjudged].sort();
  return result;
}

/** Sentinel extents of the oracle's own, for the report: how many nodes answered a non-place. */
export function sentinelCount(dump: OracleDump): number {
  return dump.nodes.filter((node) => node.extents && isSentinel(node.extents)).length;
}
