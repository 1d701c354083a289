import { ToolError } from '../errors.js';
import type { ToolContext } from './context.js';
import { parseElementToken } from './perception/window-snapshot.js';
import type { AnyTool } from './registry.js';

/**
 * One line per app: actions on one app run one after another in the order they arrived, whichever client
 * or session sent them, so two agents' clicks and keystrokes never interleave inside one window; actions on
 * different apps, and every read, run in parallel. Keyed by process: an app's windows share its main loop,
 * and a key press for one may land in another (a dialog).
 */
export class ActionQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `work` after every earlier action on `key`, given the context it runs in (`context` with the line it holds,
   * ToolContext.heldLine); a caller that cancels while waiting leaves the line. A call made inside a queued one (a
   * run_actions step) runs at once: its plan already holds its app's line, and waiting for a second line while
   * holding one could deadlock against a plan that holds them the other way. The line is handed on in the context,
   * not in an AsyncLocalStorage: with one enabled, Node 20 runs a hook on every promise of the process, and a tree
   * walk cost half as much time again (140 ms against 92, 83 ms of CPU against 52).
   */
  async run<T>(key: string, context: ToolContext, work: (context: ToolContext) => Promise<T>): Promise<T> {
    if (context.heldLine !== undefined) return work(context);
    const previous = this.tails.get(key);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    // The next action waits for this one and, if this one leaves early, still for the ones before it.
    const tail = previous ? previous.then(() => mine) : mine;
    this.tails.set(key, tail);
    try {
      if (previous) await waitUnlessAborted(previous, context.signal, key);
      return await work({ ...context, heldLine: key });
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

function waitUnlessAborted(turn: Promise<void>, signal: AbortSignal | undefined, key: string): Promise<void> {
  if (!signal) return turn;
  // Said apart from a cancel of a call that ran (`waited_in_line`): a plan cancelled here sent none of its steps.
  const cancelled = () =>
    new ToolError(`cancelled while waiting for the app's earlier action to end (actions on ${key} run one at a time); nothing was sent`, 'cancelled', { waited_in_line: true });
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * Which app an action call acts on, as a queue key: its pid, else the pid of the snapshot its element token
 * or window_id names, else the window itself. Reads, config, terminals and calls without a target
 * (launch_app, a bare move_cursor) are not queued: undefined.
 */
export function actionKey(tool: AnyTool, args: Record<string, unknown>, context: ToolContext): string | undefined {
  if (tool.annotations.readOnly || (tool.capability !== 'input' && tool.capability !== 'apps')) return undefined;
  if (typeof args.pid === 'number') return `pid ${args.pid}`;
  if (typeof args.element_token === 'string') {
    try {
      const snapshot = context.state.snapshots.get(parseElementToken(args.element_token).snapshotId);
      if (snapshot) return `pid ${snapshot.pid}`;
    } catch {
      // A malformed token is the handler's to report.
    }
  }
  if (typeof args.window_id === 'number') {
    const snapshot = context.state.snapshots.latestForWindow(args.window_id);
    return snapshot ? `pid ${snapshot.pid}` : `window ${args.window_id}`;
  }
  return undefined;
}
