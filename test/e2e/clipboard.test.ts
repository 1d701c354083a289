import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runCli, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { XReaders } from '../helpers/x-readers.js';

/** Texts whose bytes must survive exactly: emoji (astral, ZWJ sequences, flags), CJK, combining marks, RTL, controls. */
const samples = [
  'plain ASCII',
  'héllo wörld ñ ß',
  'emoji 👋🏽 👨‍👩‍👧 🇫🇷 🧪',
  '中文 日本語 한국어',
  'e\u0301 a\u0308 n\u0303 (combining marks)',
  'שלום مرحبا',
  'tabs\tand\nnew lines\r\nand a trailing newline\n',
];

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

describe('the clipboard over MCP and the CLI, judged by xclip', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;
  let x: XReaders;
  let client: Client;
  let window: ClientWindow;
  let oracle: PyatspiOracle;

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-clipboard-')) });
    x = new XReaders(env);
    ({ client } = await connectMcp(env, ['mcp']));
    window = (await desktop.launchFixture('gtk3', { title: 'Clipboard Fixture' })).window;
    oracle = new PyatspiOracle(desktop.env());
  });

  after(async () => {
    await client?.close();
    oracle?.close();
    if (env) await stopDaemon(env);
    // The keepers this file's calls left behind (each ends on its own; the desktop is going away).
    for (const pid of x?.clipboardKeepers() ?? []) process.kill(pid, 'SIGTERM');
    await desktop?.stop();
  });

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  test('nobody owns the clipboard of a fresh desktop: clipboard_read says it is empty', async () => {
    assert.equal(await x.clipboardBytes(), undefined, 'xclip finds nothing either');
    const result = await call('clipboard_read');
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: string }).error, 'clipboard_empty');
    assert.match(text(result), /no application owns it/);
  });

  test('clipboard_write (CLI, through the daemon) puts each text on the clipboard byte for byte, as xclip -o reads it', async () => {
    for (const sample of samples) {
      const run = await runCli(['call', 'clipboard_write', JSON.stringify({ text: sample }), '--json'], env);
      assert.equal(run.status, 0, run.stderr);
      const structured = JSON.parse(run.stdout).structuredContent as { chars: number; bytes: number; targets: string[] };
      assert.equal(structured.chars, [...sample].length);
      assert.ok(structured.targets.includes('UTF8_STRING'));
      assert.deepEqual(await x.clipboardBytes('UTF8_STRING'), Buffer.from(sample, 'utf8'), JSON.stringify(sample));
    }
    // A Latin-1 text is offered as STRING too, in Latin-1 bytes; a text beyond Latin-1 is not offered as STRING at all.
    await runCli(['call', 'clipboard_write', JSON.stringify({ text: 'café' })], env);
    assert.deepEqual(await x.clipboardBytes('STRING'), Buffer.from('café', 'latin1'));
    await runCli(['call', 'clipboard_write', JSON.stringify({ text: 'café ☕' })], env);
    assert.equal(await x.clipboardBytes('STRING'), undefined, 'no lossy STRING form');
  });

  test('clipboard_read (MCP) returns exactly what xclip -i put there', async () => {
    for (const sample of samples) {
      const owner = await x.ownClipboard(Buffer.from(sample, 'utf8'));
      try {
        const result = await call('clipboard_read');
        assert.ok(!result.isError, text(result));
        const structured = result.structuredContent as { text: string; chars: number; target: string; targets: string[] };
        assert.equal(structured.text, sample);
        assert.equal(structured.chars, [...sample].length);
        assert.equal(structured.target, 'UTF8_STRING');
        assert.ok(structured.targets.includes('UTF8_STRING'));
      } finally {
        owner.stop();
      }
    }
  });

  test('a 3 MB text goes both ways (INCR transfers in chunks): driver to xclip, and xclip to the driver', async () => {
    const big = `${'0123456789abcdef🙂'.repeat(3 * 1024 * 1024 / 20)}end`;
    const written = await call('clipboard_write', { text: big });
    assert.ok(!written.isError, text(written));
    assert.deepEqual(await x.clipboardBytes('UTF8_STRING'), Buffer.from(big, 'utf8'));
    const owner = await x.ownClipboard(Buffer.from(`${big}!`, 'utf8'));
    try {
      const read = await call('clipboard_read');
      assert.ok(!read.isError, text(read));
      assert.equal((read.structuredContent as { text: string }).text, `${big}!`);
    } finally {
      owner.stop();
    }
  });

  test('an image copied as image/png reads back as that PNG image (same pixels), and a text read says only an image is offered', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 90 } } })
      .composite([{ input: { create: { width: 16, height: 16, channels: 3, background: { r: 0, g: 255, b: 0 } } }, left: 8, top: 8 }])
      .png()
      .toBuffer();
    const owner = await x.ownClipboard(png, 'image/png');
    try {
      const result = await call('clipboard_read', { format: 'image/png' });
      assert.ok(!result.isError, text(result));
      const image = result.content.find((item) => item.type === 'image') as { data: string; mimeType: string };
      assert.equal(image.mimeType, 'image/png');
      const got = Buffer.from(image.data, 'base64');
      assert.deepEqual(got, png, 'the PNG bytes, unchanged');
      const pixels = await sharp(got).raw().toBuffer({ resolveWithObject: true });
      assert.equal(pixels.info.width, 64);
      const at = (10 * 64 + 10) * pixels.info.channels;
      assert.deepEqual([...pixels.data.subarray(at, at + 3)], [0, 255, 0], 'the green square is where it was drawn');
      assert.deepEqual(result.structuredContent, { format: 'image/png', width: 64, height: 48, bytes: png.length, target: 'image/png', targets: ['TARGETS', 'image/png'] });
      const asText = await call('clipboard_read');
      assert.equal(asText.isError, true);
      assert.match(text(asText), /\[clipboard_empty\].*offers no text; it offers: image\/png/);
    } finally {
      owner.stop();
    }
  });

  test('text written by a one-shot CLI call (no daemon) stays pasteable after the process exited: Ctrl+V pastes it into a GTK entry', async () => {
    const sample = 'pasted ✓ 日本 👍🏾 e\u0301';
    const run = await runCli(['call', 'clipboard_write', JSON.stringify({ text: sample }), '--no-daemon'], env);
    assert.equal(run.status, 0, run.stderr);
    const keepers = x.clipboardKeepers();
    assert.equal(keepers.length, 1, 'a keeper holds the clipboard for the exited call');
    assert.deepEqual(await x.clipboardBytes('UTF8_STRING'), Buffer.from(sample, 'utf8'));

    await oracle.setText(window.pid, window.title, 'text', 'Name field', '');
    const state = await call('find_elements', { pid: window.pid, window_id: window.id, selector: 'name="Name field"' });
    const field = (state.structuredContent as { matches: { index: number }[] }).matches[0]!;
    const pasted = await call('hotkey', { window_id: window.id, element_index: field.index, keys: ['ctrl', 'v'], delivery_mode: 'foreground' });
    assert.ok(!pasted.isError, text(pasted));
    await waitUntil('the entry shows the pasted text', 5000, async () => (await oracle.find(window.pid, window.title, 'text', 'Name field')).text === sample);

    // Another app copying ends the keeper: it never outlives its purpose.
    const owner = await x.ownClipboard(Buffer.from('someone else'));
    try {
      await waitUntil('the keeper exits once it lost the clipboard', 5000, () => x.clipboardKeepers().length === 0);
    } finally {
      owner.stop();
    }
  });

  test('a keeper also ends after clipboard_keep_s, and the clipboard is then empty', async () => {
    const set = await runCli(['call', 'set_config', '{"clipboard_keep_s": 2}', '--no-daemon'], env);
    assert.equal(set.status, 0, set.stderr);
    const run = await runCli(['call', 'clipboard_write', '{"text": "short-lived"}', '--no-daemon'], env);
    assert.equal(run.status, 0, run.stderr);
    // The keeper started as the call's process exited, a moment before runCli returned.
    const started = Date.now();
    assert.equal(x.clipboardKeepers().length, 1);
    assert.equal((await x.clipboardBytes())?.toString(), 'short-lived');
    await waitUntil('the keeper exits after its 2 s', 10_000, () => x.clipboardKeepers().length === 0);
    const lived = Date.now() - started;
    assert.ok(lived >= 1000, `the keeper lived about ${lived} ms after the call returned, not its 2 s`);
    assert.equal(await x.clipboardBytes(), undefined, 'nobody owns the clipboard any more');
    await runCli(['call', 'set_config', '{"clipboard_keep_s": 1800}', '--no-daemon'], env);
  });
});
