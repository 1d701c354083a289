/**
 * Lets concurrent identical reads (several clients reading one window) share work without ever answering
 * with a state older than the call: a call that arrives while a read of its key runs waits for that read
 * to end and shares the next one, which starts after every call waiting for it arrived. However many calls
 * come at once, a key costs at most two reads back to back instead of one per call.
 */
export class ReadCoalescer<T> {
  private readonly reads = new Map<string, { next?: Promise<T>; startNext?: () => void }>();

  run(key: string, read: () => Promise<T>): Promise<T> {
    const running = this.reads.get(key);
    if (!running) return this.start(key, read);
    if (!running.next) {
      running.next = new Promise<T>((resolve, reject) => {
        running.startNext = () => this.start(key, read).then(resolve, reject);
      });
    }
    return running.next;
  }

  private start(key: string, read: () => Promise<T>): Promise<T> {
    const state: { next?: Promise<T>; startNext?: () => void } = {};
    this.reads.set(key, state);
    const reading = Promise.resolve().then(read);
    const finished = () => {
      if (this.reads.get(key) === state) this.reads.delete(key);
      // The calls that came during this read get one that started after them.
      state.startNext?.();
    };
    reading.then(finished, finished);
    return reading;
  }
}
