import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { validateEnvelope, type CupEnvelope } from '../../src/cup/index.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { XReaders } from '../helpers/x-readers.js';
import { accessibleWindowState, callOk, failsWith, pyatspiWalk, testContext, type Element, type WindowState } from '../helpers/tools.js';

/** xwininfo is an independent reader of the X server's idea of a window's geometry. */
function xwininfoGeometry(windowId: number, env: NodeJS.ProcessEnv) {
  const text = execFileSync('xwininfo', ['-id', String(windowId)], { env, encoding: 'utf8' });
  const number = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(text)![1]);
  return { x: number('Absolute upper-left X'), y: number('Absolute upper-left Y'), width: number('Width'), height: number('Height') };
}

function find(elements: Element[], role: string, name: string): Element {
  const found = elements.find((element) => element.role === role && element.name === name);
  assert.ok(found, `no ${role} "${name}" among: ${elements.map((e) => `${e.role} "${e.name}"`).join(', ')}`);
  return found;
}

function inside(inner: { x: number; y: number; w: number; h: number }, outer: ClientWindow['bounds']): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.width && inner.y + inner.h <= outer.y + outer.height;
}

describe('perception of real GTK3 and GTK4 apps on the embedded desktop', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let gtk3: ClientWindow;
  let gtk4: ClientWindow;
  let calculator: ClientWindow;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    gtk3 = (await desktop.launchFixture('gtk3')).window;
    const launched4 = await desktop.launchFixture('gtk4');
    // A window away from 0,0 proves GTK4's window-relative extents are translated, not taken as screen positions.
    const x = await desktop.x11();
    await x.configureWindow(launched4.window.id, { x: 700, y: 120 });
    const moveDeadline = Date.now() + 5000;
    while (Date.now() < moveDeadline) {
      const windows = (await callOk(context, 'list_windows')).structured.windows as { window_id: number; bounds: { x: number } }[];
      if (windows.find((w) => w.window_id === launched4.window.id)!.bounds.x !== launched4.window.bounds.x) break;
      await sleep(50);
    }
    gtk4 = (await context.desktop.windows()).find((w) => w.id === launched4.window.id)!;
    calculator = (await desktop.launch('gnome-calculator', [], 'Calculator')).window;
    // The calculator resizes itself after it maps, sometimes more than once; wait until its
    // geometry has held still for a second.
    let previous = '';
    let stableSince = Date.now();
    for (const deadline = Date.now() + 8000; Date.now() < deadline; await sleep(150)) {
      calculator = (await context.desktop.windows()).find((window) => window.id === calculator.id)!;
      const now = JSON.stringify(calculator.bounds);
      if (now !== previous) [previous, stableSince] = [now, Date.now()];
      else if (Date.now() - stableSince >= 1000) break;
    }
  });

  after(async () => {
    context?.desktop.close();
    await desktop?.stop();
  });

  test('list_windows reports each window with its pid and the X server geometry', async () => {
    type WindowRecord = { window_id: number; pid: number; title: string; bounds: { x: number; y: number; w: number; h: number }; z_index: number; is_on_screen: boolean };
    const expectedWindows = [gtk3, gtk4, calculator];
    const geometries = () => expectedWindows.map((window) => xwininfoGeometry(window.id, desktop.env()));
    // The calculator may still resize itself (openbox then moves it to stay on screen), so compare
    // against a reading of the X server that held still for the whole list_windows call.
    let windows: WindowRecord[] = [];
    let truth: ReturnType<typeof geometries> = [];
    for (const deadline = Date.now() + 5000; ; await sleep(200)) {
      const before = geometries();
      windows = (await callOk(context, 'list_windows')).structured.windows as WindowRecord[];
      truth = geometries();
      if (JSON.stringify(before) === JSON.stringify(truth)) break;
      assert.ok(Date.now() < deadline, 'the windows never held still for one list_windows call');
    }
    expectedWindows.forEach((expected, index) => {
      const record = windows.find((window) => window.window_id === expected.id);
      assert.ok(record, `window ${expected.id} missing`);
      assert.equal(record.pid, expected.pid);
      assert.equal(record.title, expected.title);
      const { x, y, width, height } = truth[index]!;
      assert.deepEqual(record.bounds, { x, y, w: width, h: height });
      assert.equal(record.is_on_screen, true);
    });
    assert.equal(gtk4.bounds.x, xwininfoGeometry(gtk4.id, desktop.env()).x);
    assert.notEqual(gtk4.bounds.x, 0);
    // Front-most first, and z_index agrees with that order.
    const zs = windows.map((window) => window.z_index);
    assert.deepEqual(zs, [...zs].sort((a, b) => b - a));
    // And that order is the X server's stacking as xwininfo reads it.
    const ranks = await new XReaders(desktop.env()).stackingRank(expectedWindows.map((window) => window.id));
    const listed = windows.filter((window) => ranks.has(window.window_id)).map((window) => window.window_id);
    assert.deepEqual(listed, [...listed].sort((a, b) => ranks.get(a)! - ranks.get(b)!), 'list_windows orders the windows as the X server stacks them');
  });

  test('GTK3 fixture: controls appear with CUP role, name, states and bounds that pyatspi agrees with', async () => {
    const { state, result } = await accessibleWindowState(context, gtk3);
    assert.equal(state.degraded, false);
    assert.match(state.toolkit ?? '', /^gtk 3\./i);
    const entry = find(state.elements, 'textbox', 'Name field');
    assert.ok(entry.states.includes('editable'));
    assert.ok(entry.actions.includes('type'));
    const check = find(state.elements, 'checkbox', 'Enable feature');
    assert.ok(!check.states.includes('checked'));
    const slider = find(state.elements, 'slider', 'Volume');
    assert.equal(slider.value, '50');
    const increment = find(state.elements, 'button', 'Increment');
    assert.ok(!increment.states.includes('disabled') && !increment.states.includes('focused'));
    assert.ok(find(state.elements, 'button', 'Disabled button').states.includes('disabled'));
    assert.equal(find(state.elements, 'combobox', 'Color').value, 'Red');
    find(state.elements, 'menuitem', 'File');
    for (const element of [entry, check, slider, increment]) assert.ok(inside(element.bounds!, gtk3.bounds), `${element.name} lies inside the window`);

    const oracle = await pyatspiWalk(gtk3.pid, gtk3.title, desktop.env());
    const oracleButton = oracle.find((node) => node.role === 'push button' && node.name === 'Increment')!;
    const [x, y, w, h] = oracleButton.extents!;
    assert.deepEqual(increment.bounds, { x, y, w, h });
    // A compact read leaves the items of closed menus unread; a whole one (JSON) reads every object.
    const whole = await accessibleWindowState(context, gtk3, { include_screenshot: false, format: 'json' });
    assert.equal(whole.state.node_count, oracle.length, 'the same number of objects as a full pyatspi walk');
    assert.match(result.body!, /^ +\[e\d+\] btn "Increment" \d+,\d+ \d+x\d+ \[clk\]$/m);
    // The placeholder comes from the entry's attributes, which are asked again on every capture.
    assert.match(result.body!, /"Name field".*\(ph="Type a name"\)/);
    assert.match((await accessibleWindowState(context, gtk3)).result.body!, /"Name field".*\(ph="Type a name"\)/);
  });

  test('GTK3 rows scrolled out of the list are offscreen with no position, visible rows keep theirs', async () => {
    const { state } = await accessibleWindowState(context, gtk3, { detail: 'full' });
    const first = find(state.elements, 'option', 'Row 1');
    assert.ok(first.bounds && !first.states.includes('offscreen'));
    const last = find(state.elements, 'option', 'Row 40');
    assert.equal(last.bounds, undefined);
    assert.ok(last.states.includes('offscreen'));
  });

  test('GTK4 fixture: window-relative extents are placed on screen; SENSITIVE without ENABLED is not disabled', async () => {
    const { state } = await accessibleWindowState(context, gtk4);
    assert.equal(state.degraded, false);
    assert.match(state.toolkit ?? '', /^gtk 4\./i);
    const increment = find(state.elements, 'button', 'Increment');
    assert.ok(!increment.states.includes('disabled'), 'GTK4 never sets ENABLED; the button must not read as disabled');
    assert.ok(!increment.states.includes('offscreen'), 'GTK4 never sets SHOWING; the button must not read as offscreen');
    assert.ok(find(state.elements, 'button', 'Disabled button').states.includes('disabled'));
    assert.ok(inside(increment.bounds!, gtk4.bounds), `${JSON.stringify(increment.bounds)} inside ${JSON.stringify(gtk4.bounds)}`);

    const oracle = await pyatspiWalk(gtk4.pid, gtk4.title, desktop.env());
    const oracleButton = oracle.find((node) => node.role === 'push button' && node.name === 'Increment')!;
    const [wx, wy, w, h] = oracleButton.window_extents!;
    assert.deepEqual(increment.bounds, { x: gtk4.bounds.x + wx, y: gtk4.bounds.y + wy, w, h });
    // No GTK type names ("GtkStackPage") are passed off as accessible names.
    assert.ok(!state.elements.some((element) => /^Gtk[A-Z]/.test(element.name)));
  });

  test('gnome-calculator (GTK4, libadwaita): the whole keypad is present and on screen', async () => {
    const { state } = await accessibleWindowState(context, calculator);
    // The calculator resizes itself after it first maps; compare with its geometry now.
    calculator = (await context.desktop.windows()).find((window) => window.id === calculator.id)!;
    assert.equal(state.degraded, false);
    const digits = state.elements.filter((element) => element.role === 'button' && /^[0-9]( [0-9])?$/.test(element.name));
    assert.equal(new Set(digits.map((digit) => digit.name[0])).size, 10, `digit buttons: ${digits.map((d) => d.name).join(', ')}`);
    for (const digit of digits) {
      assert.ok(!digit.states.includes('offscreen') && !digit.states.includes('disabled'));
      assert.ok(inside(digit.bounds!, calculator.bounds), `${digit.name} ${JSON.stringify(digit.bounds)} in ${JSON.stringify(calculator.bounds)}`);
    }
  });

  test('SpeedCrunch (Qt 5): the tree reads without crashing the app (Qt segfaults on Properties.GetAll)', async () => {
    const speedcrunch = await desktop.launch('speedcrunch', [], 'SpeedCrunch');
    try {
      let state: WindowState | undefined;
      for (let attempt = 0; attempt < 3; attempt++) state = (await accessibleWindowState(context, speedcrunch.window)).state;
      assert.equal(speedcrunch.process.exitCode, null, 'still running after three captures');
      assert.equal(speedcrunch.process.signalCode, null);
      assert.equal(state!.degraded, false);
      assert.match(state!.toolkit ?? '', /^qt 5\./i);
      const menu = find(state!.elements, 'menuitem', 'Session');
      assert.ok(menu.actions.includes('expand') && menu.actions.includes('click'));
      assert.ok(inside(menu.bounds!, speedcrunch.window.bounds));
      const input = state!.elements.find((element) => element.role === 'textbox' && element.states.includes('editable'));
      assert.ok(input, 'the expression line');

      // Qt gives no text at all for a range that ends past the text, so the value must be read to its real end.
      const typed = await callOk(context, 'type_text', { window_id: speedcrunch.window.id, element_index: input.index, text: '6*7' });
      assert.doesNotMatch(JSON.stringify(typed.structured), /text is now \\"\\"/);
      const after = (await accessibleWindowState(context, speedcrunch.window)).state;
      assert.equal(after.elements.find((element) => element.index === input.index)?.value, '6*7');
      const oracle = new PyatspiOracle(desktop.env());
      try {
        assert.ok((await oracle.texts(speedcrunch.window.pid, speedcrunch.window.title)).includes('6*7'), 'pyatspi reads the same text');
      } finally {
        oracle.close();
      }
    } finally {
      speedcrunch.process.kill('SIGKILL');
    }
  });

  test('the JSON envelope validates against the CUP schema and carries the raw AT-SPI role', async () => {
    for (const window of [gtk3, gtk4, calculator]) {
      const { result } = await accessibleWindowState(context, window, { format: 'json', include_screenshot: false });
      const envelope = JSON.parse(result.body!) as CupEnvelope;
      const validation = validateEnvelope(envelope);
      assert.deepEqual(validation.errors, []);
      assert.equal(envelope.platform, 'linux');
      assert.equal(envelope.app?.pid, window.pid);
      assert.equal(envelope.tree[0]!.role, 'window');
      assert.match(String(envelope.tree[0]!.platform?.linux?.atspiRole), /^ROLE_(FRAME|WINDOW|DIALOG)$/);
    }
  });

  test('the screenshot has the window size and is not blank', async () => {
    const { result, state } = await accessibleWindowState(context, gtk3);
    assert.equal(result.images.length, 1);
    const image = sharp(result.images[0]!.data);
    const metadata = await image.metadata();
    assert.equal(metadata.format, 'png');
    assert.equal(metadata.width, gtk3.bounds.width);
    assert.equal(metadata.height, gtk3.bounds.height);
    assert.deepEqual(state.screenshot, { width: gtk3.bounds.width, height: gtk3.bounds.height, scale: 1 });
    const stats = await image.stats();
    assert.ok(stats.channels.some((channel) => channel.stdev > 10), 'pixels vary: not a blank image');
  });

  test('markdown format tags every element with its element_index', async () => {
    const { result } = await accessibleWindowState(context, gtk3, { format: 'markdown', include_screenshot: false });
    assert.match(result.body!, /^\s*- button "Increment" \[element_index \d+\]/m);
  });

  test('query keeps matching lines and their ancestors with the original ids', async () => {
    const full = await accessibleWindowState(context, gtk3, { include_screenshot: false });
    const filtered = await accessibleWindowState(context, gtk3, { include_screenshot: false, query: 'increment' });
    const lines = filtered.result.body!.split('\n').filter((line) => line.trim().startsWith('['));
    const increment = find(full.state.elements, 'button', 'Increment');
    assert.ok(lines.some((line) => line.includes(`[e${increment.index}] btn "Increment"`)));
    assert.ok(lines[0]!.startsWith('[e0] win'), 'the window ancestor is kept');
    assert.ok(!lines.some((line) => line.includes('Volume')));
    assert.deepEqual(filtered.state.elements.map((e) => e.index).sort((a, b) => a - b), lines.map((l) => Number(/\[e(\d+)\]/.exec(l)![1])).sort((a, b) => a - b));
  });

  test('a query written as a selector keeps the elements it matches, with their ancestors: every push button pyatspi walks, and only they', async () => {
    const walked = await pyatspiWalk(gtk3.pid, gtk3.title, desktop.env());
    const showing = walked.filter((node) => node.role === 'push button' && node.states?.includes('showing')).map((node) => node.name).sort();
    const filtered = await accessibleWindowState(context, gtk3, { include_screenshot: false, query: 'role=button' });
    const buttons = filtered.state.elements.filter((element) => element.role === 'button');
    assert.deepEqual(buttons.map((element) => element.name).sort(), showing, filtered.result.body);
    // Besides the buttons, only what holds them.
    const lines = filtered.result.body!.split('\n').filter((line) => line.trim().startsWith('['));
    assert.equal(lines.length, filtered.state.elements.length);
    assert.ok(lines[0]!.startsWith('[e0] win'), 'the window ancestor is kept');
    assert.ok(!lines.some((line) => / (tbx|chk|sld) /.test(line)), filtered.result.body);
    // A malformed one is refused with its place, before anything is read.
    const refused = await failsWith(context, 'get_window_state', { window_id: gtk3.id, query: 'role=buton' }, 'invalid_selector');
    assert.match(refused.summary, /did you mean button/, refused.summary);
  });

  test('max_elements caps what is shown and says truncated; the indices stay the full read\'s, so one from before still clicks its element', async () => {
    const full = await accessibleWindowState(context, gtk3, { include_screenshot: false, detail: 'full' });
    const { state } = await accessibleWindowState(context, gtk3, { max_elements: 10, include_screenshot: false, detail: 'full' });
    assert.equal(state.node_count, 10);
    assert.equal(state.truncated, true);
    // The capped read shows the first ten nodes of the full numbering, each under the index it had there.
    for (const element of state.elements) {
      const same = full.state.elements.find((candidate) => candidate.index === element.index);
      assert.deepEqual([same?.role, same?.name], [element.role, element.name], `[e${element.index}] is the same node in both reads`);
    }
    // Increment lies past the cap: its index from the full read still clicks it, as the app's counter shows.
    const increment = find(full.state.elements, 'button', 'Increment');
    assert.ok(increment.index >= 10, `Increment is e${increment.index}, inside the cap`);
    const oracle = new PyatspiOracle(desktop.env());
    try {
      const before = Number((await oracle.status(gtk3.pid, gtk3.title)).counter);
      const clicked = await callOk(context, 'click', { window_id: gtk3.id, element_index: increment.index, diff: false });
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.equal(Number((await oracle.status(gtk3.pid, gtk3.title)).counter), before + 1);
    } finally {
      oracle.close();
    }
  });

  test('max_image_dimension downscales the screenshot and zoom maps screenshot pixels back to the window', async () => {
    await callOk(context, 'set_config', { max_image_dimension: 320 });
    try {
      const { state, result } = await accessibleWindowState(context, gtk3);
      const metadata = await sharp(result.images[0]!.data).metadata();
      assert.equal(Math.max(metadata.width!, metadata.height!), 320);
      assert.ok(Math.abs(state.screenshot!.scale - gtk3.bounds.height / 320) < 0.01);
      // The Increment button, in downscaled screenshot pixels.
      const button = find(state.elements, 'button', 'Increment').bounds!;
      const scale = state.screenshot!.scale;
      const toShot = (value: number) => value / scale;
      const zoomed = await callOk(context, 'zoom', {
        window_id: gtk3.id,
        pid: gtk3.pid,
        x1: toShot(button.x - gtk3.bounds.x),
        y1: toShot(button.y - gtk3.bounds.y),
        x2: toShot(button.x - gtk3.bounds.x + button.w),
        y2: toShot(button.y - gtk3.bounds.y + button.h),
      });
      const region = zoomed.structured.region as { x: number; y: number; w: number; h: number };
      // 20% padding on each side of the button, in real window pixels, clipped at the window's edges.
      const left = Math.max(0, button.x - gtk3.bounds.x - button.w * 0.2);
      const right = Math.min(gtk3.bounds.width, button.x - gtk3.bounds.x + button.w * 1.2);
      const top = Math.max(0, button.y - gtk3.bounds.y - button.h * 0.2);
      assert.ok(Math.abs(region.x - left) <= 2, JSON.stringify(region));
      assert.ok(Math.abs(region.y - top) <= 2, JSON.stringify(region));
      assert.ok(Math.abs(region.x + region.w - right) <= 2, JSON.stringify(region));
      const zoomMeta = await sharp(zoomed.images[0]!.data).metadata();
      assert.equal(zoomMeta.format, 'jpeg');
      assert.ok(zoomMeta.width! <= 500);
      // The button's centre, found in the zoom image, maps back to the same window pixel.
      const centreX = button.x - gtk3.bounds.x + button.w / 2;
      const centreY = button.y - gtk3.bounds.y + button.h / 2;
      const inZoom = { x: ((centreX - region.x) * zoomMeta.width!) / region.w, y: ((centreY - region.y) * zoomMeta.height!) / region.h };
      const back = context.state.images.zoomToWindow(gtk3.pid, inZoom.x, inZoom.y)!;
      assert.equal(back.windowId, gtk3.id);
      assert.ok(Math.abs(back.x - centreX) <= 1 && Math.abs(back.y - centreY) <= 1, JSON.stringify({ back, centreX, centreY }));
    } finally {
      await callOk(context, 'set_config', { max_image_dimension: 1568 });
    }
  });

  test('get_accessibility_tree lists the on-screen windows as the CUP overview', async () => {
    const result = await callOk(context, 'get_accessibility_tree');
    assert.match(result.body!, /^# CUP 0\.1\.0 \| linux \| 1280x800\n# overview \| \d+ windows\n\n/);
    for (const window of [gtk3, gtk4, calculator]) assert.ok(result.body!.includes(`${window.title} (pid:${window.pid})`));
    assert.match(result.body!, /^\* \[fg\] /m);
  });

  test('list_apps: running apps with their pid and .desktop entry, installed ones with pid 0', async () => {
    const result = await callOk(context, 'list_apps');
    const apps = result.structured.apps as { pid: number; name: string; running: boolean; active: boolean; launch_path: string | null; kind: string; last_used: string | null }[];
    const calc = apps.find((app) => app.pid === calculator.pid);
    assert.ok(calc, JSON.stringify(apps.filter((app) => app.running)));
    assert.equal(calc.name, 'Calculator');
    assert.equal(calc.running, true);
    assert.equal(calc.launch_path, '/usr/share/applications/org.gnome.Calculator.desktop');
    assert.equal(calc.kind, 'desktop');
    assert.ok(apps.some((app) => app.pid === gtk3.pid && app.running));
    // htop's entry is visible (gtk3-demo's says NoDisplay and must not be listed).
    assert.ok(!apps.some((app) => app.launch_path === '/usr/share/applications/gtk3-demo.desktop'));
    const demo = apps.find((app) => app.launch_path === '/usr/share/applications/htop.desktop');
    assert.ok(demo && demo.pid === 0 && !demo.running && !demo.active);
    assert.ok(!Number.isNaN(Date.parse(demo.last_used!)));
    assert.equal(apps.filter((app) => app.launch_path === calc.launch_path).length, 1, 'a running app is not listed again as installed');
  });

  test('get_screen_size and get_cursor_position read the X server', async () => {
    const size = await callOk(context, 'get_screen_size');
    assert.deepEqual(size.structured, { width: 1280, height: 800, scale_factor: 1 });
    const x = await desktop.x11();
    await x.warpPointer(x.screen.root, 321, 123);
    await x.sync();
    const cursor = await callOk(context, 'get_cursor_position');
    assert.deepEqual(cursor.structured, { x: 321, y: 123 });
  });
});
