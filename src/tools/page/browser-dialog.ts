// A dialog the browser itself shows over a page (alert, confirm, prompt, "leave site?"): while it is open the
// page's script waits on it, so a page call can hang (Chromium answers nothing at all) or a navigation never
// ends. The dialog is in the window's accessibility tree, outside every web document (a page's own <dialog> is
// inside its document), so a page call that failed can say what holds the page and how to answer it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CupNode } from '../../cup/types.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { ToolError } from '../../errors.js';
import { READ_LIMITS } from '../input/action-diff.js';
import { preorder } from './accessible-page.js';

/** The codes of page calls that a dialog of the browser's can be behind: no page answered, a call or a navigation never ended. */
const HELD_CODES: ReadonlySet<string> = new Set(['page_unreachable', 'timeout', 'navigation_failed']);

/** How long a dialog the page's connection told of is looked for in the tree. */
const DIALOG_SHOWN_MS = 2000;

const TEXT_ROLES: ReadonlySet<string> = new Set(['text', 'paragraph', 'label', 'heading']);

/**
 * The dialogs in the tree that no web document holds, outermost first (a dialog's inner dialogs are its own).
 * Gecko draws its prompts as a frame of their own inside the window (a panel in an internal frame, shown as a
 * nested window, not always with a dialog role): a nested window that holds buttons and no web page counts.
 */
function browserDialogs(node: CupNode, found: CupNode[] = [], top = true): CupNode[] {
  if (node.role === 'document') return found;
  const promptFrame = !top && node.role === 'window' && !preorder(node).some((inner) => inner.role === 'document') && preorder(node).some((inner) => inner.role === 'button');
  if (node.role === 'dialog' || node.role === 'alertdialog' || promptFrame) {
    found.push(node);
    return found;
  }
  for (const child of node.children ?? []) browserDialogs(child, found, false);
  return found;
}

/** 'the dialog "Leave site?" (it says "Changes you made may not be saved."; buttons "Cancel", "Leave")'. */
function describeDialog(dialog: CupNode): string {
  const inside = preorder(dialog).slice(1);
  // A frame without a name is titled by the first named container in it (Gecko's "Are you sure?" panel).
  const title = dialog.name || inside.find((node) => node.name && !TEXT_ROLES.has(node.role) && node.role !== 'button')?.name || '';
  const field = (node: CupNode) => `a field "${node.name}" holding "${node.value ?? ''}"`;
  const words = [...new Set(inside.filter((node) => TEXT_ROLES.has(node.role) && node.name && node.name !== title).map((node) => `"${node.name}"`))];
  const parts = [
    ...(words.length ? [`it says ${words.join(', ')}`] : []),
    ...inside.filter((node) => node.role === 'textbox').map(field),
    ...(inside.some((node) => node.role === 'button' && node.name) ? [`buttons ${inside.filter((node) => node.role === 'button' && node.name).map((node) => `"${node.name}"`).join(', ')}`] : []),
  ];
  return `the dialog "${title}"${parts.length ? ` (${parts.join('; ')})` : ''}`;
}

/**
 * A page call's error, told what holds the page when the browser shows a dialog of its own in the window;
 * the error as it was otherwise (also when the window cannot be read).
 */
export async function withBrowserDialog(context: ToolContext, window: DesktopWindow, error: unknown): Promise<unknown> {
  if (!(error instanceof ToolError) || !HELD_CODES.has(error.code)) return error;
  // The page's debugging connection can tell of a dialog before the browser has put it in the tree: then the
  // tree is read again for a moment.
  const deadline = Date.now() + (error.details.dialog ? DIALOG_SHOWN_MS : 0);
  let dialogs: CupNode[] = [];
  for (;;) {
    const reading = await context.desktop.readWindow(window, READ_LIMITS).catch(() => undefined);
    dialogs = reading?.root ? browserDialogs(reading.root) : [];
    if (dialogs.length > 0 || Date.now() >= deadline) break;
    await sleep(150);
  }
  if (dialogs.length === 0) return error;
  return new ToolError(
    `${error.message}. The browser shows ${dialogs.map(describeDialog).join('; and ')}: the page waits until it is answered. ` +
      'Click one of its buttons (get_window_state lists them with their indices; set its field first to answer a prompt), then call page again',
    error.code,
    error.details,
  );
}
