import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { stopDaemon } from '../daemon/helpers.js';
import { cliPath, repositoryRoot, TestDesktop } from '../helpers/desktop.js';

const goldenDir = join(repositoryRoot, 'test', 'fixtures', 'cup');

describe('the cup-driver command line', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let env: NodeJS.ProcessEnv;

  function cli(args: string[], input?: string) {
    const result = spawnSync(process.execPath, [cliPath, ...args], { env, input, encoding: 'utf8', timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
  });

  after(async () => {
    // `call` goes through a daemon started on demand; stop it with the desktop.
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  test('a reader that closes the pipe early (| head) ends the output quietly, not in a crash', async () => {
    const child = spawn(process.execPath, [cliPath, 'tools', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Error/);
  });

  test('call prints the summary and body; images go to files whose paths are printed; exit 0', async () => {
    const imageDir = mkdtempSync(join(tmpdir(), 'cup-images-'));
    let run = cli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id }), '--image-dir', imageDir]);
    const deadline = Date.now() + 15_000;
    while (/degraded/.test(run.stdout.split('\n')[0] ?? '') && Date.now() < deadline) {
      await sleep(200);
      run = cli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id }), '--image-dir', imageDir]);
    }
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^✅ "CUP Fixture GTK3"/);
    assert.match(run.stdout, /btn "Increment"/);
    const imageLine = /^image: (.+\.png)$/m.exec(run.stdout);
    assert.ok(imageLine, run.stdout);
    assert.ok(imageLine[1]!.startsWith(imageDir));
    const metadata = await sharp(readFileSync(imageLine[1]!)).metadata();
    assert.equal(metadata.width, window.bounds.width);
  });

  test('screenshot_out_file writes the PNG where asked', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cup-shot-')), 'nested', 'shot.png');
    const run = cli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id, screenshot_out_file: path })]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(existsSync(path));
    assert.ok(run.stdout.includes(`written to ${path}`));
  });

  test('--json prints the whole result as JSON', () => {
    const run = cli(['call', 'list_windows', '{}', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const parsed = JSON.parse(run.stdout) as { isError: boolean; structuredContent: { windows: { window_id: number }[] } };
    assert.equal(parsed.isError, false);
    assert.ok(parsed.structuredContent.windows.some((record) => record.window_id === window.id));
  });

  test('unknown tool, bad JSON and invalid arguments exit 2 with one line naming the problem', () => {
    const unknown = cli(['call', 'no_such_tool', '{}']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown tool "no_such_tool"; available tools: list_apps, list_windows/);
    const badJson = cli(['call', 'list_windows', '{pid:']);
    assert.equal(badJson.status, 2);
    assert.match(badJson.stderr, /not valid JSON/);
    const invalid = cli(['call', 'get_window_state', '{"pid": 1, "window_id": "abc", "colour": 1}']);
    assert.equal(invalid.status, 2);
    assert.equal(invalid.stderr.trim().split('\n').length, 1);
    assert.match(invalid.stderr, /window_id: expected an integer, got string "abc"/);
    assert.match(invalid.stderr, /unknown field "colour" \(valid fields: pid, window_id/);
    const missing = cli(['call', 'zoom', '{"window_id": 1}']);
    assert.match(missing.stderr, /x1: required, expected a number/);
  });

  test('a tool error exits 1', () => {
    const run = cli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: 424242 })]);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /no top-level window with window_id 424242/);
  });

  test('an action that was not delivered exits 3, its result printed on stdout as any other', () => {
    // A click with a held modifier needs real input: in the background nothing is sent.
    const run = cli(['call', 'click', JSON.stringify({ window_id: window.id, x: 5, y: 5, modifier: ['ctrl'] })]);
    assert.equal(run.status, 3, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /click \(5,5\) in window \d+: not delivered/);
    assert.match(run.stdout, /next: foreground: a click with held modifier keys needs real input; nothing was sent/);
    const json = cli(['call', 'click', JSON.stringify({ window_id: window.id, x: 5, y: 5, modifier: ['ctrl'] }), '--json']);
    assert.equal(json.status, 3, json.stderr);
    const result = JSON.parse(json.stdout) as { isError: boolean; structuredContent: { path: string } };
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent.path, 'none');
  });

  test('set_config from one call is seen by the next call (persisted atomically)', () => {
    assert.equal(cli(['call', 'set_config', '{"max_image_dimension": 640}']).status, 0);
    const next = cli(['call', 'get_config']);
    assert.match(next.stdout, /max_image_dimension=640/);
    assert.equal(cli(['call', 'set_config', '{"max_image_dimension": -1}']).status, 2);
  });

  test('tools --json lists every tool with its input schema', () => {
    const run = cli(['tools', '--json']);
    assert.equal(run.status, 0);
    const list = JSON.parse(run.stdout) as { name: string; inputSchema: { type: string } }[];
    assert.ok(list.length >= 9);
    for (const tool of list) assert.equal(tool.inputSchema.type, 'object');
  });

  test('cup compact and cup validate work on an envelope from stdin', () => {
    const example = readFileSync(join(goldenDir, 'example.json'), 'utf8');
    assert.equal(cli(['cup', 'compact'], example).stdout, readFileSync(join(goldenDir, 'example.compact.txt'), 'utf8'));
    assert.equal(cli(['cup', 'compact', '--detail', 'full'], example).stdout, readFileSync(join(goldenDir, 'example.full.txt'), 'utf8'));
    const valid = cli(['cup', 'validate'], example);
    assert.equal(valid.status, 0);
    const broken = JSON.parse(example) as { tree: { role: string }[] };
    broken.tree[0]!.role = 'buton';
    const invalid = cli(['cup', 'validate'], JSON.stringify(broken));
    assert.equal(invalid.status, 1);
    assert.match(invalid.stdout, /\/tree\/0\/role: must be equal to one of the allowed values/);
    assert.equal(cli(['cup', 'compact', '--detail', 'huge'], example).status, 2);
  });

  test('usage errors exit 2; --help exits 0', () => {
    assert.equal(cli(['frobnicate']).status, 2);
    assert.equal(cli(['--help']).status, 0);
    assert.equal(cli(['desktop', 'start', '--display', 'x']).status, 2);
  });
});
