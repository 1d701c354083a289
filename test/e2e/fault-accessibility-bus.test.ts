// Issue 13, faults: the accessibility bus killed (its dbus-daemon, which takes at-spi-bus-launcher with it).
// On the embedded desktop the next call starts it again (session-bus activation) and reconnects by itself:
// apps started after that are read, and accessibility is switched on again (dbus-send reads IsEnabled);
// an app started before is on the old bus and the reading says so. Where the bus cannot come back (its
// address pinned by AT_SPI_BUS_ADDRESS), calls fail with accessibility_bus_unavailable naming the fix, and
// work again by themselves once the bus is back.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { commandLine, isAlive, processesWithEnvironment } from '../../src/platform/linux/desktop/processes.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { runTool } from '../../src/tools/run.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, testContext, type WindowState } from '../helpers/tools.js';

describe('the accessibility bus killed', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let older: ClientWindow;

  /** The accessibility bus's dbus-daemon of this desktop (started by its session bus, so it carries that address). */
  function accessibilityBusDaemons(): number[] {
    return processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', desktop.state.sessionBusAddress).filter((pid) => commandLine(pid).some((arg) => arg.includes('at-spi2/accessibility.conf')));
  }

  async function killBus(): Promise<void> {
    const daemons = accessibilityBusDaemons();
    assert.equal(daemons.length, 1, 'one accessibility bus runs');
    process.kill(daemons[0]!, 'SIGKILL');
    for (const deadline = Date.now() + 5000; isAlive(daemons[0]!); await sleep(20)) assert.ok(Date.now() < deadline);
  }

  function isEnabled(): string {
    return execFileSync('dbus-send', ['--print-reply', `--bus=${desktop.state.sessionBusAddress}`, '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties.Get', 'string:org.a11y.Status', 'string:IsEnabled'], { timeout: 5000, encoding: 'utf8' });
  }

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    older = (await desktop.launchFixture('gtk3', { title: 'Before the restart' })).window;
    await accessibleWindowState(context, older, { include_screenshot: false });
  });

  after(async () => {
    delete process.env.AT_SPI_BUS_ADDRESS;
    context?.desktop.close();
    await desktop?.stop();
  });

  test('on the embedded desktop the next call brings the bus back; an app started before is named as on the old bus, one started after is read', async () => {
    await killBus();
    const started = Date.now();
    const result = await runTool('get_window_state', { pid: older.pid, window_id: older.id, include_screenshot: false }, context);
    assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
    assert.ok(result.ok, result.summary);
    const state = result.structured as unknown as WindowState;
    assert.equal(state.degraded, true);
    assert.match(state.degraded_reason ?? '', new RegExp(`pid ${older.pid}\\) started before the accessibility bus now running .*restart the app`));
    assert.equal(accessibilityBusDaemons().length, 1, 'a new accessibility bus runs');
    assert.match(isEnabled(), /boolean true/, 'accessibility is switched on for the new bus');

    const newer = (await desktop.launchFixture('gtk3', { title: 'After the restart' })).window;
    const { state: read } = await accessibleWindowState(context, newer, { include_screenshot: false });
    const oracle = new PyatspiOracle(desktop.env());
    try {
      const status = await oracle.statusText(newer.pid, newer.title);
      assert.ok(read.elements.some((element) => element.name === status), `the driver reads the status pyatspi reads on the new bus: "${status}"`);
    } finally {
      oracle.close();
    }
  });

  test('a bus that cannot come back fails every call with accessibility_bus_unavailable and the fix; the driver reconnects once it is back', async () => {
    const newer = (await desktop.launchFixture('gtk3', { title: 'Pinned bus' })).window;
    await accessibleWindowState(context, newer, { include_screenshot: false });
    // The bus this process is told to use, as a session without activation would name it: gone for good once killed.
    process.env.AT_SPI_BUS_ADDRESS = execFileSync('dbus-send', ['--print-reply=literal', `--bus=${desktop.state.sessionBusAddress}`, '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus.GetAddress'], { timeout: 5000, encoding: 'utf8' }).trim();
    await killBus();
    for (const [tool, args] of [
      ['get_window_state', { pid: newer.pid, window_id: newer.id, include_screenshot: false }],
      ['find_elements', { pid: newer.pid, window_id: newer.id, selector: 'role=button' }],
      ['wait_for', { pid: newer.pid, window_id: newer.id, selector: 'role=button', timeout_ms: 5000 }],
    ] as const) {
      const started = Date.now();
      const result = await runTool(tool, args, context);
      assert.ok(Date.now() - started < 3000, `${tool} answered after ${Date.now() - started} ms`);
      assert.equal(result.ok, false, result.summary);
      assert.equal(result.structured.error, 'accessibility_bus_unavailable', result.summary);
      assert.match(result.summary, /accessibility bus/);
      assert.match(result.summary, /restart/);
    }
    // The session can start a bus again: with the pin gone, the next call finds it and reads the app started after.
    delete process.env.AT_SPI_BUS_ADDRESS;
    const later = (await desktop.launchFixture('gtk3', { title: 'After the pinned bus' })).window;
    const { state } = await accessibleWindowState(context, later, { include_screenshot: false });
    assert.ok(state.elements.some((element) => element.name === 'Increment'));
  });
});
