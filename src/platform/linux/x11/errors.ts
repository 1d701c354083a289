// The three ways a request can fail: the server said no, the server did not answer in time, or the connection is gone.

const coreErrorNames = [
  '', 'BadRequest', 'BadValue', 'BadWindow', 'BadPixmap', 'BadAtom', 'BadCursor', 'BadFont', 'BadMatch',
  'BadDrawable', 'BadAccess', 'BadAlloc', 'BadColor', 'BadGC', 'BadIDChoice', 'BadName', 'BadLength',
  'BadImplementation',
];

// Errors whose bad-value field is a resource id; printed in hex because ids are structured bitfields.
const resourceErrors = new Set([3, 4, 6, 7, 9, 12, 13, 14]);

export function errorCodeName(code: number): string | undefined {
  return coreErrorNames[code] || undefined;
}

export interface X11ErrorFields {
  code: number;
  codeName: string;
  badValue: number;
  majorOpcode: number;
  minorOpcode: number;
  sequence: number;
  requestName: string;
}

export class X11Error extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly badValue: number;
  readonly majorOpcode: number;
  readonly minorOpcode: number;
  readonly sequence: number;
  readonly requestName: string;

  constructor(fields: X11ErrorFields) {
    super(`${fields.codeName} (${fields.code}) in ${fields.requestName}${describeBadValue(fields)}`);
    this.name = 'X11Error';
    this.code = fields.code;
    this.codeName = fields.codeName;
    this.badValue = fields.badValue;
    this.majorOpcode = fields.majorOpcode;
    this.minorOpcode = fields.minorOpcode;
    this.sequence = fields.sequence;
    this.requestName = fields.requestName;
  }
}

function describeBadValue(fields: X11ErrorFields): string {
  if (resourceErrors.has(fields.code)) return `: resource 0x${fields.badValue.toString(16)}`;
  if (fields.code === 5) return `: atom ${fields.badValue}`;
  if (fields.code === 2) return `: value ${fields.badValue} (0x${fields.badValue.toString(16)})`;
  return '';
}

export class X11TimeoutError extends Error {
  readonly requestName: string;
  readonly timeoutMs: number;
  /** Undefined for the connection setup, which precedes sequence numbering. */
  readonly sequence: number | undefined;

  constructor(requestName: string, timeoutMs: number, display: string, sequence?: number) {
    const numbered = sequence === undefined ? '' : ` (sequence ${sequence})`;
    super(`X11 ${requestName}${numbered} got no reply from DISPLAY=${display} within ${timeoutMs} ms`);
    this.name = 'X11TimeoutError';
    this.requestName = requestName;
    this.timeoutMs = timeoutMs;
    this.sequence = sequence;
  }
}

export class X11ClosedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'X11ClosedError';
  }
}
