import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { ActionQueue } from '../../src/tools/action-queue.js';
import type { ToolContext } from '../../src/tools/context.js';
import sharp from 'sharp';
import { encodePng } from '../../src/image/encode.js';
import type { RawImage } from '../../src/image/raw-image.js';
import { ReadCoalescer } from '../../src/platform/linux/read-coalescer.js';
import { RecentCaptures } from '../../src/platform/linux/recent-captures.js';

describe('ActionQueue: one line per app', () => {
  /** What the queue uses of a call's context: its signal, and the line it holds (none for a call from outside). */
  const call = (signal?: AbortSignal) => (signal ? { signal } : {}) as ToolContext;
  test('actions on one key run one at a time in arrival order; another key runs beside them', async () => {
    const queue = new ActionQueue();
    const events: string[] = [];
    const action = (name: string, ms: number) => async () => {
      events.push(`${name} start`);
      await sleep(ms);
      events.push(`${name} end`);
    };
    await Promise.all([queue.run('pid 1', call(), action('a1', 60)), queue.run('pid 1', call(), action('a2', 10)), queue.run('pid 2', call(), action('b', 10)), queue.run('pid 1', call(), action('a3', 1))]);
    assert.deepEqual(
      events.filter((event) => event.startsWith('a')),
      ['a1 start', 'a1 end', 'a2 start', 'a2 end', 'a3 start', 'a3 end'],
    );
    assert.ok(events.indexOf('b end') < events.indexOf('a1 end'), `the other app's action did not wait: ${events.join(', ')}`);
  });

  test('a failed action frees the line; a cancelled waiter leaves it and later ones still wait for the first', async () => {
    const queue = new ActionQueue();
    const events: string[] = [];
    const first = queue.run('k', call(), async () => {
      await sleep(50);
      events.push('first');
      throw new Error('boom');
    });
    const controller = new AbortController();
    const cancelled = queue.run('k', call(controller.signal), async () => events.push('cancelled ran'));
    const third = queue.run('k', call(), async () => events.push('third'));
    controller.abort();
    await assert.rejects(cancelled, (error: Error & { code?: string }) => error.code === 'cancelled' && /nothing was sent/.test(error.message));
    await assert.rejects(first, /boom/);
    await third;
    assert.deepEqual(events, ['first', 'third']);
  });

  test('a call made inside a queued one (a plan step) runs at once instead of waiting for its own plan', async () => {
    const queue = new ActionQueue();
    const result = await Promise.race([queue.run('k', call(), (held) => queue.run('k', { ...held, signal: new AbortController().signal }, async () => 'step ran')), sleep(1000).then(() => 'deadlock')]);
    assert.equal(result, 'step ran');
  });

  test('a queued action runs with no promise hook on: no AsyncLocalStorage is enabled for it', () => {
    // With an AsyncLocalStorage enabled, Node 20 runs a hook on every promise of the process (a tree walk took half as
    // long again), and a promise's continuation then has an async id of its own; with none, it has 0. Asked in a
    // process of its own: node:test enables promise hooks in its own.
    const queueModule = new URL('../../src/tools/action-queue.js', import.meta.url).href;
    const script = `
      import { executionAsyncId } from 'node:async_hooks';
      const { ActionQueue } = await import(${JSON.stringify(queueModule)});
      const continuationId = async () => { await null; return executionAsyncId(); };
      const queue = new ActionQueue();
      const inside = await queue.run('k', {}, (held) => queue.run('k', held, continuationId));
      console.log(JSON.stringify({ inside, after: await continuationId() }));`;
    const ids = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 })) as { inside: number; after: number };
    assert.deepEqual(ids, { inside: 0, after: 0 }, 'promise hooks ran inside or after the action');
  });
});

/** A read that takes 30 ms and answers with its own number: 1 for the first begun, 2 for the next... */
function numberedReads(): { read: () => Promise<number>; started: () => number } {
  let started = 0;
  const read = async () => {
    const number = ++started;
    await sleep(30);
    return number;
  };
  return { read, started: () => started };
}

describe('ReadCoalescer: concurrent identical reads share work, never an older state', () => {
  test('calls arriving during a read share the next one, which starts after them', async () => {
    const coalescer = new ReadCoalescer<number>();
    const { read, started } = numberedReads();
    const first = coalescer.run('w', read);
    await sleep(5);
    const other = coalescer.run('other window', read);
    const joiners = [coalescer.run('w', read), coalescer.run('w', read), coalescer.run('w', read)];
    // The other window's read started at once (2); the joiners shared one read started after the first ended (3).
    assert.equal(await other, 2);
    assert.deepEqual(await Promise.all([first, ...joiners]), [1, 3, 3, 3]);
    assert.equal(started(), 3);
    // Idle again: the next call reads afresh.
    assert.equal(await coalescer.run('w', read), 4);
  });

  test('calls waiting behind a read its source left unanswered take that answer: no second timeout is waited out', async () => {
    // Readings are numbers here; the first stands for "the app did not answer in time".
    const coalescer = new ReadCoalescer<number>((reading) => reading === 1);
    const { read, started } = numberedReads();
    const first = coalescer.run('w', read);
    await sleep(5);
    const waiting = [coalescer.run('w', read), coalescer.run('w', read)];
    assert.deepEqual(await Promise.all([first, ...waiting]), [1, 1, 1]);
    assert.equal(started(), 1, 'the calls that waited behind the unanswered read did not read again');
    // An answered read is not shared that way: calls that waited for it get a read that began after them.
    assert.equal(await coalescer.run('w', read), 2);
    const answered = coalescer.run('w', read);
    await sleep(5);
    const behind = coalescer.run('w', read);
    assert.deepEqual([await answered, await behind], [3, 4]);
  });

  test('a call that says when it came in joins a read under way only when that read began after it came', async () => {
    const coalescer = new ReadCoalescer<number>();
    const { read } = numberedReads();
    const cameBefore = performance.now();
    const first = coalescer.run('w', read);
    await sleep(5);
    const cameAfter = performance.now();
    // Both arrive while read 1 runs: the one that came in before read 1 began shares it; the other waits for read 2.
    const early = coalescer.run('w', read, cameBefore);
    const late = coalescer.run('w', read, cameAfter);
    assert.deepEqual(await Promise.all([first, early, late]), [1, 1, 2]);
  });

  test('a failing read fails its callers only; the next wave reads again', async () => {
    const coalescer = new ReadCoalescer<string>();
    let calls = 0;
    const read = async () => {
      calls++;
      await sleep(10);
      if (calls === 1) throw new Error('bus timeout');
      return 'tree';
    };
    const first = coalescer.run('w', read);
    await sleep(2);
    const second = coalescer.run('w', read);
    await assert.rejects(first, /bus timeout/);
    assert.equal(await second, 'tree');
  });

  test('calls made in one turn, before the read began, share it; it began after the last of them', async () => {
    const coalescer = new ReadCoalescer<number>();
    const events: string[] = [];
    let started = 0;
    const read = async () => {
      events.push('read began');
      const number = ++started;
      await sleep(20);
      return number;
    };
    const calls = [coalescer.run('w', read)];
    events.push('call 1');
    // Calls that come after some awaiting within the same turn (as an HTTP request's handler does) still join.
    await Promise.resolve();
    calls.push(coalescer.run('w', read));
    events.push('call 2');
    await new Promise<void>((resolve) => process.nextTick(resolve));
    calls.push(coalescer.run('w', read));
    events.push('call 3');
    assert.deepEqual(await Promise.all(calls), [1, 1, 1]);
    assert.deepEqual(events, ['call 1', 'call 2', 'call 3', 'read began']);
    // A call during the read does not get it: it gets the next one, begun after it.
    const during = sleep(5).then(() => coalescer.run('w', read));
    const again = coalescer.run('w', read);
    assert.equal(await again, 2);
    assert.equal(await during, 3);
  });
});

describe('RecentCaptures and encodePng: unchanged pixels are converted and encoded once', () => {
  const layout = { width: 2, height: 1, depth: 24, visual: 33 };
  const rgb = (bytes: number[]): RawImage => ({ width: 2, height: 1, channels: 3, data: Buffer.from(bytes) });

  test('a capture with the bytes of its window\'s last one gets that image back; other bytes, layouts or windows convert', () => {
    const recent = new RecentCaptures(2);
    let conversions = 0;
    const convert = (bytes: number[]) => () => {
      conversions++;
      return rgb(bytes);
    };
    const first = recent.image(1, layout, Buffer.from([1, 2, 3, 0, 4, 5, 6, 0]), convert([3, 2, 1, 6, 5, 4]));
    // A fresh buffer with the same bytes, as the next GetImage reply is.
    assert.equal(recent.image(1, layout, Buffer.from([1, 2, 3, 0, 4, 5, 6, 0]), convert([0, 0, 0, 0, 0, 0])), first);
    assert.equal(conversions, 1);
    const changed = recent.image(1, layout, Buffer.from([9, 2, 3, 0, 4, 5, 6, 0]), convert([3, 2, 9, 6, 5, 4]));
    assert.notEqual(changed, first);
    assert.deepEqual([...changed.data], [3, 2, 9, 6, 5, 4]);
    assert.notEqual(recent.image(1, { ...layout, width: 1, height: 2 }, Buffer.from([9, 2, 3, 0, 4, 5, 6, 0]), convert([1, 1, 1, 1, 1, 1])), changed);
    assert.equal(conversions, 3);
    // Two windows kept: a third pushes out the one captured least recently (window 1).
    recent.image(2, layout, Buffer.from([7, 7, 7, 0, 7, 7, 7, 0]), convert([7, 7, 7, 7, 7, 7]));
    recent.image(3, layout, Buffer.from([8, 8, 8, 0, 8, 8, 8, 0]), convert([8, 8, 8, 8, 8, 8]));
    recent.image(1, { ...layout, width: 1, height: 2 }, Buffer.from([9, 2, 3, 0, 4, 5, 6, 0]), convert([1, 1, 1, 1, 1, 1]));
    assert.equal(conversions, 6);
    recent.clear();
    recent.image(3, layout, Buffer.from([8, 8, 8, 0, 8, 8, 8, 0]), convert([8, 8, 8, 8, 8, 8]));
    assert.equal(conversions, 7);
  });

  test('callers holding one image share one PNG of it; another image of the same pixels is encoded on its own', async () => {
    const image = rgb([255, 0, 0, 0, 0, 255]);
    const [a, b] = await Promise.all([encodePng(image, 0), encodePng(image, 0)]);
    assert.equal(a, b);
    const other = await encodePng(rgb([255, 0, 0, 0, 0, 255]), 0);
    assert.notEqual(other, a);
    assert.ok(other.data.equals(a.data));
    // The PNG holds the pixels (read back by libvips' own decoder).
    const decoded = await sharp(a.data).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([decoded.info.width, decoded.info.height, ...decoded.data], [2, 1, 255, 0, 0, 0, 0, 255]);
  });
});
