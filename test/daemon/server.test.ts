import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { DaemonConnection } from '../../src/server/daemon/connection.js';
import { maxRequestBytes } from '../../src/server/daemon/protocol.js';
import { DaemonAlreadyRunningError, DaemonServer } from '../../src/server/daemon/server.js';
import { createSharedResources } from '../../src/server/session.js';
import { defaultConfig } from '../../src/tools/state/config-store.js';

/** A raw client that writes bytes as given and collects response lines, to test framing from the outside. */
class RawClient {
  private buffer = '';
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let newline;
      while ((newline = this.buffer.indexOf('\n')) !== -1) {
        this.lines.push(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(path: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** The next `count` responses, parsed; fails the test after 5 s. */
  async responses(count: number): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + 5000;
    while (this.lines.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.lines.length} of ${count} responses arrived`);
      await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), sleep(100)]);
    }
    return this.lines.splice(0, count).map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  close(): void {
    this.socket.destroy();
  }
}

function quietOptions(socketPath: string, extra: Partial<Parameters<typeof DaemonServer.start>[0]> = {}) {
  return { socketPath, idleTimeoutMs: 0, shared: createSharedResources({ log: () => {} }), log: () => {}, ...extra };
}

describe('the daemon server (real socket, real registry)', () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-daemon-unit-'));
  const configHome = join(home, 'config');
  const socketPath = join(home, 'run', 'd.sock');
  let daemon: DaemonServer;

  before(async () => {
    process.env.XDG_RUNTIME_DIR = join(home, 'run');
    process.env.XDG_CONFIG_HOME = configHome;
    daemon = await DaemonServer.start(quietOptions(socketPath));
  });

  after(async () => {
    await daemon?.stop('test finished');
    rmSync(home, { recursive: true, force: true });
  });

  test('the socket is 0600 in a 0700 directory', () => {
    assert.ok(lstatSync(socketPath).isSocket());
    assert.equal(lstatSync(socketPath).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, 'run')).mode & 0o777, 0o700);
  });

  test('requests split across writes and merged into one write are all answered, by id', async () => {
    const client = await RawClient.open(socketPath);
    try {
      client.socket.write('{"id": 1, "op": "pi');
      await sleep(30);
      client.socket.write('ng"}\n{"id": "two", "tool": "get_config", "origin": "cli", "session": "framing"}\n{"id": 3, "op": "status"}\n');
      const responses = await client.responses(3);
      const byId = new Map(responses.map((response) => [response.id, response]));
      assert.equal((byId.get(1)!.structured as { pid: number }).pid, process.pid);
      assert.match(String(byId.get('two')!.summary), /^✅ max_image_dimension=1568 /);
      assert.equal(byId.get(3)!.ok, true);
    } finally {
      client.close();
    }
  });

  test('bad JSON, an oversize line and an unknown op get clear errors, and the connection keeps working', async () => {
    const client = await RawClient.open(socketPath);
    try {
      client.socket.write('{"id": 1, "op": \n');
      client.socket.write(`{"id": 2, "tool": "get_config", "origin": "cli", "arguments": {"pad": "${'x'.repeat(maxRequestBytes + 1024)}"}}\n`);
      client.socket.write('{"id": 3, "op": "reboot"}\n');
      client.socket.write('{"id": 4, "tool": "no_such_tool", "origin": "cli"}\n');
      client.socket.write('{"id": 5, "op": "ping"}\n');
      const responses = await client.responses(5);
      // Errors about unreadable lines carry no id and come in the order of the lines; the rest pair by id.
      const [badJson, oversize] = responses.filter((response) => response.id === null);
      const byId = new Map(responses.map((response) => [response.id, response]));
      const [unknownOp, unknownTool, ping] = [byId.get(3), byId.get(4), byId.get(5)];
      assert.deepEqual([badJson!.id, badJson!.ok, badJson!.failure], [null, false, 'usage']);
      assert.match(String(badJson!.summary), /^bad request: not valid JSON .*; send one JSON object per line$/);
      assert.equal(oversize!.id, null);
      assert.match(String(oversize!.summary), new RegExp(`a request line is over ${maxRequestBytes} bytes`));
      assert.equal(unknownOp!.id, 3);
      assert.match(String(unknownOp!.summary), /unknown op "reboot"; valid ops: call, cancel, ping, status, shutdown/);
      assert.equal(unknownTool!.failure, 'usage');
      assert.match(String(unknownTool!.summary), /unknown tool "no_such_tool"; available tools: /);
      assert.equal(ping!.ok, true);
    } finally {
      client.close();
    }
  });

  test('session state outlives connections: each named session keeps its own config, in memory only', async () => {
    const first = await DaemonConnection.open(socketPath, 2000);
    const setting = await first.request({ op: 'call', tool: 'set_config', arguments: { max_image_dimension: 500 }, session: 's1', origin: 'cli' }, 5000, 'set_config');
    first.close();
    assert.match(String(setting.summary), /^✅ max_image_dimension=500 .*\(for session "s1"\)$/);
    const second = await DaemonConnection.open(socketPath, 2000);
    try {
      const get = (session?: string) =>
        second.request({ op: 'call', tool: 'get_config', arguments: {}, origin: 'cli', ...(session ? { session } : {}) }, 5000, 'get_config');
      assert.deepEqual((await get('s1')).structured, { ...defaultConfig, max_image_dimension: 500 });
      assert.deepEqual((await get('s2')).structured, defaultConfig);
      assert.deepEqual((await get()).structured, defaultConfig);
      assert.equal(existsSync(join(configHome, 'cup-driver', 'config.json')), false, 'a named session persists nothing');
      const status = await second.request({ op: 'status' }, 5000, 'status');
      const ids = (status.structured.sessions as { id: string }[]).map((session) => session.id);
      for (const id of ['s1', 's2', '(anonymous cli)']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    } finally {
      second.close();
    }
  });

  test("the anonymous CLI session writes the global default and follows the file when another process changes it", async () => {
    const connection = await DaemonConnection.open(socketPath, 2000);
    const call = (tool: string, args: Record<string, unknown> = {}) => connection.request({ op: 'call', tool, arguments: args, origin: 'cli' }, 5000, tool);
    try {
      await call('set_config', { max_image_dimension: 640 });
      const file = join(configHome, 'cup-driver', 'config.json');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { ...defaultConfig, max_image_dimension: 640 });
      assert.equal(statSync(file).mode & 0o777, 0o600);
      // As `call --no-daemon set_config` would: another process replaces the file.
      writeFileSync(`${file}.new`, '{"max_image_dimension": 800}\n');
      renameSync(`${file}.new`, file);
      assert.deepEqual((await call('get_config')).structured, { ...defaultConfig, max_image_dimension: 800 });
      rmSync(file);
      assert.deepEqual((await call('get_config')).structured, defaultConfig, 'no file: the built-in default');
    } finally {
      connection.close();
    }
  });

  test('a second daemon on a live socket refuses to take it over', async () => {
    await assert.rejects(DaemonServer.start(quietOptions(socketPath)), (error: unknown) => {
      assert.ok(error instanceof DaemonAlreadyRunningError);
      assert.match(error.message, new RegExp(`a cup-driver daemon \\(pid ${process.pid}\\) already serves ${socketPath}`));
      return true;
    });
    const ping = await DaemonConnection.open(socketPath, 2000);
    assert.equal((await ping.request({ op: 'ping' }, 2000, 'ping')).ok, true, 'the first daemon still serves');
    ping.close();
  });
});

describe('daemon lifetime', () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-daemon-life-'));
  before(() => {
    process.env.XDG_RUNTIME_DIR = home;
    process.env.XDG_CONFIG_HOME = home;
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  test('a stale socket (its process was SIGKILLed) is replaced; a file that is not a socket is refused', async () => {
    const path = join(home, 'stale.sock');
    const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => holder.stdout!.once('data', resolve));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.ok(lstatSync(path).isSocket(), 'the dead process left its socket file');
    const daemon = await DaemonServer.start(quietOptions(path));
    const connection = await DaemonConnection.open(path, 2000);
    assert.equal((await connection.request({ op: 'ping' }, 2000, 'ping')).structured.pid, process.pid);
    connection.close();
    await daemon.stop('test');

    const plain = join(home, 'plain.sock');
    writeFileSync(plain, 'not a socket');
    await assert.rejects(DaemonServer.start(quietOptions(plain)), /plain\.sock exists and is not a socket; move it away or pass another --socket PATH/);
    assert.equal(readFileSync(plain, 'utf8'), 'not a socket', 'left untouched');
  });

  test('idle means no connection and no call: an open connection keeps it, closing it starts the clock', async () => {
    const path = join(home, 'idle.sock');
    const daemon = await DaemonServer.start(quietOptions(path, { idleTimeoutMs: 300 }));
    let stopped = false;
    void daemon.stopped.then(() => (stopped = true));
    const connection = await DaemonConnection.open(path, 2000);
    await sleep(600);
    assert.equal(stopped, false, 'a connected client keeps the daemon');
    connection.close();
    const started = Date.now();
    await daemon.stopped;
    assert.ok(Date.now() - started < 2000);
    assert.equal(existsSync(path), false, 'the socket is removed');
  });

  test('shutdown answers, closes connections and removes the socket', async () => {
    const path = join(home, 'stop.sock');
    const daemon = await DaemonServer.start(quietOptions(path));
    const connection = await DaemonConnection.open(path, 2000);
    const answer = await connection.request({ op: 'shutdown' }, 2000, 'shutdown');
    assert.match(answer.summary, /is stopping/);
    await daemon.stopped;
    assert.equal(existsSync(path), false);
    await assert.rejects(connection.request({ op: 'ping' }, 2000, 'ping'), /closed/);
    connection.close();
  });
});
