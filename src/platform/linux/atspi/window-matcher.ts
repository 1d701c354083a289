import type { ClientWindow } from '../windows.js';
import { extentsScale } from '../extents-scale.js';
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AccessibleApplication, AccessibleTopLevel, AtspiClient } from './client.js';

export interface WindowMatch {
  app: AccessibleApplication;
  topLevel: AccessibleTopLevel;
  /** Chosen for want of a better one: neither its name nor its box agrees with the window (see matchWindow). */
  weak?: boolean;
}

// GTK gives a message dialog the role alert and a file or colour chooser dialog the chooser's role.
const windowRoles = new Set([
  ATSPI_ROLE.ALERT,
  ATSPI_ROLE.COLOR_CHOOSER,
  ATSPI_ROLE.DIALOG,
  ATSPI_ROLE.FILE_CHOOSER,
  ATSPI_ROLE.FRAME,
  ATSPI_ROLE.INTERNAL_FRAME,
  ATSPI_ROLE.WINDOW,
]);

/**
 * A top level that reports its states but is neither visible nor showing is not the mapped window on screen
 * (jEdit's hidden splash window, before its main frame reaches the bus): it must not be taken for it.
 */
function hidden(top: AccessibleTopLevel): boolean {
  const [low = 0, high = 0] = top.states;
  return (low !== 0 || high !== 0) && !hasState(top.states, ATSPI_STATE.SHOWING) && !hasState(top.states, ATSPI_STATE.VISIBLE);
}

/**
 * The box is the window's size, in the app's own units: `scale` screen pixels each for an app scaled on its own (GTK3
 * under GDK_SCALE=2 gave its question dialog, titled as its main window, no box agreeing with either window, and the
 * dialog's window was read as the main window's tree).
 */
function sameSize(top: AccessibleTopLevel, window: ClientWindow, scale: number): boolean {
  const extents = top.extents;
  return extents !== undefined && Math.abs(extents.w * scale - window.bounds.width) <= 12 && Math.abs(extents.h * scale - window.bounds.height) <= 40;
}

/**
 * See matchWindow: 1 when a top level is the window's size as it is, else the first scale a top level shows against
 * the window, those named as the window first (a question dialog's object is named 'Question', not as its title).
 */
function processScale(tops: readonly AccessibleTopLevel[], window: ClientWindow): number {
  if (tops.some((top) => sameSize(top, window, 1))) return 1;
  const named = (top: AccessibleTopLevel) => top.name === window.title || (window.title !== '' && top.name !== '' && window.title.includes(top.name));
  const ordered = [...tops.filter(named), ...tops.filter((top) => !named(top))];
  return ordered.map((top) => extentsScale(window.bounds, top.extents)).find((scale) => scale > 1) ?? 1;
}

/** What of the top level agrees with the window itself: its name with the title, its box with the window's. */
function evidence(top: AccessibleTopLevel, window: ClientWindow, scale: number): number {
  let points = 0;
  if (top.name === window.title) points += 100;
  else if (window.title && top.name && window.title.includes(top.name)) points += 30;
  const extents = top.extents;
  if (extents) {
    // Sizes can differ by a few pixels of decoration; GTK4 reports its position as 0,0, so position only adds. A scaled
    // app's position rounds to its units.
    if (sameSize(top, window, scale)) points += 20;
    if (Math.abs(extents.x * scale - window.bounds.x) < scale && Math.abs(extents.y * scale - window.bounds.y) < scale) points += 20;
  }
  return points;
}

function score(top: AccessibleTopLevel, window: ClientWindow, scale: number): number {
  let points = evidence(top, window, scale);
  if (windowRoles.has(top.role)) points += 10;
  if (window.active && hasState(top.states, ATSPI_STATE.ACTIVE)) points += 5;
  return points;
}

function best(candidates: WindowMatch[], window: ClientWindow, scale: number): WindowMatch | undefined {
  let chosen: WindowMatch | undefined;
  let chosenScore = 0;
  for (const candidate of candidates) {
    if (hidden(candidate.topLevel)) continue;
    const points = score(candidate.topLevel, window, scale);
    if (points > chosenScore) {
      chosen = candidate;
      chosenScore = points;
    }
  }
  return chosen;
}

/**
 * Among twins, the window's own: top levels that score alike against the window (Ristretto shows its thumbnailer
 * warning twice, two alerts of one name and box, neither active while another app is) stand for as many of the
 * process's windows that each agree alike with all of them, paired in the order both were made (X window ids grow
 * with each window a client makes; a toolkit lists the top levels it shows after it started in that order). The first
 * twin had been taken for every one of them: a background click on the top dialog's OK went to the OK of the one under
 * it, which GTK could not close until the top one was. `candidates` are in the application's order; a count that does
 * not pair up leaves `chosen` as it was.
 */
async function ownTwin(candidates: readonly WindowMatch[], chosen: WindowMatch, window: ClientWindow, siblings: () => Promise<readonly ClientWindow[]>, scale: number): Promise<WindowMatch> {
  const points = score(chosen.topLevel, window, scale);
  const twins = candidates.filter((candidate) => !hidden(candidate.topLevel) && score(candidate.topLevel, window, scale) === points);
  if (twins.length < 2) return chosen;
  const alike = (other: ClientWindow) => twins.every((twin) => evidence(twin.topLevel, other, scale) === evidence(twin.topLevel, window, scale));
  const windows = [window, ...(await siblings()).filter((other) => other.id !== window.id && other.pid === window.pid && alike(other))].sort((a, b) => a.id - b.id);
  return windows.length === twins.length ? twins[windows.indexOf(window)]! : chosen;
}

/**
 * The application's top levels: its root's children, and those of the other application objects it was heard to
 * hold windows under (see WindowRoots: Chromium's GTK dialogs).
 */
async function topLevelsOf(client: AtspiClient, app: AccessibleApplication): Promise<AccessibleTopLevel[]> {
  const others = await client.windowRoots.of(app.bus);
  const held = await Promise.all(
    others.map((path) =>
      client.topLevels({ bus: app.bus, path }).catch(() => {
        client.windowRoots.forget(app.bus, path);
        return [];
      }),
    ),
  );
  return [...(await client.topLevels(app)), ...held.flat()];
}

/**
 * Finds the accessible top-level object behind an X11 client window: first among the applications whose
 * bus connection belongs to the window's pid (answered by the bus daemon, so a hung app cannot block the
 * search), then, when the pid is unknown or differs (sandboxes, helpers), by title among all applications.
 * A timeout from the pid's own application is not swallowed: the caller reports the app as unresponsive.
 *
 * A top level whose box does not agree with the window is taken only when it agrees no better with another window of
 * the process. A message dialog titled after the dialog it belongs to ('Site Manager - Invalid data', its object
 * named after the message's kind, 'Warning') was read as that dialog, whose name its title holds, and a click on its
 * OK went to the dialog's OK under it. A window with no accessible object of its own (a splash screen, a surface no
 * widget draws, a browser's popup before its object registers) was read as the app's main window. A top level whose
 * name and box say nothing of this window may still be its (an app that names its frame otherwise and reports no
 * box): such a match is weak (not to be remembered). `siblings` lists the process's other windows, asked for only
 * when the box does not agree. `known` is the screen pixels per unit of the process's boxes, as its windows read
 * before showed it (extents-scale.ts); without it, a process none of whose top levels is the window's size is taken
 * to be at the scale its top level named as the window shows against it.
 */
export async function matchWindow(client: AtspiClient, window: ClientWindow, siblings: () => Promise<readonly ClientWindow[]>, known?: number): Promise<WindowMatch | undefined> {
  const applications = await client.applications();
  const own = applications.filter((app) => app.pid === window.pid && window.pid > 0);
  const ownTopLevels = (await Promise.all(own.map(async (app) => (await topLevelsOf(client, app)).map((topLevel) => ({ app, topLevel }))))).flat();
  const scale = known ?? processScale(ownTopLevels.map((candidate) => candidate.topLevel), window);
  const first = best(ownTopLevels, window, scale);
  const match = first && (await ownTwin(ownTopLevels, first, window, siblings, scale));
  if (match && !sameSize(match.topLevel, window, scale)) {
    const others = (await siblings()).filter((other) => other.id !== window.id && other.pid === window.pid);
    const unclaimed = ownTopLevels.filter((candidate) => !others.some((other) => evidence(candidate.topLevel, other, scale) > evidence(candidate.topLevel, window, scale)));
    const chosen = best(unclaimed, window, scale);
    return chosen && (evidence(chosen.topLevel, window, scale) === 0 ? { ...chosen, weak: true } : chosen);
  }
  if (match) return match;
  const others = applications.filter((app) => !own.includes(app));
  const otherTopLevels = await Promise.all(
    others.map(async (app) => {
      try {
        return (await client.topLevels(app)).map((topLevel) => ({ app, topLevel }));
      } catch {
        return [];
      }
    }),
  );
  // Another app's window with the same title is not this one: the size must agree too.
  const byTitle = otherTopLevels
    .flat()
    .filter((candidate) => candidate.topLevel.name === window.title && window.title !== '' && sameSize(candidate.topLevel, window, 1));
  return best(byTitle, window, 1);
}
