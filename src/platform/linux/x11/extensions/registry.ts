// QueryExtension / ListExtensions, with each extension's opcode looked up once per connection.
import type { X11Core } from '../connection.js';
import { requestBuffer, string8 } from '../encode.js';
import { Opcode } from '../opcodes.js';

export interface ExtensionInfo {
  present: boolean;
  majorOpcode: number;
  firstEvent: number;
  firstError: number;
}

export function encodeQueryExtension(name: string): Buffer {
  const bytes = string8(name);
  const request = requestBuffer(Opcode.QueryExtension, 0, 8 + bytes.length);
  request.writeUInt16LE(bytes.length, 4);
  bytes.copy(request, 8);
  return request;
}

export function parseQueryExtension(reply: Buffer): ExtensionInfo {
  return { present: reply[8] !== 0, majorOpcode: reply[9], firstEvent: reply[10], firstError: reply[11] };
}

export function parseListExtensions(reply: Buffer): string[] {
  const names: string[] = [];
  let offset = 32;
  for (let i = 0; i < reply[1]; i++) {
    const length = reply[offset];
    names.push(reply.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return names;
}

export class ExtensionRegistry {
  private readonly queries = new Map<string, Promise<ExtensionInfo>>();

  constructor(private readonly core: X11Core) {}

  /** Cached per name (absent extensions too); a failed look-up is retried next time. */
  query(name: string): Promise<ExtensionInfo> {
    let query = this.queries.get(name);
    if (!query) {
      query = this.core.request(encodeQueryExtension(name), parseQueryExtension).then((info) => {
        if (info.present) this.core.registerExtension(name, info.majorOpcode, info.firstError);
        return info;
      });
      query.catch(() => this.queries.delete(name));
      this.queries.set(name, query);
    }
    return query;
  }

  list(): Promise<string[]> {
    return this.core.request(requestBuffer(Opcode.ListExtensions, 0, 4), parseListExtensions);
  }
}

/**
 * One extension as its request encoders see it: the major opcode, looked up on first use. Once known it is
 * available synchronously, so later requests go out in call order without waiting on anything.
 */
export class Extension {
  private major: number | undefined;
  private lookup: Promise<number> | undefined;

  constructor(
    private readonly core: X11Core,
    private readonly registry: ExtensionRegistry,
    readonly name: string,
    private readonly requestNames: readonly string[],
  ) {}

  /** The major opcode; rejects with a clear error when the server lacks the extension. */
  opcode(): Promise<number> {
    if (this.major !== undefined) return Promise.resolve(this.major);
    this.lookup ??= this.registry.query(this.name).then(
      (info) => {
        if (!info.present) throw new Error(`the X server at DISPLAY=${this.core.display} does not support the ${this.name} extension`);
        this.core.registerExtension(this.name, info.majorOpcode, info.firstError, this.requestNames);
        this.major = info.majorOpcode;
        return info.majorOpcode;
      },
      (error: unknown) => {
        this.lookup = undefined;
        throw error;
      },
    );
    return this.lookup;
  }

  /** Sends a reply-less request built from the major opcode; immediate when the opcode is already known. */
  async send(build: (major: number) => Buffer): Promise<void> {
    const major = this.major ?? (await this.opcode());
    return this.core.send(build(major));
  }

  async request<T>(build: (major: number) => Buffer, parse: (reply: Buffer) => T): Promise<T> {
    const major = this.major ?? (await this.opcode());
    return this.core.request(build(major), parse);
  }
}
