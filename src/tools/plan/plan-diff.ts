import type { ToolContext } from '../context.js';

/** What the target looked like before a plan, compared after it (issue 10: one diff over the whole plan). */
export interface PlanDiffTarget {
  pid?: number;
  window_id?: number;
}

/**
 * The seam for the one diff from before the first step to after the last. The per-action diff
 * (src/cup/diff.ts) is built separately; until it is wired here this reads nothing and a plan carries no
 * diff. Called before the first step; the function it returns is called after the last (also when cancelled).
 */
export async function beginPlanDiff(_context: ToolContext, _target: PlanDiffTarget): Promise<() => Promise<Record<string, unknown> | undefined>> {
  return async () => undefined;
}
