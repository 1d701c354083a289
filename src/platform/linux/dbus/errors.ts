/**
 * A D-Bus error reply. `text` is the error's string argument as sent on the wire, kept apart from
 * `message` so that re-raising it in a call handler sends the original text, not a decorated one.
 */
export class DBusError extends Error {
  readonly dbusName: string;
  readonly text: string;

  constructor(dbusName: string, text = '') {
    super(text === '' ? dbusName : `${dbusName}: ${text}`);
    this.name = 'DBusError';
    this.dbusName = dbusName;
    this.text = text;
  }

  /** Same as `dbusName`; kept because callers were written against this spelling. */
  get name_(): string {
    return this.dbusName;
  }
}

export class DBusTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(destination: string, path: string, iface: string | undefined, member: string, timeoutMs: number) {
    const method = iface === undefined ? member : `${iface}.${member}`;
    super(`D-Bus call ${method} on ${path} at ${destination || '(no destination)'} got no reply within ${timeoutMs} ms`);
    this.name = 'DBusTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

export class DBusClosedError extends Error {
  constructor(reason?: Error) {
    super(reason === undefined ? 'D-Bus connection is closed' : `D-Bus connection is closed: ${reason.message}`, { cause: reason });
    this.name = 'DBusClosedError';
  }
}

/** Bytes that break the wire format: a malformed or oversized message, or a bad signature in one. */
export class DBusProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DBusProtocolError';
  }
}

/**
 * Whether a call failed because its peer's connection is gone: the bus answers that the peer's unique name has no
 * owner (the process exited, or closed its connection), or that it left without replying.
 */
export function peerLeftTheBus(error: unknown): boolean {
  if (!(error instanceof DBusError)) return false;
  if (error.dbusName === 'org.freedesktop.DBus.Error.NoReply') return true;
  return error.dbusName === 'org.freedesktop.DBus.Error.ServiceUnknown' && /\bname :\d/.test(error.text);
}
