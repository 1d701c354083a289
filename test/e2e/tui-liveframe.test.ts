import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, PYTHON, tuiFixtures, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('a program that sends its own LiveFrames: its tree is used as is, kept current, and focus goes through the side channel', async () => {
  await start({ command: PYTHON, args: [`${tuiFixtures}/liveframe_fixture.py`] });
  await callOk(context, 'tui_wait_for', { selector: 'id=count' });
  const first = await callOk(context, 'tui_snapshot');
  const frame = first.structured.frame as { source: string; focus: string; seq: number };
  assert.equal(frame.source, 'program');
  assert.equal(frame.focus, 'ok');
  assert.deepEqual(nodes(first).map((node) => [node.id, node.role, node.name]), [
    ['app', 'dialog', 'Fixture app'], ['count', 'text', 'count'], ['ok', 'button', 'OK'], ['cancel', 'button', 'Cancel'],
  ]);
  // The ready event comes over the side channel too, in a write after the frame's, so it may trail it.
  let ready = await callOk(context, 'tui_last_event', { kind: 'program' });
  for (const deadline = Date.now() + 2000; ready.structured.event === null && Date.now() < deadline; await sleep(20)) {
    ready = await callOk(context, 'tui_last_event', { kind: 'program' });
  }
  assert.equal((ready.structured.event as { data: { name: string } }).data.name, 'ready');

  // Keys reach the program; its next frame replaces the tree.
  await callOk(context, 'tui_press_sequence', { keys: ['+', '+', '+'] });
  await callOk(context, 'tui_wait_for', { selector: 'id=count value=3', idle: true, idleMs: 100 });
  await callOk(context, 'tui_expect', { selector: 'id=count', predicate: { field: 'value', op: 'gte', rhs: 3 } }).then((result) => assert.equal(result.structured.result, true));
  const changed = await callOk(context, 'tui_changes_since', { seq: frame.seq });
  assert.equal(changed.structured.changed, true);
  const same = await callOk(context, 'tui_changes_since', { seq: changed.structured.seq as number });
  assert.equal(same.structured.changed, false);

  // tui_focus asks the program over fd 4 and confirms with the program's next frame.
  const focus = await callOk(context, 'tui_focus', { selector: 'role=button name=Cancel' });
  assert.equal(focus.structured.method, 'program');
  const after = await callOk(context, 'tui_snapshot');
  assert.equal((after.structured.frame as { focus: string }).focus, 'cancel');
  // The screen agrees: the program drew Cancel in reverse video (its frame can arrive before its redraw).
  const inverseColumn = async () => {
    const visual = (await callOk(context, 'tui_snapshot')).structured.visual as { spans: { row: number; col: number; attrs?: string[] }[] };
    return visual.spans.find((span) => span.row === 2 && span.attrs?.includes('inverse'))?.col;
  };
  let column = await inverseColumn();
  for (const deadline = Date.now() + 2000; column !== 8 && Date.now() < deadline; column = await inverseColumn()) await sleep(20);
  assert.equal(column, 8);

  const frames = await callOk(context, 'tui_last_event', { kind: 'frame' });
  assert.equal((frames.structured.event as { data: { focus: string } }).data.focus, 'cancel');
  await callOk(context, 'tui_type', { text: 'q' });
  await callOk(context, 'tui_wait_for', { exited: true });
  assert.deepEqual((await callOk(context, 'tui_snapshot')).structured.exited, { code: 5 });
  await callOk(context, 'tui_stop');
});

test('programs that do not speak the protocol are read from the screen, and the side channel is offered to all', async () => {
  await start({ command: 'bash', args: ['--norc', '--noprofile'], env: { PS1: '$ ' }, session: 'plain' });
  await callOk(context, 'tui_type', { text: 'echo "fd=$CUP_LIVEFRAME_FD in=$CUP_LIVEFRAME_IN_FD proto=$CUP_LIVEFRAME_PROTOCOL"; ls -l /proc/$$/fd/3 | grep -c frames\n', session: 'plain' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name="fd=3 in=4 proto=1.0.0"', all: [{ selector: 'role=text name=1' }], session: 'plain' });
  assert.equal(((await callOk(context, 'tui_snapshot', { session: 'plain' })).structured.frame as { source: string }).source, 'screen');
  // A program may report garbage: it is counted as a protocol error, and the screen stays the source.
  await callOk(context, 'tui_type', { text: 'echo not-json >&3; echo done-$((2 * 21))\n', session: 'plain' });
  await callOk(context, 'tui_wait_for', { text: 'done-42', session: 'plain' });
  const error = await callOk(context, 'tui_last_event', { kind: 'protocol_error', session: 'plain' });
  assert.match((error.structured.event as { data: { error: string } }).data.error, /not JSON/);
  assert.equal(((await callOk(context, 'tui_snapshot', { session: 'plain' })).structured.frame as { source: string }).source, 'screen');
  await callOk(context, 'tui_stop', { session: 'plain' });
});
