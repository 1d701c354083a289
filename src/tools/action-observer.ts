// What happens around every action call, on the one path all calls take (run.ts): the agent cursor flies to the
// action's point before it, and a recording session gets a turn folder after it (with a ring flashed at a click
// for the screen video). A call that is no action, in a session that neither records nor shows a cursor, costs
// nothing here.
import { setTimeout as delay } from 'node:timers/promises';
import { renderClickRing } from '../image/overlays.js';
import type { DesktopWindow } from '../platform/windows.js';
import { withWarning, type ToolCallResult } from './call-result.js';
import type { ToolContext } from './context.js';
import { cursorIdOf, existingCursorSettings, glideCursor } from './cursor/agent-cursors.js';
import type { Point } from './cursor/motion.js';
import { keyboardWindow, resolveElement, resolvePoint, type AddressingArgs } from './input/targets.js';
import { describeElement, type ElementDescriptor } from './recording/element-locator.js';
import { recordingOf, type Recording } from './recording/recordings.js';
import { turnName, writeTurn, type TurnCall } from './recording/turn.js';
import type { ToolDefinition } from './tool.js';

const CLICK_FAMILY = new Set(['click', 'double_click', 'right_click']);
/** How long a click's ring stays on the screen for the video. */
const RING_MS = 400;
const RING_COLOUR = '#ffcc00';

/**
 * Actions on apps: input tools whose effects reach the apps. A plan (run_actions) is not one: its steps come
 * through here one by one.
 */
function isAction(tool: ToolDefinition): boolean {
  return tool.capability === 'input' && tool.annotations.openWorld && tool.name !== 'run_actions';
}

/** Where an action acts, worked out from its arguments as the tool itself will (a problem here is the tool's to report). */
interface Aim {
  window?: DesktopWindow;
  /** Screen pixels. */
  point?: Point;
  /** The same point in real window pixels. */
  windowPoint?: Point;
  element?: ElementDescriptor;
  windowPixels?: Record<string, number>;
}

function centreOf(bounds: { x: number; y: number; w: number; h: number } | undefined): Point | undefined {
  return bounds && bounds.w > 0 && bounds.h > 0 ? { x: Math.round(bounds.x + bounds.w / 2), y: Math.round(bounds.y + bounds.h / 2) } : undefined;
}

async function aimOf(tool: string, args: Record<string, unknown>, context: ToolContext): Promise<Aim> {
  const addressing = args as AddressingArgs;
  if (args.element_index !== undefined || args.element_token !== undefined) {
    const target = await resolveElement(context, addressing);
    const point = centreOf(target.element.bounds);
    const { bounds } = target.window;
    return {
      window: target.window,
      ...(point ? { point, windowPoint: { x: point.x - bounds.x, y: point.y - bounds.y } } : {}),
      element: describeElement(target.snapshot, target.element.index),
    };
  }
  if (args.x !== undefined && args.y !== undefined) {
    const target = await resolvePoint(context, addressing);
    const windowPoint = { x: Math.round(target.windowX), y: Math.round(target.windowY) };
    return { window: target.window, point: { x: target.screenX, y: target.screenY }, windowPoint, windowPixels: windowPoint };
  }
  // A drag from an element (drag's from_element_index / from_element_token): aimed where that element is.
  if (args.from_element_index !== undefined || args.from_element_token !== undefined) {
    return aimOf(tool, { ...args, element_index: args.from_element_index, element_token: args.from_element_token }, context);
  }
  if (typeof args.from_x === 'number' && typeof args.from_y === 'number' && typeof args.to_x === 'number' && typeof args.to_y === 'number') {
    const from = await resolvePoint(context, { ...addressing, x: args.from_x, y: args.from_y });
    const to = await resolvePoint(context, { ...addressing, x: args.to_x, y: args.to_y, window_id: from.window.id });
    const windowPixels = { from_x: Math.round(from.windowX), from_y: Math.round(from.windowY), to_x: Math.round(to.windowX), to_y: Math.round(to.windowY) };
    return { window: from.window, point: { x: from.screenX, y: from.screenY }, windowPoint: { x: windowPixels.from_x, y: windowPixels.from_y }, windowPixels };
  }
  return { window: await keyboardWindow(context, addressing, tool) };
}

export interface CallObserver {
  /** Called with the call's result once it ran; returns the result with any warning about the recording added. */
  finish(result: ToolCallResult): Promise<ToolCallResult>;
}

/** A ring at the click for the screen video, taken off again after RING_MS. */
async function flashRing(context: ToolContext, at: Point): Promise<void> {
  const id = `click ring ${context.session}`;
  await context.desktop.setAgentCursorLook(id, { ...(await renderClickRing(RING_COLOUR, 14)), opacity: 1 });
  await context.desktop.moveAgentCursor(id, at);
  await delay(RING_MS);
  await context.desktop.hideAgentCursor(id);
}

/**
 * Starts observing one call before its handler runs: flies the session's cursor (when enabled) to the action's
 * point and reserves the recording's next turn. Undefined when there is nothing to do. Never throws.
 */
export async function observeCall(tool: ToolDefinition, args: Record<string, unknown>, rawArgs: unknown, context: ToolContext): Promise<CallObserver | undefined> {
  if (!isAction(tool)) return undefined;
  const recording: Recording | undefined = recordingOf(context);
  const cursorId = cursorIdOf(context);
  const cursorOn = existingCursorSettings(context.desktop, cursorId)?.enabled === true;
  if (!recording && !cursorOn) return undefined;
  const turn = recording ? recording.nextTurn++ : 0;
  // The turn is the recording's from now on: stopping it waits for this action to end and its folder to be written.
  let turnDone = () => {};
  if (recording) {
    const done = new Promise<void>((resolve) => (turnDone = resolve));
    recording.running.add(done);
    void done.then(() => recording.running.delete(done));
  }
  const aim = await aimOf(tool.name, args, context).catch(() => ({}) as Aim);
  if (cursorOn && aim.point) await glideCursor(context.desktop, cursorId, aim.point, context.signal).catch((error: Error) => context.log(`agent cursor: ${error.message}`));
  const started = new Date();
  const clicked = CLICK_FAMILY.has(tool.name);
  return {
    async finish(result) {
      const elapsedMs = Date.now() - started.getTime();
      const dwell = cursorOn && clicked ? existingCursorSettings(context.desktop, cursorId)?.motion.dwell_after_click_ms ?? 0 : 0;
      const ring = recording?.highlightClicks && clicked && aim.point ? flashRing(context, aim.point).catch((error: Error) => context.log(`click ring: ${error.message}`)) : undefined;
      let finished = result;
      if (recording?.closed) {
        finished = withWarning(result, `recording: the recording into ${recording.outputDir} was stopped before this action ended; ${turnName(turn)} was not written`);
      } else if (recording) {
        const call: TurnCall = {
          tool: tool.name,
          args: (rawArgs ?? {}) as Record<string, unknown>,
          started,
          elapsedMs,
          result,
          ...(aim.window ? { window: aim.window } : {}),
          ...(aim.point && aim.windowPoint ? { clickPoint: { ...aim.windowPoint, screen_x: aim.point.x, screen_y: aim.point.y } } : {}),
          ...(aim.element ? { element: aim.element } : {}),
          ...(aim.windowPixels ? { windowPixels: aim.windowPixels } : {}),
          markClick: clicked,
        };
        try {
          await writeTurn(context, recording.outputDir, turn, call);
          recording.turnsWritten++;
        } catch (error) {
          finished = withWarning(result, `recording: ${turnName(turn)} was not written: ${(error as Error).message}`);
        }
      }
      turnDone();
      await Promise.all([ring, dwell > 0 ? delay(dwell) : undefined]);
      return finished;
    },
  };
}
