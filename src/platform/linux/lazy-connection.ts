/**
 * A connection opened on first use and shared by every caller after that. When it fails to open or
 * later drops, it is forgotten, so the next use opens a fresh one instead of reusing a dead one.
 */
export class LazyConnection<T> {
  private current?: Promise<T>;

  constructor(
    private readonly open: () => Promise<T>,
    private readonly onDrop: (connection: T, dropped: () => void) => void,
  ) {}

  get(): Promise<T> {
    if (!this.current) {
      const opening = this.open();
      const forget = () => {
        if (this.current === opening) this.current = undefined;
      };
      this.current = opening;
      opening.then((connection) => this.onDrop(connection, forget), forget);
    }
    return this.current;
  }

  /** Whether a connection is open or opening (without opening one). */
  get opened(): boolean {
    return this.current !== undefined;
  }

  /** Closes the connection if one is open or opening, and forgets it. */
  close(closeConnection: (connection: T) => void): void {
    void this.current?.then(closeConnection).catch(() => {});
    this.current = undefined;
  }
}
