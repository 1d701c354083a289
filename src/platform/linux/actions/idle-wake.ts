import type { ClientWindow } from '../windows.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { mappedLibraries } from '../desktop/process-toolkit.js';

/**
 * wxWidgets on GTK runs its idle handlers (EVT_UPDATE_UI, with which apps enable, disable and relabel controls after
 * each change, and its queued events) only once a GDK event has reached one of its widgets: it re-arms its idle source
 * from an emission hook on GtkWidget's "event" signal. An action done through accessibility comes over D-Bus with no
 * X event, so what the app updates at idle stayed as it was: after a background click on Poedit's "Use custom
 * expression" radio button, its expression field stayed disabled until the pointer next moved over the window, and
 * set_value on it was refused. A person's click always brings X events.
 *
 * A property changed on the app's top-level windows is an X event, and no input: wx's frames listen for property
 * changes (they read _NET_FRAME_EXTENTS so), so GDK hands the change to the frame's widget and the idle handlers run.
 * The property is the driver's own and means nothing to anyone.
 */
export async function wakeIdleHandlers(desktop: LinuxDesktop, pid: number, windows: readonly ClientWindow[] | undefined): Promise<void> {
  if (!windows?.length || !runsIdleOnXEventsOnly(pid)) return;
  try {
    const x = await desktop.x11();
    const atom = await x.internAtom(wakeProperty);
    await Promise.all(windows.map((window) => x.changeProperty(window.id, atom, cardinalAtom, 32, [++wakes])));
  } catch {
    // A window gone meanwhile: what the action did is read back as any other's.
  }
}

const wakeProperty = '_CUP_DRIVER_WAKE';
/** XA_CARDINAL, predefined by the X protocol. */
const cardinalAtom = 6;
/** A new value for each wake (a count), so each is a change. */
let wakes = 0;

/** wxGTK's core library, whichever GTK it is built on (libwx_gtk3u_core-3.2.so, libwx_gtk2u_core-3.0.so). */
const wxGtkCore = /\/libwx_gtk\d\w*_core[-.]/;

/** What the libraries of the processes acted on told, by pid (a browser's maps run to hundreds of kilobytes). */
const toldByPid = new Map<number, boolean>();
/** How many processes' answers are kept; the oldest go first. */
const keptAnswers = 64;

/** Whether the process is a wxGTK app, told by the libraries it has mapped, once per process. */
function runsIdleOnXEventsOnly(pid: number): boolean {
  if (pid <= 0) return false;
  const told = toldByPid.get(pid);
  if (told !== undefined) return told;
  const libraries = mappedLibraries(pid);
  if (!libraries) return false;
  const wx = [...libraries].some((path) => wxGtkCore.test(path));
  toldByPid.set(pid, wx);
  if (toldByPid.size > keptAnswers) toldByPid.delete(toldByPid.keys().next().value!);
  return wx;
}
