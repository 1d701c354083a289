// A page an action set loading (a link followed, a form submitted) is waited for until it has loaded.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AccessibilityEvent, EventRecorder } from '../atspi/event-monitor.js';
import { readRole } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';

/** How long a page the action began loading is given to finish before its window is read: `navigate` gives 5 s. */
export const pageLoadMs = 5000;

const documentRoles = new Set<number>([ATSPI_ROLE.DOCUMENT_WEB, ATSPI_ROLE.DOCUMENT_FRAME]);

/** Events that say a document finished loading a page (document:load-complete, a reload, a stopped load). */
const loadEnds = new Set(['LoadComplete', 'Reload', 'LoadStopped']);

/**
 * The busy signs of the events that no load has ended since: an object turned busy, then neither back from busy nor
 * followed by a document of its app that finished loading. Gecko keeps a document busy while a form's submission or a
 * followed link loads the next page, and the action's usual wait ended within it: the result showed the window
 * untitled, the browser's Stop button and none of the next page. The next page is a new document, whose load-complete
 * ends the old one's busy sign (the old one is destroyed busy).
 */
function stillLoading(events: readonly AccessibilityEvent[]): Map<string, AccessibilityEvent> {
  const loading = new Map<string, AccessibilityEvent>();
  for (const event of events) {
    const key = `${event.sender} ${event.path}`;
    if (event.kind === 'StateChanged' && event.detail === 'busy') {
      if (event.detail1 !== 0) loading.set(key, event);
      else loading.delete(key);
    } else if (loadEnds.has(event.kind)) {
      for (const [other, sign] of loading) if (sign.sender === event.sender) loading.delete(other);
    }
  }
  return loading;
}

/**
 * Waits (until `limit`, or the signal) while a document of the page the action set loading is busy; at once when
 * none is. Only documents count: Gecko marks any element busy that says aria-busy, which is no page loading. One gone
 * before its role is read counts too: the old page's document is destroyed as the next one comes.
 */
export async function untilPageLoaded(desktop: LinuxDesktop, recorder: EventRecorder, limit: number, signal?: AbortSignal): Promise<void> {
  const client = await desktop.atspi();
  const roles = new Map<string, Promise<number>>();
  const roleOf = (event: AccessibilityEvent) => {
    const key = `${event.sender} ${event.path}`;
    if (!roles.has(key)) roles.set(key, readRole(client, { bus: event.sender, path: event.path }).catch(() => ATSPI_ROLE.DOCUMENT_WEB));
    return roles.get(key)!;
  };
  const busyDocument = async () => {
    const loading = [...stillLoading(recorder.events).values()];
    const found = await Promise.all(loading.map(async (event) => documentRoles.has(await roleOf(event))));
    return found.some(Boolean);
  };
  while (Date.now() < limit && !signal?.aborted && (await busyDocument())) await recorder.next(Math.min(50, limit - Date.now()));
}
