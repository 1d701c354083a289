// replay_trajectory: the turns of a recording run again, in order, through the registry in the caller's session.
// Each turn is aimed afresh: its window is found again (the same one while it lives, else by app and title: a
// fresh run of the app), an element by its role, name and ancestry in a new reading, pixels from the real window
// pixels the recording kept.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors.js';
import type { DesktopWindow } from '../../platform/windows.js';
import { errorCodeOf } from '../call-result.js';
import type { ToolContext } from '../context.js';
import { readRegularFile, resolveUserPath } from '../files.js';
import { READ_LIMITS } from '../input/action-diff.js';
import { readSnapshot } from '../perception/window-snapshot.js';
import { abortableDelay } from '../plan/cancellation.js';
import { runTool } from '../run.js';
import { pidArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { locateElement } from './element-locator.js';
import { TURN_FOLDER } from './interrupted.js';
import type { ActionRecord, RecordedWindow } from './turn.js';

const stepResult = z.object({
  turn: z.string(),
  tool: z.string(),
  ok: z.boolean(),
  /** Not run: the call failed when it was recorded (it did nothing then either). */
  skipped: z.string().optional(),
  summary: z.string(),
  effect: z.string().optional(),
  path: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Where it was aimed this time. */
  window_id: z.number().optional(),
  element_token: z.string().optional(),
});
type StepResult = z.infer<typeof stepResult>;

/** Recorded windows and processes as found again, so every turn of one window goes to the same window. */
interface Aiming {
  windows: Map<number, number>;
  pids: Map<number, number>;
  pid?: number;
  /** Recorded windows waited for in vain: their later turns (stop_on_error false) are not waited for again. */
  missing: Set<number>;
}

function describe(window: RecordedWindow): string {
  return `window ${window.window_id} "${window.title}" of ${window.app_name} (pid ${window.pid})`;
}

/**
 * How long a turn waits for its window to show: a dialog the turn before opened may take seconds to be built (the
 * recording's agent waited for it with reads, which are not recorded).
 */
const WINDOW_WAIT_MS = 10_000;

/**
 * The window of `windows` that serves the recorded one: the same window while it lives, else one of the same process
 * (or app) by title. With `free`, a window already serving another recorded window is passed over: the recording
 * acted on two windows there, so a dialog not shown yet is not its main window.
 */
function pickWindow(windows: DesktopWindow[], recorded: RecordedWindow, aiming: Aiming, free: boolean): { found?: DesktopWindow; candidates: DesktopWindow[]; pid?: number } {
  const mapped = aiming.windows.get(recorded.window_id);
  const known = mapped !== undefined ? windows.find((window) => window.id === mapped) : undefined;
  if (known) return { found: known, candidates: [known] };
  const same = aiming.pid === undefined ? windows.find((window) => window.id === recorded.window_id && window.pid === recorded.pid) : undefined;
  if (same) return { found: same, candidates: [same] };
  const pid = aiming.pid ?? aiming.pids.get(recorded.pid);
  const candidates = windows
    .filter((window) => (pid !== undefined ? window.pid === pid : window.appName === recorded.app_name))
    .sort((a, b) => b.zIndex - a.zIndex);
  const claimed = new Set(aiming.windows.values());
  const open = free ? candidates.filter((window) => !claimed.has(window.id)) : candidates;
  const titled = open.filter((window) => window.title === recorded.title);
  // Without a title to go by, only a window that serves no other recorded window stands in (pid names the process).
  const untitled = candidates.filter((window) => !claimed.has(window.id));
  const found = titled[0] ?? (pid !== undefined || untitled.length === 1 ? untitled[0] : undefined);
  return { ...(found ? { found } : {}), candidates, ...(pid !== undefined ? { pid } : {}) };
}

/** The window a recorded turn acted on, now; waited for (WINDOW_WAIT_MS) while its app runs without it. */
async function findWindow(context: ToolContext, recorded: RecordedWindow, aiming: Aiming): Promise<DesktopWindow> {
  let picked = pickWindow(await context.desktop.windows(), recorded, aiming, true);
  if (!picked.found && picked.candidates.length > 0 && !aiming.missing.has(recorded.window_id)) {
    // The app runs but shows no such window yet: the turn before may have asked for it (a dialog being built).
    const watch = await context.desktop.watchChanges(picked.pid ?? 0);
    const stop = () => watch.close();
    context.signal?.addEventListener('abort', stop, { once: true });
    try {
      const deadline = Date.now() + WINDOW_WAIT_MS;
      while (!picked.found && Date.now() < deadline && !context.signal?.aborted) {
        // The window list's change wakes the wait; a look every half second covers a title set after mapping.
        await watch.next(Math.min(500, deadline - Date.now()));
        picked = pickWindow(await context.desktop.windows(), recorded, aiming, true);
      }
    } finally {
      context.signal?.removeEventListener('abort', stop);
      watch.close();
    }
    if (!picked.found) aiming.missing.add(recorded.window_id);
  }
  // A window of that title serving another recorded window is the last resort (the app restarted mid-recording).
  if (!picked.found && picked.candidates.length > 0) picked = pickWindow(await context.desktop.windows(), recorded, aiming, false);
  const { found, candidates, pid } = picked;
  if (!found) {
    const seen = candidates.map((window) => `${window.id} "${window.title}"`).join(', ');
    throw new ToolError(
      `no window to replay it on: the recording acted on ${describe(recorded)}, and ${pid !== undefined ? `pid ${pid}` : `app "${recorded.app_name}"`} has ` +
        `${candidates.length === 0 ? 'no window now (start the app, or pass pid)' : `no window of that title among ${seen} (waited ${WINDOW_WAIT_MS / 1000} s for it; pass pid to choose the process)`}`,
      'replay_step_failed',
    );
  }
  aiming.windows.set(recorded.window_id, found.id);
  aiming.pids.set(recorded.pid, found.pid);
  return found;
}

/** The recorded call's arguments, aimed at the app as it is now. */
async function aimAgain(context: ToolContext, record: ActionRecord, aiming: Aiming): Promise<{ args: Record<string, unknown>; window?: DesktopWindow; token?: string }> {
  // The replay runs in the caller's session, whatever session recorded it.
  const { session: _session, ...args } = record.arguments;
  if (!record.window) return { args };
  const window = await findWindow(context, record.window, aiming);
  args.window_id = window.id;
  if (args.pid !== undefined) args.pid = window.pid;
  let token: string | undefined;
  if (record.element) {
    const { snapshot } = await readSnapshot(context, window, READ_LIMITS);
    const located = locateElement(snapshot, record.element);
    if ('problem' in located) throw new ToolError(`its element cannot be found again in window ${window.id}: ${located.problem}`, 'replay_step_failed');
    token = `${snapshot.id}:${located.index}`;
    // The element found again replaces however the call named it (an index, or a selector matched when recorded).
    delete args.element_index;
    delete args.selector;
    args.element_token = token;
  }
  if (record.window_pixels) {
    // Recorded in real window pixels; the tools take pixels of this session's latest screenshot of the window.
    const scale = context.state.images.screenshot(window.id)?.scale ?? 1;
    for (const [key, value] of Object.entries(record.window_pixels)) args[key] = value / scale;
    delete args.from_zoom;
  }
  return { args, window, ...(token ? { token } : {}) };
}

/** An action.json holds one call and its result; arguments of megabytes make it large, not unbounded. */
const MAX_ACTION_RECORD_BYTES = 64 << 20;

const step = z.looseObject({ role: z.string(), name: z.string() });
/**
 * What replay reads of an action.json (other fields are kept as they are): a file edited by hand, or cut short, is
 * refused naming the field, never run with a field missing.
 */
const replayable = z.looseObject({
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  result: z.looseObject({ ok: z.boolean(), summary: z.string(), error: z.looseObject({ code: z.string() }).optional() }),
  window: z.looseObject({ window_id: z.number().int(), pid: z.number().int(), title: z.string(), app_name: z.string() }).optional(),
  element: step.extend({ ancestry: z.array(step), occurrence: z.number().int().min(0) }).optional(),
  window_pixels: z.record(z.string(), z.number()).optional(),
});

function readTurn(dir: string, turn: string): ActionRecord {
  const path = join(dir, turn, 'action.json');
  let json: unknown;
  try {
    json = JSON.parse(readRegularFile(path, MAX_ACTION_RECORD_BYTES).toString('utf8'));
  } catch (error) {
    const message = (error as Error).message;
    // A turn is renamed into place whole, so JSON that stops short was cut or edited after the recording.
    const why = error instanceof SyntaxError ? `is not valid JSON, cut short or edited since it was recorded (${message})` : `cannot be read: ${message}`;
    throw new ToolError(`${path} ${why}`, 'replay_step_failed');
  }
  const parsed = replayable.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`);
    throw new ToolError(`${path} is not a turn start_recording wrote (${problems.join('; ')}); restore it, or remove the turn folder to replay without it`, 'replay_step_failed');
  }
  return parsed.data as unknown as ActionRecord;
}

async function replayTurn(context: ToolContext, dir: string, turn: string, aiming: Aiming): Promise<StepResult> {
  let record: ActionRecord | undefined;
  try {
    record = readTurn(dir, turn);
    if (!record.result.ok) {
      return { turn, tool: record.tool, ok: true, skipped: `it failed when recorded (${record.result.error?.code ?? 'error'})`, summary: record.result.summary.split('\n')[0]! };
    }
    const aimed = await aimAgain(context, record, aiming);
    const result = await runTool(record.tool, aimed.args, context);
    const code = errorCodeOf(result);
    const { effect, path } = result.structured as { effect?: unknown; path?: unknown };
    return {
      turn,
      tool: record.tool,
      ok: result.ok,
      summary: result.summary.split('\n')[0]!,
      ...(typeof effect === 'string' ? { effect } : {}),
      ...(typeof path === 'string' ? { path } : {}),
      ...(code !== undefined ? { error: { code, message: String(result.structured.message ?? result.summary) } } : {}),
      ...(aimed.window ? { window_id: aimed.window.id } : {}),
      ...(aimed.token ? { element_token: aimed.token } : {}),
    };
  } catch (error) {
    const known = error instanceof ToolError;
    const message = (error as Error).message;
    return { turn, tool: record?.tool ?? '?', ok: false, summary: message, error: { code: known ? error.code : 'internal_error', message } };
  }
}

export const replayTrajectory = defineTool({
  name: 'replay_trajectory',
  capability: 'recording',
  title: 'Replay a recorded trajectory',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Run the turns start_recording wrote in dir again, in order, in this session (a running recording of this session records them). ' +
    'Each turn is aimed afresh: its window is the recorded one while that lives, else the window of the same app and title (a fresh run ' +
    'of the app; pid picks the process); an element-addressed action finds its element again by role, name and ancestry in a new reading ' +
    'of the window, so element actions replay too; pixel actions use the window pixels the recording kept. Turns that failed when ' +
    'recorded are skipped. A turn that cannot be aimed or fails stops the replay (stop_on_error, default) with replay_step_failed naming ' +
    'the turn and why; otherwise it is listed and the replay goes on.',
  input: z.strictObject({
    dir: z.string().min(1).describe('The output_dir of the recording (~ and relative paths allowed).'),
    delay_ms: z.number().int().min(0).max(60_000).default(500).describe('Pause between turns. Default 500.'),
    stop_on_error: z.boolean().default(true).describe('Stop at the first turn that fails. Default true.'),
    pid: pidArgument.optional().describe('Replay on this process\'s windows (by title) instead of finding the app by name.'),
  }),
  output: z.object({ dir: z.string(), steps: z.array(stepResult), completed: z.number(), failed: z.number(), skipped: z.number(), cancelled: z.boolean() }),
  async handle(args, context) {
    const dir = resolveUserPath(args.dir, context.cwd);
    let turns: string[];
    try {
      turns = readdirSync(dir).filter((name) => TURN_FOLDER.test(name)).sort();
    } catch (error) {
      throw new ToolError(`${dir} cannot be read: ${(error as Error).message}`, 'not_a_trajectory');
    }
    if (turns.length === 0) throw new ToolError(`${dir} holds no turn folders (turn-00001, ...); give the output_dir of a start_recording`, 'not_a_trajectory');
    const aiming: Aiming = { windows: new Map(), pids: new Map(), missing: new Set(), ...(args.pid !== undefined ? { pid: args.pid } : {}) };
    const steps: StepResult[] = [];
    const signal = context.signal ?? new AbortController().signal;
    for (const [index, turn] of turns.entries()) {
      if (index > 0 && args.delay_ms > 0) await abortableDelay(args.delay_ms, signal);
      if (signal.aborted) break;
      const step = await replayTurn(context, dir, turn, aiming);
      steps.push(step);
      if (!step.ok && args.stop_on_error) {
        throw new ToolError(`replay stopped at ${turn} (${step.tool}): ${step.error?.message ?? step.summary}`, 'replay_step_failed', { failed_turn: turn, steps });
      }
    }
    const counts = { completed: steps.filter((step) => step.ok && !step.skipped).length, failed: steps.filter((step) => !step.ok).length, skipped: steps.filter((step) => step.skipped).length };
    const lines = steps.map((step) => `${step.ok ? (step.skipped ? '⏭️' : '✅') : '❌'} ${step.turn} ${step.tool}: ${step.skipped ? `skipped: ${step.skipped}` : step.summary}`);
    const cancelled = signal.aborted && steps.length < turns.length;
    return {
      summary: `${counts.failed ? '⚠️' : '✅'} replayed ${dir}: ${counts.completed} of ${turns.length} turns ran${counts.failed ? `, ${counts.failed} failed` : ''}${counts.skipped ? `, ${counts.skipped} skipped` : ''}${cancelled ? ' (cancelled)' : ''}`,
      body: lines.join('\n'),
      structured: { dir, steps, ...counts, cancelled },
    };
  },
});
