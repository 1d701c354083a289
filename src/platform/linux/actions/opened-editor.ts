// An in-place editor that real input opened, for the foreground's give-back: toolkits end an item view's editing when
// its window loses the focus (Qt commits it and closes the editor), so F2 pressed in the foreground on PCManFM-Qt's
// file list opened the rename field, and giving the window active before its place back closed it again at once,
// while the result said the field had opened.
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { ancestry, readText } from '../atspi/operations.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { liveStates } from './live-states.js';

/** How much of the editor's text the evidence quotes. */
const quotedLength = 60;

/**
 * Starts watching, before the input, for an editor it opens in `window`; the function returned answers, at the
 * give-back, what the input opened and left the focus in: an editable object of the window that took the focus and
 * was shown during the input (by the app's events since now), still focused, other than `aimedAt`, the element the
 * input was sent to. Undefined when there is none (a field
 * of a dialog the input opened is the dialog's, which the give-back does not close).
 */
export async function editorOpenedDuring(desktop: LinuxDesktop, window: ClientWindow, aimedAt?: ObjectRef): Promise<() => Promise<string | undefined>> {
  const client = await desktop.atspi();
  // The app's focus is known by its events: heard from now on, if not already.
  await client.events.follow().catch(() => {});
  const since = performance.now();
  const focusedBefore = new Map(client.events.focusedObjects());
  return async () => {
    for (const [bus, path] of client.events.focusedObjects()) {
      if (focusedBefore.get(bus) === path || (await client.pidOf(bus).catch(() => 0)) !== window.pid) continue;
      // The field the input was sent to was there before it, whatever its toolkit says of it as its window activates:
      // Java's bridge announces the focused field showing again, and Groovy Console's script editor, given real
      // ctrl+Return, read as "the text field it opened for editing", and kept its window active.
      if (aimedAt && aimedAt.bus === bus && aimedAt.path === path) continue;
      const shown = client.events
        .heard(bus, since, performance.now())
        .some(({ event }) => event.path === path && event.kind === 'StateChanged' && (event.detail === 'showing' || event.detail === 'visible') && event.detail1 !== 0);
      if (!shown) continue;
      const ref = { bus, path };
      const states = await liveStates(desktop, ref);
      if (!states.has('STATE_FOCUSED') || !states.has('STATE_EDITABLE')) continue;
      const top = (await desktop.topLevelOf(window))?.topLevel;
      if (!top || !(await ancestry(client, ref)).paths.includes(top.path)) continue;
      const text = await readText(client, ref, quotedLength).catch(() => undefined);
      return `the text field it opened for editing${text ? ` (holding ${JSON.stringify(text)})` : ''}`;
    }
    return undefined;
  };
}
