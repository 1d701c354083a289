import { Buffer } from 'node:buffer';
import { FIXED_HEADER_LENGTH, messageLength } from './message.js';

/**
 * Cuts a byte stream into whole messages. Chunks are kept as received until a message is complete, so
 * each byte is copied at most once (only when a message straddles chunks) however the reads are split.
 */
export class FrameSplitter {
  private chunks: Buffer[] = [];
  /** Bytes already consumed from chunks[0]. */
  private headOffset = 0;
  private buffered = 0;

  constructor(private readonly onFrame: (buf: Buffer, offset: number, length: number) => void) {}

  /** Feeds bytes; calls onFrame for every complete message. Throws DBusProtocolError on an impossible header. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= FIXED_HEADER_LENGTH) {
      const first = this.chunks[0]!;
      const available = first.length - this.headOffset;
      const length =
        available >= FIXED_HEADER_LENGTH ? messageLength(first, this.headOffset) : messageLength(this.copyOut(FIXED_HEADER_LENGTH, false), 0);
      if (this.buffered < length) return;
      if (available >= length) {
        const offset = this.headOffset;
        this.consume(length);
        this.onFrame(first, offset, length);
      } else {
        this.onFrame(this.copyOut(length, true), 0, length);
      }
    }
  }

  private consume(length: number): void {
    this.buffered -= length;
    this.headOffset += length;
    if (this.headOffset === this.chunks[0]!.length) {
      this.chunks.shift();
      this.headOffset = 0;
    }
  }

  /** Copies the next `length` buffered bytes into one new Buffer, consuming them if asked. */
  private copyOut(length: number, consume: boolean): Buffer {
    const out = Buffer.allocUnsafe(length);
    let copied = 0;
    let index = 0;
    let offset = this.headOffset;
    while (copied < length) {
      const chunk = this.chunks[index]!;
      const n = Math.min(chunk.length - offset, length - copied);
      chunk.copy(out, copied, offset, offset + n);
      copied += n;
      offset += n;
      if (offset === chunk.length) {
        index++;
        offset = 0;
      }
    }
    if (consume) {
      this.chunks.splice(0, index);
      this.headOffset = offset;
      this.buffered -= length;
    }
    return out;
  }
}
