// Connecting: setup facts, socket choice, Xauthority cookies, and the errors for servers that are absent or refuse.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { X11ClosedError, X11Connection, X11TimeoutError } from '../../src/platform/linux/x11/index.js';
import { XauthFamily } from '../../src/platform/linux/x11/xauthority.js';
import { buildXauthority } from './helpers.js';
import { startXvfb, type Xvfb } from './xvfb.js';

const noAuthEnv = { HOME: '/nonexistent' };

/** Whether this Node binds abstract names padded to the full sun_path (shown with trailing '@'s in /proc). */
async function nodePadsAbstractNames(): Promise<boolean> {
  const name = `cup-x11-probe-${process.pid}`;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen({ path: `\0${name}` }, resolve));
  const line = readFileSync('/proc/net/unix', 'utf8').split('\n').find((entry) => entry.includes(name));
  await new Promise((resolve) => server.close(resolve));
  return line === undefined || line.includes(`${name}@`);
}

describe('connect to an open Xvfb', () => {
  let xvfb: Xvfb;
  before(async () => {
    xvfb = await startXvfb();
  });
  after(() => xvfb.stop());

  test('setup describes the screen Xvfb was started with', async () => {
    const connection = await X11Connection.connect({ display: xvfb.display, env: noAuthEnv });
    try {
      assert.equal(connection.display, xvfb.display);
      assert.equal(connection.screen.width, 1024);
      assert.equal(connection.screen.height, 768);
      assert.equal(connection.screen.rootDepth, 24);
      assert.equal(connection.screens.length, 1);
      assert.ok(connection.screen.root > 0);
      assert.equal(connection.setup.minKeycode, 8);
      assert.equal(connection.setup.maxKeycode, 255);
      assert.match(connection.setup.vendor, /X\.Org/);
      assert.equal(connection.setup.imageByteOrder, 'LSBFirst');
      assert.deepEqual(connection.setup.pixmapFormats.find((format) => format.depth === 24), { depth: 24, bitsPerPixel: 32, scanlinePad: 32 });
      const rootVisual = connection.findVisual(connection.screen.rootVisual);
      assert.equal(rootVisual?.class, 'TrueColor');
      assert.equal(rootVisual?.redMask, 0xff0000);
      // The root window's own geometry agrees with the setup.
      const geometry = await connection.getGeometry(connection.screen.root);
      assert.deepEqual([geometry.width, geometry.height, geometry.depth], [1024, 768, 24]);
    } finally {
      connection.close();
    }
  });

  test('DISPLAY comes from the environment by default, and the screen number is checked', async () => {
    const connection = await X11Connection.connect({ env: { ...noAuthEnv, DISPLAY: `unix:${xvfb.displayNumber}.0` } });
    connection.close();
    await assert.rejects(X11Connection.connect({ display: `${xvfb.display}.1`, env: noAuthEnv }), /names screen 1, but the server has 1 screen/);
    await assert.rejects(X11Connection.connect({ env: noAuthEnv }), /DISPLAY is not set/);
  });

  test('falls back to the abstract socket when the socket file is missing', async (t) => {
    const { connectSocket } = await import('../../src/platform/linux/x11/handshake.js');
    const abstract = `\0/tmp/.X11-unix/X${xvfb.displayNumber}`;
    const target = { name: 'test', displayNumber: xvfb.displayNumber, screen: 0, host: '', transport: { kind: 'unix' as const, paths: ['/nonexistent/X0', abstract] } };
    if (await nodePadsAbstractNames()) {
      // libuv before 1.48 passes the whole sun_path as the address, so the kernel looks for the name padded with
      // NULs and never finds the server's exact name: the fallback is tried but cannot succeed on this Node.
      t.diagnostic(`Node ${process.version} pads abstract socket names; only the attempt is checked`);
      await assert.rejects(connectSocket(target, 1000), /\/nonexistent\/X0: ENOENT; @\/tmp\/\.X11-unix\/X\d+: ECONNREFUSED/);
      return;
    }
    const socket = await connectSocket(target, 1000);
    socket.destroy();
  });

  test('reconnects promptly while the server resets after its last client left', async () => {
    for (let i = 0; i < 5; i++) {
      const connection = await X11Connection.connect({ display: xvfb.display, env: noAuthEnv });
      await connection.sync();
      connection.close();
    }
  });

  test('close() rejects later requests with X11ClosedError and tells onClose listeners', async () => {
    const connection = await X11Connection.connect({ display: xvfb.display, env: noAuthEnv });
    let closedWith: Error | undefined | 'not called' = 'not called';
    connection.onClose((error) => {
      closedWith = error;
    });
    const pending = connection.getGeometry(connection.screen.root);
    connection.close();
    await assert.rejects(pending, X11ClosedError);
    assert.equal(connection.closed, true);
    assert.equal(closedWith, undefined);
    await assert.rejects(connection.getGeometry(connection.screen.root), X11ClosedError);
    await assert.rejects(connection.mapWindow(connection.screen.root), X11ClosedError);
  });

  test('a server that goes away fails pending requests with X11ClosedError', async () => {
    const victim = await startXvfb({ from: xvfb.displayNumber + 1 });
    const connection = await X11Connection.connect({ display: victim.display, env: noAuthEnv });
    const closed = new Promise<void>((resolve) => connection.onClose(() => resolve()));
    await victim.stop();
    await closed;
    await assert.rejects(connection.sync(), (error: Error) => error instanceof X11ClosedError && error.message.includes(victim.display));
  });
});

describe('errors before a connection exists', () => {
  test('no server on that display', async () => {
    let free = 350;
    while (free < 399 && existsSync(`/tmp/.X11-unix/X${free}`)) free++;
    await assert.rejects(X11Connection.connect({ display: `:${free}`, env: noAuthEnv }), (error: Error) => {
      assert.match(error.message, new RegExp(`DISPLAY=:${free}`));
      assert.match(error.message, /ENOENT|ECONNREFUSED/);
      assert.match(error.message, /is the X server running/);
      return true;
    });
  });

  test('a server that accepts but never answers the setup times out, naming the step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x11-silent-'));
    const server = createServer(() => undefined);
    try {
      // An absolute-path DISPLAY names the socket file "<path>:<N>" itself.
      await new Promise<void>((resolve) => server.listen(join(dir, 'silent:0'), resolve));
      const start = performance.now();
      await assert.rejects(X11Connection.connect({ display: join(dir, 'silent:0'), env: noAuthEnv, timeoutMs: 150 }), (error: Error) => {
        assert.ok(error instanceof X11TimeoutError);
        assert.equal(error.message, `X11 connection setup got no reply from DISPLAY=${join(dir, 'silent:0')} within 150 ms`);
        return true;
      });
      assert.ok(performance.now() - start < 1000);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a server that keeps hanging up during setup is retried until the deadline, then reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x11-hangup-'));
    let attempts = 0;
    const server = createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    try {
      await new Promise<void>((resolve) => server.listen(join(dir, 'flaky:3'), resolve));
      await assert.rejects(X11Connection.connect({ display: join(dir, 'flaky:3'), env: noAuthEnv, timeoutMs: 300 }), /closed the connection during setup/);
      assert.ok(attempts >= 3, `${attempts} attempts`);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('nothing listening on the TCP port', async () => {
    await assert.rejects(X11Connection.connect({ display: '127.0.0.1:399', env: noAuthEnv }), /DISPLAY=127\.0\.0\.1:399 at 127\.0\.0\.1:6399: ECONNREFUSED/);
  });
});

describe('Xauthority against an Xvfb that requires a cookie', () => {
  let xvfb: Xvfb;
  let dir: string;
  const cookie = randomBytes(16);
  const writeAuth = (name: string, records: Parameters<typeof buildXauthority>[0]): string => {
    const path = join(dir, name);
    writeFileSync(path, buildXauthority(records));
    return path;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'x11-auth-'));
    // The server accepts any cookie listed in its -auth file, whatever the display number recorded there.
    const serverFile = writeAuth('server', [{ family: XauthFamily.Local, address: hostname(), number: '0', name: 'MIT-MAGIC-COOKIE-1', data: cookie }]);
    xvfb = await startXvfb({ args: ['-auth', serverFile] });
  });
  after(async () => {
    await xvfb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('without a cookie the server refuses, and the error carries its reason', async () => {
    await assert.rejects(X11Connection.connect({ display: xvfb.display, env: { XAUTHORITY: join(dir, 'missing') } }), (error: Error) => {
      assert.match(error.message, new RegExp(`X server DISPLAY=${xvfb.display} refused the connection: `));
      assert.match(error.message, /Authorization required/);
      assert.match(error.message, /no MIT-MAGIC-COOKIE-1/);
      return true;
    });
  });

  test('a Local entry for this host and display number is used', async () => {
    const path = writeAuth('local', [
      { family: XauthFamily.Local, address: hostname(), number: String(xvfb.displayNumber + 1), name: 'MIT-MAGIC-COOKIE-1', data: randomBytes(16) },
      { family: XauthFamily.Local, address: hostname(), number: String(xvfb.displayNumber), name: 'MIT-MAGIC-COOKIE-1', data: cookie },
    ]);
    const connection = await X11Connection.connect({ display: xvfb.display, env: { XAUTHORITY: path } });
    assert.equal(connection.screen.width, 1024);
    connection.close();
  });

  test('a wildcard entry is used, found through HOME/.Xauthority', async () => {
    writeAuth('.Xauthority', [{ family: XauthFamily.Wild, address: '', number: String(xvfb.displayNumber), name: 'MIT-MAGIC-COOKIE-1', data: cookie }]);
    const connection = await X11Connection.connect({ display: xvfb.display, env: { HOME: dir } });
    connection.close();
  });

  test('a wrong cookie is refused', async () => {
    const path = writeAuth('wrong', [{ family: XauthFamily.Wild, address: '', number: String(xvfb.displayNumber), name: 'MIT-MAGIC-COOKIE-1', data: randomBytes(16) }]);
    await assert.rejects(X11Connection.connect({ display: xvfb.display, env: { XAUTHORITY: path } }), /refused the connection: .*sent the MIT-MAGIC-COOKIE-1 cookie/);
  });
});
