import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

function firstLine(result: Awaited<ReturnType<typeof callOk>>): string {
  return (result.structured.visual as { lines: string[] }).lines[0]!;
}

test('less: search, page forward and back, quit back to the normal screen', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-less-'));
  const file = join(directory, 'numbers.txt');
  writeFileSync(file, Array.from({ length: 300 }, (_, i) => `entry ${String(i + 1).padStart(3, '0')} ${i % 7 === 0 ? 'seventh' : 'plain'}`).join('\n'));
  await start({ command: 'less', args: [file], cwd: directory, env: { LESS: '', LESSHISTFILE: '-' } });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name^="entry 001"' });
  assert.equal((await callOk(context, 'tui_snapshot')).structured.alternateScreen, true);

  // Search: "/" opens less's prompt, the match becomes the first line.
  await callOk(context, 'tui_type', { text: '/entry 150\n' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name^="entry 150"', all: [{ stableMs: 100 }] });
  assert.match(firstLine(await callOk(context, 'tui_snapshot')), /^entry 150 /);

  // Space pages forward by one screen (23 lines of text on a 24-row terminal).
  await callOk(context, 'tui_press', { key: 'Space' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name^="entry 173"', all: [{ stableMs: 100 }] });
  assert.match(firstLine(await callOk(context, 'tui_snapshot')), /^entry 173 /);
  await callOk(context, 'tui_press', { key: 'b' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name^="entry 150"', all: [{ stableMs: 100 }] });
  assert.match(firstLine(await callOk(context, 'tui_snapshot')), /^entry 150 /);

  // G jumps to the end; less then says (END) in its status line.
  await callOk(context, 'tui_press', { key: 'G' });
  await callOk(context, 'tui_wait_for', { text: '(END)' });
  const end = await callOk(context, 'tui_snapshot');
  assert.ok(nodes(end).some((node) => node.name.startsWith('entry 300')));

  await callOk(context, 'tui_press', { key: 'q' });
  await callOk(context, 'tui_wait_for', { exited: true });
  assert.equal((await callOk(context, 'tui_snapshot')).structured.alternateScreen, false);
  await callOk(context, 'tui_stop');
});
