// Characters the keyboard map lacks ("你", "✓"), bound for a moment to spare keycodes (keycodes with no keysyms).
//
// Clients translate keycodes to keysyms themselves, with the map they last fetched; a MappingNotify makes them fetch
// it again, in some toolkits only when the next key arrives. So a binding must stay until the app has read every key
// typed with it: before a spare keycode is rebound to another character, and before the map is restored, the caller's
// `settle` waits for the app. Bindings are reused while they last, and every changed keycode is restored at the end.
// Each round of changes (the bindings a run of text needs, the restore) is one request: every client, the window
// manager too, re-reads the map once per request, and a request per key made the re-reading the cost of typing.
import type { X11Connection, XkbKeySyms } from '../x11/index.js';
import type { KeyboardMap } from './keyboard-map.js';
import { windowManagerBarrier } from './window-manager.js';

// Bound on waiting for the window manager after the map is restored: it spends about 40 ms per change.
const barrierBaseMs = 1000;
const barrierPerChangeMs = 100;
const barrierLimitMs = 10_000;

export class TemporaryKeys {
  private readonly spare: readonly number[];
  /** keysym → the spare keycode currently producing it. */
  private readonly bound = new Map<number, number>();
  private readonly changed = new Set<number>();
  /** Each changed keycode's XKB description before this typing (XKB servers). */
  private readonly originals = new Map<number, XkbKeySyms>();
  /** Keyboard mapping requests made, each of which every client (the window manager too) has to digest. */
  private changes = 0;

  constructor(
    private readonly x: X11Connection,
    private readonly map: KeyboardMap,
    private readonly settle: () => Promise<void>,
  ) {
    this.spare = map.spareKeycodes();
  }

  /** How many distinct characters can be bound at once. */
  get capacity(): number {
    return this.spare.length;
  }

  keycodeOf(keysym: number): number | undefined {
    return this.bound.get(keysym);
  }

  /** Binds every keysym in `keysyms` that is not bound yet, evicting (after settling) bindings not in the list. */
  async bind(keysyms: readonly number[]): Promise<void> {
    const needed = new Set(keysyms);
    const missing = [...needed].filter((keysym) => !this.bound.has(keysym));
    if (missing.length === 0) return;
    if (needed.size > this.capacity) {
      throw new RangeError(`${needed.size} characters missing from the keyboard map need binding at once, but it has only ${this.capacity} spare keycodes`);
    }
    const inUse = new Set(this.bound.values());
    const free = this.spare.filter((keycode) => !inUse.has(keycode));
    if (missing.length > free.length) {
      // Rebinding a keycode whose earlier keys the app may not have read yet would change what they mean to it.
      await this.settle();
      for (const [keysym, keycode] of this.bound) {
        if (free.length >= missing.length) break;
        if (needed.has(keysym)) continue;
        this.bound.delete(keysym);
        free.push(keycode);
      }
    }
    const writes = new Map<number, number | undefined>();
    for (const keysym of missing) {
      const keycode = free.shift()!;
      this.bound.set(keysym, keycode);
      writes.set(keycode, keysym);
    }
    await this.write(writes);
  }

  /**
   * Puts every changed keycode back as it was, once the app has read the keys typed with it; then waits (bounded)
   * until the window manager has caught up with the changes, so that what follows (an activation) is not delayed.
   */
  async restore(): Promise<void> {
    if (this.changed.size === 0) return;
    await this.settle();
    await this.write(new Map([...this.changed].map((keycode) => [keycode, undefined])));
    this.changed.clear();
    this.bound.clear();
    this.originals.clear();
    await windowManagerBarrier(this.x, Math.min(barrierLimitMs, barrierBaseMs + this.changes * barrierPerChangeMs));
    this.changes = 0;
  }

  /**
   * Gives each keycode its keysym (undefined: what it had before this typing) in one XKB request: every client
   * then re-reads the map once for all of them, not once per key. Without XKEYBOARD, one core request per key.
   */
  private async write(keysyms: ReadonlyMap<number, number | undefined>): Promise<void> {
    if (keysyms.size === 0) return;
    for (const keycode of keysyms.keys()) this.changed.add(keycode);
    if (!(await this.x.queryExtension('XKEYBOARD')).present) {
      await this.x.checked(async () => {
        for (const [keycode, keysym] of keysyms) await this.x.changeKeyboardMapping(keycode, this.map.mapping.keysymsPerKeycode, this.coreKeysyms(keycode, keysym));
      });
      this.changes += keysyms.size;
      return;
    }
    const first = Math.min(...keysyms.keys());
    const keys = await this.x.xkb.getKeySyms(first, Math.max(...keysyms.keys()) - first + 1);
    keys.forEach((key, index) => {
      const keycode = first + index;
      if (!keysyms.has(keycode)) return;
      if (!this.originals.has(keycode)) this.originals.set(keycode, key);
      const keysym = keysyms.get(keycode);
      // TWO_LEVEL (type 1 in every XKB map) with the keysym on both levels, in one group that every layout group
      // wraps into: the keysym whatever the shift level, Caps Lock or the user's group. Not ONE_LEVEL: its core
      // image has the shifted column empty, and a client without XKB would turn a capital into its lower case.
      keys[index] = keysym === undefined ? this.originals.get(keycode)! : { types: [1, 1, 1, 1], groupInfo: 1, width: 2, keysyms: [keysym, keysym] };
    });
    await this.x.checked(() => this.x.xkb.setKeySyms(first, keys, this.map.minKeycode, this.map.maxKeycode));
    this.changes++;
  }

  /**
   * Core columns for a keycode: the keysym on both levels of both core groups (with one column only, the core rules
   * would turn a capital's unshifted level into its lower case, and a user switched to a second layout group would
   * not get it), or its keysyms before this typing.
   */
  private coreKeysyms(keycode: number, keysym: number | undefined): number[] {
    if (keysym === undefined) return this.map.keysymsOf(keycode);
    const keysyms = new Array<number>(this.map.mapping.keysymsPerKeycode).fill(0);
    for (let column = 0; column < Math.min(4, keysyms.length); column++) keysyms[column] = keysym;
    return keysyms;
  }
}
