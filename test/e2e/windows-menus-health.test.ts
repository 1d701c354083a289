import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { packageVersion } from '../../src/server/version.js';
import { runCli, stopDaemon } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { XReaders } from '../helpers/x-readers.js';

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** set_window_frame judged by xwininfo, invoke_menu by pyatspi and xprop, the health tools by what the desktop has. */
describe('window frames, menus by path and health over MCP and the CLI', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;
  let x: XReaders;
  let client: Client;
  let gtk3: ClientWindow;
  let qt: ClientWindow;
  let oracle: PyatspiOracle;

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-frames-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    x = new XReaders(env);
    gtk3 = (await desktop.launchFixture('gtk3', { title: 'Frames Fixture' })).window;
    qt = (await desktop.launch('featherpad', [], 'Untitled')).window;
    oracle = new PyatspiOracle(desktop.env());
    ({ client } = await connectMcp(env, ['mcp']));
  });

  after(async () => {
    await client?.close();
    oracle?.close();
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  test('set_window_frame moves and resizes through the window manager; the frame it reports is where xwininfo finds the window', async () => {
    const wanted = { x: 40, y: 60, width: 780, height: 700 };
    const result = await call('set_window_frame', { window_id: gtk3.id, ...wanted });
    assert.ok(!result.isError, text(result));
    const structured = result.structuredContent as { frame: { x: number; y: number; w: number; h: number }; matched: boolean; by: string };
    const seen = await x.geometry(gtk3.id);
    assert.deepEqual(seen, wanted, 'xwininfo: the client area is where it was asked to be');
    assert.deepEqual(structured.frame, { x: seen.x, y: seen.y, w: seen.width, h: seen.height });
    assert.equal(structured.matched, true);
    assert.equal(structured.by, 'window_manager');

    // Too small for the app's content: the frame says what it really got, and that it is not what was asked.
    const shrunk = await call('set_window_frame', { window_id: gtk3.id, x: 50, y: 50, width: 40, height: 30 });
    assert.ok(!shrunk.isError, text(shrunk));
    const got = (shrunk.structuredContent as { frame: { x: number; y: number; w: number; h: number }; matched: boolean });
    const real = await x.geometry(gtk3.id);
    assert.deepEqual(got.frame, { x: real.x, y: real.y, w: real.width, h: real.height });
    assert.equal(got.matched, false);
    assert.ok(real.width > 40, `GTK kept its minimum width (${real.width})`);
    assert.match(text(shrunk), /asked for 50,50 40x30, got/);
    await call('set_window_frame', { window_id: gtk3.id, ...wanted });
  });

  test('invoke_menu chooses a GTK3 menu item in the background: the app reports it, the active window stays', async () => {
    await call('bring_to_front', { pid: qt.pid, window_id: qt.id });
    const active = await x.activeWindow();
    assert.equal(active, qt.id);
    const result = await call('invoke_menu', { pid: gtk3.pid, window_id: gtk3.id, path: ['Edit', 'Paste'] });
    assert.ok(!result.isError, text(result));
    assert.deepEqual((result.structuredContent as { menu_path: string[] }).menu_path, ['Edit', 'Paste']);
    assert.equal((await oracle.status(gtk3.pid, gtk3.title)).last_key, 'menu:Paste');
    assert.equal(await x.activeWindow(), active, 'nothing was brought to the front');
  });

  test('invoke_menu: an item its app enables only when its menu is shown is looked for with the menu open, which is closed again', async () => {
    // Thunar rebuilds its Edit menu when it is shown: Paste read disabled after a Cut, as when the menu was last open.
    const { window } = await desktop.launchFixture('gtk3', { title: 'Menu On Show Fixture', extraArgs: ['--paste-on-show'] });
    const paste = async () => (await oracle.find(window.pid, window.title, 'menu item', 'Paste')).states!;
    try {
      assert.ok(!(await paste()).includes('sensitive'), 'pyatspi: Paste reads disabled while its menu is closed');
      const refused = await call('invoke_menu', { window_id: window.id, path: ['Edit', 'Paste'] });
      assert.equal((refused.structuredContent as { error: string }).error, 'menu_item_disabled', text(refused));
      const states = await paste();
      assert.ok(!states.includes('sensitive') && !states.includes('showing'), `pyatspi: Paste disabled when shown, and its menu closed again: ${states.join(', ')}`);
      // GTK3's menu bar kept the keyboard grab of the menu opened to look again: real keys typed into another window
      // went to this app (Pluma's document took them).
      const typed = await call('type_text', { window_id: gtk3.id, selector: 'name="Name field"', text: 'grab', delivery_mode: 'foreground' });
      assert.ok(!typed.isError, text(typed));
      assert.equal((await oracle.find(gtk3.pid, gtk3.title, 'text', 'Name field')).text, 'grab', 'pyatspi: the keys reached the window they were typed into');
      assert.equal((await oracle.find(window.pid, window.title, 'text', 'Name field')).text, '', 'pyatspi: none went to the app whose menu was closed');
      assert.ok(!(await call('set_value', { window_id: gtk3.id, selector: 'name="Name field"', value: '' })).isError);

      const field = await call('find_elements', { window_id: window.id, selector: 'name="Name field"' });
      const token = (field.structuredContent as { matches: { element_token: string }[] }).matches[0]!.element_token;
      assert.ok(!(await call('set_value', { element_token: token, value: 'to paste' })).isError);
      assert.ok(!(await paste()).includes('sensitive'), 'pyatspi: Paste reads disabled while its menu is closed, as when it was last shown');
      const result = await call('invoke_menu', { window_id: window.id, path: ['Edit', 'Paste'] });
      assert.ok(!result.isError, text(result));
      assert.equal((await oracle.status(window.pid, window.title)).last_key, 'menu:Paste', 'the fixture: Paste was chosen');
      assert.ok(!(await paste()).includes('showing'), 'pyatspi: the menu is closed');
    } finally {
      process.kill(window.pid);
    }
  });

  test('invoke_menu right after an app showed its window waits a bounded while for its tree: an app joins the accessibility bus after its window shows', async () => {
    // The fixture starts its accessibility bridge 2 s after its window shows, as an app still starting up does.
    const { window } = await desktop.launchFixture('gtk3', { title: 'Late Bridge Fixture', extraArgs: ['--late-bridge-ms', '2000'] });
    try {
      const registered = spawnSync('/usr/bin/python3', ['-c', `import pyatspi\nprint(any(a and a.get_process_id() == ${window.pid} for a in pyatspi.Registry.getDesktop(0)))`], { env: desktop.env(), encoding: 'utf8' });
      assert.equal(registered.stdout.trim(), 'False', `pyatspi: the app is not on the bus yet: ${registered.stdout}${registered.stderr}`);
      // It was refused at once with no_accessibility, and advice for Tk and Motif.
      const result = await call('invoke_menu', { pid: window.pid, path: ['Help', 'About'] });
      assert.ok(!result.isError, text(result));
      assert.equal((await oracle.status(window.pid, window.title)).last_key, 'menu:About', 'the fixture: About was chosen');
    } finally {
      process.kill(window.pid);
    }
  });

  test('invoke_menu cancelled while it waits for a tree stops there: the item is not chosen once the tree comes', async () => {
    const { window } = await desktop.launchFixture('gtk3', { title: 'Late Bridge Cancel', extraArgs: ['--late-bridge-ms', '2500'] });
    try {
      const cancel = new AbortController();
      const called = client.callTool({ name: 'invoke_menu', arguments: { pid: window.pid, path: ['Help', 'About'] } }, undefined, { signal: cancel.signal }).catch((error: Error) => error);
      await sleep(800);
      cancel.abort();
      assert.ok((await called) instanceof Error, 'the client hears no answer to a cancelled request');
      // Past the bridge's start and the 5 s the wait would have lasted: the fixture, read by pyatspi, chose nothing.
      await sleep(5000);
      assert.equal((await oracle.status(window.pid, window.title)).last_key, '', 'the fixture: no menu item was chosen');
    } finally {
      process.kill(window.pid);
    }
  });

  test('invoke_menu on Qt (FeatherPad): a nested path toggles a check item, judged by pyatspi; a disabled item is refused', async () => {
    const before = await oracle.find(qt.pid, qt.title, 'menu item', 'Line Numbers');
    const result = await call('invoke_menu', { pid: qt.pid, path: ['Options', 'Line Numbers'] });
    assert.ok(!result.isError, text(result));
    const after = await oracle.find(qt.pid, qt.title, 'menu item', 'Line Numbers');
    assert.notEqual(after.states!.includes('checked'), before.states!.includes('checked'), 'the check item changed');
    // Copy is disabled with nothing selected in an empty document.
    const disabled = await call('invoke_menu', { pid: qt.pid, path: ['Edit', 'Copy'] });
    assert.equal((disabled.structuredContent as { error: string }).error, 'menu_item_disabled');
  });

  test('CLI: a missing menu item fails naming it and what the menu holds; a submenu as the last name says how to go on', async () => {
    const missing = await runCli(['call', 'invoke_menu', JSON.stringify({ pid: gtk3.pid, window_id: gtk3.id, path: ['Edit', 'Save As...'] })], env);
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr.trim(), 'cup-driver: error [menu_item_not_found]: the "Edit" menu has no item "Save As..."; its items: "Copy", "Paste"');
    const top = await runCli(['call', 'invoke_menu', JSON.stringify({ pid: gtk3.pid, window_id: gtk3.id, path: ['Filez', 'New'] }), '--json'], env);
    const structured = JSON.parse(top.stdout).structuredContent as { error: string; items: string[]; missing: string };
    assert.equal(structured.error, 'menu_item_not_found');
    assert.deepEqual(structured.items, ['File', 'Edit', 'Help']);
    const submenu = await runCli(['call', 'invoke_menu', JSON.stringify({ pid: gtk3.pid, window_id: gtk3.id, path: ['File'] })], env);
    assert.match(submenu.stderr, /"File" is a submenu, not an item; continue the path with one of: "New", "Quit"/);
  });

  test('check_permissions (CLI) finds everything on the test desktop, and says what it found', async () => {
    const run = await runCli(['call', 'check_permissions', '{}', '--json'], env);
    assert.equal(run.status, 0, run.stderr);
    const checks = (JSON.parse(run.stdout).structuredContent as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] }).checks;
    const byName = new Map(checks.map((check) => [check.name, check]));
    for (const name of ['x_server', 'xtest', 'window_manager', 'accessibility_bus', 'accessibility_enabled', 'apps_registered']) {
      assert.equal(byName.get(name)?.ok, true, `${name}: ${byName.get(name)?.detail}`);
    }
    assert.match(byName.get('x_server')!.detail, new RegExp(`on ${desktop.state.display},`));
    assert.match(byName.get('window_manager')!.detail, /Openbox/);
    assert.match(byName.get('apps_registered')!.detail, new RegExp(`pid ${gtk3.pid}\\b`));
    assert.match(byName.get('apps_registered')!.detail, new RegExp(`pid ${qt.pid}\\b`));
    assert.equal(byName.get('ffmpeg')!.ok, existsSync('/usr/bin/ffmpeg'));
  });

  test('health_report through the daemon names the daemon, its clients and the sessions', async () => {
    const run = await runCli(['call', 'health_report', '{}', '--json', '--session', 'health-1'], env);
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout).structuredContent as {
      versions: { cup_driver: string; node: string };
      host: { kind: string; pid: number; connections: number; socket: string };
      sessions: { session: string; busy: boolean }[];
      desktop: { window_manager: string; connections: { x11: boolean } };
    };
    assert.equal(report.versions.cup_driver, packageVersion);
    assert.equal(report.versions.node, process.version);
    assert.equal(report.host.kind, 'daemon');
    assert.ok(report.host.connections >= 1);
    assert.ok(report.sessions.some((session) => session.session === 'health-1' && session.busy));
    assert.equal(report.desktop.window_manager, 'Openbox');
    assert.equal(report.desktop.connections.x11, true);
  });

  test('check_for_update asks the registry npm would use: newer, offline and hung registries each get a clear answer within 3 s', async () => {
    let hang = false;
    const server: Server = createServer((request, response) => {
      if (hang) return; // never answers
      assert.equal(request.url, '/cup-driver/latest');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ name: 'cup-driver', version: '99.1.0' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const ask = async (registry: string) => {
      const run = await runCli(['call', 'check_for_update', '{}', '--json', '--no-daemon'], { ...env, npm_config_registry: registry });
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout).structuredContent as { status: string; latest: string | null; update_available: boolean; elapsed_ms: number; detail: string };
    };
    try {
      const newer = await ask(`http://127.0.0.1:${port}/`);
      assert.deepEqual([newer.status, newer.latest, newer.update_available], ['update_available', '99.1.0', true]);
      hang = true;
      const hung = await ask(`http://127.0.0.1:${port}`);
      assert.equal(hung.status, 'unreachable');
      assert.match(hung.detail, /no answer within 3 s/);
      assert.ok(hung.elapsed_ms >= 2900 && hung.elapsed_ms < 3600, `gave up after ${hung.elapsed_ms} ms`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const offline = await ask(`http://127.0.0.1:${port}/`);
    assert.equal(offline.status, 'unreachable');
    assert.match(offline.detail, /could not reach the registry: .*ECONNREFUSED/);
    assert.ok(offline.elapsed_ms < 3000);
  });
});
