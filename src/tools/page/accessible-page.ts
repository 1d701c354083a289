// get_text and query_dom without a debugging endpoint: the web document as the accessibility tree shows
// it. Text is the document's names and values in reading order; a selector is answered only when it names
// plain tags (a, button, h1..h6, input, ...): the elements whose roles those tags take are the candidates, and
// each one's real tag, where the browser states it among its attributes (Chromium and Firefox do), decides.
import { indexOf } from '../../cup/diff.js';
import type { CupNode, CupRole } from '../../cup/types.js';
import type { WindowReading } from '../../platform/desktop.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { READ_LIMITS } from '../input/action-diff.js';
import { ToolError } from '../../errors.js';

/** The CUP roles a tag's elements take in the tree (Chromium and Firefox map HTML to the same ARIA roles). */
const rolesOfTag: Record<string, readonly CupRole[]> = {
  a: ['link'],
  button: ['button'],
  input: ['textbox', 'searchbox', 'checkbox', 'radio', 'slider', 'spinbutton', 'combobox', 'button'],
  textarea: ['textbox'],
  select: ['combobox', 'list'],
  option: ['option', 'menuitem'],
  img: ['img'],
  h1: ['heading'], h2: ['heading'], h3: ['heading'], h4: ['heading'], h5: ['heading'], h6: ['heading'],
  li: ['listitem'],
  ul: ['list'],
  ol: ['list'],
  table: ['table', 'grid'],
  tr: ['row'],
  td: ['cell'],
  th: ['columnheader', 'rowheader'],
  form: ['form'],
  nav: ['navigation'],
  main: ['main'],
  header: ['banner'],
  footer: ['contentinfo'],
  aside: ['complementary'],
  dialog: ['dialog'],
  progress: ['progressbar'],
};

/** A node and all its descendants, in reading order. */
export function preorder(node: CupNode): CupNode[] {
  return [node, ...(node.children ?? []).flatMap(preorder)];
}

/** The window's web documents (a page, and the frames inside it count as part of it), and the reading they are from. */
async function documents(context: ToolContext, window: DesktopWindow, refusal: ToolError): Promise<{ outer: CupNode[]; reading: WindowReading }> {
  const reading = await context.desktop.readWindow(window, READ_LIMITS);
  const found = reading.root ? preorder(reading.root).filter((node) => node.role === 'document') : [];
  // The outermost documents only: an iframe's document lies inside its page's.
  const outer = found.filter((node) => !found.some((other) => other !== node && preorder(other).includes(node)));
  if (outer.length === 0) {
    throw new ToolError(`${refusal.message}; nor does its accessibility tree show a web document${reading.missingReason ? ` (${reading.missingReason})` : ''}`, refusal.code, refusal.details);
  }
  return { outer, reading };
}

/** The document's text as the tree has it: each leaf's name (a field's value), one per line, in reading order. */
export async function accessibleText(context: ToolContext, window: DesktopWindow, refusal: ToolError): Promise<string> {
  const lines: string[] = [];
  for (const document of (await documents(context, window, refusal)).outer) {
    for (const node of preorder(document)) {
      if (node === document) continue;
      const text = node.role === 'textbox' || node.role === 'combobox' ? (node.value ?? '') : node.children?.length ? '' : node.name;
      if (text.trim() && lines.at(-1) !== text.trim()) lines.push(text.trim());
    }
  }
  return lines.join('\n');
}

export interface AccessibleElement {
  tag: string;
  node: CupNode;
}

/** The elements a tag selector ("a", "h1, h2", "button") names, from the tree; other selectors are refused. */
export async function accessibleQuery(context: ToolContext, window: DesktopWindow, selector: string, refusal: ToolError): Promise<AccessibleElement[]> {
  const tags = selector.split(',').map((part) => part.trim().toLowerCase());
  const unknown = tags.filter((tag) => !rolesOfTag[tag]);
  if (unknown.length > 0) {
    throw new ToolError(
      `${refusal.message}. Without it query_dom answers only selectors of plain tag names that the accessibility tree tells apart ` +
        `(${Object.keys(rolesOfTag).join(', ')}); "${unknown.join('", "')}" is not one`,
      refusal.code,
      refusal.details,
    );
  }
  const { outer, reading } = await documents(context, window, refusal);
  const candidates: AccessibleElement[] = [];
  for (const document of outer) {
    for (const node of preorder(document)) {
      // A heading's level tells h1 from h2; a role several tags take goes to the tag whose first role it is ("button, input").
      const fitting = tags.filter((candidate) => {
        if (!rolesOfTag[candidate]!.includes(node.role)) return false;
        const level = /^h([1-6])$/.exec(candidate)?.[1];
        return !level || node.attributes?.level === undefined || node.attributes.level === Number(level);
      });
      const tag = fitting.sort((a, b) => rolesOfTag[a]!.indexOf(node.role) - rolesOfTag[b]!.indexOf(node.role))[0];
      if (tag) candidates.push({ tag, node });
    }
  }
  // A role says what an element does, not its tag (an <input type="submit"> and a <button> are both buttons): the
  // browser's own word for the tag, where it gives one, keeps or drops each candidate.
  const stated = await Promise.all(candidates.map(async ({ node }) => {
    const handle = reading.handles.get(indexOf(node));
    return handle ? (await context.desktop.elementAttributes(handle))?.tag?.toLowerCase() : undefined;
  }));
  return candidates.flatMap((candidate, i) => {
    const tag = stated[i];
    if (tag === undefined) return [candidate];
    return tags.includes(tag) ? [{ ...candidate, tag }] : [];
  });
}
