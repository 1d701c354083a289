// The package as users get it: `npm pack`, then `npm install -g` into a fresh prefix (offline, from the npm
// cache that scripts/setup.mjs warms) and `npx`, driven through the installed bin only. The repository's
// own dist/ and node_modules are never on the path, so a file missing from "files" or a dependency that
// needs an install script shows here and nowhere else.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sessionMembers } from '../../src/tui/process-session.js';
import { waitUntil } from '../daemon/helpers.js';
import { stringEnv } from '../helpers/mcp.js';

const execFileAsync = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const offlineHint = 'the npm cache lacks a dependency; run `node scripts/setup.mjs` (it caches what an install resolves)';

async function npm(args: string[], cwd: string, timeout = 120_000): Promise<string> {
  return (await execFileAsync('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier'], { cwd, timeout, maxBuffer: 16 << 20 })).stdout;
}

async function connect(bin: string, configHome: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: bin, args: ['mcp'], env: stringEnv({ ...process.env, XDG_CONFIG_HOME: configHome }), stderr: 'ignore' });
  const client = new Client({ name: 'cup-driver-pack-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

describe('the packed package, installed offline into a fresh prefix and run through npx', () => {
  let work: string;
  let tarball: string;
  let prefix: string;
  let bin: string;
  let npxCache: string;
  const clients: Client[] = [];

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'cup-pack-'));
    const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', work], root, 60_000)) as { filename: string }[];
    tarball = join(work, packed[0]!.filename);
    prefix = join(work, 'prefix');
    await npm(['install', '--global', '--offline', '--prefix', prefix, tarball], work).catch((error: Error) => {
      throw new Error(`${offlineHint}\n${error.message}`);
    });
    bin = join(prefix, 'bin', 'cup-driver');
    npxCache = join((await npm(['config', 'get', 'cache'], work, 30_000)).trim(), '_npx');
  });

  after(async () => {
    for (const client of clients) await client.close();
    // npx installs into a folder of npm's cache named by a hash of the spec; ours names this run's tarball.
    for (const dir of existsSync(npxCache) ? readdirSync(npxCache) : []) {
      const manifest = join(npxCache, dir, 'package.json');
      if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(work)) rmSync(join(npxCache, dir), { recursive: true, force: true });
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the install ran no install script: node-pty comes prebuilt', async () => {
    const modules = join(prefix, 'lib', 'node_modules', 'cup-driver', 'node_modules');
    assert.ok(existsSync(join(modules, '@lydell', `node-pty-${process.platform}-${process.arch}`, 'pty.node')), 'the prebuilt binary package is installed');
    assert.ok(!existsSync(join(modules, 'node-pty')), 'no node-pty that would need node-gyp');
  });

  test('cup-driver --version and tools, from the installed bin', async () => {
    assert.equal((await execFileAsync(bin, ['--version'], { timeout: 30_000 })).stdout, `${version}\n`);
    const { stdout } = await execFileAsync(bin, ['tools'], { cwd: work, timeout: 30_000 });
    for (const name of ['list_windows', 'get_window_state', 'click', 'tui_start', 'tui_stop']) assert.match(stdout, new RegExp(`^${name}\\(`, 'm'));
  });

  test('npx: npm exec of the tarball runs the same bin offline', async () => {
    const { stdout } = await execFileAsync('npm', ['exec', '--offline', '--yes', `--package=${tarball}`, '--', 'cup-driver', '--version'], { cwd: work, timeout: 120_000 });
    assert.equal(stdout, `${version}\n`);
  });

  test('MCP over stdio: initialize, tools/list, and a tui_start of bash that runs a command', async () => {
    const client = await connect(bin, join(work, 'config'));
    clients.push(client);
    assert.deepEqual(client.getServerVersion(), { name: 'cup-driver', version });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of ['get_window_state', 'click', 'tui_start', 'tui_type', 'tui_stop']) assert.ok(names.includes(name), `${name} is listed`);

    const started = await call(client, 'tui_start', { command: 'bash', args: ['--norc', '--noprofile'], env: { PS1: '$ ' } });
    assert.ok(!started.isError, text(started));
    const pid = (started.structuredContent as { pid: number }).pid;
    assert.ok(!(await call(client, 'tui_type', { text: 'echo packed-$((40 + 2))\n' })).isError);
    const waited = await call(client, 'tui_wait_for', { selector: 'role=text name=packed-42' });
    assert.ok(!waited.isError, text(waited));
    assert.ok(!(await call(client, 'tui_stop')).isError);
    await waitUntil(`session ${pid} left no processes behind`, 5000, () => sessionMembers(pid).length === 0);
  });

  test('without the native part, tui_start says terminal_unavailable and the rest still starts', async () => {
    // As after `npm install --omit=optional`: the prebuilt binary package is absent.
    rmSync(join(prefix, 'lib', 'node_modules', 'cup-driver', 'node_modules', '@lydell', `node-pty-${process.platform}-${process.arch}`), { recursive: true });
    const { stdout } = await execFileAsync(bin, ['tools'], { cwd: work, timeout: 30_000 });
    assert.match(stdout, /^tui_start\(/m);

    const client = await connect(bin, join(work, 'config'));
    clients.push(client);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'get_window_state'));
    const refused = await call(client, 'tui_start', { command: 'bash' });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { error: string }).error, 'terminal_unavailable');
    assert.match(text(refused), /--omit=optional/);
  });
});
