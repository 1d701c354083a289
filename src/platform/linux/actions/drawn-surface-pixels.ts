// Real input on a surface the app draws itself (a game's board: AisleRiot's cards, Tetravex's tiles): the tree holds
// nothing of what it shows, so a move there changes nothing the app reports, and a tile dragged across Tetravex's
// board read "no effect seen" while the board was drawn anew. The surface's own pixels are read back too.
import { setTimeout as sleep } from 'node:timers/promises';
import { ATSPI_ROLE_NAMES } from '../../../cup/atspi/constants.js';
import { isDrawnSurfaceShape } from '../../../cup/atspi/raw-node.js';
import { decodeStateSet } from '../../../cup/atspi/states.js';
import { pixelChange, type PixelChange } from '../../../image/diff.js';
import type { Observation } from '../../action-outcome.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { childCount, readRole, readStates } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { meaningful } from './synthetic-rung.js';

/** How long the surface is watched for its change after the app's own signs, in ms (observePixels' half second). */
const surfaceWatchMs = 500;

export interface DrawnSurface {
  /** Its box in the window's pixels, as a capture of the window holds it. */
  box: { x: number; y: number; w: number; h: number };
  /** What a change of its pixels means, for the evidence (default: the surface the app draws changed). */
  meaning?: string;
}

/** The drawn surface the object under a point is, as src/cup/atspi/convert.ts marks one (isDrawnSurfaceShape), placed in the window. */
export async function drawnSurfaceOf(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef | undefined): Promise<DrawnSurface | undefined> {
  if (!ref) return undefined;
  const client = await desktop.atspi();
  const [role, children, states] = await Promise.all([readRole(client, ref).catch(() => -1), childCount(client, ref).catch(() => -1), readStates(client, ref).catch(() => [])]);
  if (!isDrawnSurfaceShape(ATSPI_ROLE_NAMES[role] ?? '', children, decodeStateSet(states))) return undefined;
  const bounds = await desktop.elementBounds(window, ref);
  return bounds && { box: { x: bounds.x - window.bounds.x, y: bounds.y - window.bounds.y, w: bounds.w, h: bounds.h } };
}

/**
 * A control holding a number (a slider) that a drag moved, placed in the window: Chromium reports no value that a
 * pointer set (a range input's thumb dragged from 50 to 90 kept reading 50, pyatspi too, and the drag read "no
 * effect seen"), though it draws the thumb where it went.
 */
export async function valueControlSurface(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef, label: string): Promise<DrawnSurface | undefined> {
  const bounds = await desktop.elementBounds(window, ref);
  const meaning = `${label} was drawn anew, though the value it reports stayed the same (its app does not report every value the pointer sets: read it in a screenshot)`;
  return bounds && { box: { x: bounds.x - window.bounds.x, y: bounds.y - window.bounds.y, w: bounds.w, h: bounds.h }, meaning };
}

/**
 * The tree's observation of the input, and, when it saw nothing, the surface's pixels: captured before `observeTree`
 * runs the input, and again until they change by more than a caret's blink, for half a second at most.
 */
export async function withSurfacePixels(desktop: LinuxDesktop, window: ClientWindow, surface: DrawnSurface, observeTree: () => Promise<Observation>): Promise<Observation> {
  const before = await desktop.captureWindow(window);
  const observed = await observeTree();
  if (observed.changed || observed.cancelled || observed.unanswered || observed.stoppedAnswering) return observed;
  let change: PixelChange = { count: 0 };
  for (const deadline = Date.now() + surfaceWatchMs; ; await sleep(40)) {
    change = pixelChange(before, await desktop.captureWindow(window), surface.box);
    if (meaningful(change) || Date.now() >= deadline) break;
  }
  if (!meaningful(change)) return observed;
  const { x, y, w, h } = change.box!;
  return { ...observed, changed: true, evidence: [`${surface.meaning ?? 'the surface the app draws changed'}: ${change.count} pixels in ${x},${y} ${w}x${h} (window pixels)`, ...observed.evidence] };
}
