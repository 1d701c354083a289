// Incoming bytes as a queue of socket chunks. A message is copied at most once, when it is taken and spans chunks,
// so a multi-megabyte GetImage reply arriving in 64 KiB pieces costs one copy, not one per piece.

export class ByteQueue {
  private chunks: Buffer[] = [];
  private first = 0;
  private offset = 0;
  length = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The first `count` bytes without consuming them; the caller checks `length` first. */
  peek(count: number): Buffer {
    const head = this.chunks[this.first]!;
    if (head.length - this.offset >= count) return head.subarray(this.offset, this.offset + count);
    return this.gather(count, false);
  }

  /** Removes and returns the first `count` bytes as one contiguous buffer. */
  take(count: number): Buffer {
    const head = this.chunks[this.first]!;
    if (head.length - this.offset >= count) {
      const view = head.subarray(this.offset, this.offset + count);
      this.advance(count);
      return view;
    }
    return this.gather(count, true);
  }

  private gather(count: number, consume: boolean): Buffer {
    const out = Buffer.allocUnsafe(count);
    let filled = 0;
    let index = this.first;
    let offset = this.offset;
    while (filled < count) {
      const chunk = this.chunks[index]!;
      const n = Math.min(chunk.length - offset, count - filled);
      chunk.copy(out, filled, offset, offset + n);
      filled += n;
      offset += n;
      if (offset === chunk.length) {
        index++;
        offset = 0;
      }
    }
    if (consume) this.advance(count);
    return out;
  }

  private advance(count: number): void {
    this.length -= count;
    let remaining = count;
    while (remaining > 0) {
      const available = this.chunks[this.first]!.length - this.offset;
      if (remaining < available) {
        this.offset += remaining;
        return;
      }
      remaining -= available;
      this.first++;
      this.offset = 0;
    }
    // Drop consumed chunks in batches so the array does not grow without bound or shift on every message.
    if (this.first === this.chunks.length) {
      this.chunks = [];
      this.first = 0;
    } else if (this.first > 64) {
      this.chunks = this.chunks.slice(this.first);
      this.first = 0;
    }
  }

  clear(): void {
    this.chunks = [];
    this.first = 0;
    this.offset = 0;
    this.length = 0;
  }
}
