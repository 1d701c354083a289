import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PROGRAM_NODES, parseProgramMessage } from '../../src/tui/liveframe.js';

test('a frame is taken as the program sent it, focus from the message or from a focused node', () => {
  const message = parseProgramMessage(
    JSON.stringify({ type: 'frame', nodes: [{ id: 'app', role: 'dialog', name: 'App', children: [{ id: 'ok', role: 'button', name: 'OK', focused: true }] }] }),
  );
  assert.equal(message.type, 'frame');
  if (message.type !== 'frame') return;
  assert.equal(message.frame.focus, 'ok');
  assert.equal(message.nodeCount, 2);
  assert.equal(message.frame.nodes[0]!.children![0]!.name, 'OK');
});

test('clear and event messages', () => {
  assert.deepEqual(parseProgramMessage('{"type":"clear"}'), { type: 'clear' });
  assert.deepEqual(parseProgramMessage('{"type":"event","name":"saved","data":{"file":"a.txt"}}'), { type: 'event', name: 'saved', data: { file: 'a.txt' } });
});

test('malformed messages become errors that say what is wrong', () => {
  const cases: [string, RegExp][] = [
    ['not json', /not JSON/],
    ['{"type":"paint"}', /unknown message type "paint"/],
    ['{"type":"frame","nodes":[{"role":"button"}]}', /bad frame: nodes\.0\.id/],
    ['{"type":"frame","nodes":[{"id":"a","role":"x"},{"id":"a","role":"y"}]}', /appears twice/],
    ['{"type":"frame","focus":"zzz","nodes":[{"id":"a","role":"x"}]}', /names no node/],
    [JSON.stringify({ type: 'frame', nodes: Array.from({ length: MAX_PROGRAM_NODES + 1 }, (_, i) => ({ id: `n${i}`, role: 'text' })) }), /more than 5000/],
  ];
  let deep: Record<string, unknown> = { id: 'leaf', role: 'text' };
  for (let i = 0; i < 70; i++) deep = { id: `d${i}`, role: 'group', children: [deep] };
  cases.push([JSON.stringify({ type: 'frame', nodes: [deep] }), /deeper than 64/]);
  for (const [line, problem] of cases) {
    const message = parseProgramMessage(line);
    assert.equal(message.type, 'error', line.slice(0, 60));
    if (message.type === 'error') assert.match(message.error, problem);
  }
});
