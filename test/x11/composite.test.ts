// Capturing covered windows: what GetImage returns for obscured parts on Xvfb, with and without Composite.
// The tests run in order: first without redirection, then with it, then after the redirecting client leaves.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { X11Connection, X11Error } from '../../src/platform/linux/x11/index.js';
import { readPixels } from './helpers.js';
import { startXvfb, type Xvfb } from './xvfb.js';

const env = { HOME: '/nonexistent' };
const orange = 'ff8040';
const blue = '2040ff';
const green = '11aa22';
const black = '000000';

let xvfb: Xvfb;
/** Owns the windows, like an application would. */
let app: X11Connection;
/** Only captures, like the driver would. */
let capturer: X11Connection;
let under: number;
let drawnUnder: number;
let offscreen: number;

/** Colour at (x, y) of a width x height capture of `drawable`, as hex RGB. */
async function pixel(connection: X11Connection, drawable: number, width: number, height: number, x: number, y: number): Promise<string> {
  return (await readPixels(connection, drawable, width, height))(x, y);
}

before(async () => {
  xvfb = await startXvfb();
  app = await X11Connection.connect({ display: xvfb.display, env });
  capturer = await X11Connection.connect({ display: xvfb.display, env });
  const root = app.screen.root;
  // `under` (300x200 at 100,50) has a background colour the server itself repaints; its point (100,80) is covered.
  under = await app.createWindow({ parent: root, x: 100, y: 50, width: 300, height: 200, backgroundPixel: 0xff8040 });
  const cover = await app.createWindow({ parent: root, x: 150, y: 100, width: 200, height: 100, backgroundPixel: 0x2040ff });
  // `drawnUnder` has no background: its pixels exist only because the client drew them, before being covered.
  drawnUnder = await app.createWindow({ parent: root, x: 500, y: 50, width: 200, height: 200, backgroundPixmap: 0 });
  const drawnCover = await app.createWindow({ parent: root, x: 550, y: 100, width: 100, height: 100, backgroundPixel: 0x2040ff });
  offscreen = await app.createWindow({ parent: root, x: 900, y: 700, width: 300, height: 200, backgroundPixel: 0x654321 });
  await app.mapWindow(under);
  await app.mapWindow(cover);
  await app.mapWindow(drawnUnder);
  const gc = await app.createGC(drawnUnder, { foreground: 0x11aa22 });
  await app.polyFillRectangle(drawnUnder, gc, [{ x: 0, y: 0, width: 200, height: 200 }]);
  await app.mapWindow(drawnCover);
  await app.mapWindow(offscreen);
  await app.freeGC(gc);
  await app.sync();
});

after(async () => {
  capturer?.close();
  app?.close();
  await xvfb?.stop();
});

test('without Composite, the covered part of a window reads back black, not the cover', async () => {
  assert.equal(await pixel(capturer, under, 300, 200, 10, 10), orange, 'uncovered part');
  assert.equal(await pixel(capturer, under, 300, 200, 100, 80), black, 'covered part');
  assert.equal(await pixel(capturer, drawnUnder, 200, 200, 100, 100), black, 'covered drawn part');
  // The screen (root) shows the cover there.
  const root = await readPixels(capturer, capturer.screen.root, 1, 1, { x: 200, y: 130 });
  assert.equal(root(0, 0), blue);
  // A window reaching past the screen edge cannot be captured whole.
  await assert.rejects(capturer.getImage(offscreen, 0, 0, 300, 200), (error: Error) => error instanceof X11Error && error.codeName === 'BadMatch');
});

test('after redirectSubwindows(root, automatic), GetImage of the window returns its own pixels under the cover', async () => {
  await capturer.composite.redirectSubwindows(capturer.screen.root, 'automatic');
  assert.equal(await pixel(capturer, under, 300, 200, 100, 80), orange);
  // The same through NameWindowPixmap.
  const pixmap = await capturer.composite.nameWindowPixmap(under);
  assert.equal(await pixel(capturer, pixmap, 300, 200, 100, 80), orange);
  await capturer.freePixmap(pixmap);
  // Any client's GetImage sees the redirected contents, not only the redirecting client's.
  assert.equal(await pixel(app, under, 300, 200, 100, 80), orange);
  // The screen still shows the cover on top (automatic redirection composites for us).
  const root = await readPixels(capturer, capturer.screen.root, 1, 1, { x: 200, y: 130 });
  assert.equal(root(0, 0), blue);
});

test('redirecting an already covered window copies the screen: drawn content hidden at that moment is lost until repainted', async () => {
  // The server fills the new off-screen pixmap from what was visible, then asks the owner to repaint (Expose);
  // `under` was repainted from its background colour, `drawnUnder` has no background and nobody redrew it.
  assert.equal(await pixel(capturer, drawnUnder, 200, 200, 100, 100), blue);
  assert.equal(await pixel(capturer, drawnUnder, 200, 200, 10, 10), green);
});

test('windows mapped after the redirect keep what is drawn into them while covered', async () => {
  const root = app.screen.root;
  const late = await app.createWindow({ parent: root, x: 100, y: 400, width: 300, height: 200, backgroundPixmap: 0 });
  await app.mapWindow(late);
  const lateCover = await app.createWindow({ parent: root, x: 150, y: 450, width: 200, height: 100, backgroundPixel: 0x2040ff });
  await app.mapWindow(lateCover);
  const gc = await app.createGC(late, { foreground: 0x11aa22 });
  await app.polyFillRectangle(late, gc, [{ x: 0, y: 0, width: 300, height: 200 }]);
  await app.sync();
  assert.equal(await pixel(capturer, late, 300, 200, 100, 80), green);
  const screen = await readPixels(capturer, root, 1, 1, { x: 200, y: 480 });
  assert.equal(screen(0, 0), blue);
});

test('a redirected window can be captured beyond the screen edge, an unmapped one not at all', async () => {
  assert.equal(await pixel(capturer, offscreen, 300, 200, 250, 150), '654321');
  await app.unmapWindow(offscreen);
  await app.sync();
  await assert.rejects(capturer.getImage(offscreen, 0, 0, 300, 200), (error: Error) => error instanceof X11Error && error.codeName === 'BadMatch');
  await assert.rejects(capturer.composite.nameWindowPixmap(offscreen), (error: Error) => error instanceof X11Error && error.message === 'BadMatch (8) in Composite.NameWindowPixmap');
});

test('the redirection ends when the client that asked for it disconnects', async () => {
  capturer.close();
  await app.sync();
  assert.equal(await pixel(app, under, 300, 200, 100, 80), black);
});

describe('with openbox managing (reparenting) the windows', () => {
  let wmXvfb: Xvfb;
  let wm: ReturnType<typeof spawn>;
  let client: X11Connection;
  let grabber: X11Connection;

  /** Polls `check` every 20 ms until it returns true, for at most `timeoutMs`. */
  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!(await check())) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await delay(20);
    }
  }

  before(async () => {
    wmXvfb = await startXvfb({ from: 100 });
    client = await X11Connection.connect({ display: wmXvfb.display, env });
    grabber = await X11Connection.connect({ display: wmXvfb.display, env });
    wm = spawn('openbox', ['--sm-disable'], { env: { ...process.env, DISPLAY: wmXvfb.display }, stdio: 'ignore' });
    await until('openbox to start', async () => (await client.getWindowList(client.screen.root, '_NET_SUPPORTING_WM_CHECK')) !== null);
  });

  after(async () => {
    grabber?.close();
    client?.close();
    wm?.kill();
    await wmXvfb?.stop();
  });

  test('a reparented window under an override-redirect cover: black without Composite, its own pixels with it', async () => {
    const root = client.screen.root;
    const window = await client.createWindow({ parent: root, x: 0, y: 0, width: 300, height: 200, backgroundPixel: 0xff8040 });
    // Openbox drops MapRequests that arrive while it is still starting up, so ask again until it frames the window.
    await until('openbox to frame the window', async () => {
      await client.mapWindow(window);
      await delay(100);
      return (await client.queryTree(window)).parent !== root;
    });
    await until('the window to become viewable', async () => (await client.getWindowAttributes(window)).mapState === 'viewable');
    const at = await client.translateCoordinates(window, root, 0, 0);
    const cover = await client.createWindow({ parent: root, x: at.x, y: at.y, width: 300, height: 200, backgroundPixel: 0x2040ff, overrideRedirect: true });
    await client.mapWindow(cover);
    await client.sync();
    assert.equal(await pixel(grabber, window, 300, 200, 150, 100), black);
    await grabber.composite.redirectSubwindows(root, 'automatic');
    assert.equal(await pixel(grabber, window, 300, 200, 150, 100), orange);
  });
});

test('a server without Composite or XTEST: extension calls fail clearly, the rest keeps working', async () => {
  const bare = await startXvfb({ args: ['-extension', 'Composite', '-extension', 'XTEST'], from: 110 });
  const connection = await X11Connection.connect({ display: bare.display, env });
  try {
    assert.equal((await connection.queryExtension('Composite')).present, false);
    const absent = (name: string) => (error: Error) => error.message === `the X server at DISPLAY=${bare.display} does not support the ${name} extension`;
    await assert.rejects(connection.composite.redirectSubwindows(connection.screen.root, 'automatic'), absent('Composite'));
    await assert.rejects(connection.composite.nameWindowPixmap(connection.screen.root), absent('Composite'));
    await assert.rejects(connection.xtest.fakeInput('MotionNotify', 0, { x: 1, y: 1 }), absent('XTEST'));
    assert.equal((await connection.getGeometry(connection.screen.root)).width, 1024);
  } finally {
    connection.close();
    await bare.stop();
  }
});
