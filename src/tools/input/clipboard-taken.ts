// An app's copy command (a "To Clipboard" button, Edit > Copy) often changes nothing its accessibility tree shows:
// KCharSelect's To Clipboard read "no effect seen", with advice to click again in the foreground, while the clipboard
// held the character. The X server tells each time a client takes the clipboard; a take by the action's app is the
// action's effect, told with what the clipboard holds now.
import { quoteValue } from '../../cup/fields.js';
import type { ClipboardTakes } from '../../platform/desktop-services.js';
import type { ToolContext } from '../context.js';
import { confirmedWith } from './new-windows.js';
import type { ActionResult } from './schemas.js';

/** The evidence line for the clipboard taken by `pid` while `takes` heard, or undefined when it was not (the caller closes `takes`). */
export async function clipboardTakenLine(context: ToolContext, takes: ClipboardTakes | undefined, pid: number): Promise<string | undefined> {
  if (!takes) return undefined;
  try {
    if (!(await takes.takers()).includes(pid)) return undefined;
    const held = await context.desktop.readClipboardText().catch(() => undefined);
    return held ? `the app put ${quoteValue(held.text)} on the clipboard` : 'the app took the clipboard (it offers no text)';
  } catch {
    return undefined;
  }
}

/** The result with the clipboard's line: its evidence where it saw no other, else one more line of it. */
export function withClipboardTaken(result: ActionResult, line: string | undefined): ActionResult {
  if (!line) return result;
  if (result.effect === 'confirmed') return { ...result, evidence: [...(result.evidence ?? []), line] };
  return confirmedWith(result, [line]);
}
