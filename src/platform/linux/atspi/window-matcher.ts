import type { ClientWindow } from '../windows.js';
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AccessibleApplication, AccessibleTopLevel, AtspiClient } from './client.js';

export interface WindowMatch {
  app: AccessibleApplication;
  topLevel: AccessibleTopLevel;
  /** Chosen for want of a better one: neither its name nor its box agrees with the window (see matchWindow). */
  weak?: boolean;
}

const windowRoles = new Set([ATSPI_ROLE.DIALOG, ATSPI_ROLE.FRAME, ATSPI_ROLE.INTERNAL_FRAME, ATSPI_ROLE.WINDOW]);

/**
 * A top level that reports its states but is neither visible nor showing is not the mapped window on screen
 * (jEdit's hidden splash window, before its main frame reaches the bus): it must not be taken for it.
 */
function hidden(top: AccessibleTopLevel): boolean {
  const [low = 0, high = 0] = top.states;
  return (low !== 0 || high !== 0) && !hasState(top.states, ATSPI_STATE.SHOWING) && !hasState(top.states, ATSPI_STATE.VISIBLE);
}

function sameSize(top: AccessibleTopLevel, window: ClientWindow): boolean {
  const extents = top.extents;
  return extents !== undefined && Math.abs(extents.w - window.bounds.width) <= 12 && Math.abs(extents.h - window.bounds.height) <= 40;
}

/** What of the top level agrees with the window itself: its name with the title, its box with the window's. */
function evidence(top: AccessibleTopLevel, window: ClientWindow): number {
  let points = 0;
  if (top.name === window.title) points += 100;
  else if (window.title && top.name && window.title.includes(top.name)) points += 30;
  const extents = top.extents;
  if (extents) {
    // Sizes can differ by a few pixels of decoration; GTK4 reports its position as 0,0, so position only adds.
    if (sameSize(top, window)) points += 20;
    if (extents.x === window.bounds.x && extents.y === window.bounds.y) points += 20;
  }
  return points;
}

function score(top: AccessibleTopLevel, window: ClientWindow): number {
  let points = evidence(top, window);
  if (windowRoles.has(top.role)) points += 10;
  if (window.active && hasState(top.states, ATSPI_STATE.ACTIVE)) points += 5;
  return points;
}

function best(candidates: WindowMatch[], window: ClientWindow): WindowMatch | undefined {
  let chosen: WindowMatch | undefined;
  let chosenScore = 0;
  for (const candidate of candidates) {
    if (hidden(candidate.topLevel)) continue;
    const points = score(candidate.topLevel, window);
    if (points > chosenScore) {
      chosen = candidate;
      chosenScore = points;
    }
  }
  return chosen;
}

/**
 * Finds the accessible top-level object behind an X11 client window: first among the applications whose
 * bus connection belongs to the window's pid (answered by the bus daemon, so a hung app cannot block the
 * search), then, when the pid is unknown or differs (sandboxes, helpers), by title among all applications.
 * A timeout from the pid's own application is not swallowed: the caller reports the app as unresponsive.
 *
 * A top level whose name and box say nothing of this window may still be its (an app that names its frame
 * otherwise and reports no box), but not when it agrees better with another window of the process: a window with
 * no accessible object of its own (a splash screen, a surface no widget draws, a browser's popup before its
 * object registers) was read as the app's main window, whose tree then came back under the other window's id.
 * Nor is a top level named by the window's title whose box agrees better with another window of the process (a
 * dialog titled as its main window: the main window's tree came back for the dialog). `siblings` lists the process's
 * other windows, asked for only in these cases; a match by neither name nor box is weak (not to be remembered).
 */
export async function matchWindow(client: AtspiClient, window: ClientWindow, siblings: () => Promise<readonly ClientWindow[]>): Promise<WindowMatch | undefined> {
  const applications = await client.applications();
  const own = applications.filter((app) => app.pid === window.pid && window.pid > 0);
  const ownTopLevels = (await Promise.all(own.map(async (app) => (await client.topLevels(app)).map((topLevel) => ({ app, topLevel }))))).flat();
  const match = best(ownTopLevels, window);
  // A title several windows of the app share (a question titled as its main window, whose object is named "Question"):
  // a top level named by it whose box is another window's, not this one's, is that window's.
  if (match && match.topLevel.extents && !sameSize(match.topLevel, window)) {
    const others = (await siblings()).filter((other) => other.id !== window.id && other.pid === window.pid);
    const claimed = (candidate: WindowMatch) => others.some((other) => evidence(candidate.topLevel, other) > evidence(candidate.topLevel, window));
    if (claimed(match)) {
      const chosen = best(ownTopLevels.filter((candidate) => !claimed(candidate)), window);
      return chosen && (evidence(chosen.topLevel, window) > 0 ? chosen : { ...chosen, weak: true });
    }
  }
  if (match && evidence(match.topLevel, window) === 0) {
    const others = (await siblings()).filter((other) => other.id !== window.id && other.pid === window.pid);
    const unclaimed = ownTopLevels.filter((candidate) => !others.some((other) => evidence(candidate.topLevel, other) > 0));
    const chosen = best(unclaimed, window);
    return chosen && { ...chosen, weak: true };
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
    .filter((candidate) => candidate.topLevel.name === window.title && window.title !== '' && sameSize(candidate.topLevel, window));
  return best(byTitle, window);
}
