// The X server's current time. Window managers refuse or delay requests stamped CurrentTime (focus-stealing
// prevention), and the only way to learn the server's clock is an event that carries it: a PropertyNotify on a
// private window of ours, caused by a zero-length property append.
import { Atom, type X11Connection } from '../x11/index.js';
import { helperWindow, nextPropertyNotify } from './helper-window.js';

/** The server's current time in ms (32-bit, wrapping), within the connection's reply deadline. */
export async function serverTime(x: X11Connection): Promise<number> {
  const [window, atom] = await Promise.all([helperWindow(x), x.internAtom('_CUP_DRIVER_TIMESTAMP')]);
  return nextPropertyNotify(x, window, atom, () => x.changeProperty(window, atom, Atom.INTEGER, 8, Buffer.alloc(0), 'append'), x.timeoutMs, 'the server time');
}
