import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli, stopDaemon } from '../daemon/helpers.js';

/** A display number no X server listens on (neither its socket nor its lock file exists). */
function deadDisplay(): string {
  for (let number = 987; number < 1100; number++) {
    if (!existsSync(`/tmp/.X11-unix/X${number}`) && !existsSync(`/tmp/.X${number}-lock`)) return `:${number}`;
  }
  throw new Error('no unused display number between :987 and :1099');
}

const stackLine = /^ {4}at /m;

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe('CLI failures print once, without a stack unless CUP_DRIVER_DEBUG=1', () => {
  const runtime = mkdtempSync(join(tmpdir(), 'cup-errors-'));
  const display = deadDisplay();
  // Its own state and config directories: the daemon this starts and its socket are this test's alone.
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: runtime, CUP_DRIVER_IDLE_TIMEOUT: '30' };
  delete env.CUP_DRIVER_DEBUG;
  const message = `cannot connect to X server DISPLAY=${display}`;

  after(async () => {
    await stopDaemon(env);
    rmSync(runtime, { recursive: true, force: true });
  });

  test('call --no-daemon on a display with no X server: one line, no stack, the code display_unavailable', async () => {
    const plain = await runCli(['call', 'list_windows', '{}', '--no-daemon'], env);
    assert.equal(plain.status, 1, plain.stderr);
    assert.equal(plain.stdout, '');
    assert.equal(occurrences(plain.stderr, message), 1, plain.stderr);
    assert.doesNotMatch(plain.stderr, stackLine);
    assert.match(plain.stderr, /^cup-driver: error \[display_unavailable\]: cannot connect to X server/);
    // What would work: a DISPLAY left from a desktop stopped since is the usual cause.
    assert.match(plain.stderr, /Start a virtual desktop with `cup-driver desktop start` and export what it prints, or unset DISPLAY/);
    assert.equal(plain.stderr.trim().split('\n').length, 1, plain.stderr);

    const json = await runCli(['call', 'list_windows', '{}', '--no-daemon', '--json'], env);
    assert.equal(json.status, 1, json.stderr);
    const result = JSON.parse(json.stdout) as { isError: boolean; structuredContent: { error: string; message: string } };
    assert.equal(result.structuredContent.error, 'display_unavailable');
    assert.match(result.structuredContent.message, /^cannot connect to X server DISPLAY=:\d+/);
  });

  test('call through the daemon: the same single line', async () => {
    const run = await runCli(['call', 'list_windows', '{}'], env);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(occurrences(run.stderr, message), 1, run.stderr);
    assert.doesNotMatch(run.stderr, stackLine);
  });

  test('a command that throws (desktop stop on a display cup-driver did not start): one line; the stack with CUP_DRIVER_DEBUG=1', async () => {
    const plain = await runCli(['desktop', 'stop', '--display', display], env);
    assert.equal(plain.status, 1);
    assert.equal(plain.stderr, `cup-driver: no desktop started by cup-driver on ${display}; see \`cup-driver desktop status\`\n`);

    const debug = await runCli(['desktop', 'stop', '--display', display], { ...env, CUP_DRIVER_DEBUG: '1' });
    assert.equal(debug.status, 1);
    assert.match(debug.stderr, /^cup-driver: no desktop started by cup-driver on :\d+/);
    assert.match(debug.stderr, stackLine);
  });

  test('a usage error: one line, exit 2', async () => {
    const run = await runCli(['desktop', 'stop', '--bogus'], env);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^cup-driver: unknown option --bogus/);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  });
});
