/**
 * The application's own accessibility socket closed under a call: the application exited or crashed. Kept
 * apart from the accessibility bus closing, which means the bus is gone, not one application.
 */
export class ApplicationGoneError extends Error {
  constructor(
    readonly busName: string,
    readonly pid: number | undefined,
  ) {
    super(`the application${pid ? ` (pid ${pid})` : ''} on ${busName} closed its accessibility connection: it exited or crashed`);
    this.name = 'ApplicationGoneError';
  }
}
