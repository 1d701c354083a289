// kill_app takes any pid a caller sends; the tool itself must refuse the ones that would take down the machine,
// the agent or the desktop. Checked over MCP (the driver's parent is the client) and through the daemon (whose
// ancestors are not the caller's), with /proc as the judge of what still runs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAlive, statFields } from '../../src/platform/linux/desktop/processes.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { callCliJson, daemonProcesses, stopDaemon } from '../daemon/helpers.js';
import { cliPath, TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';

/** The processes a bus started by D-Bus activation, read from their environment (the oracle does not ask the driver). */
function activatedBy(...addresses: string[]): number[] {
  const sockets = addresses.map((address) => address.split(',')[0]);
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const starter = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((line) => line.startsWith('DBUS_STARTER_ADDRESS='));
        return starter !== undefined && sockets.includes(starter.slice('DBUS_STARTER_ADDRESS='.length).split(',')[0]);
      } catch {
        return false;
      }
    });
}

function command(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
}

describe('kill_app refuses protected processes by itself', () => {
  let desktop: TestDesktop;
  let client: Client;
  let serverPid: number;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ CUP_DRIVER_IDLE_TIMEOUT: '60' });
    const connected = await connectMcp(env);
    client = connected.client;
    serverPid = connected.transport.pid!;
  });

  after(async () => {
    await client?.close();
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  async function kill(pid: number): Promise<CallToolResult> {
    return (await client.callTool({ name: 'kill_app', arguments: { pid } })) as CallToolResult;
  }

  test('init, a kernel thread, the server, its parent (the client) and the test runner above it: protected_process, all still alive', async () => {
    const kernelThread = readdirSync('/proc').map(Number).find((pid) => pid > 2 && (Number(statFields(pid)?.[6]) & 0x00200000) !== 0);
    const targets = [1, serverPid, process.pid, process.ppid, ...(kernelThread ? [kernelThread] : [])];
    for (const pid of targets) {
      const result = await kill(pid);
      assert.equal(result.isError, true, `pid ${pid}: ${JSON.stringify(result.content)}`);
      assert.equal((result.structuredContent as { error: string }).error, 'protected_process');
      assert.match((result.structuredContent as { message: string }).message, new RegExp(`pid ${pid}\\b`));
    }
    for (const pid of [serverPid, process.pid, process.ppid]) assert.ok(isAlive(pid), `pid ${pid} survived`);
  });

  test('the desktop: its X server, session bus, window manager and the accessibility services its buses started', async () => {
    const { xvfb, dbus, windowManager } = desktop.state.pids;
    const busChildren = activatedBy(desktop.state.sessionBusAddress, desktop.state.accessibilityBusAddress);
    assert.ok(busChildren.some((pid) => command(pid).includes('at-spi-bus-launcher')), `the session bus started the accessibility bus: ${busChildren.map(command).join(', ')}`);
    assert.ok(busChildren.some((pid) => command(pid).includes('registryd')), `the accessibility bus started the registry: ${busChildren.map(command).join(', ')}`);
    for (const pid of [xvfb, dbus, windowManager, ...busChildren]) {
      const result = await kill(pid);
      assert.equal((result.structuredContent as { error: string }).error, 'protected_process', `pid ${pid} (${command(pid)})`);
    }
    for (const pid of [xvfb, dbus, windowManager, ...busChildren]) assert.ok(isAlive(pid), `pid ${pid} survived`);
  });

  test('through the daemon, the shell the calling CLI runs under is protected although the daemon does not descend from it', async () => {
    // The daemon is started first by a call of its own, so the shell below is in the CLI's chain and not in the daemon's.
    await callCliJson(env, 'list_windows', {});
    const run = await new Promise<{ stdout: string; status: number | null }>((resolve) => {
      const script = `"${process.execPath}" "${cliPath}" call kill_app "{\\"pid\\": $$}" --json; echo "shell=$$"`;
      execFile('/bin/sh', ['-c', script], { env, timeout: 60_000 }, (error, stdout) => resolve({ stdout, status: error ? 1 : 0 }));
    });
    const shell = Number(/shell=(\d+)/.exec(run.stdout)?.[1]);
    const structured = (JSON.parse(run.stdout.slice(0, run.stdout.lastIndexOf('shell='))) as { structuredContent: { error: string; message: string } }).structuredContent;
    assert.equal(structured.error, 'protected_process', structured.message);
    assert.match(structured.message, new RegExp(`pid ${shell} \\(sh\\) is the caller or a process the caller runs under`));
    // The daemon serving that call is the driver too, for the MCP server as much as for itself.
    const [daemon] = daemonProcesses(daemonSocketPath(env));
    assert.ok(daemon !== undefined, 'the daemon runs');
    const result = await kill(daemon);
    assert.equal((result.structuredContent as { error: string }).error, 'protected_process', JSON.stringify(result.content));
    assert.match((result.structuredContent as { message: string }).message, /another process of this driver/);
    assert.ok(isAlive(daemon));
  });

  test('an app it may kill is killed; a pid no process has is no_such_process', async () => {
    const fixture = await desktop.launchFixture('gtk3');
    const result = await kill(fixture.window.pid);
    assert.ok(!result.isError, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { killed: boolean }).killed, true);
    assert.ok(!isAlive(fixture.window.pid));
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    const missing = await kill(pidMax + 1);
    assert.equal((missing.structuredContent as { error: string }).error, 'no_such_process');
  });
});
