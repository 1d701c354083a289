// One keyboard per connection: the server's keyboard map, reloaded after the server announces a change, and a queue so that two
// keyboard actions on one connection never interleave their keys or their temporary bindings.
import type { X11Connection } from '../x11/index.js';
import { KeyboardMap } from './keyboard-map.js';

const keyboards = new WeakMap<X11Connection, Keyboard>();
/** The Lock modifier's bit, which Caps Lock locks. */
const capsLockMask = 2;

export class Keyboard {
  private map: Promise<KeyboardMap> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly x: X11Connection) {
    // A map kept past a layout change types the old layout's keys: "yz@" typed after setxkbmap de came out "zy\"".
    x.onKeyboardChange(() => (this.map = undefined));
  }

  static of(x: X11Connection): Keyboard {
    let keyboard = keyboards.get(x);
    if (!keyboard) {
      keyboard = new Keyboard(x);
      keyboards.set(x, keyboard);
    }
    return keyboard;
  }

  /** The current map, loaded once and again only after the server announced a change. */
  current(): Promise<KeyboardMap> {
    if (!this.map) {
      const loading = KeyboardMap.load(this.x);
      loading.catch(() => {
        if (this.map === loading) this.map = undefined;
      });
      this.map = loading;
    }
    return this.map;
  }

  /**
   * Runs `action` after every earlier action on this keyboard has finished (successfully or not), with the keyboard
   * on its first group (layout) and Caps Lock off meanwhile.
   */
  exclusive<T>(action: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.unlocked(action));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The map's keysyms are read from the core map's columns of the first group, but a key press produces those of the
   * group the keyboard is in: with "us,ru" switched to Russian, "abc" typed as "фис". And Caps Lock turns the lower
   * case of a character bound to a spare key into its capital (Xlib converts the case of any keysym whose key's type
   * does not use Lock): "Привет" typed as "ПРИВЕТ". So both are unlocked for the action and locked again after it,
   * with what the action itself toggled (a Caps Lock press) kept. The server stamps each key event with the state it
   * is generated in, and it handles the XTEST keys sent before the lock request first, so no key is read in another.
   */
  private async unlocked<T>(action: () => Promise<T>): Promise<T> {
    // A server without XKB has one group, and its locks are left alone.
    const before = await this.x.xkb.getLocks().catch(() => undefined);
    if (!before || (before.group === 0 && (before.modifiers & capsLockMask) === 0)) return action();
    const neutral = { group: 0, modifiers: 0 };
    if (!(await this.x.xkb.setLocks(neutral, capsLockMask).then(() => true, () => false))) return action();
    try {
      return await action();
    } finally {
      const toggled = await this.x.xkb.getLocks().catch(() => neutral);
      // The server wraps a group number past the keyboard's last group.
      await this.x.xkb.setLocks({ group: before.group + toggled.group, modifiers: before.modifiers ^ toggled.modifiers }, capsLockMask).catch(() => undefined);
    }
  }
}
