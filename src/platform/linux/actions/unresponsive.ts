import { ToolError } from '../../../errors.js';
import { DBusTimeoutError } from '../dbus/index.js';

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
