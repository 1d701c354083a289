// `npm run faults`: issue 13's disconnect fault at length. 1000 clients go away mid-call against one daemon
// (in every ten: eight dropped connections, one CLI process killed with SIGKILL, one MCP client killed with
// its server left to end by itself), then the daemon's file descriptors, sockets and child processes are
// counted against before. Exits non-zero on a leak; FAULT_ROUNDS changes the count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonSocketPath } from '../src/server/daemon/socket-path.js';
import { callCliJson, daemonProcesses, stopDaemon } from '../test/daemon/helpers.js';
import { TestDesktop } from '../test/helpers/desktop.js';
import { DISCONNECTED_SESSION, disconnectRounds } from '../test/helpers/disconnects.js';

const rounds = Number(process.env.FAULT_ROUNDS ?? 1000);

async function main(): Promise<number> {
  const desktop = await TestDesktop.start();
  const configHome = mkdtempSync(join(tmpdir(), 'cup-config-'));
  const env = desktop.env({ XDG_CONFIG_HOME: configHome, CUP_DRIVER_IDLE_TIMEOUT: '3600' });
  try {
    const app = (await desktop.launchFixture('gtk3', { title: 'Waited on' })).window;
    const first = await callCliJson(env, 'get_window_state', { pid: app.pid, window_id: app.id, include_screenshot: false });
    if (first.status !== 0) throw new Error(`the first call failed: ${first.stderr}`);
    const [daemon] = daemonProcesses(daemonSocketPath(env));
    if (!daemon) throw new Error('no daemon runs after the first call');
    const report = await disconnectRounds(env, daemon, app.pid, rounds, (round) => {
      if (round % 100 === 0) console.error(`${round} of ${rounds} clients gone mid-call`);
    });
    const sessions = await callCliJson(env, 'list_sessions', {});
    const stillBusy = (sessions.json.sessions as { session: string; busy: boolean }[]).some((session) => session.session === DISCONNECTED_SESSION && session.busy);
    const sameDaemon = daemonProcesses(daemonSocketPath(env)).join() === String(daemon);
    console.log(`clients gone mid-call: ${report.rounds} (${report.rounds - report.cliRounds - report.mcpRounds} dropped connections, ${report.cliRounds} CLI processes SIGKILLed, ${report.mcpRounds} MCP clients SIGKILLed) in ${(report.elapsedMs / 1000).toFixed(0)} s`);
    console.log(`daemon (pid ${daemon}) before → after: file descriptors ${report.before.fds} → ${report.after.fds}, sockets ${report.before.sockets} → ${report.after.sockets}, child processes ${report.before.children} → ${report.after.children}`);
    console.log(`slowest MCP server exit after its client was killed: ${report.slowestMcpExitMs} ms; a killed client's call still running: ${stillBusy ? 'yes' : 'no'}; the same daemon served throughout: ${sameDaemon ? 'yes' : 'no'}`);
    const leaked = report.after.fds > report.before.fds || report.after.sockets > report.before.sockets || report.after.children > report.before.children;
    return leaked || stillBusy || !sameDaemon ? 1 : 0;
  } finally {
    await stopDaemon(env);
    await desktop.stop();
    rmSync(configHome, { recursive: true, force: true });
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
