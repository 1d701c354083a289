import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { daemonLogPath, daemonSocketPath, displayKey, securePrivateDirectory } from '../../src/server/daemon/socket-path.js';

describe('where the daemon listens', () => {
  const runtime = mkdtempSync(join(tmpdir(), 'cup-sock-'));
  after(() => rmSync(runtime, { recursive: true, force: true }));

  test('one daemon per display: the key comes from DISPLAY, "auto" without one', () => {
    assert.equal(displayKey(':91'), '91');
    assert.equal(displayKey(':0.0'), '0.0');
    assert.equal(displayKey('localhost:10.0'), 'localhost_10.0');
    assert.equal(displayKey('/tmp/.X11-unix/X0'), '_tmp_.X11-unix_X0');
    assert.equal(displayKey(undefined), 'auto');
    assert.equal(displayKey(''), 'auto');
  });

  test('the socket lives in the state directory under XDG_RUNTIME_DIR; CUP_DRIVER_SOCKET overrides it', () => {
    assert.equal(daemonSocketPath({ XDG_RUNTIME_DIR: runtime, DISPLAY: ':91' }), join(runtime, 'cup-driver', 'daemon-91.sock'));
    assert.equal(daemonSocketPath({ XDG_RUNTIME_DIR: runtime }), join(runtime, 'cup-driver', 'daemon-auto.sock'));
    assert.equal(daemonSocketPath({ XDG_RUNTIME_DIR: runtime, CUP_DRIVER_SOCKET: '/tmp/x.sock' }), '/tmp/x.sock');
    assert.equal(daemonLogPath(join(runtime, 'cup-driver', 'daemon-91.sock')), join(runtime, 'cup-driver', 'logs', 'daemon-91.log'));
  });

  test('a path too long for a Unix socket is refused with what to do instead', () => {
    assert.throws(() => daemonSocketPath({ CUP_DRIVER_SOCKET: `/tmp/${'x'.repeat(120)}.sock` }), /over the 107-byte limit of Unix sockets; pass a shorter --socket PATH/);
  });

  test('the directory is made private (0700)', () => {
    const loose = join(runtime, 'loose');
    mkdirSync(loose, { mode: 0o755 });
    securePrivateDirectory(loose);
    assert.equal(statSync(loose).mode & 0o777, 0o700);
  });
});
