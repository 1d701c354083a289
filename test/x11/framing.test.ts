// Packet framing against a scripted fake server: bytes dribbled in one at a time, GenericEvents longer than 32
// bytes, KeymapNotify without a sequence number, replies with extra length, and a reply-parse failure.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { X11Core } from '../../src/platform/linux/x11/connection.js';
import { requestBuffer } from '../../src/platform/linux/x11/encode.js';
import type { X11Event } from '../../src/platform/linux/x11/index.js';
import type { Setup } from '../../src/platform/linux/x11/setup.js';

const setup: Setup = {
  protocolMajor: 11, protocolMinor: 0, vendor: 'fake', release: 1, resourceIdBase: 0x200000, resourceIdMask: 0x1fffff,
  maxRequestLength: 65535, imageByteOrder: 'LSBFirst', bitmapBitOrder: 'LeastSignificant', bitmapScanlineUnit: 32,
  bitmapScanlinePad: 32, minKeycode: 8, maxKeycode: 255, pixmapFormats: [], screens: [],
};

let dir: string;
let server: Server;
let serverSide: Promise<Socket>;
let core: X11Core;
const writes: number[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'x11-framing-'));
  const path = join(dir, 'socket');
  server = createServer();
  serverSide = new Promise((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const socket = createConnection({ path });
  await new Promise((resolve) => socket.once('connect', resolve));
  const write = socket.write.bind(socket) as (data: Buffer, callback?: (error?: Error | null) => void) => boolean;
  // Counts writes to check that requests issued in one turn of the event loop share one.
  socket.write = ((data: Buffer, callback?: (error?: Error | null) => void) => {
    writes.push(data.length);
    return write(data, callback);
  }) as typeof socket.write;
  core = new X11Core(socket, 'fake', setup, 1000, Buffer.alloc(0));
});

after(async () => {
  core.close();
  (await serverSide).destroy();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function reply(sequence: number, extraWords: number, fill: number): Buffer {
  const packet = Buffer.alloc(32 + extraWords * 4, fill);
  packet[0] = 1;
  packet.writeUInt16LE(sequence & 0xffff, 2);
  packet.writeUInt32LE(extraWords, 4);
  return packet;
}

async function dribble(socket: Socket, bytes: Buffer): Promise<void> {
  for (const byte of bytes) {
    socket.write(Buffer.of(byte));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('packets split at every byte boundary are reassembled and routed', async () => {
  const remote = await serverSide;
  const events: X11Event[] = [];
  core.onEvent((event) => events.push(event));
  const first = core.request(requestBuffer(43, 0, 4), (packet) => packet.length);
  const second = core.request(requestBuffer(43, 0, 4), (packet) => packet.subarray(32).every((byte) => byte === 0xab));

  const generic = Buffer.alloc(32 + 8);
  generic[0] = 35;
  generic[1] = 131;
  generic.writeUInt16LE(1, 2);
  generic.writeUInt32LE(2, 4);
  generic.writeUInt16LE(7, 8);
  const keymap = Buffer.alloc(32, 0xff);
  keymap[0] = 11;

  await dribble(remote, Buffer.concat([generic, keymap, reply(1, 3, 0), reply(2, 100, 0xab)]));
  assert.equal(await first, 32 + 12);
  assert.equal(await second, true);
  assert.deepEqual(events.map((event) => event.name), ['GenericEvent', 'KeymapNotify']);
  const [ge, keys] = events;
  assert.ok(ge?.name === 'GenericEvent' && ge.raw.length === 40 && ge.extension === 131 && ge.evtype === 7 && ge.sequence === 1);
  assert.ok(keys?.name === 'KeymapNotify' && keys.keys.length === 31 && keys.sequence === 1);
});

test('a reply whose parser throws rejects that request only', async () => {
  const remote = await serverSide;
  const broken = core.request(requestBuffer(43, 0, 4), () => {
    throw new Error('bad reply');
  });
  const fine = core.request(requestBuffer(43, 0, 4), () => 'ok');
  remote.write(Buffer.concat([reply(3, 0, 0), reply(4, 0, 0)]));
  await assert.rejects(broken, /bad reply/);
  assert.equal(await fine, 'ok');
});

test('an error for an unknown extension request is named by its opcodes', async () => {
  const remote = await serverSide;
  const pending = core.request(requestBuffer(200, 5, 4), () => 'unused');
  const error = Buffer.alloc(32);
  error[1] = 2;
  error.writeUInt16LE(5, 2);
  error.writeUInt32LE(77, 4);
  error.writeUInt16LE(5, 8);
  error[10] = 200;
  remote.write(error);
  await assert.rejects(pending, /^X11Error: BadValue \(2\) in request 200\.5: value 77 \(0x4d\)$/);
});

test('requests issued in one turn of the event loop go out in one write', async () => {
  const before = writes.length;
  // 34 requests of 4 bytes, 33 of 8 and 33 of 12.
  const sent = Array.from({ length: 100 }, (_, index) => core.send(requestBuffer(127, 0, 4 + (index % 3) * 4)));
  await Promise.all(sent);
  assert.deepEqual(writes.slice(before), [34 * 4 + 33 * 8 + 33 * 12]);
});
