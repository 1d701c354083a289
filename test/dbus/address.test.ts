import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAddress, sessionBusAddress } from '../../src/platform/linux/dbus/index.js';
import { abstractSocketsSupported, socketOptions } from '../../src/platform/linux/dbus/address.js';

describe('parseAddress', () => {
  test('entries in order, values unescaped, guid kept as a plain parameter', () => {
    const entries = parseAddress('unix:path=/tmp/a%20b%2cc,guid=0123;unix:abstract=/tmp/dbus-X;tcp:host=127.0.0.1,port=4000,family=ipv4;');
    assert.deepEqual(
      entries.map((e) => [e.transport, Object.fromEntries(e.params)]),
      [
        ['unix', { path: '/tmp/a b,c', guid: '0123' }],
        ['unix', { abstract: '/tmp/dbus-X' }],
        ['tcp', { host: '127.0.0.1', port: '4000', family: 'ipv4' }],
      ],
    );
    assert.equal(entries[0]!.text, 'unix:path=/tmp/a%20b%2cc,guid=0123');
  });

  test('percent escapes decode as UTF-8 bytes', () => {
    assert.equal(parseAddress('unix:path=/tmp/%C3%A9')[0]!.params.get('path'), '/tmp/é');
  });

  test('socket options per transport', () => {
    const [path, abstract, tcp, tcpDefaultHost] = parseAddress('unix:path=/run/bus,guid=1;unix:abstract=/tmp/x;tcp:host=::1,port=5,family=ipv6;tcp:port=7');
    assert.deepEqual(socketOptions(path!), { path: '/run/bus' });
    assert.deepEqual(socketOptions(abstract!), { path: '\0/tmp/x' });
    assert.deepEqual(socketOptions(tcp!), { host: '::1', port: 5, family: 6 });
    assert.deepEqual(socketOptions(tcpDefaultHost!), { host: 'localhost', port: 7 });
  });

  test('server-only and unsupported entries are refused clearly', () => {
    const [tmpdir, dir, launchd, noPort, badFamily, both] = parseAddress(
      'unix:tmpdir=/tmp;unix:dir=/run;launchd:env=X;tcp:host=h;tcp:host=h,port=1,family=ipx;unix:path=/a,abstract=/b',
    );
    assert.throws(() => socketOptions(tmpdir!), /unix:tmpdir=, which only a server can listen on/);
    assert.throws(() => socketOptions(dir!), /unix:dir=, which only a server can listen on/);
    assert.throws(() => socketOptions(launchd!), /transport "launchd"/);
    assert.throws(() => socketOptions(noPort!), /needs port=/);
    assert.throws(() => socketOptions(badFamily!), /family=ipx/);
    assert.throws(() => socketOptions(both!), /exactly one of path= or abstract=/);
  });

  test('malformed addresses name the address and what is expected', () => {
    for (const [address, why] of [
      ['', /it is empty/],
      [';', /no entries/],
      ['/run/user/1000/bus', /no transport name/],
      ['unix:path', /"path" in entry "unix:path" is not key=value/],
      ['unix:path=/a,path=/b', /key "path" appears twice/],
      ['unix:path=/a%zz', /bad %-escape/],
      ['unix:path=/a%4', /bad %-escape/],
    ] as const) {
      assert.throws(
        () => parseAddress(address),
        (error: Error) => why.test(error.message) && error.message.includes(JSON.stringify(address)) && error.message.includes('expected "transport:key=value'),
        address,
      );
    }
  });
});

test('abstract sockets need libuv 1.48 or later', () => {
  assert.equal(abstractSocketsSupported('1.46.0'), false);
  assert.equal(abstractSocketsSupported('1.47.9'), false);
  assert.equal(abstractSocketsSupported('1.48.0'), true);
  assert.equal(abstractSocketsSupported('1.51.0'), true);
  assert.equal(abstractSocketsSupported('2.0.0'), true);
});

describe('sessionBusAddress', () => {
  test('reads DBUS_SESSION_BUS_ADDRESS', () => {
    assert.equal(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' }), 'unix:path=/x');
  });

  test('names the variable when it is missing', () => {
    assert.throws(() => sessionBusAddress({}), /DBUS_SESSION_BUS_ADDRESS is not set/);
    assert.throws(() => sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: ' ' }), /DBUS_SESSION_BUS_ADDRESS is not set/);
  });
});
