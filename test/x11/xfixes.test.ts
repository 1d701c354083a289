// XFIXES selection events: the watch a drag holds its button by (an XDND drag begins with its source taking the
// XdndSelection). Another client takes the selection; the watch hears every taking, and nothing once stopped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SelectionOwnerChange } from '../../src/platform/linux/x11/extensions/xfixes.js';
import { X11Connection } from '../../src/platform/linux/x11/index.js';
import { watchDragAndDrop } from '../../src/platform/linux/input/drag-and-drop.js';
import { useXvfbConnection } from './xvfb.js';

const { conn, xvfb } = useXvfbConnection();

test('each taking of a selection by another client is heard, the same owner taking it again too; none after the watch stops', async () => {
  const other = await X11Connection.connect({ display: xvfb().display, env: { HOME: '/nonexistent' } });
  try {
    const selection = await conn().internAtom('XdndSelection');
    const window = await other.createWindow({ parent: other.screen.root, x: -10, y: -10, width: 1, height: 1 });
    const heard: SelectionOwnerChange[] = [];
    const stop = await conn().xfixes.watchSelection(conn().screen.root, selection, (change) => heard.push(change));
    // The watch's selection request is only sent: the other connection's takings must come after the server made it.
    // (The driver's own input follows it on the same connection, which the server handles in order.)
    await conn().sync();
    await other.setSelectionOwner(window, selection, 0);
    await other.setSelectionOwner(window, selection, 0);
    await other.sync();
    await conn().sync();
    assert.equal(await conn().getSelectionOwner(selection), window, 'the server says the other client owns it');
    assert.deepEqual(heard, [{ owner: window, subtype: 0, selection, time: heard[0]?.time }, { owner: window, subtype: 0, selection, time: heard[1]?.time }]);
    await stop();
    await other.setSelectionOwner(0, selection, 0);
    await other.sync();
    await conn().sync();
    assert.equal(heard.length, 2, 'nothing heard once stopped');
  } finally {
    other.close();
  }
});

test("a drag's watch tells a drag and drop begun by another client, and waits no longer than told when none begins", async () => {
  const other = await X11Connection.connect({ display: xvfb().display, env: { HOME: '/nonexistent' } });
  try {
    const watch = await watchDragAndDrop(conn());
    const started = performance.now();
    assert.equal(await watch.begins(150), false);
    assert.ok(performance.now() - started >= 140, 'it waited out the time it was given');
    const window = await other.createWindow({ parent: other.screen.root, x: -10, y: -10, width: 1, height: 1 });
    const begins = watch.begins(5000);
    await sleep(20);
    const taken = performance.now();
    await other.setSelectionOwner(window, await other.internAtom('XdndSelection'), 0);
    await other.sync();
    assert.equal(await begins, true);
    assert.ok(performance.now() - taken < 1000, 'it answered when the selection was taken, not at its limit');
    assert.equal(watch.begun, true);
    await watch.stop();
  } finally {
    other.close();
  }
});
