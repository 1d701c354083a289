import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DBusClosedError, DBusConnection, DBusProtocolError, DBusTimeoutError, type DBusSignal } from '../../src/platform/linux/dbus/index.js';
import { abstractSocketsSupported } from '../../src/platform/linux/dbus/address.js';
import { FrameSplitter } from '../../src/platform/linux/dbus/frames.js';
import { Writer } from '../../src/platform/linux/dbus/marshal.js';
import { decodeMessage, encodeMessage, MessageType, type Message, type OutgoingMessage } from '../../src/platform/linux/dbus/message.js';
import { startBus, within, type TestBus } from './bus.js';

const TEST_TIMEOUT = { timeout: 15_000 };
const BUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' };

let scratch: string;
const cleanups: (() => Promise<void> | void)[] = [];

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cup-dbus-connect-'));
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

async function startTrackedBus(listen?: (dir: string) => string): Promise<TestBus> {
  const bus = await startBus(listen);
  cleanups.push(() => bus.stop());
  return bus;
}

function track(conn: DBusConnection): DBusConnection {
  cleanups.push(() => conn.close());
  return conn;
}

async function startAbstractBus(): Promise<TestBus> {
  const name = `/tmp/cup-test-${randomBytes(6).toString('hex')}`;
  const bus = await startTrackedBus(() => `unix:abstract=${name}`);
  assert.ok(bus.address.startsWith(`unix:abstract=${name},guid=`), bus.address);
  return bus;
}

describe('real dbus-daemon transports', () => {
  const abstractReason = abstractSocketsSupported() ? false : `libuv ${process.versions.uv} in this Node.js cannot reach abstract sockets`;

  test('unix:abstract= works', { ...TEST_TIMEOUT, skip: abstractReason }, async () => {
    const bus = await startAbstractBus();
    const conn = track(await DBusConnection.connect(bus.address));
    const reply = await conn.call({ ...BUS, member: 'ListNames' });
    assert.ok((reply.body[0] as string[]).includes(conn.uniqueName));
  });

  test('unix:abstract= fails with an explanation where libuv cannot reach it', { ...TEST_TIMEOUT, skip: abstractReason === false }, async () => {
    const bus = await startAbstractBus();
    await assert.rejects(DBusConnection.connect(bus.address), /pads abstract socket names.*unix:path=/);
  });

  test('entries are tried in order: a dead path, then TCP (EXTERNAL rejected), then a good path', TEST_TIMEOUT, async () => {
    const tcpBus = await startTrackedBus(() => 'tcp:host=127.0.0.1,port=0');
    const unixBus = await startTrackedBus();
    await assert.rejects(DBusConnection.connect(tcpBus.address), /authentication rejected: the server refused EXTERNAL/);
    const missing = join(scratch, 'nobody-listens-here');
    const conn = track(await DBusConnection.connect(`unix:path=${missing};${tcpBus.address};${unixBus.address}`));
    assert.match(conn.uniqueName, /^:1\.\d+$/);
    const error = await DBusConnection.connect(`unix:path=${missing};${tcpBus.address}`).then(
      () => assert.fail('expected failure'),
      (e: Error) => e,
    );
    assert.match(error.message, /ENOENT/);
    assert.match(error.message, /refused EXTERNAL/);
  });

  test('a server-only address is refused before any I/O', TEST_TIMEOUT, async () => {
    await assert.rejects(DBusConnection.connect('unix:tmpdir=/tmp'), /only a server can listen on/);
  });

  test('when the daemon dies, pending calls reject with DBusClosedError and onClose gets the cause', TEST_TIMEOUT, async () => {
    const bus = await startBus();
    cleanups.push(() => bus.stop());
    const a = track(await DBusConnection.connect(bus.address));
    const b = track(await DBusConnection.connect(bus.address));
    b.setCallHandler(() => new Promise(() => {}));
    const closed = within(new Promise<Error | undefined>((resolve) => a.onClose(resolve)), 3000, 'onClose');
    const pending = assert.rejects(
      a.call({ destination: b.uniqueName, path: '/', interface: 'com.example.Hang', member: 'Hang', timeoutMs: 10_000 }),
      DBusClosedError,
    );
    await a.call({ destination: b.uniqueName, path: '/', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' });
    await bus.stop();
    await pending;
    assert.ok((await closed) instanceof Error);
    assert.equal(a.closed, true);
  });
});

type FakeMode = 'ok' | 'reject' | 'silent';

/**
 * A scripted stand-in for a bus: it does the SASL exchange, answers Hello, then hands every later
 * message to `onMessage` so a test can send whatever bytes it wants back.
 */
async function startFakeBus(
  mode: FakeMode,
  onMessage: (socket: Socket, message: Message) => void = () => {},
  abstract = false,
): Promise<string> {
  const name = abstract ? `/tmp/cup-fake-${randomBytes(6).toString('hex')}` : join(scratch, `fake-${randomBytes(4).toString('hex')}`);
  const path = abstract ? `\0${name}` : name;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let text = '';
    let splitter: FrameSplitter | undefined;
    let serial = 1000;
    const send = (message: Omit<OutgoingMessage, 'serial'>): void => {
      const w = new Writer();
      encodeMessage(w, { ...message, serial: serial++ });
      socket.write(Buffer.from(w.buf.subarray(0, w.pos)));
    };
    socket.on('data', (chunk: Buffer) => {
      if (splitter !== undefined) {
        splitter.push(chunk);
        return;
      }
      text += chunk.toString('latin1');
      if (text.includes('AUTH EXTERNAL') && text.endsWith('\r\n') && !text.includes('BEGIN')) {
        if (mode === 'ok') socket.write(`OK ${randomBytes(16).toString('hex')}\r\n`);
        if (mode === 'reject') socket.write('REJECTED DBUS_COOKIE_SHA1 ANONYMOUS\r\n');
      }
      const begin = text.indexOf('BEGIN\r\n');
      if (begin === -1) return;
      splitter = new FrameSplitter((buf, offset, length) => {
        const message = decodeMessage(buf, offset, length);
        if (message.member === 'Hello') {
          send({ type: MessageType.MethodReturn, flags: 0, replySerial: message.serial, destination: ':1.7', signature: 's', body: [':1.7'] });
        } else {
          onMessage(socket, message);
        }
      });
      splitter.push(Buffer.from(text.slice(begin + 'BEGIN\r\n'.length), 'latin1'));
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return abstract ? `unix:abstract=${name}` : `unix:path=${name}`;
}

function reply(message: Message, signature: string, body: unknown[]): Buffer {
  const w = new Writer();
  encodeMessage(w, { type: MessageType.MethodReturn, flags: 0, serial: 5000 + message.serial, replySerial: message.serial, signature, body });
  return Buffer.from(w.buf.subarray(0, w.pos));
}

describe('against a scripted fake bus', () => {
  test('REJECTED gives a clear error listing what the server offers', TEST_TIMEOUT, async () => {
    const address = await startFakeBus('reject');
    await assert.rejects(DBusConnection.connect(address), /authentication rejected.*DBUS_COOKIE_SHA1 ANONYMOUS/);
  });

  test('unix:abstract= reaches an abstract socket bound by Node itself', TEST_TIMEOUT, async () => {
    // Node binds and connects with the same name padding, so this works on every libuv.
    const address = await startFakeBus('ok', () => {}, true);
    const conn = track(await DBusConnection.connect(address));
    assert.equal(conn.uniqueName, ':1.7');
  });

  test('a server that never answers the handshake is bounded by connectTimeoutMs', TEST_TIMEOUT, async () => {
    const address = await startFakeBus('silent');
    const started = performance.now();
    await assert.rejects(DBusConnection.connect(address, { connectTimeoutMs: 300 }), /no answer within \d+ ms/);
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 1000, `gave up after ${elapsed} ms`);
  });

  test('a big-endian signal from the peer is decoded', TEST_TIMEOUT, async () => {
    const address = await startFakeBus('ok', (socket) => {
      // Signal /a x.y.Z with body u32 0x01020304 and a string "hé", all big-endian, built by hand.
      socket.write(
        Buffer.from(
          [
            '42 04 00 01 0000000c 00000009 00000038',
            '01 01 6f 00 00000002 2f6100 0000000000',
            '02 01 73 00 00000003 782e7900 00000000',
            '03 01 73 00 00000001 5a00 000000000000',
            '08 01 67 00 02 7573 00',
            '01020304 00000003 68c3a9 00',
          ]
            .join('')
            .replace(/ /g, ''),
          'hex',
        ),
      );
    });
    const conn = track(await DBusConnection.connect(address));
    assert.equal(conn.uniqueName, ':1.7');
    const signal = within(new Promise<DBusSignal>((resolve) => conn.onSignal(resolve)), 3000, 'signal');
    await conn.call({ destination: 'org.example.Fake', path: '/', member: 'SendSignal', noReplyExpected: true });
    assert.deepEqual(await signal, { sender: '', path: '/a', interface: 'x.y', member: 'Z', signature: 'us', body: [0x01020304, 'hé'] });
  });

  test('a late reply after a timeout is ignored and the connection carries on', TEST_TIMEOUT, async () => {
    const address = await startFakeBus('ok', (socket, message) => {
      const delay = message.member === 'Slow' ? 300 : 0;
      setTimeout(() => socket.write(reply(message, 's', [message.member ?? ''])), delay);
    });
    const conn = track(await DBusConnection.connect(address));
    await assert.rejects(conn.call({ destination: 'org.example.Fake', path: '/', member: 'Slow', timeoutMs: 100 }), DBusTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(conn.closed, false);
    assert.deepEqual((await conn.call({ destination: 'org.example.Fake', path: '/', member: 'Fast' })).body, ['Fast']);
  });

  for (const [name, bytes, pattern] of [
    ['a bad endianness byte', Buffer.from('5801000100000000010000000000000000', 'hex'), /first byte is 0x58/],
    ['a message announcing a 200 MiB body', Buffer.from('6c0200010000800c0100000000000000', 'hex'), /exceeds the 134217728-byte limit/],
    ['a reply whose body is cut short', Buffer.from('6c02000108000000010000000f00000005017500010000000801670001730000ff00000061626300', 'hex'), /needs 256 byte/],
  ] as const) {
    test(`${name} closes the connection with DBusProtocolError and rejects pending calls`, TEST_TIMEOUT, async () => {
      const address = await startFakeBus('ok', (socket) => socket.write(bytes));
      const conn = track(await DBusConnection.connect(address));
      const closed = within(new Promise<Error | undefined>((resolve) => conn.onClose(resolve)), 3000, 'onClose');
      const pending = conn.call({ destination: 'org.example.Fake', path: '/', member: 'Trigger' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const reason = await closed;
      assert.ok(reason instanceof DBusProtocolError, String(reason));
      assert.match(reason.message, pattern);
      const rejection = await pending;
      assert.ok(rejection instanceof DBusClosedError && pattern.test(rejection.message), String(rejection));
      assert.equal(conn.closed, true);
    });
  }
});

describe('ref and unref', () => {
  const indexUrl = new URL('../../src/platform/linux/dbus/index.js', import.meta.url).href;

  async function runChild(bus: TestBus, unref: boolean): Promise<'exited' | 'still running'> {
    const script = join(scratch, `child-${unref}.mjs`);
    writeFileSync(
      script,
      `import { DBusConnection } from ${JSON.stringify(indexUrl)};\n` +
        `const conn = await DBusConnection.connect(${JSON.stringify(bus.address)});\n` +
        `conn.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', member: 'ListNames' }).catch(() => {});\n` +
        (unref ? 'conn.unref();\n' : ''),
    );
    const child = spawn(process.execPath, [script], { stdio: 'ignore' });
    const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
    const outcome = await Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 1500))]);
    if (outcome === 'still running') {
      child.kill('SIGKILL');
      await exited;
    }
    return outcome;
  }

  test('an unref()ed connection lets the process exit; a plain one keeps it alive', TEST_TIMEOUT, async () => {
    const bus = await startTrackedBus();
    assert.equal(await runChild(bus, true), 'exited');
    assert.equal(await runChild(bus, false), 'still running');
  });
});
