// wait_for's window_title against a title whose accented letter the app spells decomposed (O + U+0308, as names
// made on macOS are), written composed by the agent: the window is found. xprop reads the title the app set.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk } from '../helpers/tools.js';

describe('a window title in the other spelling of its accented letters', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  const decomposed = 'O\u0308ffnen Fenster';

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: decomposed, rows: 3 });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The oracles for an untitled warning: xprop reads no title on the window, pyatspi names the app's top-level alert "Warning". */
  function untitledWarning(windowId: number, pid: number): void {
    const xprop = execFileSync('xprop', ['-id', String(windowId), 'WM_NAME', '_NET_WM_NAME'], { env: fixtures.desktop.env(), encoding: 'utf8', timeout: 10_000 });
    assert.match(xprop, /WM_NAME\(STRING\) = \n_NET_WM_NAME\(UTF8_STRING\) = \n|not found/, xprop);
    const tops = execFileSync('/usr/bin/python3', ['-c', [
      'import pyatspi',
      `app = next(app for app in pyatspi.Registry.getDesktop(0) if app and app.get_process_id() == ${pid})`,
      'print("\\n".join(f"{top.getRoleName()}|{top.name}" for top in app))',
    ].join('\n')], { env: fixtures.desktop.env(), encoding: 'utf8', timeout: 30_000 });
    assert.ok(tops.split('\n').includes('alert|Warning'), `pyatspi: ${tops}`);
  }

  test('list_windows gives a window with no title the name of its accessible top-level object, apart from its title', async () => {
    // Ristretto's warnings: a GTK3 message dialog with no title, listed as "" among the app's windows.
    const { window: main } = await fixtures.desktop.launchFixture('gtk3', { title: 'Warned Fixture', extraArgs: ['--untitled-warning', 'Disk almost full'] });
    type Listed = { window_id: number; pid: number; title: string; accessible_name?: string };
    let listed: Listed[] = [];
    for (let tries = 0; tries < 50 && !listed.some((entry) => entry.window_id !== main.id); tries++) {
      listed = ((await callOk(fixtures.context, 'list_windows', { pid: main.pid })).structured as { windows: Listed[] }).windows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const dialog = listed.find((entry) => entry.window_id !== main.id);
    assert.ok(dialog, JSON.stringify(listed));
    // The case: X knows no title for it; pyatspi names its top-level alert "Warning".
    untitledWarning(dialog.window_id, main.pid);
    assert.equal(dialog.title, '', 'the title stays what X says');
    assert.equal(dialog.accessible_name, 'Warning', JSON.stringify(dialog));
    // A window with a title of its own has none.
    assert.equal(listed.find((entry) => entry.window_id === main.id)?.accessible_name, undefined);
  });

  test('an action that opens or closes a window with no title names it by its accessible name, not ""', async () => {
    // HexChat's and GNOME System Monitor's warnings: GTK3 message dialogs with no title, named `""` in the evidence and new_windows line.
    const { window: main } = await fixtures.desktop.launchFixture('gtk3', { title: 'Warn Fixture', extraArgs: ['--warn-button'] });
    await callOk(fixtures.context, 'get_window_state', { window_id: main.id });
    const opened = await callOk(fixtures.context, 'click', { window_id: main.id, selector: 'role=button name="Warn…"' });
    type Opened = { window_id: number; pid: number; title: string; accessible_name?: string };
    const text = `${opened.summary}\n${opened.body ?? ''}`;
    const dialog = ((opened.structured.new_windows ?? []) as Opened[]).find((entry) => entry.pid === main.pid);
    assert.ok(dialog, text);
    untitledWarning(dialog.window_id, main.pid);
    assert.equal(dialog.title, '');
    assert.equal(dialog.accessible_name, 'Warning', JSON.stringify(dialog));
    assert.ok(!text.includes(`${dialog.window_id} ""`), `no window is named "" in the result: ${text}`);
    assert.match(text, new RegExp(`new window: ${dialog.window_id} "Warning"`), text);
    // Its OK button closes it: the evidence names the window that closed.
    await callOk(fixtures.context, 'get_window_state', { window_id: dialog.window_id });
    const closed = await callOk(fixtures.context, 'click', { window_id: dialog.window_id, selector: 'role=button name=OK' });
    const closedText = `${closed.summary}\n${closed.body ?? ''}\n${((closed.structured.evidence ?? []) as string[]).join('\n')}`;
    assert.match(closedText, new RegExp(`window ${dialog.window_id} "Warning" \\(no title; its accessible name\\) closed or hidden`), closedText);
  });

  test('wait_for window_title "öffnen" (composed) finds it', async () => {
    const title = execFileSync('xprop', ['-id', String(window.id), '_NET_WM_NAME'], { env: fixtures.desktop.env(), encoding: 'utf8', timeout: 10_000 });
    assert.ok(title.includes(decomposed), `xprop: the app's title is decomposed: ${title}`);
    const found = (await callOk(fixtures.context, 'wait_for', { window_title: '\u00f6ffnen', timeout_ms: 3000 })).structured as { windows?: { window_id: number }[] };
    assert.ok(found.windows?.some((entry) => entry.window_id === window.id), JSON.stringify(found));
  });
});
