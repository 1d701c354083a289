// One recorded action as a turn folder: action.json (the call, its result and what replay needs to aim it again),
// app_state.json (the target window's CUP envelope after the action), screenshot.png (the window after the action)
// and, for clicks, click.png (the screenshot with the point marked). The folder is written under a temporary name
// and renamed into place, so a reader never sees half a turn.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvelope } from '../../cup/index.js';
import { makeFolder } from '../files.js';
import { encodePng } from '../../image/encode.js';
import { markPoint } from '../../image/overlays.js';
import type { DesktopWindow } from '../../platform/windows.js';
import { errorCodeOf, type ToolCallResult } from '../call-result.js';
import type { ToolContext } from '../context.js';
import { READ_LIMITS } from '../input/action-diff.js';
import { readNumbered } from '../perception/window-snapshot.js';
import type { ElementDescriptor } from './element-locator.js';

/** The window a recorded action was aimed at, as replay looks for it again (in a fresh run: by app and title). */
export interface RecordedWindow {
  window_id: number;
  pid: number;
  title: string;
  app_name: string;
  bounds: { x: number; y: number; w: number; h: number };
}

/** What action.json holds. */
export interface ActionRecord {
  turn: number;
  tool: string;
  /** The arguments exactly as the caller gave them. */
  arguments: Record<string, unknown>;
  result: { ok: boolean; summary: string; effect?: string; path?: string; error?: { code: string; message: string } };
  session: string;
  pid?: number;
  /** The target window as it was before the action. */
  window?: RecordedWindow;
  /** Where a click-family action or a pixel action acted: window pixels (of the real window) and screen pixels. */
  click_point?: { x: number; y: number; screen_x: number; screen_y: number };
  /** An element-addressed action's element, to find it again in a fresh reading. */
  element?: ElementDescriptor;
  /** A pixel-addressed action's coordinates in real window pixels (the arguments may be in downscaled screenshot pixels). */
  window_pixels?: Record<string, number>;
  time: string;
  elapsed_ms: number;
  /** Why the turn has no screenshot or app state, when it has none. */
  capture_error?: string;
  files: string[];
}

export interface TurnCall {
  tool: string;
  args: Record<string, unknown>;
  started: Date;
  elapsedMs: number;
  result: ToolCallResult;
  window?: DesktopWindow;
  clickPoint?: ActionRecord['click_point'];
  element?: ElementDescriptor;
  windowPixels?: Record<string, number>;
  markClick: boolean;
}

export function turnName(turn: number): string {
  return `turn-${String(turn).padStart(5, '0')}`;
}

function recordedWindow(window: DesktopWindow): RecordedWindow {
  const { x, y, width, height } = window.bounds;
  return { window_id: window.id, pid: window.pid, title: window.title, app_name: window.appName, bounds: { x, y, w: width, h: height } };
}

function resultRecord(result: ToolCallResult): ActionRecord['result'] {
  const code = errorCodeOf(result);
  const { effect, path } = result.structured as { effect?: unknown; path?: unknown };
  return {
    ok: result.ok,
    summary: result.summary,
    ...(typeof effect === 'string' ? { effect } : {}),
    ...(typeof path === 'string' ? { path } : {}),
    ...(code !== undefined ? { error: { code, message: String(result.structured.message ?? result.summary) } } : {}),
  };
}

/** The window after the action: the same one, else (it closed: a dialog) its app's front-most window. */
function windowAfter(windows: readonly DesktopWindow[], before: DesktopWindow): DesktopWindow | undefined {
  return windows.find((window) => window.id === before.id) ?? [...windows].filter((window) => window.pid === before.pid).sort((a, b) => b.zIndex - a.zIndex)[0];
}

/** What the window shows and holds after the action: the files of the turn other than action.json. */
async function captureWindowFiles(context: ToolContext, window: DesktopWindow, call: TurnCall, files: Map<string, Buffer | string>): Promise<void> {
  const [pixels, reading, screen] = await Promise.all([
    context.desktop.captureWindow(window),
    readNumbered(context, window, READ_LIMITS),
    context.desktop.screen(),
  ]);
  const envelope = buildEnvelope({
    platform: context.desktop.platform,
    timestamp: Date.now(),
    screen: { w: screen.width, h: screen.height, scale: screen.scale },
    app: { name: window.appName, pid: window.pid },
    scope: 'full',
    tree: reading.root ? [reading.root] : [],
  });
  files.set('app_state.json', `${JSON.stringify(reading.missingReason ? { ...envelope, missing_reason: reading.missingReason } : envelope, null, 1)}\n`);
  // Full size, so the click point's window pixels are the screenshot's pixels.
  const png = (await encodePng(pixels, 0)).data;
  files.set('screenshot.png', png);
  if (call.markClick && call.clickPoint && window.id === call.window?.id) files.set('click.png', await markPoint(png, call.clickPoint.x, call.clickPoint.y));
}

/** Writes the files into `<dir>/<name>` through a temporary folder and one rename. */
function writeFolder(dir: string, name: string, files: ReadonlyMap<string, Buffer | string>): void {
  makeFolder(dir);
  const temporary = join(dir, `.${name}.${process.pid}.${Date.now().toString(36)}.partial`);
  try {
    mkdirSync(temporary);
    for (const [file, data] of files) writeFileSync(join(temporary, file), data);
    renameSync(temporary, join(dir, name));
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
}

/** Captures and writes one turn; returns the turn's record. Throws only when the folder cannot be written. */
export async function writeTurn(context: ToolContext, outputDir: string, turn: number, call: TurnCall): Promise<ActionRecord> {
  const files = new Map<string, Buffer | string>();
  let captureError: string | undefined;
  const after = call.window ? windowAfter(await context.desktop.windows(), call.window) : undefined;
  if (after) {
    await captureWindowFiles(context, after, call, files).catch((error: Error) => {
      captureError = `the window after the action could not be captured: ${error.message}`;
    });
  } else {
    captureError = call.window ? `window ${call.window.id} and every other window of pid ${call.window.pid} closed` : 'the call named no window the driver could find';
  }
  const record: ActionRecord = {
    turn,
    tool: call.tool,
    arguments: call.args,
    result: resultRecord(call.result),
    session: context.session,
    ...(call.window ? { pid: call.window.pid, window: recordedWindow(call.window) } : {}),
    ...(call.clickPoint ? { click_point: call.clickPoint } : {}),
    ...(call.element ? { element: call.element } : {}),
    ...(call.windowPixels ? { window_pixels: call.windowPixels } : {}),
    time: call.started.toISOString(),
    elapsed_ms: call.elapsedMs,
    ...(captureError ? { capture_error: captureError } : {}),
    files: ['action.json', ...files.keys()],
  };
  files.set('action.json', `${JSON.stringify(record, null, 1)}\n`);
  writeFolder(outputDir, turnName(turn), files);
  return record;
}
