// The wait for an app's quiet after an action (settle) on a loaded machine: this process may wake only after the
// quiet window's timer has run out and the app's next change has come; Node runs the expired timer before it reads
// the socket holding that change. A real socket carries the changes here, sent by another process while this one is
// busy with other work (a daemon serving another call, a big tree converted), as a loaded machine keeps it busy.
// The watch here is the driver's own NextChange, fed by the socket instead of the bus.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ChangeReason, ChangeWatch } from '../../src/platform/desktop.js';
import { statFields } from '../../src/platform/linux/desktop/processes.js';
import { NextChange } from '../../src/platform/linux/next-change.js';
import { settle } from '../../src/tools/input/settle.js';

/** A watch whose changes are the chunks read from `socket`, as the driver's are the events read from the bus. */
function socketWatch(socket: Socket, pid = 0): ChangeWatch & { readonly changes: number } {
  const changes = new NextChange<ChangeReason>();
  let heard = 0;
  socket.on('data', () => {
    heard++;
    changes.notify('accessibility', true);
  });
  changes.notify('accessibility', true);
  return {
    get lastChangeAt() {
      return changes.lastChangeAt;
    },
    get changes() {
      return heard;
    },
    changedWindows: async () => [],
    // The driver's own reading of the process's state (see change-watch.ts).
    atWork: () => pid > 0 && statFields(pid)?.[0] === 'R',
    close: () => changes.close(),
    next: (timeoutMs) => changes.next(timeoutMs),
  };
}

/**
 * Runs `body` with an app: another Node process connected to a socket of this one, that runs `onGo` (its socket in
 * `socket`) when sent a message; the watch is fed by what it writes there.
 */
async function withApp(onGo: string, body: (app: ChildProcess, ours: Socket) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cup-settle-'));
  const server = createServer();
  server.listen(join(dir, 'socket'));
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const script = `
    const socket = require('node:net').createConnection(process.argv[1]);
    socket.on('connect', () => process.send('ready'));
    process.on('message', () => { ${onGo} });`;
  const app = spawn(process.execPath, ['-e', script, join(dir, 'socket')], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [ours] = (await accepted) as [Socket];
  await once(app, 'message');
  try {
    await body(app, ours);
  } finally {
    app.kill();
    ours.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a change already come when the quiet window ran out is heard: the wait goes on from it', async () => {
  const quietMs = 100;
  // The app: 20 ms into the quiet window it changes something.
  await withApp(`setTimeout(() => socket.write('changed', () => { socket.end(); process.disconnect(); }), 20);`, async (app, ours) => {
    const watch = socketWatch(ours);
    const settling = settle(watch, quietMs, undefined, 2000).then((waited) => ({ waited, heard: watch.changes }));
    app.send('go');
    // Meanwhile this process works on something else past the quiet window's end.
    setImmediate(() => {
      for (const until = Date.now() + 3 * quietMs; Date.now() < until; );
    });
    const { waited, heard } = await settling;
    assert.equal(heard, 1, 'the change was heard before the wait ended');
    assert.ok(waited >= 20 + quietMs, `the quiet was waited for after the change: ${waited} ms in all`);
  });
});

test('an app silent for the quiet asked while it runs is waited for until it stops', async () => {
  // The app: it changes something, then works 400 ms without a word (as a starved app waits for a processor, in the
  // same state R), then sleeps.
  const onGo = `socket.write('changed', () => {
      for (const until = Date.now() + 400; Date.now() < until; );
      setTimeout(() => { socket.end(); process.disconnect(); }, 5000);
    });`;
  await withApp(onGo, async (app, ours) => {
    const watch = socketWatch(ours, app.pid!);
    await watch.next(0);
    app.send('go');
    assert.equal(await watch.next(2000), 'accessibility', 'the change came');
    const started = Date.now();
    await settle(watch, 100, undefined, 2000);
    const waited = Date.now() - started;
    // /proc: the app is done working by the time the wait ends.
    assert.notEqual(statFields(app.pid!)?.[0], 'R', 'the app sleeps when the wait ends');
    assert.ok(waited >= 300, `the wait lasted while the app worked (400 ms after its change), not the 100 ms quiet: ${waited} ms`);
  });
});
