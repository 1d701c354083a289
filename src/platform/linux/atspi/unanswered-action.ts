/**
 * An action call (DoAction, SelectChild, AddRowSelection) that was sent and got no reply in time. The
 * message reached the application, so the action was dispatched; its effect is unknown. Toolkits that
 * perform the action before replying (Qt always; any toolkit whose action opens a modal dialog runs the
 * dialog's event loop inside the call) answer only when the dialog closes.
 */
export class UnansweredActionError extends Error {
  constructor(
    readonly member: string,
    readonly timeoutMs: number,
  ) {
    super(`${member} was dispatched and the application did not answer within ${timeoutMs} ms`);
    this.name = 'UnansweredActionError';
  }
}
