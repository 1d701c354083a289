// Core requests against a real Xvfb: atoms, windows and properties, pixels, keyboard mapping, errors, events.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  Atom,
  EventMask,
  toRgb,
  X11Connection,
  X11Error,
  type X11EventOf,
} from '../../src/platform/linux/x11/index.js';
import { waitForEvent } from './helpers.js';
import { useXvfbConnection } from './xvfb.js';

const { xvfb, conn } = useXvfbConnection();
const env = { HOME: '/nonexistent' };

describe('atoms', () => {
  test('intern a new atom and read its name back', async () => {
    const name = `CUP_TEST_ATOM_${process.pid}`;
    const atom = await conn().internAtom(name);
    assert.ok(atom > 68, 'a new atom is numbered after the predefined ones');
    assert.equal(await conn().internAtom(name), atom);
    // A second connection has empty caches, so this is the server's answer.
    const other = await X11Connection.connect({ display: xvfb().display, env });
    try {
      assert.equal(await other.getAtomName(atom), name);
      assert.equal(await other.internAtom(name, true), atom);
    } finally {
      other.close();
    }
  });

  test('onlyIfExists on an unknown name is None (0)', async () => {
    assert.equal(await conn().internAtom(`CUP_NO_SUCH_ATOM_${process.pid}_${Date.now()}`, true), 0);
  });

  test('the predefined atom table matches the server', async () => {
    const other = await X11Connection.connect({ display: xvfb().display, env });
    try {
      const { encodeGetAtomName, parseGetAtomName } = await import('../../src/platform/linux/x11/atoms.js');
      // Bypass the cache, which is seeded from the table under test.
      const core = (other as unknown as { core: import('../../src/platform/linux/x11/connection.js').X11Core }).core;
      const names = await Promise.all(Array.from({ length: 68 }, (_, index) => core.request(encodeGetAtomName(index + 1), parseGetAtomName)));
      for (const [name, atom] of Object.entries(Atom)) assert.equal(names[atom - 1], name);
    } finally {
      other.close();
    }
  });

  test('1,000 pipelined internAtom calls', async () => {
    const names = Array.from({ length: 1000 }, (_, index) => `CUP_PIPELINED_${process.pid}_${index}`);
    const atoms = await conn().atoms(names);
    const values = names.map((name) => atoms[name]!);
    assert.equal(new Set(values).size, 1000);
    assert.ok(values.every((atom) => atom > 68));
    // Spot-check against the server through a connection with a cold cache.
    const other = await X11Connection.connect({ display: xvfb().display, env });
    try {
      for (const index of [0, 499, 999]) assert.equal(await other.getAtomName(values[index]!), names[index]);
    } finally {
      other.close();
    }
  });
});

describe('windows and properties', () => {
  let window: number;

  before(async () => {
    window = await conn().createWindow({ parent: conn().screen.root, x: 100, y: 50, width: 300, height: 200, backgroundPixel: 0xffffff });
    await conn().mapWindow(window);
  });

  test('UTF-8 and Latin-1 titles read back exactly', async () => {
    const { _NET_WM_NAME, UTF8_STRING } = await conn().atoms(['_NET_WM_NAME', 'UTF8_STRING']);
    await conn().changeProperty(window, _NET_WM_NAME!, UTF8_STRING!, 8, Buffer.from('héllo ✓', 'utf8'));
    await conn().changeProperty(window, Atom.WM_NAME, Atom.STRING, 8, Buffer.from('caf\xe9', 'latin1'));
    assert.equal(await conn().getString(window, '_NET_WM_NAME'), 'héllo ✓');
    assert.equal(await conn().getString(window, Atom.WM_NAME), 'café');
    const raw = await conn().getProperty(window, _NET_WM_NAME!);
    assert.equal(raw?.type, UTF8_STRING);
    assert.equal(raw?.format, 8);
    assert.deepEqual(raw?.data, Buffer.from('héllo ✓', 'utf8'));
    assert.equal(raw?.bytesAfter, 0);
  });

  test('typed helpers, partial reads, append, delete, and absent properties', async () => {
    const { CUP_NUMBERS } = await conn().atoms(['CUP_NUMBERS']);
    await conn().changeProperty(window, CUP_NUMBERS!, Atom.CARDINAL, 32, [1, 0xffffffff, 3]);
    await conn().changeProperty(window, CUP_NUMBERS!, Atom.CARDINAL, 32, [4], 'append');
    assert.deepEqual(await conn().getCardinals(window, 'CUP_NUMBERS'), [1, 0xffffffff, 3, 4]);
    const partial = await conn().getProperty(window, CUP_NUMBERS!, { offset: 1, length: 2 });
    assert.equal(partial?.data.readUInt32LE(0), 0xffffffff);
    assert.equal(partial?.data.length, 8);
    assert.equal(partial?.bytesAfter, 4);
    const mismatch = await conn().getProperty(window, CUP_NUMBERS!, { type: Atom.STRING });
    assert.equal(mismatch?.type, Atom.CARDINAL);
    assert.equal(mismatch?.data.length, 0);
    await conn().changeProperty(window, Atom.WM_CLASS, Atom.STRING, 8, Buffer.from('term\0Term\0'));
    assert.deepEqual(await conn().getStrings(window, Atom.WM_CLASS), ['term', 'Term']);
    await conn().changeProperty(window, CUP_NUMBERS!, Atom.ATOM, 32, [Atom.STRING, Atom.WINDOW]);
    assert.deepEqual(await conn().getAtomList(window, CUP_NUMBERS!), [Atom.STRING, Atom.WINDOW]);
    await conn().deleteProperty(window, CUP_NUMBERS!);
    assert.equal(await conn().getProperty(window, CUP_NUMBERS!), null);
    assert.equal(await conn().getCardinals(window, 'CUP_NUMBERS'), null);
    assert.equal(await conn().getString(window, 'CUP_NUMBERS'), null);
  });

  test('a property value larger than the core request limit goes out as a BIG-REQUEST', async () => {
    const { CUP_BIG } = await conn().atoms(['CUP_BIG']);
    const value = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < value.length; i++) value[i] = (i * 7) & 0xff;
    assert.ok(value.length > conn().setup.maxRequestLength * 4);
    await conn().checked(() => conn().changeProperty(window, CUP_BIG!, Atom.CARDINAL, 8, value));
    assert.deepEqual((await conn().getProperty(window, CUP_BIG!))?.data, value);
    await conn().deleteProperty(window, CUP_BIG!);
  });

  test('geometry, translation to root, tree and attributes', async () => {
    const geometry = await conn().getGeometry(window);
    assert.deepEqual(geometry, { root: conn().screen.root, depth: 24, x: 100, y: 50, width: 300, height: 200, borderWidth: 0 });
    const translated = await conn().translateCoordinates(window, conn().screen.root, 0, 0);
    // `child` is the destination's child containing the point, here the window itself.
    assert.deepEqual(translated, { sameScreen: true, child: window, x: 100, y: 50 });
    const inside = await conn().translateCoordinates(conn().screen.root, conn().screen.root, 150, 60);
    assert.equal(inside.child, window);
    const tree = await conn().queryTree(conn().screen.root);
    assert.equal(tree.root, conn().screen.root);
    assert.equal(tree.parent, 0);
    assert.equal(tree.children.at(-1), window, 'the newest mapped window is on top of the stacking order');
    const attributes = await conn().getWindowAttributes(window);
    assert.equal(attributes.mapState, 'viewable');
    assert.equal(attributes.class, 'InputOutput');
    assert.equal(attributes.overrideRedirect, false);
    assert.equal(attributes.visual, conn().screen.rootVisual);
  });

  test('configure, raise, attributes, unmap and destroy', async () => {
    const other = await conn().createWindow({ parent: conn().screen.root, x: 0, y: 0, width: 10, height: 10, overrideRedirect: true });
    await conn().mapWindow(other);
    await conn().configureWindow(other, { x: 5, y: 6, width: 20, height: 30 });
    await conn().configureWindow(other, { sibling: window, stackMode: 'Below' });
    let children = (await conn().queryTree(conn().screen.root)).children;
    assert.ok(children.indexOf(other) < children.indexOf(window));
    await conn().raiseWindow(other);
    children = (await conn().queryTree(conn().screen.root)).children;
    assert.equal(children.at(-1), other);
    assert.deepEqual((await conn().getGeometry(other)).width, 20);
    await conn().changeWindowAttributes(other, { eventMask: EventMask.StructureNotify | EventMask.PropertyChange });
    const attributes = await conn().getWindowAttributes(other);
    assert.equal(attributes.overrideRedirect, true);
    assert.equal(attributes.yourEventMask, EventMask.StructureNotify | EventMask.PropertyChange);
    const unmapped = waitForEvent(conn(), (event): event is X11EventOf<'UnmapNotify'> => event.name === 'UnmapNotify' && event.window === other);
    await conn().unmapWindow(other);
    await unmapped;
    assert.equal((await conn().getWindowAttributes(other)).mapState, 'unmapped');
    const destroyed = waitForEvent(conn(), (event): event is X11EventOf<'DestroyNotify'> => event.name === 'DestroyNotify' && event.window === other);
    await conn().destroyWindow(other);
    await destroyed;
    await assert.rejects(conn().getGeometry(other), (error: Error) => error instanceof X11Error && error.codeName === 'BadDrawable');
  });
});

describe('pixels', () => {
  test('painted colours come back exactly through getImage and toRgb', async () => {
    const window = await conn().createWindow({ parent: conn().screen.root, x: 100, y: 50, width: 300, height: 200, backgroundPixel: 0xff8040, overrideRedirect: true });
    await conn().mapWindow(window);
    const gc = await conn().createGC(window, { foreground: 0x2040ff, graphicsExposures: false });
    await conn().polyFillRectangle(window, gc, [{ x: 150, y: 0, width: 150, height: 200 }]);
    await conn().freeGC(gc);
    const image = await conn().getImage(window, 0, 0, 300, 200);
    assert.equal(image.depth, 24);
    assert.equal(image.visual, conn().screen.rootVisual);
    assert.equal(image.data.length, 300 * 200 * 4);
    const rgb = toRgb(image, 300, 200, conn().setup, conn().findVisual(image.visual));
    assert.equal(rgb.length, 300 * 200 * 3);
    const at = (x: number, y: number): number[] => [...rgb.subarray((y * 300 + x) * 3, (y * 300 + x) * 3 + 3)];
    for (const [x, y] of [[0, 0], [149, 199], [75, 100]] as const) assert.deepEqual(at(x, y), [0xff, 0x80, 0x40], `left at ${x},${y}`);
    for (const [x, y] of [[150, 0], [299, 199], [225, 100]] as const) assert.deepEqual(at(x, y), [0x20, 0x40, 0xff], `right at ${x},${y}`);
    // The same pixels seen through the root window at the window's screen position.
    const fromRoot = toRgb(await conn().getImage(conn().screen.root, 100 + 149, 50, 2, 1), 2, 1, conn().setup);
    assert.deepEqual([...fromRoot], [0xff, 0x80, 0x40, 0x20, 0x40, 0xff]);
    await conn().destroyWindow(window);
  });

  test('GetImage + toRgb of the whole 1024x768 root (timing)', async (t) => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const image = await conn().getImage(conn().screen.root, 0, 0, 1024, 768);
      const rgb = toRgb(image, 1024, 768, conn().setup);
      times.push(performance.now() - start);
      assert.equal(rgb.length, 1024 * 768 * 3);
    }
    times.sort((a, b) => a - b);
    t.diagnostic(`getImage+toRgb 1024x768 median ${times[10]!.toFixed(2)} ms (min ${times[0]!.toFixed(2)}, max ${times[19]!.toFixed(2)})`);
    assert.ok(times[10]! < 500);
  });
});

describe('keyboard mapping', () => {
  test('the whole map has a keycode for "a", and an unused keycode can be remapped and restored', async () => {
    const { minKeycode, maxKeycode } = conn().setup;
    const count = maxKeycode - minKeycode + 1;
    const mapping = await conn().getKeyboardMapping(minKeycode, count);
    const per = mapping.keysymsPerKeycode;
    assert.ok(per >= 2);
    assert.equal(mapping.keysyms.length, count * per);
    const symsOf = (keycode: number): number[] => mapping.keysyms.slice((keycode - minKeycode) * per, (keycode - minKeycode + 1) * per);
    const keycodeA = Array.from({ length: count }, (_, i) => minKeycode + i).find((keycode) => symsOf(keycode)[0] === 0x61);
    assert.ok(keycodeA !== undefined, 'a keycode maps to keysym a');

    const unused = Array.from({ length: count }, (_, i) => maxKeycode - i).find((keycode) => symsOf(keycode).every((sym) => sym === 0));
    assert.ok(unused !== undefined, 'some keycode is unused');
    const original = symsOf(unused);
    const euro = [0x20ac, ...new Array<number>(per - 1).fill(0)];
    try {
      await conn().checked(() => conn().changeKeyboardMapping(unused, per, euro));
      const readBack = (await conn().getKeyboardMapping(unused, 1)).keysyms;
      assert.equal(readBack[0], 0x20ac);
      // XKB rebuilds the core map from its own: a one-group key shows its symbol again in group 2's column.
      assert.deepEqual(readBack.slice(0, 3), [0x20ac, 0, 0x20ac]);
    } finally {
      await conn().checked(() => conn().changeKeyboardMapping(unused, per, original));
    }
    assert.deepEqual((await conn().getKeyboardMapping(unused, 1)).keysyms, original);

    const modifiers = await conn().getModifierMapping();
    assert.equal(modifiers.keycodes.length, 8 * modifiers.keycodesPerModifier);
    const shiftKeycodes = modifiers.keycodes.slice(0, modifiers.keycodesPerModifier).filter((keycode) => keycode !== 0);
    assert.ok(shiftKeycodes.some((keycode) => [0xffe1, 0xffe2].includes(symsOf(keycode)[0]!)), 'Shift is bound to a Shift_L/R key');
  });
});

describe('errors', () => {
  test('a request with a reply rejects with a named X11Error, and the connection keeps working', async () => {
    await assert.rejects(conn().getGeometry(0x1234567), (error: Error) => {
      assert.ok(error instanceof X11Error);
      assert.equal(error.codeName, 'BadDrawable');
      assert.equal(error.code, 9);
      assert.equal(error.badValue, 0x1234567);
      assert.equal(error.majorOpcode, 14);
      assert.equal(error.message, 'BadDrawable (9) in GetGeometry: resource 0x1234567');
      return true;
    });
    await assert.rejects(conn().queryTree(0x1234567), (error: Error) => error instanceof X11Error && error.codeName === 'BadWindow' && error.message === 'BadWindow (3) in QueryTree: resource 0x1234567');
    assert.equal((await conn().getGeometry(conn().screen.root)).width, 1024);
  });

  test('a reply-less request reports to onError, and rejects inside checked()', async () => {
    const seen: X11Error[] = [];
    const off = conn().onError((error) => seen.push(error));
    try {
      await conn().mapWindow(0x1234567);
      await conn().sync();
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.message, 'BadWindow (3) in MapWindow: resource 0x1234567');
      await assert.rejects(
        conn().checked(async () => {
          await conn().mapWindow(conn().screen.root);
          await conn().getInputFocus();
          await conn().configureWindow(0x1234568, { x: 1 });
        }),
        (error: Error) => error instanceof X11Error && error.message === 'BadWindow (3) in ConfigureWindow: resource 0x1234568',
      );
      assert.equal(seen.length, 2);
      await conn().checked(() => conn().mapWindow(conn().screen.root));
      await assert.rejects(conn().checked(() => conn().changeProperty(conn().screen.root, 0x7fffff, Atom.STRING, 8, Buffer.from('x'))), /BadAtom \(5\) in ChangeProperty: atom 8388607/);
    } finally {
      off();
    }
  });

  test('checked() calls that overlap each keep their own requests checked, the first to end included', async () => {
    const seen: X11Error[] = [];
    const off = conn().onError((error) => seen.push(error));
    try {
      // The longer call's failing request goes out after the shorter call has ended (each checked call's scope is
      // enabled only while some checked call runs).
      const longer = conn().checked(async () => {
        await conn().mapWindow(conn().screen.root);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await conn().configureWindow(0x1234569, { x: 1 });
      });
      longer.catch(() => undefined);
      await conn().checked(() => conn().mapWindow(conn().screen.root));
      await assert.rejects(longer, (error: Error) => error instanceof X11Error && error.message === 'BadWindow (3) in ConfigureWindow: resource 0x1234569');
      // And a request made outside any checked call after both is unchecked: it reaches the listeners only.
      await conn().configureWindow(0x123456a, { x: 1 });
      await conn().sync();
      assert.deepEqual(seen.map((error) => error.message), ['BadWindow (3) in ConfigureWindow: resource 0x1234569', 'BadWindow (3) in ConfigureWindow: resource 0x123456a']);
    } finally {
      off();
    }
  });

  test('values out of range are refused before anything is sent', async () => {
    await assert.rejects(conn().createWindow({ parent: conn().screen.root, x: 70000, y: 0, width: 1, height: 1 }), RangeError);
    await assert.rejects(conn().getImage(conn().screen.root, 0, 0, 100000, 1), RangeError);
    assert.equal((await conn().getInputFocus()).focus > 0, true);
  });
});

describe('events', () => {
  test('PropertyNotify from another client\'s change carries the right atom', async () => {
    const window = await conn().createWindow({ parent: conn().screen.root, x: 0, y: 0, width: 10, height: 10, eventMask: EventMask.PropertyChange });
    const { CUP_EVENT_PROP } = await conn().atoms(['CUP_EVENT_PROP']);
    await conn().sync();
    const other = await X11Connection.connect({ display: xvfb().display, env });
    try {
      const notified = waitForEvent(conn(), (event): event is X11EventOf<'PropertyNotify'> => event.name === 'PropertyNotify' && event.window === window);
      await other.changeProperty(window, CUP_EVENT_PROP!, Atom.STRING, 8, Buffer.from('x'));
      const event = await notified;
      assert.equal(event.atom, CUP_EVENT_PROP);
      assert.equal(event.state, 'NewValue');
      assert.equal(event.sentEvent, false);
      const deleted = waitForEvent(conn(), (e): e is X11EventOf<'PropertyNotify'> => e.name === 'PropertyNotify' && e.window === window && e.state === 'Deleted');
      await other.deleteProperty(window, CUP_EVENT_PROP!);
      assert.equal((await deleted).atom, CUP_EVENT_PROP);
    } finally {
      other.close();
      await conn().destroyWindow(window);
    }
  });

  test('structure events and a ClientMessage sent with SendEvent', async () => {
    const { encodeClientMessage } = await import('../../src/platform/linux/x11/index.js');
    const root = conn().screen.root;
    await conn().changeWindowAttributes(root, { eventMask: EventMask.SubstructureNotify });
    const created = waitForEvent(conn(), (event): event is X11EventOf<'CreateNotify'> => event.name === 'CreateNotify');
    const window = await conn().createWindow({ parent: root, x: 7, y: 8, width: 9, height: 10, eventMask: EventMask.StructureNotify });
    const createEvent = await created;
    assert.deepEqual([createEvent.window, createEvent.parent, createEvent.x, createEvent.y, createEvent.width, createEvent.height], [window, root, 7, 8, 9, 10]);
    const mapped = waitForEvent(conn(), (event): event is X11EventOf<'MapNotify'> => event.name === 'MapNotify' && event.window === window);
    await conn().mapWindow(window);
    await mapped;
    const configured = waitForEvent(conn(), (event): event is X11EventOf<'ConfigureNotify'> => event.name === 'ConfigureNotify' && event.window === window && event.x === 20);
    await conn().configureWindow(window, { x: 20, width: 33 });
    assert.equal((await configured).width, 33);
    const { CUP_MESSAGE } = await conn().atoms(['CUP_MESSAGE']);
    const message = waitForEvent(conn(), (event): event is X11EventOf<'ClientMessage'> => event.name === 'ClientMessage' && event.window === window);
    await conn().sendEvent(window, false, EventMask.StructureNotify, encodeClientMessage(window, CUP_MESSAGE!, 32, [1, 2, 3, 4, 5]));
    const received = await message;
    assert.equal(received.sentEvent, true);
    assert.equal(received.messageType, CUP_MESSAGE);
    assert.deepEqual(received.data, [1, 2, 3, 4, 5]);
    await conn().changeWindowAttributes(root, { eventMask: 0 });
    await conn().destroyWindow(window);
  });

  test('extensions: listed, queried, and absent ones fail clearly', async () => {
    const names = await conn().listExtensions();
    assert.ok(names.includes('XTEST') && names.includes('Composite') && names.includes('BIG-REQUESTS'));
    const xtest = await conn().queryExtension('XTEST');
    assert.equal(xtest.present, true);
    assert.ok(xtest.majorOpcode >= 128);
    assert.deepEqual(await conn().queryExtension('NO-SUCH-EXTENSION'), { present: false, majorOpcode: 0, firstEvent: 0, firstError: 0 });
    assert.deepEqual(await conn().xtest.getVersion(), { major: 2, minor: 2 });
    assert.deepEqual(await conn().composite.queryVersion(), { major: 0, minor: 4 });
  });
});
