import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DBusProtocolError, marshal, parseSignature, unmarshal, Variant } from '../../src/platform/linux/dbus/index.js';
import { FrameSplitter } from '../../src/platform/linux/dbus/frames.js';
import { Writer } from '../../src/platform/linux/dbus/marshal.js';
import { decodeMessage, encodeMessage, messageLength, MessageType, type Message } from '../../src/platform/linux/dbus/message.js';

function bytes(hex: string): Buffer {
  return Buffer.from(hex.replace(/\s+/g, ''), 'hex');
}

describe('invalid signatures are rejected with an error naming them', () => {
  const invalid = ['a', '(', ')', '()', '(i', 'a{vs}', 'a{s}', 'a{sss}', '{ss}', 'z', 'ia', 'a'.repeat(33) + 'y', '('.repeat(33) + 'y' + ')'.repeat(33), 's'.repeat(256)];
  for (const signature of invalid) {
    test(JSON.stringify(signature.length > 20 ? `${signature.slice(0, 20)}...` : signature), () => {
      const fragment = signature.slice(0, 20);
      assert.throws(() => parseSignature(signature), (error: Error) => error.message.includes(fragment));
      assert.throws(() => marshal(signature, []), (error: Error) => error.message.includes(fragment));
      assert.throws(() => unmarshal(signature, Buffer.alloc(64)), (error: Error) => error.message.includes(fragment));
    });
  }

  test('32 nested arrays are still fine', () => {
    assert.equal(parseSignature('a'.repeat(32) + 'y').length, 1);
  });

  test('a variant needs exactly one complete type', () => {
    assert.throws(() => marshal('v', [new Variant('ss', ['a', 'b'])]), /exactly one complete type/);
    assert.throws(() => marshal('v', [new Variant('', undefined)]), /exactly one complete type/);
  });
});

describe('values that do not fit the signature are rejected', () => {
  const cases: [string, unknown[], RegExp][] = [
    ['u', [-1], /"u" expects an integer/],
    ['y', [256], /"y" expects an integer/],
    ['i', [1.5], /"i" expects an integer/],
    ['b', [1], /"b" expects a boolean/],
    ['s', [5], /"s" expects a string/],
    ['s', ['a\0b'], /NUL/],
    ['o', ['not/a/path'], /object path/],
    ['o', ['/trailing/'], /object path/],
    ['v', ['plain'], /expects a Variant/],
    ['(ii)', [[1]], /2 struct fields/],
    ['a{us}', [{ 1: 'x' }], /expects a Map/],
    ['ay', [[256]], /byte numbers/],
    ['t', [-1n], /"t" expects a value/],
    ['x', [1.5], /bigint or a safe integer/],
    ['uu', [1], /needs 2 value/],
  ];
  for (const [signature, values, pattern] of cases) {
    test(`${signature} ${JSON.stringify(values, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`, () => {
      assert.throws(() => marshal(signature, values), pattern);
    });
  }
});

describe('truncated and malformed data give DBusProtocolError, never a crash', () => {
  const cases: [string, string, Buffer, RegExp][] = [
    ['truncated string', 's', bytes('05000000 61'), /needs 6 byte/],
    ['string without NUL', 's', bytes('01000000 6161'), /not NUL-terminated/],
    ['truncated u32', 'u', bytes('0100'), /needs 4 byte/],
    ['boolean of 2', 'b', bytes('02000000'), /boolean holds 2/],
    ['array length past the end', 'ai', bytes('08000000 01000000'), /needs 8 byte/],
    ['array length not a multiple of its elements', 'aii', bytes('06000000 01000000 0200 0000 03000000'), /overrun/],
    ['array over 64 MiB', 'ay', bytes('ffffffff'), /exceeds/],
    ['variant with a bad signature', 'v', bytes('01 7a 00'), /variant has invalid D-Bus signature "z"/],
    ['variant with two types', 'v', bytes('02 7575 00 00000000 00000000'), /exactly one complete type/],
    ['leftover bytes', 'y', bytes('0102'), /left over/],
  ];
  for (const [name, signature, data, pattern] of cases) {
    test(name, () => {
      assert.throws(
        () => unmarshal(signature, data),
        (error: Error) => error instanceof DBusProtocolError && pattern.test(error.message),
      );
    });
  }

  test('variants nested past the depth limit', () => {
    let value: Variant = new Variant('y', 1);
    for (let i = 0; i < 70; i++) value = new Variant('v', value);
    const data = marshal('v', [value]);
    assert.throws(() => unmarshal('v', data), /nested deeper than 64/);
  });
});

function sampleMessages(): Buffer {
  const w = new Writer();
  encodeMessage(w, { type: MessageType.MethodCall, flags: 0, serial: 1, path: '/a/b', interface: 'org.example.I', member: 'Do', destination: 'org.example', signature: 'sa{sv}', body: ['x', new Map([['k', new Variant('u', 1)]])] });
  encodeMessage(w, { type: MessageType.Signal, flags: 0, serial: 2, path: '/', interface: 'org.example.I', member: 'Changed', signature: 'ay', body: [Buffer.alloc(3000, 7)] });
  encodeMessage(w, { type: MessageType.MethodReturn, flags: 0, serial: 3, replySerial: 1, signature: '', body: [] });
  return Buffer.from(w.buf.subarray(0, w.pos));
}

describe('message framing', () => {
  test('bad endianness byte, bad version and oversized messages are refused from the first 16 bytes', () => {
    const valid = sampleMessages();
    const badEndian = Buffer.from(valid);
    badEndian[0] = 0x78;
    assert.throws(() => messageLength(badEndian, 0), /first byte is 0x78/);
    const badVersion = Buffer.from(valid);
    badVersion[3] = 2;
    assert.throws(() => messageLength(badVersion, 0), /protocol version 2/);
    const huge = Buffer.from(valid);
    huge.writeUInt32LE(128 * 1024 * 1024, 4);
    assert.throws(() => messageLength(huge, 0), (error: Error) => error instanceof DBusProtocolError && /exceeds the 134217728-byte limit/.test(error.message));
  });

  test('messages missing required header fields are refused', () => {
    const w = new Writer();
    // A method return, relabelled as a method call, has neither path nor member.
    encodeMessage(w, { type: MessageType.MethodReturn, flags: 0, serial: 3, replySerial: 1, signature: '', body: [] });
    w.buf[1] = MessageType.MethodCall;
    assert.throws(() => decodeMessage(w.buf, 0, w.pos), /has no path/);
  });

  test('the splitter yields the same messages however the stream is cut', () => {
    const stream = sampleMessages();
    const expected: Message[] = [];
    new FrameSplitter((buf, offset, length) => expected.push(decodeMessage(buf, offset, length))).push(stream);
    assert.equal(expected.length, 3);

    const cuts: [string, number[]][] = [
      ['byte by byte', Array.from({ length: stream.length }, (_, i) => i + 1)],
      ['15 then the rest', [15, stream.length]],
      ['odd sizes', [1, 7, 16, 17, 100, 2000, 3000, stream.length]],
    ];
    for (const [name, ends] of cuts) {
      const got: Message[] = [];
      const splitter = new FrameSplitter((buf, offset, length) => got.push(decodeMessage(buf, offset, length)));
      let start = 0;
      for (const end of ends) {
        splitter.push(stream.subarray(start, end));
        start = end;
      }
      assert.deepEqual(got, expected, name);
    }
  });

  test('random corruption of valid messages throws DBusProtocolError or decodes, and never hangs', () => {
    const stream = sampleMessages();
    const firstLength = messageLength(stream, 0);
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let thrown = 0;
    for (let round = 0; round < 3000; round++) {
      const copy = Buffer.from(stream.subarray(0, firstLength));
      for (let flips = 1 + random(3); flips > 0; flips--) copy[random(copy.length)] = random(256);
      try {
        decodeMessage(copy, 0, Math.min(copy.length, messageLength(copy, 0)));
      } catch (error) {
        assert.ok(error instanceof DBusProtocolError, `round ${round} threw ${String(error)}`);
        thrown++;
      }
    }
    assert.ok(thrown > 0);
  });
});
