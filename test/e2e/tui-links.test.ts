// OSC 8 hyperlinks printed by real programs (bash's printf, ls --hyperlink) keep their address in the terminal's
// tree: each link is a `link` node named by its text with its url, in the LiveFrame, the CUP envelope and the
// visual frame. The oracle is what the same commands print when run on their own: the OSC 8 sequences in the bytes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CupNode } from '../../src/cup/index.js';
import { flattenNodes } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

/** The links in printed bytes: OSC 8 with an address, the text, OSC 8 with none; ST or BEL ends each. */
function printedLinks(bytes: string): { name: string; url: string }[] {
  const osc8 = /\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]+)(?:\x1b\\|\x07)([^\x1b]*)\x1b\]8;;(?:\x1b\\|\x07)/g;
  return [...bytes.matchAll(osc8)].map((match) => ({ name: match[2]!.trim(), url: match[1]! }));
}

test('links printed with OSC 8 are link nodes with their address; the same text with two addresses stays two links', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-links-'));
  for (const file of ['alpha.txt', 'beta.txt']) writeFileSync(join(directory, file), '');
  // Two links reading "docs" to different places, one ended with BEL as many programs do, and ls's own links.
  const commands = String.raw`printf 'see \e]8;;https://a.example/one\e\\docs\e]8;;\e\\ or \e]8;;https://b.example/two\adocs\e]8;;\a now\n'; ls --hyperlink=always`;
  const printed = execFileSync('bash', ['--norc', '--noprofile', '-c', commands], { cwd: directory, timeout: 10_000, encoding: 'utf8' });
  const expected = printedLinks(printed);
  assert.equal(expected.length, 4, `the commands print four links: ${JSON.stringify(printed)}`);

  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `${commands}; echo finished; sleep 60`], cwd: directory, session: 'links', rows: 8, cols: 60 });
  await callOk(context, 'tui_wait_for', { text: 'finished', session: 'links', timeoutMs: 10_000 });
  const snapshot = await callOk(context, 'tui_snapshot', { session: 'links', cup: true });
  const links = nodes(snapshot).filter((node) => node.role === 'link');
  assert.deepEqual(links.map(({ name, url }) => ({ name, url })), expected);

  const cup = flattenNodes([(snapshot.structured.cup as { tree: CupNode[] }).tree].flat()).filter((node) => node.role === 'link');
  assert.deepEqual(cup.map((node) => ({ name: node.name, url: node.attributes?.url })), expected);
  const compactLinks = (snapshot.body ?? '').split('\n').filter((line) => / lnk "/.test(line)).map((line) => /lnk "(.*)"$/.exec(line)?.[1]);
  assert.deepEqual(compactLinks, expected.map((link) => link.name), snapshot.body);

  const visual = snapshot.structured.visual as { links?: { url: string }[] };
  assert.deepEqual(visual.links?.map((span) => span.url), expected.map((link) => link.url));
  await callOk(context, 'tui_stop', { session: 'links' });
});
