// The window a plan step produced, for a later step's window_id {"from_step": N}: read from that step's result
// when the later step runs, since no one knows its id when the plan is written (a dialog the step opened).
import { ToolError } from '../../errors.js';
import type { ToolContext } from '../context.js';
import type { PreparedStep } from './steps.js';
import type { StepEntry } from './run-steps.js';

interface ProducedWindow {
  window_id: number;
  pid?: number;
  title?: string;
}

function windowsIn(value: unknown): ProducedWindow[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is ProducedWindow => typeof item === 'object' && item !== null && typeof (item as ProducedWindow).window_id === 'number');
}

/**
 * The windows a step's result names, most specific first: the windows an action opened (new_windows), the windows
 * whose title a wait_for matched (windows), the windows its selector matched in (matches), the window
 * find_elements read (window). The first of these the result has is the answer; each window once.
 */
export function producedWindows(result: Record<string, unknown> | undefined): { windows: ProducedWindow[]; source?: string } {
  if (!result) return { windows: [] };
  const sources: [string, ProducedWindow[]][] = [
    ['new_windows', windowsIn(result.new_windows)],
    ['windows', windowsIn(result.windows)],
    ['matches', windowsIn(result.matches)],
    ['window', windowsIn(result.window === undefined ? [] : [result.window])],
  ];
  for (const [source, windows] of sources) {
    if (windows.length === 0) continue;
    const unique = [...new Map(windows.map((window) => [window.window_id, window])).values()];
    return { windows: unique, source };
  }
  return { windows: [] };
}

function describe(window: ProducedWindow): string {
  return `${window.window_id}${window.title !== undefined ? ` ${JSON.stringify(window.title)}` : ''}`;
}

function goneWait(step: PreparedStep): boolean {
  return step.tool === 'wait_for' && step.arguments.gone === true && step.arguments.selector !== undefined;
}

/**
 * The window_id and pid for a step whose window_id names an earlier step: that step's one window, still open.
 * no_step_window (nothing is sent) when that step failed, produced none or several, or its window has closed (but
 * for a wait for an element to be gone from it).
 */
export async function stepWindow(context: ToolContext, step: PreparedStep, entries: readonly StepEntry[]): Promise<{ window_id: number; pid: number; from_step: number }> {
  const from = step.windowFrom!;
  const where = `steps[${step.index}].window_id {"from_step": ${from}}`;
  const entry = entries.find((candidate) => candidate.index === from);
  if (!entry || !entry.ok) {
    throw new ToolError(`${where}: step ${from} (${entry?.tool ?? 'not run'}) ${entry ? 'failed' : 'did not run'}, so it produced no window; nothing was sent`, 'no_step_window', { from_step: from });
  }
  const { windows, source } = producedWindows(entry.result);
  if (windows.length === 0) {
    throw new ToolError(
      `${where}: step ${from} (${entry.tool}) produced no window: its result lists no window it opened (new_windows), matched by title (windows) or by selector (matches), or read (window). ` +
        'Nothing was sent. Point the reference at the step that opens the window, or add a wait_for step with its window_title and refer to that.',
      'no_step_window',
      { from_step: from },
    );
  }
  if (windows.length > 1) {
    throw new ToolError(
      `${where}: step ${from} (${entry.tool}) produced ${windows.length} windows (${source}: ${windows.map(describe).join(', ')}), and one is needed. ` +
        'Nothing was sent. Make that step name one window (a longer window_title; a selector that matches in one window), or add a wait_for step that does and refer to it.',
      'no_step_window',
      { from_step: from, window_ids: windows.map((window) => window.window_id) },
    );
  }
  const produced = windows[0]!;
  const open = (await context.desktop.windows()).find((window) => window.id === produced.window_id);
  // A wait for an element to be gone from the window is answered by its closing (wait_for says so): the dialog
  // a step's click closed, waited on to be gone.
  if (!open && goneWait(step) && produced.pid !== undefined) return { window_id: produced.window_id, pid: produced.pid, from_step: from };
  if (!open) {
    throw new ToolError(`${where}: window ${describe(produced)}, which step ${from} (${entry.tool}) produced, has closed; nothing was sent`, 'no_step_window', {
      from_step: from,
      window_id: produced.window_id,
    });
  }
  return { window_id: open.id, pid: open.pid, from_step: from };
}
