// A pointer drag: real input only (GTK and Qt take pointer motion from nothing else).
import { actionOutcome, notDelivered, type ActionOutcome, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { DragOptions } from '../../desktop.js';
import type { ElementTarget, PointTarget } from '../../targets.js';
import { ToolError } from '../../../errors.js';
import { readObject } from '../atspi/operations.js';
import { windowAt } from '../input/window-at.js';
import type { X11Connection } from '../x11/index.js';
import { drag as pointerDrag } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { drawnSurfaceOf, valueControlSurface, withSurfacePixels } from './drawn-surface-pixels.js';
import { screenPointNow } from './element-point.js';
import { reachablePoint } from './point-cover.js';
import { liveTarget } from './live-target.js';
import { observePixels } from './synthetic-rung.js';
import { focusMove } from './pointer.js';
import { toolkitName, withForeground } from './real-input.js';
import { observe, valueProbe } from './verification.js';

/**
 * Presses at from, moves to to and releases, with the window dragged from active; a slider's value is read back. An
 * end given as an element is the centre of its visible box once the window is in front (scrolled into view first, as
 * a foreground click's element is), so the agent need not turn the tree's screen boxes into screenshot pixels. A drop
 * on another window (a file dragged between two file managers' windows) is watched in that window's app, where the
 * drop's effect shows, and is refused before the press when the window dragged from, now in front, covers its point.
 */
export async function dragAction(desktop: LinuxDesktop, from: ElementTarget | PointTarget, to: ElementTarget | PointTarget, options: DragOptions): Promise<ActionOutcome> {
  if (options.mode === 'background') {
    const toolkit = await toolkitName(desktop, undefined, from.window.pid);
    return notDelivered(options.mode, `${toolkit} takes pointer drags only from real input; nothing was sent: ${RETRY_IN_FOREGROUND}`);
  }
  const between = to.window.id !== from.window.id;
  const [fromTarget, toTarget] = await Promise.all([from, to].map((end) => (end.kind === 'element' ? liveTarget(desktop, end) : end)));
  const observation = await withForeground(desktop, from.window, async (x) => {
    const placed = await screenPointNow(desktop, fromTarget!, x);
    const start = await reachablePoint(desktop, x, fromTarget!, placed);
    const end = await screenPointNow(desktop, toTarget!, x);
    if (between) await requireDropPointShown(x, start, end);
    const [near, nearTarget] = between ? [end, toTarget!] : [start, fromTarget!];
    const hit = nearTarget.kind === 'element' ? nearTarget.ref : await desktop.accessibleAt(near.window, near.screenX, near.screenY).catch(() => undefined);
    // Dragging a slider's knob changes its value: read it back, as well as what the app reports.
    const live = hit && !between ? await readObject(await desktop.atspi(), hit).catch(() => undefined) : undefined;
    const label = live?.name ? `"${live.name}"` : 'the dragged control';
    const probes = hit && live?.interfaces.includes('Value') ? [valueProbe(desktop, hit, label)] : [];
    // A page's drag and drop begins in the page's own process, after the motion that set it off: the button is held
    // for it at the drop point (a drag on a page that drags nothing so ends a second later). None begins from a control
    // holding a value (a slider's thumb): held there, it was jiggled a pixel to and fro for that second, its value with it.
    const startsIn = fromTarget!.kind === 'element' ? fromTarget!.ref : between ? await desktop.accessibleAt(start.window, start.screenX, start.screenY).catch(() => undefined) : hit;
    const web = startsIn ? ((await (await desktop.atspi()).quirksOf(startsIn.bus).catch(() => undefined))?.webEngine ?? false) : false;
    const run = async () => {
      await pointerDrag(x, { x: start.screenX, y: start.screenY }, { x: end.screenX, y: end.screenY }, {
        durationMs: options.durationMs,
        steps: options.steps,
        button: options.button,
        modifiers: [...options.modifiers],
        dropBeginsWithinMs: web && probes.length === 0 ? webDropBeginsMs : 0,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    };
    // No object lies there (a window with no tree: Tk's canvas): its pixels are what shows the drag, which had been
    // "effect not observable" while it drew a line across the canvas.
    if (!hit) return observePixels(desktop, near.window, run, options.signal);
    // Evidence names what the window's latest snapshot holds by its index, as a click's does. The press moves the
    // focus (a page's button lost it to the page as a card was dragged off): no sign that the drop did anything.
    // What the drop does comes after the release, and is waited for past what the drag's start did.
    const tree = () => observe(desktop, hit.bus, probes, run, { snapshot: between ? to.snapshot : from.snapshot, ignore: focusMove, signAfterAct: true });
    // A tile moved across a surface the app draws (Tetravex's board) shows only in that surface's pixels.
    // So does a slider whose app reports no value the pointer set.
    const surface = (await drawnSurfaceOf(desktop, near.window, hit)) ?? (probes.length > 0 ? await valueControlSurface(desktop, near.window, hit, label) : undefined);
    return surface ? withSurfacePixels(desktop, near.window, surface, tree) : tree();
  });
  // A drag already given by pixels is not helped by advice to address its ends by pixels.
  const byPixels = fromTarget!.kind === 'point' && toTarget!.kind === 'point';
  return actionOutcome({ path: 'x11_pixel_fg', mode: options.mode, observation, ...(byPixels ? { escalation: pixelDragEscalation } : {}) });
}

const pixelDragEscalation = {
  recommended: 'px' as const,
  reason:
    'the drag between these pixels showed no effect: check on a fresh get_window_state screenshot that what is to be dragged lies under the start point ' +
    '(a handle, a card, a selected item) and the drop target under the end point, or pass the ends as elements; an app that wants a slower motion takes duration_ms and steps',
};

/** How long a drag in a web page holds its button at the drop point, at most, for the page's drag and drop to begin. */
const webDropBeginsMs = 1000;

/** Refuses a drop on another window whose point some other window (the one dragged from, raised) lies over. */
async function requireDropPointShown(x: X11Connection, from: PointTarget, to: PointTarget): Promise<void> {
  const there = await windowAt(x, { x: to.screenX, y: to.screenY });
  if (there.client === to.window.id) return;
  const over = there.client === from.window.id ? `window ${from.window.id}, the one dragged from, now in front,` : there.topLevel === 0 ? 'no window' : `window ${there.client ?? there.topLevel}`;
  throw new ToolError(
    `the drop point ${to.screenX},${to.screenY} of window ${to.window.id} is covered: ${over} lies over it; nothing was sent. ` +
      'Move the windows apart first (set_window_frame), so the drop point shows beside the window dragged from',
    'drop_point_covered',
  );
}
