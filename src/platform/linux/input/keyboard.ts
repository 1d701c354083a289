// One keyboard per connection: the server's keyboard map, reloaded after a MappingNotify, and a queue so that two
// keyboard actions on one connection never interleave their keys or their temporary bindings.
import type { X11Connection } from '../x11/index.js';
import { KeyboardMap } from './keyboard-map.js';

const keyboards = new WeakMap<X11Connection, Keyboard>();

export class Keyboard {
  private map: Promise<KeyboardMap> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly x: X11Connection) {
    // The server sends MappingNotify to every client, whatever its event mask, after any change to the map.
    x.onEvent((event) => {
      if (event.name === 'MappingNotify' && event.request !== 'Pointer') this.map = undefined;
    });
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

  /** Runs `action` after every earlier action on this keyboard has finished (successfully or not). */
  exclusive<T>(action: () => Promise<T>): Promise<T> {
    const run = this.queue.then(action, action);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
