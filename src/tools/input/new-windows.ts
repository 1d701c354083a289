import { setTimeout as sleep } from 'node:timers/promises';
import { buildEnvelope, toCompact } from '../../cup/index.js';
import { newWindowOf, windowOpenedLine } from '../../platform/action-outcome.js';
import { seenBefore, windowName, type DesktopWindow, type WindowIdentity } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { readNumbered, rememberReading, type NumberedReading } from '../perception/window-snapshot.js';
import type { ActionResult } from './schemas.js';
import { settle } from './settle.js';

type NewWindow = NonNullable<ActionResult['new_windows']>[number];

// A dialog's tree is returned whole in the common case (a dozen controls) while a new main window cannot flood the result.
const TREE_LINES = 60;
const TREE_CHARS = 4000;
const READ_LIMITS = { maxNodes: 2000, maxDepth: 1000, budgetMs: 3000 };
// A toolkit registers a new window's accessible a moment after mapping it: the read is retried for this long.
const REGISTER_WAIT_MS = 1500;
const RETRY_MS = 250;
/**
 * A new window is read once its app has sent nothing for this long (at most NEW_WINDOW_SETTLE_MAX_MS): an app may fill
 * a window after mapping it, and Firefox's Save As dialog was read before its Save button was shown.
 */
const NEW_WINDOW_QUIET_MS = 100;
const NEW_WINDOW_SETTLE_MAX_MS = 1000;

async function readWhenRegistered(context: ToolContext, window: DesktopWindow): Promise<NumberedReading> {
  const watch = await context.desktop.watchChanges(window.pid).catch(() => undefined);
  if (watch) {
    try {
      await settle(watch, NEW_WINDOW_QUIET_MS, context.signal, NEW_WINDOW_SETTLE_MAX_MS, Date.now());
    } finally {
      watch.close();
    }
  }
  const deadline = Date.now() + REGISTER_WAIT_MS;
  for (;;) {
    const reading = await readNumbered(context, window, READ_LIMITS);
    // A window whose object holds nothing yet is being filled: GTK4 builds a shortcuts window's content after its
    // object registers, quiet meanwhile, and Text Editor's Keyboard Shortcuts came back as an empty window.
    if ((reading.root?.children?.length ?? 0) > 0 || Date.now() + RETRY_MS > deadline) return reading;
    await sleep(RETRY_MS);
  }
}

/** The compact tree's node lines, without the header (the window line says whose it is), cut to TREE_LINES. */
function boundedTree(text: string, windowId: number): string {
  const lines = text.split('\n');
  const body = lines.slice(lines.indexOf('') + 1).filter((line) => line !== '');
  if (body.length <= TREE_LINES) return body.join('\n');
  return [...body.slice(0, TREE_LINES), `# ${body.length - TREE_LINES} more lines: call get_window_state with window_id ${windowId}`].join('\n');
}

/**
 * The top-level windows an action opened: those its backend saw its app open, and those of any app that
 * appeared on the desktop while it ran (another program it started), each once.
 */
export function appearedWindows(before: readonly WindowIdentity[], after: readonly DesktopWindow[], reported: readonly NewWindow[] = []): NewWindow[] {
  const known = seenBefore(before);
  const listed = new Set(reported.map((window) => window.window_id));
  const others = after
    .filter((window) => !known(window) && !listed.has(window.id))
    .map(newWindowOf);
  return [...reported, ...others];
}

/**
 * An action after which its app shows a top-level window it did not show before did something, whatever its rung
 * saw: ctrl+s sent to AbiWord's window (whose canvas has no accessibility, so its pixels are the read-back) opened
 * the Save dialog, a window of its own, and the call said `no effect seen` and offered a retry that would have
 * opened a second one. Windows of other processes may be anyone's, and confirm nothing; nor does what was never sent.
 */
export function confirmedByOpenedWindows(result: ActionResult, pid: number): ActionResult {
  const opened = (result.new_windows ?? []).filter((entry) => entry.pid === pid && entry.tree_error !== closedAgain);
  return confirmedWith(result, opened.map(windowOpenedLine));
}

/**
 * An action sent, not cancelled and not yet confirmed, confirmed by what `lines` say it did (said first in its
 * evidence, and no retry advised); the result as it was when there are none. An action its target's read-back
 * refutes is only told of them: text typed into Mousepad on a layout the keys did not match came out garbled, and the
 * title's modified mark it gained confirmed the typing.
 */
export function confirmedWith(result: ActionResult, lines: readonly string[]): ActionResult {
  if (lines.length === 0 || result.effect === 'confirmed' || result.path === 'none' || result.cancelled) return result;
  if (result.refuted) return { ...result, evidence: [...lines, ...(result.evidence ?? [])] };
  return { ...result, effect: 'confirmed', verified: true, escalation: undefined, evidence: [...lines, ...(result.evidence ?? [])] };
}

/**
 * An action after which a window of its app has another title did something, whatever its rung saw: a click on
 * jEdit's Save button (an accessibility action) saved the file and took "(modified)" out of the title, and the call
 * said `no effect seen` and offered a retry in the foreground, which would have done it again; Java announces no
 * change of its frame's name on the bus, and its text area shows nothing there. So it is with the app's other
 * windows: Replace All in jEdit's Search And Replace dialog changes the text and the title of the main window, not
 * the dialog, and they are listed in other_windows_changed. The titles are the window manager's, read just before
 * the action and right after it; the action's own window's comes first.
 */
export function confirmedByRenamedWindows(result: ActionResult, window: DesktopWindow, before: readonly DesktopWindow[], after: readonly DesktopWindow[]): ActionResult {
  const renamed = before
    .filter((entry) => entry.pid === window.pid)
    .sort((a, b) => Number(b.id === window.id) - Number(a.id === window.id))
    .flatMap((entry) => {
      const now = after.find((candidate) => candidate.id === entry.id && candidate.pid === entry.pid);
      return now && now.title !== entry.title ? [{ from: entry, now }] : [];
    });
  const others = renamed.filter(({ now }) => now.id !== window.id && !result.other_windows_changed?.some((listed) => listed.window_id === now.id));
  const listed = others.length > 0 ? { ...result, other_windows_changed: [...(result.other_windows_changed ?? []), ...others.map(({ now }) => ({ window_id: now.id, title: now.title }))] } : result;
  const lines = renamed.map(({ from, now }) => renameLine(now.id, from.title, now.title));
  // Said first even when something else confirmed the action: a title is what a person sees change. jEdit's Save,
  // once Java's status-bar message confirmed it, no longer said that "(modified)" left the title. Not where a line
  // tells the new title already: a page's retitle is told by its document's new name, and the window's line beside
  // it said the same title twice.
  if (listed.effect === 'confirmed' && listed.path !== 'none' && !listed.cancelled) return withTitlesFirst(listed, renamed.map(({ from, now }) => ({ id: now.id, from: from.title, to: now.title })));
  return confirmedWith(listed, lines);
}

/**
 * A confirmed result with the renamings of its windows said first, each unless a line tells its new title already (see
 * confirmedByRenamedWindows).
 */
function withTitlesFirst(result: ActionResult, renamings: readonly { id: number; from: string; to: string }[]): ActionResult {
  const evidence = result.evidence ?? [];
  const untold = renamings.filter(({ to }) => !evidence.some((line) => line.includes(to))).map(({ id, from, to }) => renameLine(id, from, to));
  return untold.length > 0 ? { ...result, evidence: [...untold, ...evidence] } : result;
}

/**
 * An action whose window is gone once it ended closed it, whenever the app did so: a dialog's Return answered 300 ms
 * later in the app's idle time, on a loaded machine after the wait for a first sign had ended, read "no effect seen",
 * with a foreground retry advised, beside "no diff: the window closed".
 */
export function confirmedByClosedWindow(result: ActionResult, window: DesktopWindow, after: readonly DesktopWindow[]): ActionResult {
  if (after.some((candidate) => candidate.id === window.id)) return result;
  return confirmedWith(result, [`window ${window.id} ${windowName(window)} closed or hidden`]);
}

/**
 * The same for the window's name as its two readings around the action hold it (the root of its tree): an app that
 * renames its window a moment after the action (jEdit saves, then drops "(modified)") does so after the window
 * manager's title was read, and before the reading after.
 */
export function confirmedByRename(result: ActionResult, windowId: number, from: string, to: string): ActionResult {
  if (from === to) return result;
  // The window's own name in its tree is its title too, said first as the window manager's is: jEdit's Save read only
  // Java's status-bar message when the window manager had not yet taken the new title as the window was listed.
  if (result.effect === 'confirmed' && result.path !== 'none' && !result.cancelled) return withTitlesFirst(result, [{ id: windowId, from, to }]);
  return confirmedWith(result, [renameLine(windowId, from, to)]);
}

function renameLine(windowId: number, from: string, to: string): string {
  return `window ${windowId} was renamed "${from}" → "${to}"`;
}

const closedAgain = 'the window closed again';

/**
 * Each new window's compact tree and a snapshot of it, so the agent can act on a dialog the action opened
 * without another call. A window that closed again, or shows no tree in time, says why instead.
 */
export async function withTrees(context: ToolContext, windows: readonly NewWindow[], all: readonly DesktopWindow[]): Promise<NewWindow[]> {
  if (windows.length === 0) return [];
  const screen = await context.desktop.screen();
  return Promise.all(
    windows.map(async (entry): Promise<NewWindow> => {
      const window = all.find((candidate) => candidate.id === entry.window_id);
      if (!window) return { ...entry, tree_error: closedAgain };
      const reading = await readWhenRegistered(context, window);
      if (!reading.root) return { ...entry, tree_error: reading.missingReason ?? 'no accessibility tree' };
      const { snapshot } = rememberReading(context, window, reading);
      const envelope = buildEnvelope({
        platform: context.desktop.platform,
        screen: { w: screen.width, h: screen.height, scale: screen.scale },
        app: { name: window.appName, pid: window.pid },
        scope: 'full',
        tree: [reading.root],
      });
      // An untitled window whose object registered after the listing that found it is named by its tree's root.
      const name = entry.title.trim() === '' && !entry.accessible_name && reading.root.name.trim() ? { accessible_name: reading.root.name.trim() } : {};
      return { ...entry, ...name, snapshot_id: snapshot.id, tree: boundedTree(toCompact(envelope, { maxChars: TREE_CHARS }), window.id) };
    }),
  );
}
