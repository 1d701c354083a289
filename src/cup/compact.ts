// The CUP compact text format (COMPACT.md), byte for byte.
import { actionCode, roleCode, stateCode } from './codes.js';
import { dialogsOverPages, inertPageNote } from './inert-page.js';
import { actionsWithoutFocus, formatRect, hintText, quoteName, quoteValue, shownBounds, shownValue } from './fields.js';
import { pruneTree, type PrunedItem, type PrunedTree } from './prune.js';
import { codePointLength, firstCodePoints, oneLine } from './text.js';
import type { CupAttributes, CupDetail, CupEnvelope, CupNode, CupWindowInfo } from './types.js';

export const DEFAULT_MAX_CHARS = 40_000;

export interface CompactOptions {
  detail?: CupDetail;
  /** Safety cap in code points; 0 turns it off. */
  maxChars?: number;
  /**
   * Windows listed in the header. Defaults to `envelope.windows` when the scope is `foreground`
   * (the one scope that shows a window list next to the tree); pass `[]` to leave it out.
   */
  windowList?: readonly CupWindowInfo[];
}

const WINDOW_TITLE_LIMIT = 50;
const PLACEHOLDER_LIMIT = 30;
/** An error message is the agent's next step ("Use at least 8 characters"): a sentence is kept whole. */
const ERROR_MESSAGE_LIMIT = 100;

export function toCompact(envelope: CupEnvelope, options: CompactOptions = {}): string {
  const pruned = pruneTree(envelope, options.detail ?? 'compact');
  const windows = options.windowList ?? (envelope.scope === 'foreground' ? envelope.windows : undefined) ?? [];
  const header = [...headerLines(envelope, pruned, windows), ''];
  return capLines(header, pruned, options.maxChars ?? DEFAULT_MAX_CHARS);
}

function headerLines(envelope: CupEnvelope, pruned: PrunedTree, windows: readonly CupWindowInfo[]): string[] {
  const lines = [`# CUP ${envelope.version} | ${envelope.platform} | ${envelope.screen.w}x${envelope.screen.h}`];
  // Header values are folded onto one line: a newline in a title would otherwise start a bogus line.
  if (envelope.app) lines.push(`# app: ${oneLine(envelope.app.name ?? '')}`);
  lines.push(`# ${pruned.keptCount} nodes (${pruned.rawCount} before pruning)`);
  for (const dialog of dialogsOverPages(envelope.tree)) lines.push(`# ${inertPageNote(dialog)}`);
  const toolCount = envelope.tools?.length ?? 0;
  if (toolCount > 0) lines.push(`# ${toolCount} WebMCP ${toolCount === 1 ? 'tool' : 'tools'} available`);
  if (windows.length > 0) {
    lines.push(`# --- ${windows.length} open windows ---`);
    for (const window of windows) {
      const title = oneLine(firstCodePoints(window.title ?? '', WINDOW_TITLE_LIMIT));
      lines.push(`#   ${title}${window.foreground ? ' [fg]' : ''}`);
    }
  }
  return lines;
}

function itemLine(item: PrunedItem): string {
  const indent = '  '.repeat(item.depth);
  return item.kind === 'hint' ? `${indent}# ${hintText(item)}` : `${indent}${nodeLine(item.node)}`;
}

function nodeLine(node: CupNode): string {
  const fields = [`[${node.id}]`, roleCode(node.role)];
  if (node.name) fields.push(quoteName(node.name));
  const bounds = shownBounds(node);
  if (bounds) fields.push(formatRect(bounds));
  if (node.states?.length) fields.push(`{${node.states.map(stateCode).join(',')}}`);
  const actions = actionsWithoutFocus(node);
  if (actions.length > 0) fields.push(`[${actions.map(actionCode).join(',')}]`);
  const value = shownValue(node);
  if (value) fields.push(`val=${quoteValue(value)}`);
  const attributes = node.attributes && attributeFields(node.attributes);
  if (attributes?.length) fields.push(`(${attributes.join(' ')})`);
  return fields.join(' ');
}


/** An attribute's words quoted on one line, cut to `limit` code points (no ellipsis: a hint, not a value), quotes escaped. */
function quotedAttribute(text: string, limit: number): string {
  return `"${oneLine(firstCodePoints(text, limit)).replaceAll('"', '\\"')}"`;
}

function attributeFields(attributes: CupAttributes): string[] {
  const fields: string[] = [];
  if (attributes.level !== undefined) fields.push(`L${attributes.level}`);
  // An empty placeholder says nothing, like an empty name or value.
  if (attributes.placeholder) {
    fields.push(`ph=${quotedAttribute(attributes.placeholder, PLACEHOLDER_LIMIT)}`);
  }
  if (attributes.orientation) fields.push(attributes.orientation.charAt(0));
  if (attributes.sort) fields.push(`sort=${attributes.sort}`);
  if (attributes.invalid) fields.push('invalid');
  // Why, where the page ties its message to the field: the message may stand anywhere on the page.
  if (attributes.errorMessage) fields.push(`err=${quotedAttribute(attributes.errorMessage, ERROR_MESSAGE_LIMIT)}`);
  // How a reader announces the region's changes: where a page's output shows, and whether it interrupts.
  if (attributes.live) fields.push(`live=${attributes.live}`);
  if (attributes.valueMin !== undefined || attributes.valueMax !== undefined) {
    // String() already prints integral numbers without a decimal point (100, not 100.0).
    fields.push(`range=${attributes.valueMin ?? ''}..${attributes.valueMax ?? ''}`);
  }
  return fields;
}

/**
 * Joins the lines and applies the safety cap: keeps the longest run of whole lines (newline
 * included) that fits in `maxChars` code points, then appends a footer saying what was cut.
 */
function capLines(header: readonly string[], pruned: PrunedTree, maxChars: number): string {
  return capped([...header, ...pruned.items.map(itemLine)], header.length, pruned.keptCount, maxChars);
}

/** A compact node line (`[e12] btn ...`), as opposed to the header, a hint or a footer. */
const nodeLinePattern = /^\s*\[e\d+\]/;
const nodeLines = (lines: readonly string[]) => lines.filter((line) => nodeLinePattern.test(line)).length;

/** The header's count of node lines (headerLines), `# <N> nodes (`. */
const nodeCountPattern = /^# \d+ nodes? \(/;

/**
 * The safety cap applied to compact text already narrowed by a query (filterTreeText): the query is applied to
 * the whole text first, so a match past the cap is found, and the cap then counts what the query kept. Capping
 * first lost every match in the part cut off, and the footer then counted nodes the query had removed. The header's
 * count is of the node lines the query kept, as the format has it: it had said "20 nodes" over the 6 lines a query kept.
 */
export function capCompactText(text: string, maxChars = DEFAULT_MAX_CHARS): string {
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const firstNode = lines.findIndex((line) => nodeLinePattern.test(line));
  const header = firstNode === -1 ? lines.length : firstNode;
  const total = nodeLines(lines);
  const countLine = lines.findIndex((line, index) => index < header && nodeCountPattern.test(line));
  if (countLine >= 0) lines[countLine] = lines[countLine]!.replace(nodeCountPattern, `# ${total} nodes (`);
  return capped(lines, header, total, maxChars);
}

function capped(lines: readonly string[], headerCount: number, totalNodes: number, maxChars: number): string {
  const text = `${lines.join('\n')}\n`;
  if (maxChars <= 0 || codePointLength(text) <= maxChars) return text;

  let used = 0;
  let kept = 0;
  for (const line of lines) {
    const cost = codePointLength(line) + 1;
    if (used + cost > maxChars) break;
    used += cost;
    kept++;
  }
  const shownNodes = nodeLines(lines.slice(headerCount, Math.max(headerCount, kept)));
  const footer = [
    `# output truncated at ${maxChars} characters: ${shownNodes} of ${totalNodes} nodes shown`,
    '# to narrow it, filter with a query, raise the character limit, or request one subtree with detail "full"',
  ];
  return `${[...lines.slice(0, kept), ...footer].join('\n')}\n`;
}
