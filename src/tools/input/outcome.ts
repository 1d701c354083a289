import type { ToolOutput } from '../tool.js';
import type { ActionResult, DeliveryMode, Escalation } from './schemas.js';
import type { ElementTarget, PointTarget } from './targets.js';
import type { Observation } from './verification.js';

/** Delivery rungs, named as seed 001 names the Linux ones. */
export type DeliveryPath = 'x11_atspi' | 'x11_pixel' | 'x11_pixel_fg' | 'key_events' | 'key_events_fg' | 'none';

export interface OutcomeInput {
  path: DeliveryPath;
  mode: DeliveryMode;
  target?: ElementTarget | PointTarget;
  observation?: Observation;
  /** Why nothing was dispatched, or what to try when the dispatched action showed no effect. */
  escalation?: Escalation;
}

export function describeTarget(target: ElementTarget | PointTarget | undefined): ActionResult['target'] {
  if (!target) return undefined;
  if (target.kind === 'element') {
    return {
      pid: target.snapshot.pid,
      window_id: target.window.id,
      element_index: target.element.index,
      snapshot_id: target.snapshot.id,
      role: target.element.role,
      name: target.element.name,
    };
  }
  return { pid: target.window.pid, window_id: target.window.id, x: Math.round(target.windowX), y: Math.round(target.windowY) };
}

function defaultEscalation(mode: DeliveryMode, path: DeliveryPath): Escalation {
  if (mode === 'background') {
    return { recommended: 'foreground', reason: 'the background delivery showed no effect; retry with delivery_mode "foreground" (real input to the activated window)' };
  }
  return {
    recommended: 'px',
    reason: `real input (${path}) showed no effect; check the target on a fresh get_window_state screenshot and address it by pixels`,
  };
}

/**
 * The honest verdict: confirmed only with evidence read back; suspected_noop when we could have seen a
 * change and saw none (or dispatched nothing); unverifiable when the app gives us no way to see.
 */
export function actionOutcome(input: OutcomeInput): ActionResult {
  const observation = input.observation;
  const base = {
    path: input.path,
    delivery_mode: input.mode,
    target: describeTarget(input.target),
    ...(observation?.newWindows ? { new_windows: observation.newWindows } : {}),
  };
  if (input.path === 'none') {
    return { ...base, effect: 'suspected_noop', verified: false, escalation: input.escalation ?? defaultEscalation(input.mode, input.path) };
  }
  if (observation?.unanswered) return unansweredOutcome(base, observation);
  if (observation?.changed) return { ...base, effect: 'confirmed', verified: true, evidence: observation.evidence };
  if (observation?.listening) {
    return { ...base, effect: 'suspected_noop', verified: false, evidence: [], escalation: input.escalation ?? defaultEscalation(input.mode, input.path) };
  }
  return { ...base, effect: 'unverifiable', verified: false };
}

/**
 * The action was dispatched and the app did not answer in time. Never a failure and never a suggestion to
 * retry (that would run the action twice, e.g. open a second dialog): confirmed when the read-back shows
 * the effect anyway, else unverifiable, with the windows the app opened meanwhile named.
 */
function unansweredOutcome(base: Omit<ActionResult, 'effect' | 'verified'>, observation: Observation): ActionResult {
  const { call, timeoutMs } = observation.unanswered!;
  const opened = observation.newWindows ?? [];
  const windows = opened.map((window) => `window ${window.window_id} "${window.title}"`).join(', ');
  const note =
    `${call} was dispatched and the application did not answer within ${timeoutMs} ms (typically because the action opened a modal dialog, whose event loop runs inside the call); ` +
    (opened.length > 0
      ? `the app opened ${windows} meanwhile: read it with get_window_state before acting again`
      : 'no new window of the app appeared; it may be busy or hung: check with get_window_state before repeating the action');
  const result = { ...base, no_reply_ms: timeoutMs, evidence: [note, ...observation.evidence] };
  return observation.changed ? { ...result, effect: 'confirmed', verified: true } : { ...result, effect: 'unverifiable', verified: false };
}

/** Nothing was sent: the honest answer when no rung of the asked delivery mode reaches the target. */
export function notDelivered(mode: DeliveryMode, target: ElementTarget | PointTarget | undefined, reason: string, recommended: Escalation['recommended'] = 'foreground'): ActionResult {
  return actionOutcome({ path: 'none', mode, target, escalation: { recommended, reason } });
}

function targetText(result: ActionResult): string {
  const target = result.target;
  if (!target) return '';
  if (target.element_index !== undefined) return ` [e${target.element_index}] ${target.role}${target.name ? ` "${target.name}"` : ''}`;
  return ` (${target.x},${target.y}) in window ${target.window_id}`;
}

/** The one-line summary, then the evidence or the escalation as the body. */
export function actionOutput(tool: string, result: ActionResult): ToolOutput<ActionResult> {
  const mark = result.effect === 'confirmed' ? '✅' : result.effect === 'unverifiable' ? '❔' : '⚠️';
  const verdict =
    result.effect === 'confirmed'
      ? `confirmed via ${result.path}${result.no_reply_ms !== undefined ? ` (the app did not answer the call within ${result.no_reply_ms} ms)` : ''}`
      : result.path === 'none'
        ? 'not delivered'
        : result.no_reply_ms !== undefined
          ? `dispatched via ${result.path}, unconfirmed: the app did not answer within ${result.no_reply_ms} ms`
          : result.effect === 'unverifiable'
          ? `delivered via ${result.path}, effect not observable`
          : `delivered via ${result.path}, no effect seen`;
  const lines = [
    ...(result.evidence ?? []).map((line) => `- ${line}`),
    ...(result.new_windows ?? []).map((window) => `new window: ${window.window_id} "${window.title}" (pid ${window.pid})`),
    ...(result.escalation ? [`next: ${result.escalation.recommended}: ${result.escalation.reason}`] : []),
  ];
  return { summary: `${mark} ${tool}${targetText(result)}: ${verdict}`, body: lines.join('\n') || undefined, structured: result };
}
