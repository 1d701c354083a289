import { ATSPI_ROLE_NAMES, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import { isTerminalRow } from '../../../cup/atspi/terminal-rows.js';
import { itemsLeftUnmarked, VIEW_ITEM_ATSPI_ROLES } from '../../../cup/atspi/unmarked-items.js';
import { indexedLabel } from '../../../cup/element-label.js';
import { ToolError } from '../../../errors.js';
import type { ElementTarget, SnapshotElement } from '../../targets.js';
import { childAt, childCount, parentOf, readObject, readRole, readStates, type ObjectFactsNow } from '../atspi/operations.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { ApplicationGoneError } from '../atspi/application-gone.js';
import { DBusError, DBusTimeoutError, peerLeftTheBus } from '../dbus/index.js';
import { atspiElement, type AtspiElement } from '../element-handle.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { WindowRect } from '../../windows.js';
import type { ClientWindow } from '../windows.js';
import type { Actionable } from './accessible-actions.js';

/** An element target checked live: the AT-SPI object it names, and what that object is now. */
export interface LiveElementTarget extends ElementTarget {
  window: ClientWindow;
  ref: AtspiElement;
  /** What the object is now, read live: proof it is still the object the agent saw. */
  live: ObjectFactsNow;
  /** An item of a view that marks none of its items enabled or sensitive (itemsLeftUnmarked): not disabled for lacking both. */
  sensitivityUnmarked?: true;
}

function staleError(element: SnapshotElement, snapshotId: string, why: string): ToolError {
  return new ToolError(
    `element [e${element.index}] (${element.role} "${element.name}") of snapshot ${snapshotId} ${why}; the window changed since ` +
      'that snapshot: call get_window_state again and use the new index. Nothing was clicked or typed.',
    'stale_element',
  );
}

/**
 * Checks, live, that the element's object still exists and is still what it was (same role, not defunct).
 * It never falls back to "the element now at that position in the tree", so a changed UI cannot redirect
 * an action.
 */
export async function liveTarget(desktop: LinuxDesktop, target: ElementTarget): Promise<LiveElementTarget> {
  const { snapshot, element } = target;
  const ref = atspiElement(element.handle);
  if (isTerminalRow(ref.path)) throw terminalRowError(target, (await desktop.windows()).find((window) => window.id === snapshot.windowId)?.bounds);
  const client = await desktop.atspi();
  let live: ObjectFactsNow;
  try {
    live = await readObject(client, ref);
  } catch (error) {
    if (error instanceof DBusTimeoutError) {
      throw new ToolError(`the application (pid ${snapshot.pid}) did not answer within ${desktop.callTimeoutMs} ms; it may be hung`, 'app_not_responding');
    }
    if (error instanceof ApplicationGoneError || peerLeftTheBus(error)) {
      throw new ToolError(`the application (pid ${snapshot.pid}) has exited, and its window with it; nothing was clicked or typed`, 'window_gone', { pid: snapshot.pid });
    }
    if (error instanceof DBusError) throw staleError(element, snapshot.id, 'no longer exists in the application');
    throw error;
  }
  if (hasState(live.states, ATSPI_STATE.DEFUNCT)) throw staleError(element, snapshot.id, 'is defunct (its widget was destroyed)');
  if (live.role !== ref.atspiRole) {
    throw staleError(element, snapshot.id, `is now a different object (${ATSPI_ROLE_NAMES[live.role] ?? live.role}, was ${ATSPI_ROLE_NAMES[ref.atspiRole]})`);
  }
  return { ...target, ref, live };
}

/** A terminal's row is text on its screen (terminal-rows.ts): what an agent can do there instead, with the numbers to do it. */
function terminalRowError({ element }: ElementTarget, window: WindowRect | undefined): ToolError {
  const terminal = element.parent === undefined ? 'the terminal' : `the terminal [e${element.parent}]`;
  const box = element.bounds;
  const pixels = box && window ? ` x=${Math.round(box.x - window.x + box.w / 2)}, y=${Math.round(box.y - window.y + box.h / 2)} (window pixels, delivery_mode "foreground")` : ' its pixels';
  return new ToolError(
    `[e${element.index}] is a row of ${terminal}'s screen ("${element.name}"), text the terminal shows and no object of the app, so it takes no action: ` +
      `to act in the terminal, type_text or press_key with element_index ${element.parent ?? 'of the terminal'} (or the window alone); to click on the row, click at${pixels}`,
    'terminal_row',
  );
}

/** Neither enabled nor sensitive is how every toolkit says disabled (GTK4 sets only SENSITIVE on what works). */
export function isDisabled(states: readonly number[]): boolean {
  return !hasState(states, ATSPI_STATE.ENABLED) && !hasState(states, ATSPI_STATE.SENSITIVE);
}

/**
 * How long an action on a disabled element waits for the app to enable it. Apps enable a control a moment after
 * the input that allows it, not within it (GTK's file chooser enables Save once it has looked at the typed name,
 * about 100-300 ms later), so an action sent right after that input, as a plan's next step is, would otherwise be
 * refused for a state that is about to end.
 */
export const ENABLE_WAIT_MS = 1000;

/**
 * The element as it is once the app has enabled it, when it was disabled: waits up to ENABLE_WAIT_MS, woken by the
 * app's accessibility events (not polling), re-reading the object's states after each. Returns the target as it
 * was when the app did not enable it in time (refuseDisabled then refuses it).
 */
export async function untilEnabled(desktop: LinuxDesktop, target: LiveElementTarget): Promise<LiveElementTarget> {
  if (!isDisabled(target.live.states)) return target;
  if (await inUnmarkedView(desktop, target.ref, target.live.role)) return { ...target, sensitivityUnmarked: true };
  const deadline = Date.now() + ENABLE_WAIT_MS;
  const watch = await desktop.watchChanges(target.snapshot.pid).catch(() => undefined);
  if (!watch) return target;
  const client = await desktop.atspi();
  try {
    // Read once after the watch is set up: an enabling between the first reading and the watch would not wake it.
    for (let woken = true; woken; woken = (await watch.next(Math.max(0, deadline - Date.now()))) !== undefined) {
      const live = await readObject(client, target.ref).catch(() => undefined);
      if (!live) return target;
      if (!isDisabled(live.states)) return { ...target, live };
      if (Date.now() >= deadline) break;
    }
  } finally {
    watch.close();
  }
  return target;
}

/** Items of its view asked at most whether the view marks its items enabled at all. */
const maxItemsAsked = 20;

/**
 * Whether the object (of that AtspiRole) is an item of a view that leaves its items' sensitivity unmarked
 * (itemsLeftUnmarked): its lacking both states says nothing, as the tree shows it (convert.ts). Read live: the view
 * and its first items.
 */
export async function inUnmarkedView(desktop: LinuxDesktop, ref: ObjectRef, role: number): Promise<boolean> {
  if (!VIEW_ITEM_ATSPI_ROLES.has(role)) return false;
  const client = await desktop.atspi();
  try {
    const view = await parentOf(client, ref);
    if (!view) return false;
    const [viewStates, count] = await Promise.all([readStates(client, view), childCount(client, view)]);
    const items = await Promise.all(
      Array.from({ length: Math.min(count, maxItemsAsked) }, async (_, index) => {
        const item = await childAt(client, view, index);
        if (!item) return undefined;
        const [role, states] = await Promise.all([readRole(client, item), readStates(client, item)]);
        return VIEW_ITEM_ATSPI_ROLES.has(role) ? isDisabled(states) : undefined;
      }),
    );
    return itemsLeftUnmarked(isDisabled(viewStates), items.filter((item) => item !== undefined));
  } catch {
    // A view that does not answer tells nothing: the item's own states stand.
    return false;
  }
}

/**
 * A click on a disabled control does nothing in the app, whichever way it is sent: it is refused before anything
 * goes, in the background and the foreground alike, rather than sent and judged by side effects (a tooltip hiding).
 * `waitedMs`: how long it was given to become enabled (untilEnabled).
 */
export function refuseDisabled(states: readonly number[], what: string, gesture: string, waitedMs?: number): void {
  if (!isDisabled(states)) return;
  throw new ToolError(
    `${what} is disabled (the app reports it neither enabled nor sensitive${waitedMs ? `, and did not enable it within ${waitedMs} ms` : ''}), so a ${gesture} would do nothing; nothing was sent. ` +
      'Do what enables it first, then call get_window_state to see it enabled',
    'element_disabled',
  );
}

/**
 * The element once the app has enabled it (untilEnabled), else refused (refuseDisabled): the one rule for every action
 * on an element, a click and a set_value alike. set_value on File Roller's disabled "Split into volumes of" check box
 * was sent and read "no effect seen", where a click on it was refused element_disabled.
 */
export async function enabledOrRefused(desktop: LinuxDesktop, target: LiveElementTarget, gesture: string): Promise<LiveElementTarget> {
  const enabled = await untilEnabled(desktop, target);
  if (!enabled.sensitivityUnmarked) refuseDisabled(enabled.live.states, indexedLabel(enabled.element), gesture, ENABLE_WAIT_MS);
  return enabled;
}

/** The element as something to act on. */
export function actionable(target: LiveElementTarget): Actionable {
  return { ref: target.ref, role: target.element.role, atspiRole: target.live.role, interfaces: target.live.interfaces };
}
