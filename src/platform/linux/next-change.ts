/**
 * A timeout whose callback runs once the I/O that became ready by its end has been read. Node runs an expired timer
 * before it reads its sockets: on a loaded machine this process may wake only after a change has come, and a wait that
 * answered "nothing came" at once would take a quiet where the app went on. clearTimeout stops it until it expires;
 * after that the callback still runs, so it must check that its wait is still the current one.
 */
export function afterIoTurn(callback: () => void, timeoutMs: number): NodeJS.Timeout {
  return setTimeout(() => setImmediate(callback), Math.max(0, timeoutMs));
}

/**
 * One waiter at a time for the next change of something watched (a process's events, the window list): what a
 * ChangeWatch's next() and lastChangeAt are made of, apart from where the changes come from.
 */
export class NextChange<Reason> {
  private pending: Reason | undefined;
  private wake: ((reason: Reason | undefined) => void) | undefined;
  private closed = false;
  private lastContentAt: number | undefined;

  /** When (Date.now()) the last change of content came; undefined while none did. */
  get lastChangeAt(): number | undefined {
    return this.lastContentAt;
  }

  /** A change came: the waiter wakes with its reason, or the next wait gets it at once. */
  notify(reason: Reason, content: boolean): void {
    if (this.closed) return;
    if (content) this.lastContentAt = Date.now();
    const wake = this.wake;
    this.wake = undefined;
    if (wake) wake(reason);
    else this.pending ??= reason;
  }

  /** The reason of the change since the last call, at once when one came; undefined when none within timeoutMs or closed. */
  next(timeoutMs: number): Promise<Reason | undefined> {
    if (this.pending !== undefined) {
      const reason = this.pending;
      this.pending = undefined;
      return Promise.resolve(reason);
    }
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const own = (reason: Reason | undefined) => {
        clearTimeout(timer);
        resolve(reason);
      };
      const timer = afterIoTurn(() => {
        if (this.wake !== own) return;
        this.wake = undefined;
        resolve(undefined);
      }, timeoutMs);
      this.wake = own;
    });
  }

  /** No more changes; a waiting next() resolves undefined. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const wake = this.wake;
    this.wake = undefined;
    wake?.(undefined);
  }
}
