// Reading an X selection as a requestor (ICCCM 2.4): ConvertSelection into a property of a window of ours,
// then the property, in INCR chunks when the owner sends it so.
import { ToolError } from '../../../errors.js';
import { EventMask, type X11Connection } from '../x11/index.js';

export interface SelectionData {
  /** The property type the owner wrote (UTF8_STRING, STRING, image/png, ATOM...). */
  type: string;
  data: Buffer;
  /** The owner's window. */
  owner: number;
}

/** Bound on what one read takes in, so a misbehaving owner cannot fill the driver's memory. */
const maxSelectionBytes = 64 * 1024 * 1024;

/**
 * The selection converted to `target`; undefined when nobody owns it or the owner refuses that target.
 * Every wait (the owner's answer, each INCR chunk) is bounded by timeoutMs.
 */
export async function readSelection(x: X11Connection, selectionName: string, target: string, timeoutMs: number): Promise<SelectionData | undefined> {
  const atoms = await x.atoms([selectionName, target, 'INCR', '_CUP_DRIVER_CLIPBOARD']);
  const owner = await x.getSelectionOwner(atoms[selectionName]!);
  if (owner === 0) return undefined;
  const window = await x.createWindow({ parent: x.screen.root, x: -10, y: -10, width: 1, height: 1, eventMask: EventMask.PropertyChange });
  const property = atoms._CUP_DRIVER_CLIPBOARD!;
  const events = eventQueue(x, window, property);
  try {
    await x.convertSelection(window, atoms[selectionName]!, atoms[target]!, property, 0);
    const ownerPid = (await x.getCardinals(owner, '_NET_WM_PID').catch(() => undefined))?.[0];
    const notified = await events.next('SelectionNotify', timeoutMs, `the answer of the ${selectionName} owner (window 0x${owner.toString(16)}${ownerPid ? `, pid ${ownerPid}` : ''}) for ${target}`);
    if (notified === 0) return undefined;
    // The owner's own write (an INCR header) raised a NewValue before it notified: only later ones announce chunks.
    events.forget('NewValue');
    const first = await x.getProperty(window, property, { delete: true });
    if (!first) return undefined;
    if (first.type !== atoms.INCR) return { type: await x.getAtomName(first.type), data: Buffer.from(first.data), owner };
    // INCR: each deletion of ours asks for the next chunk; an empty chunk ends the transfer.
    const parts: Buffer[] = [];
    let total = 0;
    let type = 0;
    for (;;) {
      await events.next('NewValue', timeoutMs, `the next chunk of ${target} from the ${selectionName} owner`);
      const chunk = await x.getProperty(window, property, { delete: true });
      if (!chunk || chunk.data.length === 0) break;
      type = chunk.type;
      parts.push(Buffer.from(chunk.data));
      total += chunk.data.length;
      if (total > maxSelectionBytes) throw new Error(`the ${selectionName} selection is over ${maxSelectionBytes >> 20} MB as ${target}; not read`);
    }
    return { type: type ? await x.getAtomName(type) : target, data: Buffer.concat(parts), owner };
  } finally {
    events.close();
    await x.destroyWindow(window).catch(() => undefined);
  }
}

/**
 * The SelectionNotify and PropertyNotify(NewValue) events for our window, queued from the start so none is missed
 * between a request and the wait for its answer. next() resolves with SelectionNotify's property (0 = refused).
 */
function eventQueue(x: X11Connection, window: number, property: number) {
  const seen: { kind: 'SelectionNotify' | 'NewValue'; property: number }[] = [];
  let wake: (() => void) | undefined;
  const off = x.onEvent((event) => {
    if (event.name === 'SelectionNotify' && event.requestor === window) seen.push({ kind: 'SelectionNotify', property: event.property });
    else if (event.name === 'PropertyNotify' && event.window === window && event.atom === property && event.state === 'NewValue') seen.push({ kind: 'NewValue', property });
    else return;
    wake?.();
  });
  return {
    async next(kind: 'SelectionNotify' | 'NewValue', timeoutMs: number, what: string): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = seen.findIndex((item) => item.kind === kind);
        if (index >= 0) return seen.splice(index, 1)[0]!.property;
        const left = deadline - Date.now();
        if (left <= 0) throw new ToolError(`${what} did not come within ${timeoutMs} ms: its owner may be hung or stopped`, 'app_not_responding');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    },
    forget(kind: 'SelectionNotify' | 'NewValue'): void {
      for (let index = seen.length - 1; index >= 0; index--) if (seen[index]!.kind === kind) seen.splice(index, 1);
    },
    close: off,
  };
}
