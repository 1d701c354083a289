// Unit tests that need no X server: DISPLAY names, Xauthority files, pixel conversion, byte queue, event codec.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { describe, test } from 'node:test';
import { ByteQueue } from '../../src/platform/linux/x11/byte-queue.js';
import { parseEvent } from '../../src/platform/linux/x11/events.js';
import { encodeClientMessage, parseDisplay, toRgb, toRgba } from '../../src/platform/linux/x11/index.js';
import { authCandidates, findCookie, parseXauthority, XauthFamily } from '../../src/platform/linux/x11/xauthority.js';
import { buildXauthority } from './helpers.js';

describe('parseDisplay', () => {
  const unixPaths = (n: number): string[] => [`/tmp/.X11-unix/X${n}`, `\0/tmp/.X11-unix/X${n}`];

  test(':N and :N.S use the local socket, filesystem path first, then the abstract name', () => {
    assert.deepEqual(parseDisplay(':0'), { name: ':0', displayNumber: 0, screen: 0, host: '', transport: { kind: 'unix', paths: unixPaths(0) } });
    const withScreen = parseDisplay(':12.1');
    assert.equal(withScreen.displayNumber, 12);
    assert.equal(withScreen.screen, 1);
    assert.deepEqual(withScreen.transport, { kind: 'unix', paths: unixPaths(12) });
  });

  test('unix:N and host/unix:N are local sockets', () => {
    assert.deepEqual(parseDisplay('unix:3').transport, { kind: 'unix', paths: unixPaths(3) });
    const hostUnix = parseDisplay('myhost/unix:4.2');
    assert.deepEqual(hostUnix.transport, { kind: 'unix', paths: unixPaths(4) });
    assert.equal(hostUnix.host, 'myhost');
    assert.equal(hostUnix.screen, 2);
    assert.deepEqual(parseDisplay('unix/:5').transport, { kind: 'unix', paths: unixPaths(5) });
  });

  test('host:N is TCP port 6000+N', () => {
    assert.deepEqual(parseDisplay('localhost:10.0').transport, { kind: 'tcp', host: 'localhost', port: 6010 });
    assert.deepEqual(parseDisplay('192.168.1.5:0').transport, { kind: 'tcp', host: '192.168.1.5', port: 6000 });
    assert.deepEqual(parseDisplay('[::1]:2').transport, { kind: 'tcp', host: '::1', port: 6002 });
    assert.deepEqual(parseDisplay('tcp/example.org:1').transport, { kind: 'tcp', host: 'example.org', port: 6001 });
  });

  test('an absolute path names the socket file itself', () => {
    assert.deepEqual(parseDisplay('/tmp/launch-abc/org.x:0').transport, { kind: 'unix', paths: ['/tmp/launch-abc/org.x:0'] });
  });

  test('absent or malformed names fail clearly, naming DISPLAY', () => {
    assert.throws(() => parseDisplay(undefined), /DISPLAY is not set/);
    assert.throws(() => parseDisplay('  '), /DISPLAY is not set/);
    for (const bad of ['0', ':', ':x', ':1.', ':1.a', 'host:', 'ho st:0', 'a/b:0', 'host::0', ':99999999', 'host:70000']) {
      assert.throws(() => parseDisplay(bad), (error: Error) => error.message.includes(`DISPLAY=${JSON.stringify(bad)}`), bad);
    }
  });
});

describe('Xauthority', () => {
  const cookie = (byte: number): Buffer => Buffer.alloc(16, byte);
  const file = buildXauthority([
    { family: XauthFamily.Local, address: 'otherhost', number: '7', name: 'MIT-MAGIC-COOKIE-1', data: cookie(1) },
    { family: XauthFamily.Local, address: 'thishost', number: '7', name: 'XDM-AUTHORIZATION-1', data: cookie(2) },
    { family: XauthFamily.Local, address: 'thishost', number: '7', name: 'MIT-MAGIC-COOKIE-1', data: cookie(3) },
    { family: XauthFamily.Wild, address: '', number: '8', name: 'MIT-MAGIC-COOKIE-1', data: cookie(4) },
    { family: XauthFamily.Internet, address: Buffer.from([10, 0, 0, 2]), number: '9', name: 'MIT-MAGIC-COOKIE-1', data: cookie(5) },
  ]);
  const local = [{ family: XauthFamily.Local, address: Buffer.from('thishost') }];

  test('parses every field of a hand-built file', () => {
    const entries = parseXauthority(file);
    assert.equal(entries.length, 5);
    assert.equal(entries[0]!.family, 256);
    assert.equal(entries[0]!.address.toString(), 'otherhost');
    assert.equal(entries[0]!.number, '7');
    assert.equal(entries[0]!.name, 'MIT-MAGIC-COOKIE-1');
    assert.deepEqual(entries[0]!.data, cookie(1));
    assert.equal(entries[3]!.family, 65535);
    assert.deepEqual(entries[4]!.address, Buffer.from([10, 0, 0, 2]));
  });

  test('a truncated final entry is ignored', () => {
    assert.equal(parseXauthority(file.subarray(0, file.length - 3)).length, 4);
    assert.deepEqual(parseXauthority(Buffer.alloc(0)), []);
  });

  test('picks MIT-MAGIC-COOKIE-1 for this host and display, or a wildcard entry', () => {
    const entries = parseXauthority(file);
    assert.deepEqual(findCookie(entries, 7, local)?.data, cookie(3));
    assert.deepEqual(findCookie(entries, 8, local)?.data, cookie(4));
    assert.equal(findCookie(entries, 9, local), undefined);
    assert.deepEqual(findCookie(entries, 9, [{ family: XauthFamily.Internet, address: Buffer.from([10, 0, 0, 2]) }])?.data, cookie(5));
    assert.equal(findCookie(entries, 6, local), undefined);
  });

  test('local sockets and loopback TCP are filed under this machine\'s host name', () => {
    const mine = Buffer.from(hostname());
    assert.deepEqual(authCandidates({ kind: 'unix', host: '' }), [{ family: XauthFamily.Local, address: mine }]);
    const loopback = authCandidates({ kind: 'tcp', host: 'localhost', remoteAddress: '127.0.0.1' });
    assert.deepEqual(loopback, [
      { family: XauthFamily.Local, address: mine },
      { family: XauthFamily.Internet, address: Buffer.from([127, 0, 0, 1]) },
    ]);
    const v6 = authCandidates({ kind: 'tcp', host: 'example', remoteAddress: '2001:db8::1' });
    assert.deepEqual(v6, [{ family: XauthFamily.Internet6, address: Buffer.from('20010db8000000000000000000000001', 'hex') }]);
  });
});

describe('toRgb / toRgba', () => {
  const lsb32 = { imageByteOrder: 'LSBFirst' as const, pixmapFormats: [{ depth: 24, bitsPerPixel: 32, scanlinePad: 32 }, { depth: 32, bitsPerPixel: 32, scanlinePad: 32 }] };

  test('BGRX little-endian, aligned and unaligned buffers give the same RGB', () => {
    const pixels = [0xff8040, 0x2040ff, 0x000000, 0xffffff];
    const data = Buffer.alloc(16);
    pixels.forEach((pixel, index) => data.writeUInt32LE((pixel | 0xab000000) >>> 0, index * 4));
    const expected = Buffer.from([0xff, 0x80, 0x40, 0x20, 0x40, 0xff, 0, 0, 0, 0xff, 0xff, 0xff]);
    assert.deepEqual(toRgb({ depth: 24, data }, 2, 2, lsb32), expected);
    const unaligned = Buffer.alloc(17).subarray(1);
    data.copy(unaligned);
    assert.deepEqual(toRgb({ depth: 24, data: unaligned }, 2, 2, lsb32), expected);
    assert.deepEqual(
      toRgba({ depth: 24, data }, 2, 2, lsb32),
      Buffer.from([0xff, 0x80, 0x40, 255, 0x20, 0x40, 0xff, 255, 0, 0, 0, 255, 0xff, 0xff, 0xff, 255]),
    );
    assert.deepEqual(toRgba({ depth: 24, data: unaligned }, 2, 2, lsb32), toRgba({ depth: 24, data }, 2, 2, lsb32));
  });

  test('depth 32 keeps alpha', () => {
    const data = Buffer.alloc(4);
    data.writeUInt32LE(0x80ff8040);
    assert.deepEqual(toRgba({ depth: 32, data }, 1, 1, lsb32), Buffer.from([0xff, 0x80, 0x40, 0x80]));
  });

  test('MSBFirst servers, 24 bits per pixel with row padding, and RGB-ordered masks', () => {
    const msb = { ...lsb32, imageByteOrder: 'MSBFirst' as const };
    assert.deepEqual(toRgb({ depth: 24, data: Buffer.from([0, 0xff, 0x80, 0x40]) }, 1, 1, msb), Buffer.from([0xff, 0x80, 0x40]));
    const packed = { imageByteOrder: 'LSBFirst' as const, pixmapFormats: [{ depth: 24, bitsPerPixel: 24, scanlinePad: 32 }] };
    // One 3-byte pixel per row, padded to 4 bytes.
    const rows = Buffer.from([0x40, 0x80, 0xff, 0, 0xff, 0x40, 0x20, 0]);
    assert.deepEqual(toRgb({ depth: 24, data: rows }, 1, 2, packed), Buffer.from([0xff, 0x80, 0x40, 0x20, 0x40, 0xff]));
    const rgbMasks = { redMask: 0xff, greenMask: 0xff00, blueMask: 0xff0000 };
    assert.deepEqual(toRgb({ depth: 24, data: Buffer.from([0xff, 0x80, 0x40, 0]) }, 1, 1, lsb32, rgbMasks), Buffer.from([0xff, 0x80, 0x40]));
  });

  test('unsupported formats are refused with a reason', () => {
    const sixteen = { imageByteOrder: 'LSBFirst' as const, pixmapFormats: [{ depth: 16, bitsPerPixel: 16, scanlinePad: 32 }] };
    assert.throws(() => toRgb({ depth: 16, data: Buffer.alloc(4) }, 2, 1, sixteen), /depth-16/);
    assert.throws(() => toRgb({ depth: 24, data: Buffer.alloc(4) }, 1, 1, lsb32, { redMask: 0xf800, greenMask: 0x7e0, blueMask: 0x1f }), /red mask 0xf800/);
    assert.throws(() => toRgb({ depth: 24, data: Buffer.alloc(4) }, 2, 1, lsb32), /needs 8/);
    assert.throws(() => toRgb({ depth: 8, data: Buffer.alloc(4) }, 1, 1, lsb32), /no pixmap format/);
  });
});

test('ByteQueue hands out messages that span chunks, copying only those', () => {
  const queue = new ByteQueue();
  queue.push(Buffer.from([1, 2, 3]));
  queue.push(Buffer.from([4, 5]));
  queue.push(Buffer.from([6, 7, 8, 9]));
  assert.equal(queue.length, 9);
  assert.deepEqual([...queue.peek(4)], [1, 2, 3, 4]);
  assert.deepEqual([...queue.take(2)], [1, 2]);
  assert.deepEqual([...queue.take(4)], [3, 4, 5, 6]);
  assert.deepEqual([...queue.peek(1)], [7]);
  assert.deepEqual([...queue.take(3)], [7, 8, 9]);
  assert.equal(queue.length, 0);
});

test('ClientMessage events encode and decode in all three formats', () => {
  for (const format of [8, 16, 32] as const) {
    const data = Array.from({ length: 160 / format }, (_, index) => index + 1);
    const event = parseEvent(encodeClientMessage(0x400001, 300, format, data), 5);
    assert.equal(event.name, 'ClientMessage');
    if (event.name !== 'ClientMessage') continue;
    assert.equal(event.format, format);
    assert.equal(event.window, 0x400001);
    assert.equal(event.messageType, 300);
    assert.deepEqual(event.data, data);
  }
  assert.throws(() => encodeClientMessage(1, 1, 32, [1, 2, 3, 4, 5, 6]), /at most 5/);
});
