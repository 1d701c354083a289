// A dialog a web page's action opened inside the browser's window (a JavaScript alert, confirm or prompt): Gecko
// adds it as a frame of its own and fills it a moment later, after the action's first events have paused, so the
// window read right after the action showed an empty frame and the result never named the dialog. The wait for
// the action's effects goes on until the dialog shows its content.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AccessibilityEvent, EventRecorder } from '../atspi/event-monitor.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { addition } from '../atspi/window-mirror.js';
import { children, readRole } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';

/** Roles an in-window dialog comes as, or inside (Gecko's frame holds the dialog). */
const holders = new Set<number>([ATSPI_ROLE.INTERNAL_FRAME, ATSPI_ROLE.DIALOG, ATSPI_ROLE.ALERT]);
const dialogs = new Set<number>([ATSPI_ROLE.DIALOG, ATSPI_ROLE.ALERT]);
/** What Gecko's frame for a prompt holds. */
const framed = new Set<number>([...dialogs, ATSPI_ROLE.PANEL]);
/** Added children looked at, at most: an action that adds a page's list rows adds no dialog. */
const maxLooked = 4;
/** Between two looks at the dialog, in ms (sooner when the app sends an event). */
const lookEveryMs = 50;

/** The objects the events say were added, each once. */
function addedChildren(events: readonly AccessibilityEvent[]): ObjectRef[] {
  const found = new Map<string, ObjectRef>();
  for (const event of events) {
    const added = addition(event);
    if (added) found.set(added.path, { bus: event.sender, path: added.path });
  }
  return [...found.values()];
}

/**
 * Whether the object (or a child of it, for a frame) is a dialog with content yet; undefined when it holds none.
 * Gecko's frame holds a panel (named by the prompt's title; on some runs it is a dialog): a frame with neither yet is
 * one still being made, unless it holds a document (a page's iframe).
 */
async function dialogFilled(desktop: LinuxDesktop, ref: ObjectRef): Promise<boolean | undefined> {
  const client = await desktop.atspi();
  const role = await readRole(client, ref).catch(() => undefined);
  if (role === undefined || !holders.has(role)) return undefined;
  if (dialogs.has(role)) return (await children(client, ref).catch(() => [])).length > 0;
  const inside = await children(client, ref).catch(() => [] as ObjectRef[]);
  const roles = await Promise.all(inside.slice(0, maxLooked).map((child) => readRole(client, child).catch(() => undefined)));
  if (roles.some((each) => each === ATSPI_ROLE.DOCUMENT_WEB || each === ATSPI_ROLE.DOCUMENT_FRAME)) return undefined;
  const dialog = inside.find((_, i) => framed.has(roles[i] ?? -1));
  return dialog ? (await children(client, dialog).catch(() => [])).length > 0 : false;
}

/**
 * Waits (until `limit`) for a dialog the action's events show added, a frame for one included, to hold its content; at
 * once when none was added. Only for web engines, whose JavaScript dialogs come so.
 */
export async function untilBornDialogFilled(desktop: LinuxDesktop, recorder: EventRecorder, events: readonly AccessibilityEvent[], limit: number): Promise<void> {
  const added = addedChildren(events).slice(0, maxLooked);
  if (added.length === 0) return;
  const pending = async () => (await Promise.all(added.map((ref) => dialogFilled(desktop, ref)))).some((filled) => filled === false);
  while (Date.now() < limit && (await pending())) await recorder.next(Math.min(lookEveryMs, limit - Date.now()));
}
