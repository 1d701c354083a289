// A private, never-mapped window per connection, for requests whose answer only comes as an event on a window
// of ours: PropertyNotify carrying the server time, or a property the window manager sets when asked.
import { EventMask, type X11Connection } from '../x11/index.js';
import { PerConnection } from './per-connection.js';

const helpers = new PerConnection((x) => x.createWindow({ parent: x.screen.root, x: -10, y: -10, width: 1, height: 1, eventMask: EventMask.PropertyChange }));

export function helperWindow(x: X11Connection): Promise<number> {
  return helpers.of(x);
}

/**
 * Runs `trigger` and resolves with the time of the next PropertyNotify for `atom` on `window`; rejects after
 * `timeoutMs` with an error naming `what` was awaited.
 */
export function nextPropertyNotify(x: X11Connection, window: number, atom: number, trigger: () => Promise<void>, timeoutMs: number, what: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      off();
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`no answer within ${timeoutMs} ms while waiting for ${what} (DISPLAY=${x.display})`))), timeoutMs);
    const off = x.onEvent((event) => {
      if (event.name === 'PropertyNotify' && event.window === window && event.atom === atom) finish(() => resolve(event.time));
    });
    trigger().catch((error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))));
  });
}
