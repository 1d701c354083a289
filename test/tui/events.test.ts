import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_CAPACITY, EventRing } from '../../src/tui/events.js';

test('the ring keeps the newest 1000 events, numbered without gaps', () => {
  const ring = new EventRing();
  assert.equal(ring.capacity, EVENT_CAPACITY);
  assert.equal(EVENT_CAPACITY, 1000);
  for (let i = 1; i <= 1500; i++) ring.push(i % 100 === 0 ? 'bell' : 'output', { text: `chunk ${i}` });
  assert.equal(ring.size, 1000);
  const all = ring.all();
  assert.equal(all[0]!.n, 501);
  assert.equal(all.at(-1)!.n, 1500);
  assert.ok(all.every((event, index) => index === 0 || event.n === all[index - 1]!.n + 1));
});

test('last() finds the newest event, or the newest of one kind', () => {
  const ring = new EventRing(4);
  assert.equal(ring.last(), undefined);
  ring.push('title', { title: 'one' });
  ring.push('output', { text: 'a' });
  ring.push('exit', { code: 3 });
  assert.equal(ring.last()?.kind, 'exit');
  assert.deepEqual(ring.last('title')?.data, { title: 'one' });
  ring.push('output', { text: 'b' });
  ring.push('output', { text: 'c' });
  assert.equal(ring.last('title'), undefined, 'the title event fell out of a ring of four');
});

test('output events keep at most 4096 characters', () => {
  const ring = new EventRing();
  const event = ring.push('output', { text: 'x'.repeat(10_000) });
  assert.equal((event.data.text as string).length, 4096);
  assert.equal(event.data.truncated, true);
});
