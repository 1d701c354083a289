// The keyboard shortcuts menus show beside their items (and Qt's buttons answer to), in the JSON tree's keyShortcut:
// GTK 3's accelerators, from an accel group and from a menu model, and Qt 5's shortcuts, on the fixtures. The oracle is
// Debian's pyatspi, reading each item's first action's key binding from the bus.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, testContext } from '../helpers/tools.js';
import { subtree } from '../helpers/web-browser.js';

const itemRoles = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'button']);

describe('key shortcuts', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** Each menu item's and button's keyShortcut in the window's JSON tree, by name (none: null). */
  async function shortcuts(window: ClientWindow, context = fixtures.context): Promise<Record<string, string | null>> {
    const { result } = await accessibleWindowState(context, window, { include_screenshot: false, format: 'json' });
    const nodes = (JSON.parse(result.body!) as { tree: CupNode[] }).tree.flatMap(subtree).filter((node) => itemRoles.has(node.role));
    return Object.fromEntries(nodes.map((node) => [node.name.trim(), node.attributes?.keyShortcut ?? null]));
  }

  /** The key binding pyatspi reads of each object of these roles, by name. */
  async function bindings(window: ClientWindow, roles: string[]): Promise<Record<string, string>> {
    const nodes = await fixtures.oracle.keyBindings(window.pid, window.title, roles);
    return Object.fromEntries(nodes.map((node) => [node.name.trim(), node.binding]));
  }

  /** The shortcuts a fresh session's walk reads (no live mirror, nothing known of the objects). */
  async function freshShortcuts(window: ClientWindow): Promise<Record<string, string | null>> {
    const fresh = testContext();
    try {
      return await shortcuts(window, fresh);
    } finally {
      await fresh.desktop.close();
    }
  }

  test("a GTK 3 menu's items carry their accelerators, not their mnemonics, as the menu shows them", async () => {
    const window = await fixtures.launch('gtk3', { title: 'Shortcut Fixture', extraArgs: ['--accels', '--model-menu'] });
    const reported = await bindings(window, ['menu item', 'check menu item']);
    // The oracle says GTK reports the accelerators (mnemonic;path;accelerator), and none for Copy.
    assert.match(reported.Quit!, /^q;.*;<(Primary|Control)>q$/, `its mnemonic first, its accelerator last: ${JSON.stringify(reported)}`);
    assert.match(reported['Word Wrap']!, /;<Primary><Shift>w$/, JSON.stringify(reported));
    assert.doesNotMatch(reported.Copy ?? '', /;.+$/, JSON.stringify(reported));

    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'name=File' });
    const file = await shortcuts(window);
    assert.equal(file.New, 'Ctrl+N', JSON.stringify(file));
    assert.equal(file.Quit, 'Ctrl+Q', JSON.stringify(file));
    assert.deepEqual(await freshShortcuts(window), file, 'a fresh walk reads what the live mirror holds');
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });

    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'name=Edit' });
    const edit = await shortcuts(window);
    assert.equal(edit.Copy, null, `an item with no accelerator has none: ${JSON.stringify(edit)}`);
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });

    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'name=View' });
    const view = await shortcuts(window);
    assert.equal(view['Word Wrap'], 'Ctrl+Shift+W', `a menu model's accel: ${JSON.stringify(view)}`);
    assert.deepEqual(await freshShortcuts(window), view);
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });

    const compact = (await accessibleWindowState(fixtures.context, window, { include_screenshot: false })).result.body!;
    assert.ok(!compact.includes('Ctrl+'), `the compact text (COMPACT.md) shows no shortcut:\n${compact}`);
  });

  test("a Qt 5 menu's items and a button carry their shortcuts", async () => {
    const window = await fixtures.launch('qt5', { title: 'Shortcut Qt', extraArgs: ['--shortcuts'] });
    const reported = await bindings(window, ['menu item', 'check menu item', 'radio menu item', 'push button']);
    assert.equal(reported.Radian, 'Ctrl+Shift+R', JSON.stringify(reported));
    assert.equal(reported['Line 1'], 'Ctrl+L', JSON.stringify(reported));

    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'name=Units' });
    const units = await shortcuts(window);
    assert.equal(units.Radian, 'Ctrl+Shift+R', JSON.stringify(units));
    assert.equal(units.Degree, 'Ctrl+PgDown', JSON.stringify(units));
    assert.equal(units['Line 1'], 'Ctrl+L', JSON.stringify(units));
    assert.deepEqual(await freshShortcuts(window), units, 'a fresh walk reads what the last read did');
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });
  });

  // A background ctrl+q with no element goes to the menu item whose accelerator it is (File > Quit), which ends the app:
  // what is confirmed is the window closing and the app exiting (the rule for keys and clicks that end their app), not
  // the menu's items destroyed on the way out. The oracles are the process table and pyatspi (the app left the bus).
  test('background ctrl+q chooses File > Quit, and the evidence says the window closed and the app exited, also where the app takes its menus down first and exits later', async () => {
    // An app that saves its state on the way out destroys its menus well before its window closes.
    const window = await fixtures.launch('gtk3', { title: 'Quit Fixture', extraArgs: ['--accels', '--slow-quit-ms', '600'] });
    // The agent read the window first, with File's menu opened once, so the snapshot holds the menu's items.
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'name=File' });
    await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });
    const quit = await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'ctrl+q' });
    const evidence = (quit.structured.evidence as string[]) ?? [];
    for (const deadline = Date.now() + 10_000; fixtures.context.desktop.processAlive(window.pid) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(fixtures.context.desktop.processAlive(window.pid), false, 'the fixture exited on File > Quit');
    assert.deepEqual(await fixtures.oracle.topLevels(window.pid), [], 'pyatspi: the app has no window left on the bus');
    assert.equal(quit.structured.effect, 'confirmed', quit.summary);
    assert.match(evidence.join('\n'), /File > Quit/, quit.summary);
    assert.ok(evidence.includes(`the app (pid ${window.pid}) exited`), JSON.stringify(evidence));
    assert.ok(evidence.some((line) => line.startsWith(`window ${window.id} `) && line.endsWith('closed or hidden')), JSON.stringify(evidence));
    assert.ok(!evidence.some((line) => line.includes('destroyed')), `no line lists what went with the app: ${JSON.stringify(evidence)}`);
  });
});
