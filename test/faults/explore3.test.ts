import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { TestDesktop } from '../helpers/desktop.js';
import { accessibleWindowState, testContext } from '../helpers/tools.js';
import { runTool } from '../../src/tools/run.js';
import { processesWithEnvironment, commandLine } from '../../src/platform/linux/desktop/processes.js';

function procs(desktop: TestDesktop) {
  return processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', desktop.state.sessionBusAddress).map((pid) => `${pid} ${commandLine(pid).join(' ').slice(0, 120)}`);
}

test('explore bus + X kill', async () => {
  const desktop = await TestDesktop.start();
  const context = testContext();
  try {
    const a = await desktop.launchFixture('gtk3', { title: 'Before' });
    await accessibleWindowState(context, a.window);
    console.log(procs(desktop).join('\n'));
    const bus = processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', desktop.state.sessionBusAddress).filter((pid) => commandLine(pid).some((arg) => arg.includes('accessibility.conf')));
    console.log('killing', bus);
    for (const pid of bus) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    console.log(procs(desktop).join('\n'));
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      const r = await runTool('get_window_state', { pid: a.window.pid, window_id: a.window.id, include_screenshot: false }, context);
      console.log(`${Date.now() - t} ms ${r.ok} ${r.structured.error ?? ''} ${r.summary.slice(0, 300)}`);
    }
    console.log(procs(desktop).join('\n'));
    const b = await desktop.launchFixture('gtk3', { title: 'After' });
    await new Promise((r) => setTimeout(r, 1000));
    let t = Date.now();
    let r = await runTool('get_window_state', { pid: b.window.pid, window_id: b.window.id, include_screenshot: false }, context);
    console.log(`after: ${Date.now() - t} ms ${r.ok} ${r.structured.error ?? ''} ${r.summary.slice(0, 300)}`);
    // launcher kill
    const launcher = processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', desktop.state.sessionBusAddress).filter((pid) => commandLine(pid).some((arg) => arg.includes('at-spi-bus-launcher')));
    console.log('killing launcher', launcher);
    for (const pid of launcher) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    console.log(procs(desktop).join('\n'));
    t = Date.now();
    r = await runTool('get_window_state', { pid: b.window.pid, window_id: b.window.id, include_screenshot: false }, context);
    console.log(`after launcher kill: ${Date.now() - t} ms ${r.ok} ${r.structured.error ?? ''} ${r.summary.slice(0, 300)}`);
    // X kill
    process.kill(desktop.state.pids.xvfb, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    for (const name of ['get_window_state', 'list_windows', 'clipboard_read', 'get_screen_size', 'click']) {
      t = Date.now();
      r = await runTool(name, name === 'click' ? { window_id: b.window.id, x: 5, y: 5 } : { pid: b.window.pid, window_id: b.window.id }, context);
      console.log(`X dead ${name}: ${Date.now() - t} ms ${r.ok} ${r.structured.error ?? ''} ${r.summary.slice(0, 300)}`);
    }
    console.log(execFileSync('ls', ['-la', '/tmp/.X11-unix/']).toString().slice(0, 300));
  } finally {
    context.desktop.close();
    await desktop.stop();
  }
});
