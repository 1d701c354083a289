// Sequence-number wrap-around, long runs of reply-less requests, large replies, and a peer that stops answering.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { X11Connection, X11Error, X11TimeoutError } from '../../src/platform/linux/x11/index.js';
import { startXvfb, type Xvfb } from './xvfb.js';

let xvfb: Xvfb;
const env = { HOME: '/nonexistent' };

before(async () => {
  xvfb = await startXvfb();
});
after(() => xvfb.stop());

test('70,000 pipelined requests across the 16-bit sequence wrap each get their own reply', async () => {
  const conn = await X11Connection.connect({ display: xvfb.display, env, timeoutMs: 30_000 });
  try {
    const root = conn.screen.root;
    const count = 70_000;
    // TranslateCoordinates root->root echoes its input, so every reply shows which request it answers.
    const replies = await Promise.all(Array.from({ length: count }, (_, i) => conn.translateCoordinates(root, root, i % 1000, Math.floor(i / 1000))));
    replies.forEach((reply, i) => {
      if (reply.x !== i % 1000 || reply.y !== Math.floor(i / 1000)) assert.fail(`reply ${i} was (${reply.x},${reply.y})`);
    });
    // An error after the wrap is matched to the request that caused it.
    await assert.rejects(conn.getGeometry(0x1234567), X11Error);
    assert.deepEqual(await conn.translateCoordinates(root, root, 5, 6), { sameScreen: true, child: 0, x: 5, y: 6 });
  } finally {
    conn.close();
  }
});

test('more than 65,536 reply-less requests in a row, then replies and errors still match', async () => {
  const conn = await X11Connection.connect({ display: xvfb.display, env, timeoutMs: 30_000 });
  try {
    const root = conn.screen.root;
    const { CUP_NEVER_SET } = await conn.atoms(['CUP_NEVER_SET']);
    const errors: X11Error[] = [];
    conn.onError((error) => errors.push(error));
    const writes: Promise<void>[] = [];
    // Deleting an absent property does nothing and sends nothing back.
    for (let i = 0; i < 140_000; i++) writes.push(conn.deleteProperty(root, CUP_NEVER_SET!));
    const reply = conn.translateCoordinates(root, root, 321, 123);
    const failing = conn.checked(() => conn.mapWindow(0x1234567));
    await Promise.all(writes);
    assert.deepEqual(await reply, { sameScreen: true, child: 0, x: 321, y: 123 });
    await assert.rejects(failing, (error: Error) => error instanceof X11Error && error.codeName === 'BadWindow');
    assert.equal(errors.length, 1);
    assert.equal((await conn.getGeometry(root)).width, 1024);
  } finally {
    conn.close();
  }
});

test('multi-megabyte replies arrive whole, interleaved with small ones', async () => {
  const conn = await X11Connection.connect({ display: xvfb.display, env });
  try {
    const root = conn.screen.root;
    const results = await Promise.all([
      conn.getImage(root, 0, 0, 1024, 768),
      conn.getGeometry(root),
      conn.getImage(root, 0, 0, 1024, 768),
      conn.getImage(root, 10, 10, 1, 1),
    ]);
    assert.equal(results[0].data.length, 1024 * 768 * 4);
    assert.equal(results[1].width, 1024);
    assert.deepEqual(results[2].data, results[0].data);
    assert.equal(results[3].data.length, 4);
  } finally {
    conn.close();
  }
});

test('a request times out while another client holds a server grab, and the connection recovers', async () => {
  const grabber = await X11Connection.connect({ display: xvfb.display, env });
  const conn = await X11Connection.connect({ display: xvfb.display, env, timeoutMs: 200 });
  try {
    const root = conn.screen.root;
    await grabber.grabServer();
    await grabber.sync();
    const start = performance.now();
    await assert.rejects(conn.getGeometry(root), (error: Error) => {
      assert.ok(error instanceof X11TimeoutError);
      assert.match(error.message, /GetGeometry \(sequence \d+\) got no reply from DISPLAY=:\d+ within 200 ms/);
      return true;
    });
    const elapsed = performance.now() - start;
    assert.ok(elapsed >= 195 && elapsed < 1000, `timed out after ${elapsed.toFixed(0)} ms`);
    // Several requests queued behind the grab expire together from the one sweeper.
    const queued = await Promise.allSettled([conn.getInputFocus(), conn.queryTree(root), conn.getGeometry(root)]);
    assert.ok(queued.every((result) => result.status === 'rejected' && result.reason instanceof X11TimeoutError));
    await grabber.ungrabServer();
    await grabber.sync();
    // The late replies to the timed-out requests arrive first and are dropped; this one is matched correctly.
    const geometry = await conn.getGeometry(root);
    assert.equal(geometry.width, 1024);
    assert.deepEqual(await conn.translateCoordinates(root, root, 9, 8), { sameScreen: true, child: 0, x: 9, y: 8 });
  } finally {
    conn.close();
    grabber.close();
  }
});
