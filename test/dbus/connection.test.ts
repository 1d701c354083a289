import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  DBusClosedError,
  DBusConnection,
  DBusError,
  DBusTimeoutError,
  getAllProperties,
  peerLeftTheBus,
  getProperty,
  setProperty,
  Variant,
  type DBusSignal,
  type IncomingCall,
} from '../../src/platform/linux/dbus/index.js';
import { startBus, within, type TestBus } from './bus.js';

const BUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' };
const SERVICE_PATH = '/com/example/Echo';
const SERVICE_IFACE = 'com.example.Echo';
const TEST_TIMEOUT = { timeout: 10_000 };

let bus: TestBus;
const connections: DBusConnection[] = [];

async function connect(): Promise<DBusConnection> {
  const conn = await DBusConnection.connect(bus.address);
  connections.push(conn);
  return conn;
}

/** The echo service: Echo returns its arguments, Fail throws a DBusError, Hang never answers. */
function serveEcho(conn: DBusConnection, seen: IncomingCall[] = []): void {
  conn.setCallHandler((call) => {
    seen.push(call);
    if (call.path !== SERVICE_PATH || call.interface !== SERVICE_IFACE) return undefined;
    switch (call.member) {
      case 'Echo':
        return { signature: call.signature, body: call.body };
      case 'Fail':
        throw new DBusError('com.example.Error.Broken', 'it broke: ünïcode');
      case 'Crash':
        return Promise.reject(new Error('plain error'));
      case 'Hang':
        return new Promise(() => {});
      default:
        return undefined;
    }
  });
}

before(async () => {
  bus = await startBus();
});

after(async () => {
  for (const conn of connections) conn.close();
  await bus.stop();
});

describe('against the bus daemon', () => {
  test('Hello gives a unique name that ListNames reports', TEST_TIMEOUT, async () => {
    const conn = await connect();
    assert.match(conn.uniqueName, /^:1\.\d+$/);
    assert.equal(conn.defaultTimeoutMs, 2000);
    const reply = await conn.call({ ...BUS, member: 'ListNames' });
    assert.equal(reply.signature, 'as');
    assert.equal(reply.sender, 'org.freedesktop.DBus');
    assert.ok((reply.body[0] as string[]).includes(conn.uniqueName));
  });

  test('GetConnectionUnixProcessID of our own name is this process', TEST_TIMEOUT, async () => {
    const conn = await connect();
    const reply = await conn.call({ ...BUS, member: 'GetConnectionUnixProcessID', signature: 's', body: [conn.uniqueName] });
    assert.deepEqual(reply.body, [process.pid]);
  });

  test('an unknown destination gives DBusError ServiceUnknown', TEST_TIMEOUT, async () => {
    const conn = await connect();
    const error = await conn.call({ destination: 'com.example.Nobody', path: '/', member: 'X' }).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DBusError);
    assert.equal(error.dbusName, 'org.freedesktop.DBus.Error.ServiceUnknown');
    assert.equal(error.name_, 'org.freedesktop.DBus.Error.ServiceUnknown');
    assert.ok(error.message.includes('org.freedesktop.DBus.Error.ServiceUnknown'));
    assert.ok(error.text.length > 0 && error.message.includes(error.text));
  });

  test('a call to a peer that closed its connection: the bus says its unique name has no owner (peerLeftTheBus); a missing well-known name is not a peer that left', TEST_TIMEOUT, async () => {
    const [conn, peer] = [await connect(), await connect()];
    const name = peer.uniqueName;
    peer.close();
    const failed = (destination: string) => conn.call({ destination, path: '/', member: 'X' }).then(() => assert.fail('expected an error'), (e: unknown) => e);
    // The bus learns of the close a moment later: until then the call may still reach it (and fail otherwise).
    let error: unknown;
    for (const deadline = Date.now() + 2000; Date.now() < deadline; ) {
      error = await failed(name);
      if (error instanceof DBusError && error.dbusName === 'org.freedesktop.DBus.Error.ServiceUnknown') break;
    }
    assert.ok(peerLeftTheBus(error), String(error));
    assert.equal(peerLeftTheBus(await failed('com.example.Nobody')), false);
    assert.equal(peerLeftTheBus(new Error('org.freedesktop.DBus.Error.ServiceUnknown: The name :1.4 was not provided')), false, 'only a DBusError');
  });

  test('properties of the bus daemon itself', TEST_TIMEOUT, async () => {
    const conn = await connect();
    const features = await getProperty(conn, BUS.destination, BUS.path, BUS.interface, 'Features');
    assert.ok(Array.isArray(features));
    const all = await getAllProperties(conn, BUS.destination, BUS.path, BUS.interface);
    assert.deepEqual(all.get('Features'), features);
    assert.ok(Array.isArray(all.get('Interfaces')));
  });

  test('bad arguments reject without sending anything', TEST_TIMEOUT, async () => {
    const conn = await connect();
    await assert.rejects(conn.call({ ...BUS, member: 'GetNameOwner', signature: 's', body: [42] }), /"s" expects a string/);
    await assert.rejects(conn.call({ ...BUS, path: 'no-slash', member: 'ListNames' }), /invalid D-Bus object path/);
    await assert.rejects(conn.call({ ...BUS, member: 'ListNames', signature: 'a{' }), /invalid D-Bus signature "a\{"/);
    // The connection is still healthy afterwards.
    const reply = await conn.call({ ...BUS, member: 'GetNameOwner', signature: 's', body: [BUS.destination] });
    assert.deepEqual(reply.body, ['org.freedesktop.DBus']);
  });
});

describe('two connections', () => {
  let a: DBusConnection;
  let b: DBusConnection;
  const seen: IncomingCall[] = [];

  before(async () => {
    a = await connect();
    b = await connect();
    serveEcho(b, seen);
  });

  test('Echo returns exactly what was sent, through a complex signature', TEST_TIMEOUT, async () => {
    const signature = 'a{sv}(so)aya(ua(so))axdbs';
    const body = [
      new Map<string, Variant>([
        ['list', new Variant('as', ['a', 'b'])],
        ['big', new Variant('x', -5n)],
        ['nested', new Variant('v', new Variant('(iu)', [-1, 2]))],
      ]),
      [':1.2', '/org/a11y/atspi/accessible/root'],
      Buffer.from([0, 1, 2, 255]),
      [[7, [[':1.9', '/x']]]],
      [2n ** 62n, -1n],
      -0.25,
      true,
      'ünïcode ☃',
    ];
    const reply = await a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Echo', signature, body });
    assert.equal(reply.signature, signature);
    assert.equal(reply.sender, b.uniqueName);
    assert.deepEqual(reply.body, body);
    const incoming = seen.at(-1)!;
    assert.equal(incoming.sender, a.uniqueName);
    assert.equal(incoming.member, 'Echo');
  });

  test('a 24 MiB message survives the trip both ways, arriving over many socket reads', TEST_TIMEOUT, async () => {
    const big = Buffer.alloc(24 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i & 0xff;
    const strings = Array.from({ length: 1000 }, (_, i) => `item ${i} ✓`);
    const reply = await a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Echo', signature: 'ayas', body: [big, strings], timeoutMs: 8000 });
    assert.ok(big.equals(reply.body[0] as Buffer));
    assert.deepEqual(reply.body[1], strings);
  });

  test('a DBusError thrown by the handler reaches the caller with its name and text', TEST_TIMEOUT, async () => {
    const error = await a
      .call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Fail' })
      .then(() => assert.fail('expected an error'), (e: unknown) => e);
    assert.ok(error instanceof DBusError);
    assert.equal(error.dbusName, 'com.example.Error.Broken');
    assert.equal(error.text, 'it broke: ünïcode');
    assert.equal(error.message, 'com.example.Error.Broken: it broke: ünïcode');
  });

  test('a plain rejection becomes org.freedesktop.DBus.Error.Failed', TEST_TIMEOUT, async () => {
    await assert.rejects(
      a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Crash' }),
      (e: unknown) => e instanceof DBusError && e.dbusName === 'org.freedesktop.DBus.Error.Failed' && e.text === 'plain error',
    );
  });

  test('an unhandled method gives UnknownMethod, with or without a handler', TEST_TIMEOUT, async () => {
    const unknown = (e: unknown): boolean => e instanceof DBusError && e.dbusName === 'org.freedesktop.DBus.Error.UnknownMethod';
    await assert.rejects(a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Nope' }), unknown);
    await assert.rejects(a.call({ destination: b.uniqueName, path: '/elsewhere', member: 'Echo' }), unknown);
    const c = await connect();
    await assert.rejects(a.call({ destination: c.uniqueName, path: '/', interface: 'com.example.X', member: 'Y' }), unknown);
  });

  test('Peer.Ping and Peer.GetMachineId are answered without the handler', TEST_TIMEOUT, async () => {
    const before = seen.length;
    const ping = await a.call({ destination: b.uniqueName, path: '/', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' });
    assert.deepEqual(ping, { signature: '', body: [], sender: b.uniqueName });
    const id = await a.call({ destination: b.uniqueName, path: '/any/path', interface: 'org.freedesktop.DBus.Peer', member: 'GetMachineId' });
    assert.deepEqual(id.body, [readFileSync('/etc/machine-id', 'utf8').trim()]);
    assert.equal(seen.length, before);
  });

  test('a call that is never answered times out within 200..600 ms, and the connection still works', TEST_TIMEOUT, async () => {
    const started = performance.now();
    const error = await a
      .call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Hang', timeoutMs: 200 })
      .then(() => assert.fail('expected a timeout'), (e: unknown) => e);
    const elapsed = performance.now() - started;
    assert.ok(error instanceof DBusTimeoutError, String(error));
    assert.ok(elapsed >= 200 && elapsed <= 600, `timed out after ${elapsed} ms`);
    assert.match(error.message, /com\.example\.Echo\.Hang/);
    assert.match(error.message, /\/com\/example\/Echo/);
    assert.ok(error.message.includes(b.uniqueName));
    assert.match(error.message, /200 ms/);
    const reply = await a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Echo', signature: 's', body: ['after'] });
    assert.deepEqual(reply.body, ['after']);
  });

  test('a connection\'s patience gives an unanswered call more time, asked again each time it runs out; a call not patient ends at its timeout', TEST_TIMEOUT, async () => {
    const asked: { destination: string; waitedMs: number; timeoutMs: number }[] = [];
    a.setPatience((destination, waitedMs, timeoutMs) => {
      asked.push({ destination, waitedMs, timeoutMs });
      return asked.length <= 2 ? 150 : 0;
    });
    try {
      const hang = { destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Hang', timeoutMs: 100 };
      const started = performance.now();
      const error = await a.call(hang).then(() => assert.fail('expected a timeout'), (e: unknown) => e);
      const elapsed = performance.now() - started;
      assert.ok(error instanceof DBusTimeoutError, String(error));
      assert.ok(elapsed >= 400 && elapsed <= 900, `given 2 x 150 ms more, it timed out after ${elapsed} ms`);
      assert.deepEqual(asked.map((each) => [each.destination, each.timeoutMs]), [[b.uniqueName, 100], [b.uniqueName, 100], [b.uniqueName, 100]]);
      assert.ok(asked[0]!.waitedMs >= 100 && asked[2]!.waitedMs >= 400, JSON.stringify(asked));
      assert.ok(error.timeoutMs >= 400, `the error tells the whole wait: ${error.timeoutMs} ms`);

      asked.length = 0;
      const quickStart = performance.now();
      await assert.rejects(a.call({ ...hang, patient: false }), DBusTimeoutError);
      assert.ok(performance.now() - quickStart < 350, 'not patient: ended at its timeout');
      assert.deepEqual(asked, [], 'and the patience was not asked');
    } finally {
      a.setPatience(undefined);
    }
  });

  test('noReplyExpected calls resolve at once and are still delivered', TEST_TIMEOUT, async () => {
    const count = seen.length;
    const reply = await a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Echo', signature: 'u', body: [5], noReplyExpected: true });
    assert.deepEqual(reply.body, []);
    // A later call from the same sender is delivered after it, so once it is answered the first has arrived.
    await a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Echo' });
    assert.equal(seen.length, count + 2);
    assert.deepEqual(seen[count]!.body, [5]);
  });
});

describe('properties helpers against a peer serving org.freedesktop.DBus.Properties', () => {
  test('getProperty, getAllProperties and setProperty', TEST_TIMEOUT, async () => {
    const a = await connect();
    const b = await connect();
    const props = new Map<string, Variant>([
      ['Name', new Variant('s', 'OK')],
      ['Extents', new Variant('(iiii)', [1, 2, 30, 40])],
    ]);
    b.setCallHandler((call) => {
      if (call.interface !== 'org.freedesktop.DBus.Properties' || call.body[0] !== 'org.example.Widget') return undefined;
      if (call.member === 'Get') {
        const value = props.get(call.body[1] as string);
        if (value === undefined) throw new DBusError('org.freedesktop.DBus.Error.UnknownProperty', `no property ${String(call.body[1])}`);
        return { signature: 'v', body: [value] };
      }
      if (call.member === 'GetAll') return { signature: 'a{sv}', body: [props] };
      if (call.member === 'Set') {
        props.set(call.body[1] as string, call.body[2] as Variant);
        return { signature: '', body: [] };
      }
      return undefined;
    });
    const dest = b.uniqueName;
    assert.equal(await getProperty(a, dest, '/w', 'org.example.Widget', 'Name'), 'OK');
    assert.deepEqual(await getProperty(a, dest, '/w', 'org.example.Widget', 'Extents'), [1, 2, 30, 40]);
    await setProperty(a, dest, '/w', 'org.example.Widget', 'Name', new Variant('s', 'Cancel'));
    assert.deepEqual(
      await getAllProperties(a, dest, '/w', 'org.example.Widget'),
      new Map<string, unknown>([
        ['Name', 'Cancel'],
        ['Extents', [1, 2, 30, 40]],
      ]),
    );
    await assert.rejects(getProperty(a, dest, '/w', 'org.example.Widget', 'Missing'), (e: unknown) => e instanceof DBusError && e.dbusName === 'org.freedesktop.DBus.Error.UnknownProperty');
  });
});

describe('signals', () => {
  test('matched signals arrive with their exact body; unmatched and unsubscribed ones do not', TEST_TIMEOUT, async () => {
    const a = await connect();
    const b = await connect();
    const watched = 'com.example.Watched';
    const sentinel = 'com.example.Sentinel';
    const ruleWatched = `type='signal',interface='${watched}'`;
    await a.addMatch(ruleWatched);
    await a.addMatch(`type='signal',interface='${sentinel}'`);

    const received: DBusSignal[] = [];
    let sentinels = 0;
    let wake: () => void = () => {};
    const unsubscribe = a.onSignal((signal) => {
      if (signal.interface === watched) received.push(signal);
    });
    a.onSignal((signal) => {
      if (signal.interface === sentinel) {
        sentinels++;
        wake();
      }
    });
    // Signals from one sender arrive in order, so a sentinel seen means everything sent before it was delivered or dropped.
    const sentinelSeen = (n: number): Promise<void> =>
      within(
        new Promise<void>((resolve) => {
          wake = () => sentinels >= n && resolve();
          wake();
        }),
        3000,
        `sentinel signal ${n}`,
      );

    const body = [new Map([['state', new Variant('as', ['focused', 'visible'])]]), [1, -2], 'ünïcode'];
    b.emitSignal({ path: '/com/example/Obj', interface: watched, member: 'Changed', signature: 'a{sv}(ii)s', body });
    b.emitSignal({ path: '/', interface: sentinel, member: 'Mark' });
    await sentinelSeen(1);
    assert.equal(received.length, 1);
    assert.deepEqual(received[0], {
      sender: b.uniqueName,
      path: '/com/example/Obj',
      interface: watched,
      member: 'Changed',
      signature: 'a{sv}(ii)s',
      body,
    });

    await a.removeMatch(ruleWatched);
    b.emitSignal({ path: '/com/example/Obj', interface: watched, member: 'Changed', signature: 's', body: ['dropped by the bus'] });
    b.emitSignal({ path: '/', interface: sentinel, member: 'Mark' });
    await sentinelSeen(2);
    assert.equal(received.length, 1);

    await a.addMatch(ruleWatched);
    unsubscribe();
    b.emitSignal({ path: '/com/example/Obj', interface: watched, member: 'Changed', signature: 's', body: ['no listener'] });
    b.emitSignal({ path: '/', interface: sentinel, member: 'Mark' });
    await sentinelSeen(3);
    assert.equal(received.length, 1);
  });

  test('a unicast signal reaches its destination without a match rule', TEST_TIMEOUT, async () => {
    const a = await connect();
    const b = await connect();
    const got = within(
      new Promise<DBusSignal>((resolve) => {
        a.onSignal((signal) => signal.member === 'Direct' && resolve(signal));
      }),
      3000,
      'unicast signal',
    );
    b.emitSignal({ path: '/', interface: 'com.example.Direct', member: 'Direct', signature: 'u', body: [9], destination: a.uniqueName });
    assert.deepEqual((await got).body, [9]);
  });
});

describe('closing', () => {
  test('when the callee disconnects, the bus answers the pending caller with NoReply', TEST_TIMEOUT, async () => {
    const a = await connect();
    const c = await connect();
    serveEcho(c);
    const pending = a.call({ destination: c.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Hang', timeoutMs: 5000 });
    // Make sure the call reached c before it goes away.
    await a.call({ destination: c.uniqueName, path: '/', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' });
    c.close();
    const started = performance.now();
    await assert.rejects(pending, (e: unknown) => e instanceof DBusError && e.dbusName === 'org.freedesktop.DBus.Error.NoReply');
    assert.ok(performance.now() - started < 1000);
  });

  test('closing a connection rejects its own pending calls with DBusClosedError at once', TEST_TIMEOUT, async () => {
    const a = await connect();
    const b = await connect();
    serveEcho(b);
    const closes: (Error | undefined)[] = [];
    a.onClose((error) => closes.push(error));
    const pending = [1, 2, 3].map(() => a.call({ destination: b.uniqueName, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'Hang', timeoutMs: 5000 }));
    await a.call({ destination: b.uniqueName, path: '/', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' });
    const started = performance.now();
    a.close();
    a.close();
    assert.equal(a.closed, true);
    const results = await Promise.allSettled(pending);
    assert.ok(performance.now() - started < 50);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      assert.ok((result as PromiseRejectedResult).reason instanceof DBusClosedError);
    }
    assert.deepEqual(closes, [undefined]);
    await assert.rejects(a.call({ ...BUS, member: 'ListNames' }), DBusClosedError);
    assert.throws(() => a.emitSignal({ path: '/', interface: 'com.example.X', member: 'Y' }), DBusClosedError);
    const late = await within(new Promise<Error | undefined>((resolve) => a.onClose(resolve)), 1000, 'onClose after close');
    assert.equal(late, undefined);
  });
});
