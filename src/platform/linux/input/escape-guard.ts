// The person at the machine pressing Escape on the real keyboard, seen as XInput2 raw key events on the root
// window: they reach this client whichever window has the focus and even under another client's grab, and the
// app never sees anything of it. Keys the driver itself sends through XTEST (a plan's press_key escape) come
// back as raw events too; the XTEST record of what this connection sent tells them apart.
import type { EscapeHandlers } from '../../desktop.js';
import { parseRawKeyEvent, XIEventType, type X11Connection, type X11Event } from '../x11/index.js';
import { PerConnection } from './per-connection.js';

const escapeKeysym = 0xff1b;

interface Armed {
  handlers: EscapeHandlers;
  timer: NodeJS.Timeout;
}

/** One per connection: the raw key selection is made while at least one guard is armed, and dropped after. */
class EscapeWatch {
  private readonly armed = new Set<Armed>();
  private escapeKeycodes = new Set<number>();
  private selection: Promise<void> = Promise.resolve();

  private constructor(
    private readonly x: X11Connection,
    private readonly opcode: number,
  ) {}

  static async create(x: X11Connection): Promise<EscapeWatch> {
    const opcode = await x.xinput2.opcode();
    const version = await x.xinput2.queryVersion(2, 2);
    if (version.major < 2) throw new Error(`the X server offers XInput ${version.major}.${version.minor}; raw key events need 2.0`);
    const watch = new EscapeWatch(x, opcode);
    await watch.readKeymap();
    x.onEvent((event) => watch.receive(event));
    x.onKeyboardChange(() => void watch.readKeymap().catch(() => undefined));
    return watch;
  }

  async arm(handlers: EscapeHandlers, watchdogMs: number): Promise<() => void> {
    const entry: Armed = {
      handlers,
      timer: setTimeout(() => {
        if (release()) handlers.onWatchdog();
      }, watchdogMs),
    };
    const release = (): boolean => {
      if (!this.armed.delete(entry)) return false;
      clearTimeout(entry.timer);
      if (this.armed.size === 0) this.select([]);
      return true;
    };
    const first = this.armed.size === 0;
    this.armed.add(entry);
    if (first) this.select([XIEventType.RawKeyPress]);
    // Armed only once the server has the selection: an Escape pressed after this resolves is seen.
    await this.selection;
    await this.x.sync();
    return () => void release();
  }

  /** Selections go out in order, so a quick release-then-arm never leaves the mask empty. */
  private select(types: readonly number[]): void {
    this.selection = this.selection.then(() => this.x.xinput2.selectEvents(this.x.screen.root, types)).catch(() => undefined);
  }

  private async readKeymap(): Promise<void> {
    const { minKeycode, maxKeycode } = this.x.setup;
    const mapping = await this.x.getKeyboardMapping(minKeycode, maxKeycode - minKeycode + 1);
    const codes = new Set<number>();
    mapping.keysyms.forEach((keysym, index) => {
      if (keysym === escapeKeysym) codes.add(minKeycode + Math.floor(index / mapping.keysymsPerKeycode));
    });
    this.escapeKeycodes = codes;
  }

  private receive(event: X11Event): void {
    if (event.name !== 'GenericEvent' || event.extension !== this.opcode || this.armed.size === 0) return;
    const key = parseRawKeyEvent(event.raw);
    if (!key || key.evtype !== XIEventType.RawKeyPress || key.repeat || !this.escapeKeycodes.has(key.keycode)) return;
    if (this.x.xtest.claimSentKeyPress(key.keycode)) return;
    for (const entry of [...this.armed]) {
      this.armed.delete(entry);
      clearTimeout(entry.timer);
      entry.handlers.onEscape();
    }
    this.select([]);
  }
}

const watches = new PerConnection((x) => EscapeWatch.create(x));

/**
 * Arms an Escape guard on `x`'s display until the returned release is called, or until the watchdog releases
 * it after `watchdogMs`. Resolves once the server delivers the raw key events.
 */
export async function armEscapeGuard(x: X11Connection, handlers: EscapeHandlers, watchdogMs: number): Promise<() => void> {
  return (await watches.of(x)).arm(handlers, watchdogMs);
}
