// tui_wait_for with gone: true waits for a node or a text to leave the screen, as the desktop wait_for does
// for an element. The oracle is the screen's own text (tui_render_text) and the program's exit status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callOk, failsWith } from '../helpers/tools.js';
import { exitCode, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function screenText(session: string): Promise<string> {
  return ((await callOk(context, 'tui_render_text', { session })).structured.lines as string[]).join('\n');
}

test('tui_wait_for gone: returns once the dialog\'s button and text have left the screen, not before', async () => {
  // A message box, then a yes/no box in its place once OK is pressed.
  await start({ command: 'dialog', args: ['--msgbox', 'First step done', '6', '40', '--and-widget', '--yesno', 'Go on to the second?', '6', '40'], session: 'steps' });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=OK', text: 'First step done', session: 'steps' });
  // While the message box is up, a wait for its OK button to be gone times out and says what is still there.
  const early = await failsWith(context, 'tui_wait_for', { selector: 'role=button name=OK', gone: true, timeoutMs: 300, session: 'steps' }, 'timeout');
  assert.deepEqual(early.structured.still_matching, ['button "OK"']);
  assert.match(String(early.structured.message), /still there: button "OK"/);

  await callOk(context, 'tui_press', { key: 'Enter', session: 'steps' });
  const waited = await callOk(context, 'tui_wait_for', { selector: 'role=button name=OK', text: 'First step done', gone: true, session: 'steps' });
  assert.equal(typeof waited.structured.elapsedMs, 'number');
  assert.doesNotMatch(await screenText('steps'), /First step done/);
  // In "all" too, next to conditions that must appear. dialog draws the box's buttons before its prompt, so the
  // prompt's text is waited for as well.
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=Yes', all: [{ text: 'First step done', gone: true }, { text: 'Go on to the second?' }], session: 'steps' });
  assert.match(await screenText('steps'), /Go on to the second\?/);
  await callOk(context, 'tui_press', { key: 'Enter', session: 'steps' });
  assert.equal(await exitCode(context, 'steps'), 0);
  await callOk(context, 'tui_stop', { session: 'steps' });
});

test('tui_wait_for gone: without a selector or text is refused; once the program exited with the text on screen it fails with exited', async () => {
  await start({ command: 'sh', args: ['-c', 'echo still-here'], session: 'ended' });
  const bare = await failsWith(context, 'tui_wait_for', { gone: true, idle: true, session: 'ended' }, 'invalid_arguments');
  assert.match(String(bare.structured.message), /gone: true needs a selector or a text/);
  await callOk(context, 'tui_wait_for', { exited: true, session: 'ended' });
  // The screen can no longer change, so the text never goes: the wait ends at once instead of at its timeout.
  const ended = await failsWith(context, 'tui_wait_for', { text: 'still-here', gone: true, timeoutMs: 20_000, session: 'ended' }, 'exited');
  assert.ok((ended.structured.screen as string[]).some((line) => line.includes('still-here')));
  // A text that is not there is gone at once, exited or not.
  await callOk(context, 'tui_wait_for', { text: 'never-printed', gone: true, session: 'ended' });
  await callOk(context, 'tui_stop', { session: 'ended' });
});
