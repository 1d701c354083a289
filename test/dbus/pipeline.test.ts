import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { DBusConnection, DBusTimeoutError } from '../../src/platform/linux/dbus/index.js';
import { startBus, within, type TestBus } from './bus.js';

let bus: TestBus;
const connections: DBusConnection[] = [];

before(async () => {
  bus = await startBus();
});

after(async () => {
  for (const conn of connections) conn.close();
  await bus.stop();
});

async function timed<T>(work: () => Promise<T[]>): Promise<{ results: T[]; ms: number }> {
  const started = performance.now();
  const results = await work();
  return { results, ms: performance.now() - started };
}

test('5,000 concurrent Peer.Ping calls to the bus daemon all resolve', { timeout: 30_000 }, async (t) => {
  const conn = await DBusConnection.connect(bus.address, { timeoutMs: 20_000 });
  connections.push(conn);
  const count = 5000;
  const { results, ms } = await timed(() =>
    Promise.all(
      Array.from({ length: count }, () =>
        conn.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' }),
      ),
    ),
  );
  assert.equal(results.length, count);
  for (const reply of results) assert.deepEqual(reply.body, []);
  const rate = `${count} pipelined Peer.Ping to dbus-daemon: ${ms.toFixed(0)} ms, ${Math.round((count / ms) * 1000)} calls/s`;
  t.diagnostic(rate);
  console.log(rate);
});

test('20,000 concurrent GetNameOwner calls resolve with the right owner', { timeout: 60_000 }, async (t) => {
  const conn = await DBusConnection.connect(bus.address, { timeoutMs: 30_000 });
  connections.push(conn);
  const count = 20_000;
  const { results, ms } = await timed(() =>
    Promise.all(
      Array.from({ length: count }, () =>
        conn.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'GetNameOwner', signature: 's', body: [conn.uniqueName] }),
      ),
    ),
  );
  for (const reply of results) assert.equal(reply.body[0], conn.uniqueName);
  const rate = `${count} pipelined GetNameOwner to dbus-daemon: ${ms.toFixed(0)} ms, ${Math.round((count / ms) * 1000)} calls/s`;
  t.diagnostic(rate);
  console.log(rate);
});

test('5,000 concurrent calls between two clients through the bus', { timeout: 30_000 }, async (t) => {
  const a = await DBusConnection.connect(bus.address, { timeoutMs: 20_000 });
  const b = await DBusConnection.connect(bus.address);
  connections.push(a, b);
  b.setCallHandler((call) => ({ signature: 'u(so)', body: [call.body[0], [b.uniqueName, '/org/a11y/atspi/accessible/1']] }));
  const count = 5000;
  const { results, ms } = await timed(() =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        a.call({ destination: b.uniqueName, path: '/org/a11y/atspi/accessible/1', interface: 'org.a11y.atspi.Accessible', member: 'GetIndexInParent', signature: 'u', body: [i] }),
      ),
    ),
  );
  results.forEach((reply, i) => assert.equal(reply.body[0], i));
  const rate = `${count} pipelined calls client->bus->client: ${ms.toFixed(0)} ms, ${Math.round((count / ms) * 1000)} calls/s`;
  t.diagnostic(rate);
  console.log(rate);
});

/**
 * The silent peer runs in its own process: in this one, its work receiving 10,000 calls would delay the
 * caller's timers and blur what is being measured.
 */
async function startSilentPeer(name: string): Promise<() => Promise<void>> {
  const indexUrl = new URL('../../src/platform/linux/dbus/index.js', import.meta.url).href;
  const script =
    `const { DBusConnection } = await import(${JSON.stringify(indexUrl)});\n` +
    `const conn = await DBusConnection.connect(${JSON.stringify(bus.address)});\n` +
    `conn.setCallHandler(() => new Promise(() => {}));\n` +
    `await conn.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'RequestName', signature: 'su', body: [${JSON.stringify(name)}, 4] });\n` +
    `process.stdout.write('ready\\n');\n`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.kill('SIGKILL');
    await exited;
  };
  try {
    await within(
      new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
        child.once('exit', (code) => reject(new Error(`silent peer exited with ${code}`)));
      }),
      10_000,
      'silent peer start',
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

test('10,000 in-flight calls to a peer that never answers all time out close to their deadline', { timeout: 30_000 }, async (t) => {
  const name = 'com.example.Silent';
  const stopPeer = await startSilentPeer(name);
  try {
    const a = await DBusConnection.connect(bus.address);
    connections.push(a);
    const count = 10_000;
    const timeoutMs = 500;
    const lateness: number[] = [];
    const outcomes = await Promise.allSettled(
      Array.from({ length: count }, () => {
        const deadline = performance.now() + timeoutMs;
        return a.call({ destination: name, path: '/', interface: 'com.example.Never', member: 'Answer', timeoutMs }).finally(() => {
          lateness.push(performance.now() - deadline);
        });
      }),
    );
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.ok((outcome as PromiseRejectedResult).reason instanceof DBusTimeoutError);
    }
    lateness.sort((x, y) => x - y);
    assert.ok(lateness[0]! >= 0, 'no call may time out early');
    const summary =
      `${count} unanswered calls all timed out; after the ${timeoutMs} ms deadline by ` +
      `median ${lateness[count >> 1]!.toFixed(0)} ms, max ${lateness[count - 1]!.toFixed(0)} ms`;
    t.diagnostic(summary);
    console.log(summary);
    const after = await a.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' });
    assert.deepEqual(after.body, []);
  } finally {
    await stopPeer();
  }
});
