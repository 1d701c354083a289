// A popover that real input opened inside its window, for the foreground's give-back: GTK3 draws a popover in its
// window (no X window of its own, so no popup the window list shows) and closes it when the window loses the focus.
// A foreground click on a GNOME Sudoku cell opened its number picker, and giving the window active before its place
// back closed it at once, while the result said the click had changed the cell.
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { childPath } from '../atspi/event-monitor.js';
import { liveStates } from './live-states.js';

/** How long the app is given to show what the input opens, in ms, and the pause in its events that ends the wait. */
const openingMs = 250;
const pauseMs = 40;

/** What popoverOpenedDuring watches with: `answer` at the give-back, `stop` once the input is over (given back or not). */
export interface PopoverWatch {
  /** `handled`: the app has handled the input already (see RealInputOptions.sentOnceHandled): no wait for it. */
  answer(handled: boolean): Promise<string | undefined>;
  stop(): void;
}

/**
 * Starts listening, before the input, to the app of `window`; `answer`, at the give-back, says whether the input
 * opened a popover that is still up: an object the app added to the window's own top-level object (where GTK3 puts
 * its popovers, over the window's content), showing. The app's events are waited for until they pause, openingMs at
 * most: the give-back comes as soon as the input is sent, before the app has handled it. A dialog the input opened is
 * a window of its own, which the give-back leaves open.
 */
export async function popoverOpenedDuring(desktop: LinuxDesktop, window: ClientWindow): Promise<PopoverWatch> {
  const client = await desktop.atspi();
  const top = (await desktop.topLevelOf(window).catch(() => undefined))?.topLevel;
  const recorder = top && (await client.events.record(top.bus).catch(() => undefined));
  const answer = async (handled: boolean): Promise<string | undefined> => {
    if (!top || !recorder) return undefined;
    // A typing's keys were all handled by the give-back: waiting for the app's events to pause cost every foreground
    // typing 40 ms or more (its text's events go on to the last key).
    if (!handled) {
      const limit = Date.now() + openingMs;
      if (recorder.events.length === 0) await recorder.next(openingMs);
      while (Date.now() < limit && (await recorder.next(Math.min(pauseMs, limit - Date.now()))));
    }
    const added = recorder.events.filter((event) => event.kind === 'ChildrenChanged' && event.detail.startsWith('add') && event.path === top.path).map((event) => childPath(event.data));
    for (const path of new Set(added)) {
      if (path && (await liveStates(desktop, { bus: top.bus, path }).catch(() => new Set<string>())).has('STATE_SHOWING')) return 'the popover it opened';
    }
    return undefined;
  };
  return { answer, stop: () => recorder?.stop() };
}
