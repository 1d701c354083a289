// Boxes whose titles are framed with corner glyphs of their own ("╭─┐¹cpu┌──╮", btop): the box closes at
// its own corner further along the row, not at the title's.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('btop: each box of the screen is a panel at its corner, titled by the first framed word of its top border', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-btop-'));
  // A fresh HOME: btop's default layout, no configuration of the machine's.
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec btop'], cwd: home, env: { HOME: home, LANG: 'C.UTF-8' }, cols: 120, rows: 40, session: 'btop' });
  await callOk(context, 'tui_wait_for', { text: 'proc┌', timeoutMs: 10_000, session: 'btop' });
  await callOk(context, 'tui_wait_for', { text: 'net┌', session: 'btop' });
  // The oracle: the raw screen lines, where each box starts with "╭─┐" and its title runs to the next "┌". btop
  // redraws its boxes as it likes (a loaded CI machine saw its mem box's title gone between the two reads): the
  // snapshot is judged by the lines read just before it when the lines read just after it are the same...
  const rendered = async () => (await callOk(context, 'tui_render_text', { session: 'btop' })).structured.lines as string[];
  let lines: string[] = [];
  let panels: [string, number, number][] = [];
  for (let attempt = 0; attempt < 10; attempt++) {
    // Each read starts on a screen still for 300 ms (btop redraws every 2 s): two reads a few ms apart agreed once
    // under load with the mem box's title on the screen and no mem panel in the snapshot, likely amid a redraw.
    await callOk(context, 'tui_wait_for', { stableMs: 300, session: 'btop' });
    lines = await rendered();
    panels = nodes(await callOk(context, 'tui_snapshot', { session: 'btop' }))
      .filter((node) => node.heuristic === 'box-drawing')
      .map((node): [string, number, number] => [node.name, node.bounds!.x, node.bounds!.y]);
    // ...and whole: under load btop was seen between redraws with its proc box's title not drawn yet.
    if ((await rendered()).join('\n') === lines.join('\n') && lines.some((line) => line.includes('proc┌'))) break;
    await sleep(200);
  }
  const expected: [string, number, number][] = [];
  lines.forEach((line, y) => {
    for (const match of line.matchAll(/╭─┐([^┌]+)┌/g)) expected.push([match[1]!, [...line.slice(0, match.index)].length, y]);
  });
  assert.ok(expected.some(([title]) => title.includes('proc')), `btop drew its proc box: ${lines.join('\n')}`);
  assert.deepEqual(panels.sort(), expected.sort(), lines.join('\n'));
  await callOk(context, 'tui_stop', { session: 'btop' });
});
