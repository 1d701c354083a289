/** A complete line, or notice that the current line passed the cap (sent once, as soon as it does). */
export type LineEvent = { kind: 'line'; text: string } | { kind: 'oversize'; limit: number };

/**
 * Splits a byte stream into newline-terminated UTF-8 lines, however the chunks fall (a line split across
 * chunks, several lines in one chunk, a multi-byte character cut in two). A line longer than the cap is
 * reported once, as soon as it passes the cap (the sender need not finish it to hear why), and its bytes
 * are discarded up to its newline, so one bad record cannot exhaust memory and the records after it are
 * still read.
 */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(readonly maxLineBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (!this.discarding && this.pendingBytes + piece.length > this.maxLineBytes) {
        this.discarding = true;
        this.pending = [];
        this.pendingBytes = 0;
        events.push({ kind: 'oversize', limit: this.maxLineBytes });
      } else if (!this.discarding && piece.length > 0) {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      if (newline === -1) break;
      if (this.discarding) this.discarding = false;
      else events.push(this.takeLine());
      start = newline + 1;
    }
    return events;
  }

  /** Bytes held for a line whose newline has not arrived yet (a stream that ends here was cut short). */
  get buffered(): number {
    return this.pendingBytes;
  }

  private takeLine(): LineEvent {
    const text = Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    return { kind: 'line', text: text.endsWith('\r') ? text.slice(0, -1) : text };
  }
}
