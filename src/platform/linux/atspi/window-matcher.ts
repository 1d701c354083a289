import type { ClientWindow } from '../windows.js';
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AccessibleApplication, AccessibleTopLevel, AtspiClient } from './client.js';

export interface WindowMatch {
  app: AccessibleApplication;
  topLevel: AccessibleTopLevel;
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

function score(top: AccessibleTopLevel, window: ClientWindow): number {
  let points = 0;
  if (top.name === window.title) points += 100;
  else if (window.title && top.name && window.title.includes(top.name)) points += 30;
  if (windowRoles.has(top.role)) points += 10;
  if (window.active && hasState(top.states, ATSPI_STATE.ACTIVE)) points += 5;
  const extents = top.extents;
  if (extents) {
    // Sizes can differ by a few pixels of decoration; GTK4 reports its position as 0,0, so position only adds.
    if (sameSize(top, window)) points += 20;
    if (extents.x === window.bounds.x && extents.y === window.bounds.y) points += 20;
  }
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
 */
export async function matchWindow(client: AtspiClient, window: ClientWindow): Promise<WindowMatch | undefined> {
  const applications = await client.applications();
  const own = applications.filter((app) => app.pid === window.pid && window.pid > 0);
  const ownTopLevels = await Promise.all(
    own.map(async (app) => (await client.topLevels(app)).map((topLevel) => ({ app, topLevel }))),
  );
  const match = best(ownTopLevels.flat(), window);
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
