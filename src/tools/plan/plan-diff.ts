import type { WindowReading } from '../../platform/desktop.js';
import type { ToolContext } from '../context.js';
import { compareWithNow, READ_LIMITS, type Compared } from '../input/action-diff.js';
import { keyboardWindow } from '../input/targets.js';

/** The window a plan works on, as the plan names it. */
export interface PlanDiffTarget {
  pid?: number;
  window_id?: number;
  /** false: the caller asked for no diff (no reads either). */
  diff?: boolean;
}

/**
 * The one diff of a plan (issue 10): its window is read before the first step, and the function returned
 * reads it again after the last (also when the plan was cancelled or stopped) and compares the two, the
 * after-reading becoming the window's snapshot so the diff's [eN] are indices the next call can use. A plan
 * that names no window (its steps name their own) has no one window to compare, and says so.
 */
export async function beginPlanDiff(context: ToolContext, target: PlanDiffTarget): Promise<() => Promise<Compared>> {
  if (target.diff === false) return async () => ({ fields: {}, lines: [] });
  if (target.pid === undefined && target.window_id === undefined) {
    return async () => ({ fields: { diff_unavailable: 'the plan names no window (pass pid or window_id to run_actions for one diff over the plan)' }, lines: [] });
  }
  const window = await keyboardWindow(context, target, 'run_actions');
  const before: WindowReading = await context.desktop.readWindow(window, READ_LIMITS);
  return async () => compareWithNow(context, window, before, await context.desktop.windows());
}
