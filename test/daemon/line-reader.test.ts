import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineReader, type LineEvent } from '../../src/server/daemon/line-reader.js';

function feed(reader: LineReader, ...chunks: (string | Buffer)[]): LineEvent[] {
  return chunks.flatMap((chunk) => reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
}

describe('line framing', () => {
  test('a line split across chunks arrives once, whole', () => {
    const reader = new LineReader(1024);
    assert.deepEqual(feed(reader, '{"id":', '1,"op"', ':"ping"}'), []);
    assert.equal(reader.buffered, 20);
    assert.deepEqual(feed(reader, '\n'), [{ kind: 'line', text: '{"id":1,"op":"ping"}' }]);
    assert.equal(reader.buffered, 0);
  });

  test('several lines in one chunk come out in order; a trailing partial line waits', () => {
    const reader = new LineReader(1024);
    assert.deepEqual(feed(reader, 'a\nb\r\n\nc'), [
      { kind: 'line', text: 'a' },
      { kind: 'line', text: 'b' },
      { kind: 'line', text: '' },
    ]);
    assert.deepEqual(feed(reader, '\n'), [{ kind: 'line', text: 'c' }]);
  });

  test('a multi-byte character cut between chunks decodes correctly', () => {
    const bytes = Buffer.from('"héllo ✓ 你好"\n');
    const reader = new LineReader(1024);
    const events = [...bytes].flatMap((byte) => reader.push(Buffer.from([byte])));
    assert.deepEqual(events, [{ kind: 'line', text: '"héllo ✓ 你好"' }]);
  });

  test('an oversize line is reported once, as soon as it passes the cap, and the next line still reads', () => {
    const reader = new LineReader(10);
    assert.deepEqual(feed(reader, '0123456789'), []);
    assert.deepEqual(feed(reader, 'X'), [{ kind: 'oversize', limit: 10 }]);
    assert.deepEqual(feed(reader, 'more and more bytes', 'still the same line'), []);
    assert.equal(reader.buffered, 0, 'nothing of the oversize line is kept');
    assert.deepEqual(feed(reader, 'tail\nnext\n'), [{ kind: 'line', text: 'next' }]);
  });

  test('a line of exactly the cap is fine; one in a single chunk with others around it is isolated', () => {
    const reader = new LineReader(4);
    assert.deepEqual(feed(reader, 'abcd\nabcdefgh\nok\n'), [
      { kind: 'line', text: 'abcd' },
      { kind: 'oversize', limit: 4 },
      { kind: 'line', text: 'ok' },
    ]);
  });
});
