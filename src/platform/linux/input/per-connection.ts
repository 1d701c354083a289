// Things an input action creates once per X connection (a helper window, the agent cursor) and shares afterwards.
import type { X11Connection } from '../x11/index.js';

export class PerConnection<T> {
  private readonly created = new WeakMap<X11Connection, Promise<T>>();

  constructor(private readonly create: (x: X11Connection) => Promise<T>) {}

  /** The connection's one value, created on first use; a failed creation is forgotten so that the next call retries. */
  of(x: X11Connection): Promise<T> {
    let value = this.created.get(x);
    if (!value) {
      value = this.create(x);
      value.catch(() => this.created.delete(x));
      this.created.set(x, value);
    }
    return value;
  }

  /** The value when it was created (or is being created), without creating it. */
  existing(x: X11Connection): Promise<T> | undefined {
    return this.created.get(x);
  }
}
