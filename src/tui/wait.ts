// Waiting for a terminal to reach a state. Conditions are checked when the screen changes (not by
// polling), plus timers for the time-based ones, so a wait ends within milliseconds of the output that
// satisfies it.
import { type ErrorCode, ToolError } from '../errors.js';
import { rowText, screenLines } from './grid.js';
import { matchOnScreen } from './node-text.js';
import { parseSelectorOrThrow } from './selector/errors.js';
import type { Selector } from './selector/parse.js';
import type { ScreenState, TerminalSession } from './session.js';

export const DEFAULT_WAIT_MS = 5000;
/** Below the 60 s request timeout common MCP clients use, so the client hears "timeout" from us first. */
export const MAX_WAIT_MS = 50_000;
export const DEFAULT_IDLE_MS = 300;

export interface WaitCondition {
  selector?: string;
  /** Text that must appear somewhere on the screen (exact substring). */
  text?: string;
  /** Text the program printed after the last input sent to it (TerminalSession.rowsSinceInput). */
  newText?: string;
  /** No output from the program for idleMs. */
  idle?: boolean;
  idleMs?: number;
  /** The screen has not changed for this long. */
  stableMs?: number;
  /** The program has exited. */
  exited?: boolean;
  /**
   * The selector and text of this condition must be gone instead: nothing matches the selector and the
   * text is nowhere on the screen (desktop wait_for's `gone`). Needs a selector or a text.
   */
  gone?: boolean;
}

interface CompiledCondition {
  source: WaitCondition;
  selector?: Selector;
}

function describe(condition: WaitCondition): string {
  const parts: string[] = [];
  const gone = condition.gone ? 'gone: ' : '';
  if (condition.selector !== undefined) parts.push(`${gone}selector ${JSON.stringify(condition.selector)}`);
  if (condition.text !== undefined) parts.push(`${gone}text ${JSON.stringify(condition.text)}`);
  if (condition.newText !== undefined) parts.push(`new text ${JSON.stringify(condition.newText)} after the last input`);
  if (condition.idle) parts.push(`idle for ${condition.idleMs ?? DEFAULT_IDLE_MS} ms`);
  if (condition.stableMs !== undefined) parts.push(`screen stable for ${condition.stableMs} ms`);
  if (condition.exited) parts.push('program exited');
  return parts.join(' and ');
}

function isEmpty(condition: WaitCondition): boolean {
  return describe(condition) === '';
}

interface Progress {
  /** Screen text last seen and since when (performance.now()), for stableMs. */
  signature?: string;
  since: number;
}

type Verdict = { met: true } | { met: false; retryInMs?: number; hopeless?: boolean };

function screenSignature(state: ScreenState): string {
  return `${state.grid.cursor.x},${state.grid.cursor.y},${state.grid.cursor.visible}\n${screenLines(state.grid).join('\n')}`;
}

/** Within one row, trailing blanks count ("$ " finds a bare prompt); across rows, lines are right-trimmed. */
function rowsContain(rows: readonly string[], text: string): boolean {
  if (!text.includes('\n')) return rows.some((row) => row.includes(text));
  return rows.map((row) => row.trimEnd()).join('\n').includes(text);
}

function screenContains(state: ScreenState, text: string): boolean {
  const { grid } = state;
  return rowsContain(Array.from({ length: grid.rows }, (_, y) => rowText(grid, y).text), text);
}

function check(session: TerminalSession, state: ScreenState, condition: CompiledCondition, progress: Progress, now: number): Verdict {
  const { source } = condition;
  let retryInMs: number | undefined;
  const later = (ms: number) => {
    retryInMs = retryInMs === undefined ? ms : Math.min(retryInMs, ms);
  };
  let unmetStatic = false;
  let met = true;
  // With gone, a match still on the screen leaves the condition unmet (and hopeless once the program exited).
  const wanted = !source.gone;
  if (condition.selector) {
    const found = matchOnScreen(state, condition.selector).length > 0;
    if (found !== wanted) [met, unmetStatic] = [false, true];
  }
  if (source.text !== undefined && screenContains(state, source.text) !== wanted) [met, unmetStatic] = [false, true];
  if (source.newText !== undefined && !rowsContain(session.rowsSinceInput(), source.newText)) [met, unmetStatic] = [false, true];
  if (source.exited && !session.exitStatus) met = false;
  if (source.idle) {
    const quietFor = now - session.lastOutputAt;
    const needed = source.idleMs ?? DEFAULT_IDLE_MS;
    if (quietFor < needed) {
      met = false;
      later(needed - quietFor);
    }
  }
  if (source.stableMs !== undefined) {
    const signature = screenSignature(state);
    if (signature !== progress.signature) {
      progress.signature = signature;
      progress.since = now;
    }
    const stableFor = now - progress.since;
    if (stableFor < source.stableMs) {
      met = false;
      later(source.stableMs - stableFor);
    }
  }
  if (met) return { met: true };
  // Once the program has exited, its screen can no longer change to show missing text or nodes.
  return { met: false, retryInMs, hopeless: unmetStatic && session.exitStatus !== undefined };
}

/**
 * Runs `check` after the screen changes, once per turn of the event loop (bursts of output parse in
 * several pieces), until stopped; `schedule` asks for a run without a change.
 */
function checkOnChange(session: TerminalSession, check: () => void): { schedule: () => void; stop: () => void } {
  let scheduled: NodeJS.Immediate | undefined;
  let stopped = false;
  const run = () => {
    scheduled = undefined;
    if (!stopped) check();
  };
  const schedule = () => {
    if (!scheduled && !stopped) scheduled = setImmediate(run);
  };
  const unsubscribe = session.onChange(schedule);
  const stop = () => {
    stopped = true;
    if (scheduled) clearImmediate(scheduled);
    unsubscribe();
  };
  return { schedule, stop };
}

/** Why a wait ended unmet, with the screen it ended on (in the message and as lines in the details). */
function unmetError(state: ScreenState, why: string, code: ErrorCode, details: Record<string, unknown> = {}): ToolError {
  const screen = screenLines(state.grid);
  return new ToolError(`${why}; the screen shows:\n${screen.join('\n').trimEnd()}`, code, { screen, seq: state.seq, ...details });
}

/** What keeps the gone conditions of a wait unmet, as desktop wait_for says it: `role "name"`, or the text, up to five. */
function stillMatching(state: ScreenState, compiled: readonly CompiledCondition[]): string[] {
  const still: string[] = [];
  for (const { source, selector } of compiled) {
    if (!source.gone) continue;
    if (selector) still.push(...matchOnScreen(state, selector).map((node) => `${node.role} ${JSON.stringify(node.name)}`));
    if (source.text !== undefined && screenContains(state, source.text)) still.push(`text ${JSON.stringify(source.text)}`);
  }
  return still.slice(0, 5);
}

export interface WaitOptions {
  conditions: WaitCondition[];
  timeoutMs: number;
  /** Ends the wait at once with the error "cancelled" (the caller went away or cancelled the call). */
  signal?: AbortSignal;
}

export interface WaitResult {
  elapsedMs: number;
  seq: number;
}

/** Resolves when every condition holds; rejects with "timeout" (carrying the screen text) when time runs out. */
export async function waitForConditions(session: TerminalSession, options: WaitOptions): Promise<WaitResult> {
  const conditions = options.conditions.filter((condition) => !isEmpty(condition));
  const goneAlone = options.conditions.find((condition) => condition.gone && condition.selector === undefined && condition.text === undefined);
  if (goneAlone) {
    throw new ToolError(
      `tui_wait_for's gone: true needs a selector or a text in the same condition (what must be gone from the screen); got ${describe(goneAlone) || 'nothing else'}`,
      'invalid_arguments',
    );
  }
  if (conditions.length === 0) {
    throw new ToolError('tui_wait_for needs at least one condition: selector, text, newText, idle, stableMs or exited (alone or in "all")', 'invalid_arguments');
  }
  const compiled: CompiledCondition[] = conditions.map((source) => ({
    source,
    selector: source.selector === undefined ? undefined : parseSelectorOrThrow(source.selector),
  }));
  const wanted = compiled.map((c) => describe(c.source)).join('; ');
  const started = performance.now();
  const { signal } = options;
  const cancelledError = () => new ToolError(`the wait for ${wanted} was cancelled by the caller after ${Math.round(performance.now() - started)} ms`, 'cancelled');
  if (signal?.aborted) throw cancelledError();
  await session.settled();
  const progress = compiled.map(() => ({ since: performance.now() }) as Progress);

  return new Promise<WaitResult>((resolve, reject) => {
    let retry: NodeJS.Timeout | undefined;
    const finish = (outcome: () => void) => {
      changes.stop();
      clearTimeout(deadline);
      clearTimeout(retry);
      signal?.removeEventListener('abort', cancel);
      outcome();
    };
    const cancel = () => finish(() => reject(cancelledError()));
    const evaluate = () => {
      const state = session.state();
      const now = performance.now();
      let retryInMs: number | undefined;
      let allMet = true;
      let hopeless = false;
      compiled.forEach((condition, index) => {
        const verdict = check(session, state, condition, progress[index]!, now);
        if (verdict.met) return;
        allMet = false;
        hopeless ||= verdict.hopeless === true;
        if (verdict.retryInMs !== undefined) retryInMs = Math.min(retryInMs ?? Infinity, verdict.retryInMs);
      });
      if (allMet) {
        finish(() => resolve({ elapsedMs: Math.round(performance.now() - started), seq: state.seq }));
        return;
      }
      if (hopeless) {
        const status = session.exitStatus!;
        const why = `the program exited (code ${status.code}${status.signal ? `, signal ${status.signal}` : ''}) before ${wanted} was met`;
        finish(() => reject(unmetError(state, why, 'exited', { exit: status })));
        return;
      }
      clearTimeout(retry);
      if (retryInMs !== undefined) retry = setTimeout(changes.schedule, Math.max(1, Math.ceil(retryInMs)));
    };
    const changes = checkOnChange(session, evaluate);
    const deadline = setTimeout(() => {
      const state = session.state();
      const still = stillMatching(state, compiled);
      const why = `timed out after ${options.timeoutMs} ms waiting for ${wanted}${still.length ? `; still there: ${still.join(', ')}` : ''}`;
      finish(() => reject(unmetError(state, why, 'timeout', still.length ? { still_matching: still } : {})));
    }, options.timeoutMs);
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    evaluate();
  });
}

/** Waits until a check on the screen state holds (used to confirm that a key press took effect). */
export async function waitForState(session: TerminalSession, holds: (state: ScreenState) => boolean, timeoutMs: number): Promise<ScreenState | undefined> {
  const first = await session.settledState();
  if (holds(first)) return first;
  return new Promise((resolve) => {
    const finish = (state: ScreenState | undefined) => {
      changes.stop();
      clearTimeout(timer);
      resolve(state);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const changes = checkOnChange(session, () => {
      const state = session.state();
      if (holds(state)) finish(state);
    });
  });
}
