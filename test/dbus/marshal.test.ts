import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { marshal, unmarshal, Variant } from '../../src/platform/linux/dbus/index.js';
import { Writer } from '../../src/platform/linux/dbus/marshal.js';
import { decodeMessage, encodeMessage, messageLength, MessageType } from '../../src/platform/linux/dbus/message.js';

function roundTrip(signature: string, values: unknown[]): unknown[] {
  return unmarshal(signature, marshal(signature, values));
}

function bytes(...hex: string[]): Buffer {
  return Buffer.from(hex.join('').replace(/\s+/g, ''), 'hex');
}

describe('basic types round-trip', () => {
  const cases: [string, unknown[]][] = [
    ['y', [0]],
    ['y', [255]],
    ['b', [true]],
    ['b', [false]],
    ['n', [-32768]],
    ['n', [32767]],
    ['q', [65535]],
    ['i', [-2147483648]],
    ['i', [2147483647]],
    ['u', [4294967295]],
    ['x', [-(2n ** 63n)]],
    ['x', [2n ** 63n - 1n]],
    ['t', [2n ** 64n - 1n]],
    ['d', [Math.PI]],
    ['d', [-0]],
    ['d', [Number.NEGATIVE_INFINITY]],
    ['h', [3]],
    ['s', ['']],
    ['s', ['héllo wörld € 😀 日本語']],
    ['o', ['/']],
    ['o', ['/org/a11y/atspi/accessible/root']],
    ['g', ['']],
    ['g', ['a{sv}(ii)as']],
    ['ybnqiuxtdsog', [1, true, -2, 3, -4, 5, -6n, 7n, 8.5, 'nine', '/ten', 'ay']],
  ];
  for (const [signature, values] of cases) {
    test(`${signature} ${values.map(String).join(',')}`, () => {
      assert.deepEqual(roundTrip(signature, values), values);
    });
  }

  test('NaN survives', () => {
    assert.ok(Number.isNaN(roundTrip('d', [Number.NaN])[0]));
  });

  test('x and t also accept plain numbers and decode to bigint', () => {
    assert.deepEqual(roundTrip('xt', [-5, 6]), [-5n, 6n]);
  });
});

describe('containers round-trip', () => {
  test('a(so)', () => {
    const value = [[':1.5', '/org/a11y/atspi/accessible/1'], ['org.example', '/']];
    assert.deepEqual(roundTrip('a(so)', [value]), [value]);
  });

  test('a{sv} decodes to a Map of Variants', () => {
    const value = new Map<string, Variant>([
      ['name', new Variant('s', 'OK button')],
      ['count', new Variant('u', 3)],
      ['nested', new Variant('a{sv}', new Map([['deep', new Variant('ad', [1.5, 2.5])]]))],
      ['big', new Variant('x', -9007199254740993n)],
    ]);
    const [decoded] = roundTrip('a{sv}', [value]);
    assert.ok(decoded instanceof Map);
    assert.deepEqual(decoded, value);
    assert.ok((decoded as Map<string, unknown>).get('count') instanceof Variant);
  });

  test('a{sv} accepts a plain object', () => {
    const [decoded] = roundTrip('a{sv}', [{ a: new Variant('b', true), b: new Variant('s', 'x') }]);
    assert.deepEqual(decoded, new Map([['a', new Variant('b', true)], ['b', new Variant('s', 'x')]]));
  });

  test('(so)(so)(so)iiassusau', () => {
    const values = [
      [':1.2', '/a'],
      [':1.3', '/b/c'],
      [':1.4', '/'],
      5,
      -1,
      ['one', 'two'],
      's',
      7,
      'a name',
      [1, 2, 4294967295],
    ];
    assert.deepEqual(roundTrip('(so)(so)(so)iiassusau', values), values);
  });

  test('a(ua(so))', () => {
    const value = [
      [1, [[':1.1', '/x'], [':1.2', '/y']]],
      [2, []],
      [3, [[':1.3', '/z']]],
    ];
    assert.deepEqual(roundTrip('a(ua(so))', [value]), [value]);
  });

  test('av', () => {
    const value = [new Variant('y', 1), new Variant('(ss)', ['a', 'b']), new Variant('v', new Variant('t', 1n)), new Variant('ay', Buffer.from([9]))];
    assert.deepEqual(roundTrip('av', [value]), [value]);
  });

  test('aay decodes to Buffers and accepts Uint8Array and number[]', () => {
    const decoded = roundTrip('aay', [[Buffer.from('abc'), new Uint8Array([1, 2]), [255, 0], []]]);
    assert.deepEqual(decoded, [[Buffer.from('abc'), Buffer.from([1, 2]), Buffer.from([255, 0]), Buffer.alloc(0)]]);
    assert.ok(Buffer.isBuffer((decoded[0] as unknown[])[0]));
  });

  test('ax', () => {
    assert.deepEqual(roundTrip('ax', [[1n, -1n, 2n ** 62n]]), [[1n, -1n, 2n ** 62n]]);
    assert.deepEqual(roundTrip('yax', [1, []]), [1, []]);
  });

  test('a{s(ii)}', () => {
    const value = new Map([
      ['origin', [0, 0]],
      ['size', [-1920, 1080]],
    ]);
    assert.deepEqual(roundTrip('a{s(ii)}', [value]), [value]);
  });

  test('dicts with non-string keys', () => {
    const value = new Map<number, string>([
      [1, 'one'],
      [2, 'two'],
    ]);
    assert.deepEqual(roundTrip('a{us}', [value]), [value]);
  });

  test('struct after a byte, and a struct holding a byte then a double', () => {
    assert.deepEqual(roundTrip('y(yd)y(yd)', [1, [2, 3.5], 4, [5, 6.5]]), [1, [2, 3.5], 4, [5, 6.5]]);
  });
});

describe('exact wire bytes (little-endian, computed by hand)', () => {
  test('y(ys): a struct after a byte is padded to 8', () => {
    const expected = bytes('07 00000000000000', '09 000000', '02000000 6869 00');
    assert.deepEqual(marshal('y(ys)', [7, [9, 'hi']]), expected);
    assert.deepEqual(unmarshal('y(ys)', expected), [7, [9, 'hi']]);
  });

  test('axy: an empty array of 8-aligned elements still carries the padding, not counted in its length', () => {
    const expected = bytes('00000000', '00000000', '09');
    assert.deepEqual(marshal('axy', [[], 9]), expected);
    assert.deepEqual(unmarshal('axy', expected), [[], 9]);
  });

  test('s: multi-byte UTF-8 counts bytes, not characters', () => {
    const expected = bytes('05000000', 'c3a9 e282ac', '00');
    assert.deepEqual(marshal('s', ['é€']), expected);
    assert.deepEqual(unmarshal('s', expected), ['é€']);
  });

  test('a{sv}: dict entries are 8-aligned and the variant value is aligned after its signature', () => {
    const expected = bytes(
      '10000000', // array length 16: from the first entry (offset 8) to the end (24)
      '00000000', // padding to the first dict entry
      '01000000 6100', // key "a"
      '01 75 00', // variant signature "u"
      '000000', // padding to 4
      '07000000', // 7
    );
    assert.deepEqual(marshal('a{sv}', [new Map([['a', new Variant('u', 7)]])]), expected);
    assert.deepEqual(unmarshal('a{sv}', expected), [new Map([['a', new Variant('u', 7)]])]);
  });

  test('big-endian array decodes', () => {
    assert.deepEqual(unmarshal('ai', bytes('00000008 00000001 fffffffe'), { bigEndian: true }), [[1, -2]]);
  });
});

describe('messages', () => {
  test('a hand-built big-endian signal decodes', () => {
    const message = bytes(
      '42 04 00 01', // 'B', signal, no flags, version 1
      '00000004', // body length
      '00000007', // serial
      '00000037', // header fields array length: 55
      '01 01 6f 00 00000002 2f6100', // PATH "/a"
      '0000000000', // pad to 32
      '02 01 73 00 00000003 782e7900', // INTERFACE "x.y"
      '00000000', // pad to 48
      '03 01 73 00 00000001 5a00', // MEMBER "Z"
      '000000000000', // pad to 64
      '08 01 67 00 01 75 00', // SIGNATURE "u"
      '00', // header padded to 72
      '01020304', // body: u32 0x01020304
    );
    assert.equal(message.length, 76);
    assert.equal(messageLength(message, 0), 76);
    assert.deepEqual(decodeMessage(message, 0, message.length), {
      type: MessageType.Signal,
      flags: 0,
      serial: 7,
      path: '/a',
      interface: 'x.y',
      member: 'Z',
      signature: 'u',
      body: [0x01020304],
    });
  });

  test('little-endian encode then decode, twice in one buffer with a non-8-aligned first message', () => {
    const w = new Writer(16);
    const first = { type: MessageType.MethodCall, flags: 0, serial: 1, path: '/p', member: 'M', destination: ':1.9', signature: 'y', body: [1] };
    const second = {
      type: MessageType.MethodReturn,
      flags: 0,
      serial: 2,
      replySerial: 1,
      signature: 'a{sv}(so)',
      body: [new Map([['k', new Variant('as', ['v'])]]), [':1.1', '/o']],
    };
    encodeMessage(w, first);
    const firstLength = w.pos;
    assert.notEqual(firstLength % 8, 0);
    encodeMessage(w, second);
    assert.equal(messageLength(w.buf, 0), firstLength);
    assert.deepEqual(decodeMessage(w.buf, 0, firstLength), first);
    assert.deepEqual(decodeMessage(w.buf, firstLength, w.pos - firstLength), second);
  });

  test('a failed encode leaves earlier queued messages intact', () => {
    const w = new Writer();
    encodeMessage(w, { type: MessageType.Signal, flags: 0, serial: 1, path: '/', interface: 'a.b', member: 'C', signature: '', body: [] });
    const before = w.pos;
    assert.throws(() =>
      encodeMessage(w, { type: MessageType.Signal, flags: 0, serial: 2, path: '/', interface: 'a.b', member: 'C', signature: 'u', body: ['nope'] }),
    );
    assert.equal(w.pos, before);
  });
});
