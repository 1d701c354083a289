// Hovering: the real pointer comes to rest over an element or a point and stays there, so that what an app shows
// only under the pointer (a tool tip, a :hover menu, a highlight) appears and can be read.
import { actionOutcome, type ActionOutcome } from '../../action-outcome.js';
import type { ElementTarget, PointTarget } from '../../targets.js';
import { ToolError } from '../../../errors.js';
import { arriveAt } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { elementScreenPoint, mightScrollIntoView, screenPointNow, type PlacedPoint } from './element-point.js';
import { otherThanAppAt, reachablePoint } from './point-cover.js';
import { liveTarget, type LiveElementTarget } from './live-target.js';
import { observePixels } from './synthetic-rung.js';
import { nameProbe, observe, statesProbe, type Probe } from './verification.js';
import { objectUnderInput, unansweredPixels } from './unresponsive.js';

export interface HoverOptions {
  /** How long to wait for the app's reaction once the pointer is there, in ms. */
  dwellMs: number;
  signal?: AbortSignal;
}

/** What hovering may change on the element itself: a menu button opening its menu, a row taking the selection. */
const hoverStates = ['expanded', 'selected'];

/** The point over the target with the window where it is now, or undefined when it must be in front to have one. */
async function pointInPlace(desktop: LinuxDesktop, target: LiveElementTarget | PointTarget): Promise<PlacedPoint | undefined> {
  // A minimized window has no geometry, and an element scrolled out of view may need the wheel, which needs the window in front.
  if (target.window.minimized) return undefined;
  try {
    return target.kind === 'element' ? await elementScreenPoint(desktop, target) : await screenPointNow(desktop, target);
  } catch (error) {
    if (mightScrollIntoView(error)) return undefined;
    throw error;
  }
}

/**
 * Moves the real pointer over the target and leaves it there (putting it back would hide what the hover shows), then
 * waits up to dwellMs for the app's reaction: a tool tip appearing, the element's states and the app's other events. The
 * window is raised only when it must be: the point is covered by another program's window (or the window is
 * minimized), checked as a foreground click checks its point; it is then left in front, since giving the front back
 * to the window that covered the point would take the pointer's place over again. A window the pointer can reach
 * is not raised or focused: toolkits and browsers show hover effects in windows without the focus.
 */
export async function hoverAction(desktop: LinuxDesktop, aimed: ElementTarget | PointTarget, options: HoverOptions): Promise<ActionOutcome> {
  const target = aimed.kind === 'element' ? await liveTarget(desktop, aimed) : aimed;
  const x = await desktop.x11();
  let point = await pointInPlace(desktop, target);
  const cover = point && (await otherThanAppAt(desktop, x, point));
  let raised: string | undefined;
  if (!point || cover) {
    if (!(await desktop.activateWindow(target.window))) {
      throw new ToolError(`window ${target.window.id} could not be brought to the front${cover ? ` (${cover} lies over the point)` : ''}; the pointer was not moved`, 'activation_failed');
    }
    raised = cover ? `window ${target.window.id} raised first: ${cover} lay over the point` : `window ${target.window.id} brought to the front first`;
    const placed = await screenPointNow(desktop, target, x);
    // A window kept above the others stays over the point: an element is hovered where it shows, and a point under
    // such a window is refused naming it (it was "the point is not on the window").
    point = await reachablePoint(desktop, x, target, placed);
  }
  const at = point;
  const move = async () => {
    await arriveAt(x, { x: at.screenX, y: at.screenY });
    await x.sync();
  };
  const under = target.kind === 'element' ? { ref: target.ref } : await objectUnderInput(desktop, at.window, at.screenX, at.screenY);
  const app = under.ref?.bus;
  // No accessibility under the point: the window's pixels are the read-back (a highlight is what hovering there draws).
  const observation = app
    ? await observe(desktop, app, hoverProbes(desktop, target), move, { snapshot: target.snapshot, settleMs: options.dwellMs, firstSignMs: options.dwellMs, toolTips: true, ...(options.signal ? { signal: options.signal } : {}) })
    : await observePixels(desktop, at.window, move, options.signal);
  const seen = under.silent ? unansweredPixels(observation, at.window.pid, desktop.callTimeoutMs) : observation;
  const outcome = actionOutcome({
    path: 'x11_pixel_fg',
    mode: 'foreground',
    observation: seen,
    escalation: {
      recommended: 'px',
      reason:
        `the pointer rests at ${at.screenX},${at.screenY} and nothing the app reports changed within ${options.dwellMs} ms: what hovering draws only in pixels (a highlight) ` +
        'shows on a get_window_state screenshot; a tool tip may come later (a longer dwell_ms), or the element shows nothing on hover',
    },
  });
  const evidence = [...(raised ? [raised] : []), ...(outcome.evidence ?? [])];
  const placed = at.scrolledIntoView ? { scrolled_into_view: true as const } : {};
  return { ...outcome, ...placed, ...(evidence.length > 0 ? { evidence } : {}) };
}

/** The element's own read-back (the app's tool tips and other changes come as its events). */
function hoverProbes(desktop: LinuxDesktop, target: LiveElementTarget | PointTarget): Probe[] {
  if (target.kind !== 'element') return [];
  const label = `[e${target.element.index}]`;
  return [nameProbe(desktop, target.ref, label), statesProbe(desktop, target.ref, label, hoverStates, target.live.role)];
}
