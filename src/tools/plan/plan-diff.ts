import type { ToolContext } from '../context.js';
import type { WindowIdentity } from '../../platform/windows.js';
import { ToolError } from '../../errors.js';
import { compareWithNow, BEFORE_ACTION_LIMITS, windowEffects, type Compared } from '../input/action-diff.js';
import { newWindowLines, otherWindowLines } from '../input/outcome.js';
import { settle } from '../input/settle.js';
import { keyboardWindow } from '../input/targets.js';
import { readNumbered } from '../perception/window-snapshot.js';

/** The window a plan works on, as the plan names it. */
export interface PlanDiffTarget {
  pid?: number;
  window_id?: number;
  /** false: the caller asked for no diff (no reads either). */
  diff?: boolean;
}

/** A plan's diff under way: `finish` reads the window again and compares; `close` ends its watch however the plan ended. */
export interface PlanDiff {
  /**
   * `alreadyReported`: windows a step's own result listed as new already (a chained click's), not listed again.
   * `planSignal`: the plan's cancel (Escape and the watchdog besides the caller's): a cancelled plan is read at once,
   * without waiting for the app to settle; so is one whose caller cancels meanwhile.
   */
  finish(alreadyReported?: readonly WindowIdentity[], planSignal?: AbortSignal): Promise<Compared>;
  close(): void;
}

/**
 * The one diff of a plan (issue 10): its window is read before the first step; `finish` waits for the app to
 * settle after the last step (also when the plan was cancelled or stopped), reads it again and compares the
 * two, the after-reading becoming the window's snapshot so the diff's [eN] are indices the next call can
 * use. Like a single action's result it names the windows the plan opened, with their trees, and the app's
 * other windows it changed. A plan that names no window (its steps name their own) has no one window to
 * compare, and says so.
 */
export async function beginPlanDiff(context: ToolContext, target: PlanDiffTarget): Promise<PlanDiff> {
  const named = target.pid !== undefined || target.window_id !== undefined;
  const window = named ? await keyboardWindow(context, target, 'run_actions') : undefined;
  const [known, before] = await Promise.all([
    context.desktop.windows(),
    window && target.diff !== false ? readNumbered(context, window, BEFORE_ACTION_LIMITS) : undefined,
  ]);
  // As for one action: an app that did not answer the reading would keep every step waiting for it in turn.
  if (window && before?.unresponsive) {
    throw new ToolError(`run_actions: ${before.missingReason ?? 'the app did not answer'}; no step was run`, 'app_not_responding', { pid: window.pid });
  }
  const watch = window && before ? await context.desktop.watchChanges(window.pid).catch(() => undefined) : undefined;
  return {
    finish: async (alreadyReported = [], planSignal) => {
      const signals = [context.signal, planSignal].filter((signal): signal is AbortSignal => signal !== undefined);
      if (watch) await settle(watch, context.state.config.get().diff_settle_ms, signals.length > 0 ? AbortSignal.any(signals) : undefined);
      const windowsAfter = await context.desktop.windows();
      const effects = await windowEffects(context, window, [...known, ...alreadyReported], windowsAfter, watch);
      // Nor among the windows changed: the app builds a window it opens after showing it, and invoke_menu's last click
      // through a menu button named Document Scanner's About window both new and changed.
      const changed = effects.other_windows_changed?.filter((other) => !alreadyReported.some((reported) => reported.id === other.window_id));
      const elsewhere = { ...(effects.new_windows ? { new_windows: effects.new_windows } : {}), ...(changed?.length ? { other_windows_changed: changed } : {}) };
      const compared: Compared =
        window && before
          ? await compareWithNow(context, window, before, windowsAfter)
          : { fields: named || target.diff === false ? {} : { diff_unavailable: 'the plan names no window (pass pid or window_id to run_actions for one diff over the plan)' }, lines: [] };
      return {
        fields: { ...elsewhere, ...compared.fields },
        lines: [
          ...(elsewhere.new_windows ?? []).flatMap(newWindowLines),
          ...otherWindowLines(elsewhere.other_windows_changed),
          ...compared.lines,
          // Why there is none (the plan's window closed: a dialog the plan confirmed), as a single action says it.
          ...(compared.fields.diff_unavailable ? [`no diff: ${compared.fields.diff_unavailable}`] : []),
        ],
        ...(compared.after ? { after: compared.after } : {}),
      };
    },
    close: () => watch?.close(),
  };
}
