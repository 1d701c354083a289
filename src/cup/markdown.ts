// A Markdown rendering of the pruned tree, for readers that prefer words to the compact codes.
// It shows the same nodes and hints as the compact format (see prune.ts).
import { actionsWithoutFocus, formatRect, hintText, quoteName, quoteValue, shownBounds } from './fields.js';
import { pruneTree, type PrunedItem } from './prune.js';
import { oneLine } from './text.js';
import type { CupDetail, CupEnvelope, CupNode } from './types.js';

export interface MarkdownOptions {
  detail?: CupDetail;
}

/**
 * Layout:
 *   # CUP tree: <app name>                  (`# CUP tree` without an app name)
 *   <platform> · screen <w>x<h> · <N> nodes (<M> before pruning)
 *   <blank line>
 *   - <role> "<name>" [element_index <n>] · value: "<v>" · states: a, b · actions: c, d · bounds: x,y wxh
 *     - *<total> more items — scroll <dirs> to see*
 * Nested list items indent two spaces per depth. Actions leave out `focus`, and bounds appear only
 * with another action, as in the compact format; the value is shown for every role, since this
 * rendering is not squeezed for tokens. Names are quoted and escaped exactly as in the compact
 * format but not Markdown-escaped, so the text stays verbatim for agents and for filterTreeText.
 */
export function toMarkdown(envelope: CupEnvelope, options: MarkdownOptions = {}): string {
  const pruned = pruneTree(envelope, options.detail ?? 'compact');
  const appName = envelope.app?.name ? oneLine(envelope.app.name) : '';
  const lines = [
    appName ? `# CUP tree: ${appName}` : '# CUP tree',
    `${envelope.platform} · screen ${envelope.screen.w}x${envelope.screen.h} · ` +
      `${pruned.keptCount} nodes (${pruned.rawCount} before pruning)`,
    '',
    ...pruned.items.map(itemLine),
  ];
  return `${lines.join('\n')}\n`;
}

function itemLine(item: PrunedItem): string {
  const indent = '  '.repeat(item.depth);
  return item.kind === 'hint' ? `${indent}- *${hintText(item)}*` : `${indent}- ${nodeItem(item.node)}`;
}

function nodeItem(node: CupNode): string {
  const title: string[] = [node.role];
  if (node.name) title.push(quoteName(node.name));
  title.push(`[element_index ${elementIndex(node.id)}]`);
  const details = [title.join(' ')];
  if (node.value) details.push(`value: ${quoteValue(node.value)}`);
  if (node.states?.length) details.push(`states: ${node.states.join(', ')}`);
  const actions = actionsWithoutFocus(node);
  if (actions.length > 0) details.push(`actions: ${actions.join(', ')}`);
  const bounds = shownBounds(node);
  if (bounds) details.push(`bounds: ${formatRect(bounds)}`);
  return details.join(' · ');
}

/** `e12` → `12`; an id outside the schema's `e<digits>` pattern is shown whole rather than guessed at. */
function elementIndex(id: string): string {
  return /^e\d+$/.test(id) ? id.slice(1) : id;
}
