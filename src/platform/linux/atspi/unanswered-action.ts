/**
 * A call that changes the application (DoAction, SelectChild, a text or value change) that was sent and
 * got no reply in time. The message reached the application, so the change was dispatched; its effect
 * is unknown. Toolkits that make the change before replying (Qt always, and any toolkit whose action
 * opens a modal dialog, which runs the dialog's event loop inside the call) answer only when the dialog
 * closes.
 */
export class UnansweredActionError extends Error {
  constructor(
    readonly member: string,
    readonly timeoutMs: number,
    /**
     * The app answered another call while this one stayed unanswered: its main loop runs inside the call (a menu's or
     * a modal dialog's), so the wait ended before the call's timeout (see AtspiClient.callUnanswerable).
     */
    readonly loopInside = false,
  ) {
    super(`${member} was dispatched and the application did not answer within ${timeoutMs} ms${loopInside ? ', while it answered other calls' : ''}`);
    this.name = 'UnansweredActionError';
  }
}
