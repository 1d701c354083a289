// OSC 8 hyperlinks: the address lives in the cells, not in the text, so it must survive from the emulator to the
// grid, through the visual frame (how screens are recorded) and into the tree as link nodes with their url.
// The oracle is the bytes written: each link's text and address as the program sent them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCompact } from '../../src/cup/compact.js';
import { TerminalEmulator } from '../../src/tui/emulator.js';
import { buildStructure, LINK_HEURISTIC } from '../../src/tui/structure/index.js';
import { terminalEnvelope } from '../../src/tui/to-cup.js';
import { flattenNodes } from '../../src/tui/ui-node.js';
import { gridFromVisualFrame, toVisualFrame } from '../../src/tui/visual-frame.js';

const link = (url: string, text: string) => `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;

async function screenOf(bytes: string, cols = 40, rows = 6) {
  const emulator = new TerminalEmulator(cols, rows, 0, { reply() {}, parsed() {}, bell() {}, title() {} });
  emulator.write(bytes);
  await emulator.flushed();
  const grid = emulator.readGrid();
  emulator.dispose();
  return grid;
}

test('two links with the same text and different addresses stay two links, each with its own url', async () => {
  const written = [
    { text: 'docs', url: 'https://a.example/one' },
    { text: 'docs', url: 'https://b.example/two' },
  ];
  const grid = await screenOf(`see ${link(written[0]!.url, written[0]!.text)} or ${link(written[1]!.url, written[1]!.text)} now\r\n`);
  // Through the recorded form and back, as recorded screens are read.
  const frame = toVisualFrame(grid);
  assert.deepEqual(frame.links, [
    { row: 0, col: 4, len: 4, url: written[0]!.url },
    { row: 0, col: 12, len: 4, url: written[1]!.url },
  ]);
  for (const source of [grid, gridFromVisualFrame(frame)]) {
    const { nodes } = buildStructure(source, { title: 'links' });
    const links = flattenNodes(nodes).filter((node) => node.role === 'link');
    assert.deepEqual(links.map(({ name, url }) => ({ text: name, url })), written);
    assert.ok(links.every((node) => node.heuristic === LINK_HEURISTIC && node.from === 'attributes'));
    // The sentence around them still reads whole.
    assert.ok(flattenNodes(nodes).some((node) => node.role === 'text' && node.name === 'see docs or docs now'));
    const envelope = terminalEnvelope({ nodes, cols: source.cols, rows: source.rows, command: 'links', pid: 0 });
    const cupLinks = flattenNodes(envelope.tree).filter((node) => node.role === 'link');
    assert.deepEqual(cupLinks.map((node) => node.attributes?.url), written.map((entry) => entry.url));
    assert.equal(toCompact(envelope, { windowList: [] }).split('\n').filter((line) => /^\s*\[e\d+\] lnk "docs"$/.test(line)).length, 2);
  }
});

test('a link that is a whole run of text becomes that node; padding, wrapping and plain text stay out of it', async () => {
  const url = 'file:///tmp/some/long/name';
  // 25 linked cells on a 20-column screen wrap onto a second row; the plain word after stays plain.
  const grid = await screenOf(`${link(url, 'abcdefghijklmnopqrstuvwxy')} plain\r\n${link('https://c.example', ' padded ')}\r\n`, 20);
  const frame = toVisualFrame(grid);
  assert.deepEqual(frame.links, [
    { row: 0, col: 0, len: 20, url },
    { row: 1, col: 0, len: 5, url },
    { row: 2, col: 0, len: 8, url: 'https://c.example' },
  ]);
  const all = flattenNodes(buildStructure(gridFromVisualFrame(frame), { title: 'wrap' }).nodes);
  const links = all.filter((node) => node.role === 'link');
  assert.deepEqual(
    links.map(({ name, url: address, bounds }) => ({ name, url: address, bounds })),
    [
      { name: 'abcdefghijklmnopqrst', url, bounds: { x: 0, y: 0, w: 20, h: 1 } },
      { name: 'uvwxy', url, bounds: { x: 0, y: 1, w: 5, h: 1 } },
      { name: 'padded', url: 'https://c.example', bounds: { x: 1, y: 2, w: 6, h: 1 } },
    ],
  );
  // The line the terminal wrapped is one text over both rows, holding the link's two runs.
  const line = all.find((node) => node.role === 'text' && node.name === 'abcdefghijklmnopqrstuvwxy plain');
  assert.deepEqual(line?.bounds, { x: 0, y: 0, w: 20, h: 2 });
  assert.ok(!all.some((node) => node.role === 'text' && node.name === 'padded'), 'the run that is the link is not also a text node');
});

test('a screen recorded before links were kept reads as before: no links field, no link nodes', async () => {
  const grid = await screenOf('\x1b[4mjust underlined\x1b[0m\r\n');
  const frame = toVisualFrame(grid);
  assert.equal(frame.links, undefined);
  assert.ok(!flattenNodes(buildStructure(gridFromVisualFrame(frame), { title: 'plain' }).nodes).some((node) => node.role === 'link'));
});

test('two links side by side with one address are two links, also after a recorded round trip', async () => {
  const grid = await screenOf(`${link('https://x.example', 'ab')}${link('https://x.example', 'cd')}\r\n`);
  const frame = toVisualFrame(grid);
  assert.deepEqual(frame.links, [
    { row: 0, col: 0, len: 2, url: 'https://x.example' },
    { row: 0, col: 2, len: 2, url: 'https://x.example' },
  ]);
  const links = flattenNodes(buildStructure(gridFromVisualFrame(frame), { title: 'adjacent' }).nodes).filter((node) => node.role === 'link');
  assert.deepEqual(links.map((node) => node.name), ['ab', 'cd']);
});
