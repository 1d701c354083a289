import { ToolError } from '../../../errors.js';
import type { Observation } from '../../action-outcome.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { DBusTimeoutError } from '../dbus/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';

/** The error an action stops with when its app did not answer: hung or stopped, and nothing was sent. */
export function appNotResponding(pid: number, timeoutMs: number): ToolError {
  return new ToolError(`the application (pid ${pid}) did not answer within ${timeoutMs} ms; it may be hung or stopped; nothing was sent`, 'app_not_responding', { pid });
}

/**
 * For a `.catch` that takes a failed lookup (the focused element, the object under a point) as "nothing
 * there" and goes on to the next rung: an app that did not answer is not "nothing there", and every later
 * rung would wait for it again, so the action stops at the first unanswered call.
 */
export function nothingUnlessUnresponsive(pid: number, timeoutMs: number): (error: unknown) => undefined {
  return (error) => {
    if (error instanceof DBusTimeoutError) throw appNotResponding(pid, timeoutMs);
    if (error instanceof ToolError && error.code === 'app_not_responding') throw error;
    return undefined;
  };
}

/**
 * The object under a point that real input goes to. Real input needs no answer from the app, so an app that did not
 * answer the lookup still gets it; `silent` says so, as it is no app without accessibility: its pixels, the read-back
 * then, cannot show what a hung app will do with the input.
 */
export async function objectUnderInput(desktop: LinuxDesktop, window: ClientWindow, screenX: number, screenY: number): Promise<{ ref?: ObjectRef; silent?: true }> {
  try {
    const ref = await desktop.accessibleAt(window, screenX, screenY);
    return ref ? { ref } : {};
  } catch (error) {
    return error instanceof DBusTimeoutError || (error instanceof ToolError && error.code === 'app_not_responding') ? { silent: true } : {};
  }
}

/**
 * The pixel read-back of real input to an app that did not answer: unchanged pixels are no sign of a no-op (a stopped
 * app draws nothing, and takes the input once it runs again), so nothing seen is unknown, never advice to send it
 * again. A foreground click on a stopped app was "no effect seen" with advice to check its pixels, and a second click
 * would have been a double click once it resumed.
 */
export function unansweredPixels(observation: Observation, pid: number, timeoutMs: number): Observation {
  if (observation.changed) return observation;
  const line =
    `the application (pid ${pid}) did not answer when the object under the point was looked up (within ${timeoutMs} ms): it is hung or busy, ` +
    'so its unchanged pixels say nothing of the input, which it may still take once it answers; check with get_window_state before acting again';
  return { ...observation, stoppedAnswering: true, evidence: [...observation.evidence, line] };
}
