/**
 * A connection opened on first use and shared by every caller after that. When it fails to open or
 * later drops, it is forgotten, so the next use opens a fresh one instead of reusing a dead one.
 */
export class LazyConnection<T> {
  private current?: Promise<T>;
  /** Set by shut(): what get() then answers instead of opening a connection. */
  private shutBy?: string;

  constructor(
    private readonly open: () => Promise<T>,
    private readonly onDrop: (connection: T, dropped: () => void) => void,
  ) {}

  get(): Promise<T> {
    if (this.shutBy !== undefined) return Promise.reject(new Error(this.shutBy));
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

  /**
   * Closes the connection for good (its owner is done): work still under way that asks for it after this gets
   * `reason` as an error, where a new connection would keep the process alive with no one to close it.
   */
  shut(closeConnection: (connection: T) => void, reason: string): void {
    this.close(closeConnection);
    this.shutBy = reason;
  }

  /** Closes the connection if one is open or opening, and forgets it. */
  close(closeConnection: (connection: T) => void): void {
    void this.current?.then(closeConnection).catch(() => {});
    this.current = undefined;
  }
}
