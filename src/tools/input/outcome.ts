import { windowName } from '../../platform/windows.js';
import type { ActionOutcome } from '../../platform/action-outcome.js';
import type { ElementTarget, PointTarget } from '../../platform/targets.js';
import type { ToolOutput } from '../tool.js';
import type { ActionResult, Unlisted } from './schemas.js';
import { indexedLabel } from '../../cup/element-label.js';

function describeTarget(target: ElementTarget | PointTarget | undefined): ActionResult['target'] {
  if (!target) return undefined;
  if (target.kind === 'element') {
    return {
      pid: target.snapshot.pid,
      window_id: target.window.id,
      element_index: target.element.index,
      snapshot_id: target.snapshot.id,
      role: target.element.role,
      name: target.element.name,
      // An unnamed element is told by what describes it (a web icon button's aria-describedby), as a screen reader
      // says it: "click [e177] button" said nothing of which of the page's icon buttons was clicked.
      ...(!target.element.name && target.element.description ? { description: target.element.description } : {}),
    };
  }
  return { pid: target.window.pid, window_id: target.window.id, x: Math.round(target.windowX), y: Math.round(target.windowY) };
}

/** The backend's outcome as the tool's result: the target the call named goes after the rung and mode. */
export function targetResult(outcome: ActionOutcome, target: ElementTarget | PointTarget | undefined): ActionResult {
  const { path, delivery_mode, ...rest } = outcome;
  const described = describeTarget(target);
  return { path, delivery_mode, ...(described ? { target: described } : {}), ...rest };
}

function targetText(result: ActionResult): string {
  const target = result.target;
  if (!target) return '';
  if (target.element_index !== undefined) {
    const described = target.description !== undefined ? ` described ${JSON.stringify(target.description)}` : '';
    return ` ${indexedLabel({ index: target.element_index, role: target.role ?? '', name: target.name })}${described}`;
  }
  return ` (${target.x},${target.y}) in window ${target.window_id}`;
}

/** How much input went before a cancel, e.g. " after 312 characters". */
function sentText(result: ActionResult): string {
  if (result.typed_chars !== undefined) return ` after ${result.typed_chars} character${result.typed_chars === 1 ? '' : 's'}`;
  if (result.key_presses !== undefined) return ` after ${result.key_presses} press${result.key_presses === 1 ? '' : 'es'}`;
  return '';
}

type NewWindow = NonNullable<ActionResult['new_windows']>[number];

/** A window the action opened: its line, then its tree (indented under it) or why there is none. */
export function newWindowLines(window: NewWindow): string[] {
  const line = `new window: ${window.window_id} ${windowName(window)} (pid ${window.pid}${window.snapshot_id ? `, snapshot ${window.snapshot_id}` : ''})`;
  if (window.tree) return [`${line}:`, ...window.tree.split('\n').map((treeLine) => `  ${treeLine}`)];
  return [window.tree_error ? `${line}: no tree: ${window.tree_error}` : line];
}

/** The app's other windows the action changed, in one line. */
export function otherWindowLines(windows: ActionResult['other_windows_changed']): string[] {
  if (!windows?.length) return [];
  return [`other windows changed: ${windows.map((window) => `${window.window_id} ${windowName(window)}`).join(', ')} (get_window_state shows how)`];
}

/** The dialog that holds an unanswered call's reply, as the result's new windows name it. */
function dialogName(result: ActionResult): string {
  const dialog = result.new_windows?.find((window) => window.window_id === result.reply_held_by_dialog);
  return dialog ? `${dialog.window_id} ${windowName(dialog)}` : String(result.reply_held_by_dialog);
}

/** The one-line summary, then the evidence, the new windows, the escalation and the diff's lines as the body. */
export function actionOutput(tool: string, given: ActionResult, diffLines: readonly string[] = []): ToolOutput<ActionResult> {
  // The backend's note for the tool layer (see Unlisted) is no field of the result.
  const { unlisted: _unlisted, ...result } = given as ActionResult & Unlisted;
  const mark = result.cancelled ? '⏹️' : result.effect === 'confirmed' ? '✅' : result.effect === 'unverifiable' ? '❔' : '⚠️';
  const verdict =
    result.effect === 'confirmed' && result.path === 'none'
      ? 'already so, nothing was sent'
      : result.reply_held_by_dialog !== undefined
      ? `confirmed via ${result.path}: it opened dialog ${dialogName(result)}, which holds the call's answer until it closes`
      : result.effect === 'confirmed'
      ? `confirmed via ${result.path}${result.no_reply_ms !== undefined ? ` (the app did not answer the call within ${result.no_reply_ms} ms)` : ''}`
      : result.path === 'none'
        ? 'not delivered'
        : result.no_reply_ms !== undefined
          ? `dispatched via ${result.path}, unconfirmed: the app did not answer within ${result.no_reply_ms} ms`
          : result.effect === 'unverifiable'
          ? `delivered via ${result.path}, effect not observable`
          : result.refuted
            ? // A field that kept part of the typed text changed: "no effect seen" said otherwise of it.
              `delivered via ${result.path}, and the target does not show what was asked`
            : `delivered via ${result.path}, no effect seen`;
  const lines = [
    ...(result.scrolled_into_view ? ['scrolled into view first: the element lay outside the visible part of its list or page'] : []),
    ...(result.evidence ?? []).map((line) => `- ${line}`),
    ...(result.new_windows ?? []).flatMap(newWindowLines),
    ...otherWindowLines(result.other_windows_changed),
    ...(result.escalation ? [`next: ${result.escalation.recommended}: ${result.escalation.reason}`] : []),
    ...diffLines,
    ...(result.diff_unavailable ? [`no diff: ${result.diff_unavailable}`] : []),
  ];
  const cancelled = result.cancelled ? `cancelled${sentText(result)}; ` : '';
  return { summary: `${mark} ${tool}${targetText(result)}: ${cancelled}${verdict}`, body: lines.join('\n') || undefined, structured: result };
}
