// cmus's library view: an artist window and a track window split by an edge under the screen's title bar, each
// with its current row lit. The artist window has no status line of its own, and its lit first row read as the
// window's title ("Alpha", a status line), so focus fell on the other window's current track. The judge is cmus's
// own selection: `run cp -t DIR` (through cmus-remote) copies the files selected in the window that has the keys.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();
const session = 'cmus';

/** A second of silence as a WAV file whose RIFF INFO chunk names its artist, album and title (cmus reads them). */
function taggedWav(artist: string, title: string): Buffer {
  const chunk = (tag: string, data: Buffer) => {
    // Padded to an even length, the size counting the pad: cmus reads the next tag from where the size says.
    const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
    const head = Buffer.alloc(8);
    head.write(tag, 0, 'latin1');
    head.writeUInt32LE(padded.length, 4);
    return Buffer.concat([head, padded]);
  };
  const text = (value: string) => Buffer.from(`${value}\0`, 'latin1');
  const rate = 8000;
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0);
  format.writeUInt16LE(1, 2);
  format.writeUInt32LE(rate, 4);
  format.writeUInt32LE(rate * 2, 8);
  format.writeUInt16LE(2, 12);
  format.writeUInt16LE(16, 14);
  const info = Buffer.concat([Buffer.from('INFO'), chunk('IART', text(artist)), chunk('IPRD', text(`${artist} Album`)), chunk('INAM', text(title))]);
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', format), chunk('LIST', info), chunk('data', Buffer.alloc(rate * 2))]);
  return chunk('RIFF', body);
}

async function focused(): Promise<UINode> {
  const all = nodes(await callOk(context, 'tui_snapshot', { session }));
  const focus = all.filter((node) => node.focused);
  assert.equal(focus.length, 1, JSON.stringify(all.map((node) => [node.role, node.name, node.focused])));
  return focus[0]!;
}

test('cmus: of two windows side by side, the one whose current row the hidden cursor is on has the focus, its lit first row an item', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-cmus-'));
  const music = join(directory, 'music');
  mkdirSync(music);
  for (const artist of ['Alpha', 'Beta', 'Gamma']) {
    for (const n of [1, 2]) writeFileSync(join(music, `${artist}-${n}.wav`), taggedWav(artist, `${artist} song ${n}`));
  }
  // Audio to libao's null device and no MPRIS, so cmus starts without an error to acknowledge, on any machine.
  mkdirSync(join(directory, 'config', 'cmus'), { recursive: true });
  writeFileSync(join(directory, 'config', 'cmus', 'rc'), 'set output_plugin=ao\nset dsp.ao.driver=null\nset mpris=false\n');
  const socket = join(directory, 'cmus.sock');
  await start({
    command: 'bash',
    args: ['--norc', '--noprofile', '-c', `exec cmus --listen ${socket}`],
    cwd: directory,
    env: { HOME: directory, XDG_CONFIG_HOME: join(directory, 'config') },
    cols: 100,
    rows: 30,
    session,
  });
  await callOk(context, 'tui_wait_for', { text: 'Artist / Album', session });
  await callOk(context, 'tui_type', { text: `:add ${music}\n`, session });
  await callOk(context, 'tui_wait_for', { text: 'Gamma', all: [{ text: 'Alpha Album' }, { stableMs: 300 }], session });
  const artist = await focused();
  assert.deepEqual([artist.role, artist.name], ['listitem', 'Alpha']);

  await callOk(context, 'tui_press', { key: 'Down', session });
  await callOk(context, 'tui_wait_for', { text: 'Beta Album', all: [{ stableMs: 300 }], session });
  assert.equal((await focused()).name, 'Beta');
  // cmus's account: the window with the keys holds Beta's two tracks, which it asks to copy.
  const byArtist = join(directory, 'by-artist');
  mkdirSync(byArtist);
  const copied = promisify(execFile)('cmus-remote', ['--server', socket, '-C', `run cp -t ${byArtist}`]);
  await callOk(context, 'tui_wait_for', { text: 'for the 2 selected files? [y/N]', session });
  await callOk(context, 'tui_press', { key: 'y', session });
  await copied;
  assert.deepEqual(readdirSync(byArtist).sort(), ['Beta-1.wav', 'Beta-2.wav']);

  // Tab gives the track window the keys: its current track has the focus, and is the one file cmus copies.
  await callOk(context, 'tui_wait_for', { text: 'for the 2 selected files', gone: true, session });
  await callOk(context, 'tui_press', { key: 'Tab', session });
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem focus name~="Beta song"', all: [{ stableMs: 300 }], session });
  const track = await focused();
  const byTrack = join(directory, 'by-track');
  mkdirSync(byTrack);
  await promisify(execFile)('cmus-remote', ['--server', socket, '-C', `run cp -t ${byTrack}`]);
  const files = readdirSync(byTrack);
  assert.equal(files.length, 1);
  // The row reads ". Beta song 1  00:01" (no track number, the length after it).
  assert.equal(/Beta song (\d)/.exec(track.name)?.[1], /^Beta-(\d)\.wav$/.exec(files[0]!)?.[1], `${track.name} is ${files[0]}`);
  await callOk(context, 'tui_stop', { session });
});
