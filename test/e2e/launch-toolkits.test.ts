import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { encodePng } from '../../src/image/encode.js';
import type { ToolContext } from '../../src/tools/context.js';
import { fixtureApps, TestDesktop } from '../helpers/desktop.js';
import { callOk, testContext } from '../helpers/tools.js';

/**
 * Toolkits the fixtures do not cover. Apps that set no _NET_WM_PID and have no accessibility (Xt/Xaw here; Tk and
 * Motif are alike): their windows still have their process (the X server knows it), and their reading says there
 * is no tree and what works instead. A Java app starts with its ATK bridge and is returned with its main frame, not
 * the splash screen that went before it, and so is a GTK app whose splash screen has a tree (GIMP's). An app starts in the caller's working directory (the daemon serves callers
 * in many). Judged by xprop (no _NET_WM_PID), xdotool (the windows), /proc (the process, its cwd) and pyatspi (the
 * applications on the bus).
 */
describe('launch_app and reading across toolkits: Xaw, Java behind a splash, and where apps start', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let folder: string;

  before(async () => {
    desktop = await TestDesktop.start();
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'cup-launch-cwd-')));
    // The caller's working directory, as the daemon passes each call's: not the test process's own.
    context = { ...testContext(), cwd: folder };
  });

  after(async () => {
    await desktop?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const run = (command: string, args: string[]) => spawnSync(command, args, { env: desktop.env(), encoding: 'utf8', timeout: 15_000 }).stdout;

  /** The pids of the applications registered on the accessibility bus, as pyatspi lists them. */
  function pidsOnBus(): number[] {
    const script = 'import pyatspi\nfor app in pyatspi.Registry.getDesktop(0):\n    print(app.get_process_id())';
    return run('/usr/bin/python3', ['-c', script]).split('\n').filter(Boolean).map(Number);
  }

  /** Runs `body` on the Swing fixture's frame, launched with launch_app (so with its ATK bridge), then kills it. */
  async function withSwingFrame(title: string, body: (frame: number, pid: number) => Promise<void>): Promise<void> {
    const result = await callOk(context, 'launch_app', { name: 'java', additional_arguments: [join(fixtureApps, 'SwingSplash.java'), title, '0'], creates_new_application_instance: true });
    const pid = result.structured.pid as number;
    try {
      await body((result.structured.windows as { window_id: number }[])[0]!.window_id, pid);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  }

  test('list_windows gives an Xaw window the pid of its process, which sets no _NET_WM_PID', async () => {
    const { process: xcalc, window } = await desktop.launch('xcalc', [], 'Calculator');
    assert.match(run('xprop', ['-id', String(window.id), '_NET_WM_PID']), /not found/, 'xcalc sets no _NET_WM_PID (the premise)');
    const listed = (await callOk(context, 'list_windows', {})).structured.windows as { window_id: number; pid: number }[];
    assert.equal(listed.find((entry) => entry.window_id === window.id)?.pid, xcalc.pid);
    const running = (await callOk(context, 'list_apps', {})).structured.apps as { pid: number }[];
    assert.ok(running.some((app) => app.pid === xcalc.pid), 'list_apps lists it as running');
    xcalc.kill('SIGKILL');
  });

  test('get_window_state of such an app says it has no tree, and to act on the screenshot', async () => {
    const { process: xcalc, window } = await desktop.launch('xcalc', [], 'Calculator');
    try {
      assert.ok(!pidsOnBus().includes(xcalc.pid!), 'pyatspi: xcalc is not on the accessibility bus');
      const state = await callOk(context, 'get_window_state', { pid: xcalc.pid, window_id: window.id, include_screenshot: false });
      assert.equal(state.structured.degraded, true);
      assert.match(String(state.structured.degraded_reason), /not registered on the accessibility bus.*click with x, y in window pixels/);
      // Its toolkit, from the libraries it maps (ldd names libXaw), is named: no switch would give it a tree.
      assert.match(run('ldd', ['/usr/bin/xcalc']), /libXaw/, 'xcalc links Xaw (the premise)');
      assert.match(String(state.structured.degraded_reason), /it is an Xt\/Xaw app: Xt\/Xaw has no accessibility support at all/);
    } finally {
      xcalc.kill('SIGKILL');
    }
  });

  test('an app read on the bus that leaves it (as an app quitting) is said to have left it, not to lack accessibility', async () => {
    const { process: app, window } = await desktop.launchFixture('gtk3', { title: 'Leaving Fixture', extraArgs: ['--leave-bus-on-usr2'] });
    try {
      const before = await callOk(context, 'get_window_state', { pid: app.pid, window_id: window.id, include_screenshot: false });
      assert.notEqual(before.structured.degraded, true, before.summary);
      app.kill('SIGUSR2');
      const deadline = Date.now() + 10_000;
      while (pidsOnBus().includes(app.pid!)) {
        assert.ok(Date.now() < deadline, 'pyatspi: the fixture left the accessibility bus within 10 s');
        await sleep(100);
      }
      assert.ok(run('xdotool', ['search', '--pid', String(app.pid), '--onlyvisible', '--name', 'Leaving Fixture']).trim(), 'xdotool: its window is still up');
      const after = await callOk(context, 'get_window_state', { pid: app.pid, window_id: window.id, include_screenshot: false });
      const reason = String(after.structured.degraded_reason);
      assert.equal(after.structured.degraded, true, after.summary);
      assert.match(reason, /was read on the accessibility bus before and has left it since/);
      // Its accessibility was on, and nothing switched it off: no relaunch with a switch is called for.
      assert.doesNotMatch(reason, /NO_AT_BRIDGE|switched off|relaunch/, reason);
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('a GTK3 window with no tree is said switched off only when NO_AT_BRIDGE=1 is in its environment; else, not registered yet', async () => {
    // The case: every GTK3 app off the bus was told NO_AT_BRIDGE=1 had switched it off, one still starting up included.
    const reasonOf = async (window: { id: number; pid: number }) => {
      const state = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
      assert.equal(state.structured.degraded, true, state.summary);
      return String(state.structured.degraded_reason);
    };
    // Its bridge starts a minute after its window shows (switched off inside the process, not in its environment).
    const late = (await desktop.launchFixture('gtk3', { title: 'Late Bridge Reason', extraArgs: ['--late-bridge-ms', '60000'] })).window;
    const off = (await desktop.launchFixture('gtk3', { title: 'Bridge Off Reason', env: { NO_AT_BRIDGE: '1', GTK_MODULES: '' } })).window;
    try {
      assert.ok(!pidsOnBus().includes(late.pid) && !pidsOnBus().includes(off.pid), 'pyatspi: neither app is on the bus');
      const starting = await reasonOf(late);
      assert.doesNotMatch(starting, /NO_AT_BRIDGE=1\)/, starting);
      assert.match(starting, /GTK 3/, starting);
      assert.match(starting, /has not registered/, starting);
      const switched = await reasonOf(off);
      assert.match(switched, /switched off \(NO_AT_BRIDGE=1\)/, switched);
    } finally {
      for (const pid of [late.pid, off.pid]) process.kill(pid, 'SIGKILL');
    }
  });

  test('launch_app of an app whose toolkit has no accessibility returns as its window shows, not at the 20 s deadline', async () => {
    const started = Date.now();
    const result = await callOk(context, 'launch_app', { name: 'xcalc', creates_new_application_instance: true });
    const elapsed = Date.now() - started;
    const pid = result.structured.pid as number;
    try {
      const windows = run('xdotool', ['search', '--pid', String(pid), '--onlyvisible', '--name', '^Calculator$']).split('\n').filter(Boolean).map(Number);
      assert.deepEqual((result.structured.windows as { window_id: number }[]).map((window) => window.window_id), windows, result.summary);
      assert.equal(result.structured.accessible, false, result.summary);
      assert.ok(!pidsOnBus().includes(pid), 'pyatspi: xcalc is not on the accessibility bus');
      assert.match(result.summary, /it is an Xt\/Xaw app/);
      assert.ok(elapsed < 10_000, `launch_app took ${elapsed} ms`);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('a program drawing with Xlib and no toolkit is said to have none, and launch_app returns as its window shows', async () => {
    // MuPDF's viewer is such a program: its launch waited out the 20 s deadline for a tree, and its reading told the
    // agent to try GTK's, Qt's, Chromium's and Java's switches, none of which it has.
    const started = Date.now();
    const result = await callOk(context, 'launch_app', { name: '/usr/bin/python3', additional_arguments: [join(fixtureApps, 'xlib_window.py'), 'Bare Xlib'], creates_new_application_instance: true });
    const elapsed = Date.now() - started;
    const pid = result.structured.pid as number;
    try {
      const libraries = readFileSync(`/proc/${pid}/maps`, 'utf8');
      assert.match(libraries, /\/libX11\.so/, 'the fixture maps Xlib (the premise)');
      assert.doesNotMatch(libraries, /\/lib(gtk|Qt|atk|atspi)/, 'and no toolkit or accessibility library (the premise)');
      const windows = run('xdotool', ['search', '--pid', String(pid), '--name', '^Bare Xlib$']).split('\n').filter(Boolean).map(Number);
      assert.deepEqual((result.structured.windows as { window_id: number }[]).map((window) => window.window_id), windows, result.summary);
      assert.equal(result.structured.accessible, false, result.summary);
      assert.ok(!pidsOnBus().includes(pid), 'pyatspi: the program is not on the accessibility bus');
      assert.ok(elapsed < 10_000, `launch_app took ${elapsed} ms`);
      const state = await callOk(context, 'get_window_state', { window_id: windows[0], include_screenshot: false });
      const reason = String(state.structured.degraded_reason);
      assert.match(reason, /it is an X11 \(Xlib\/XCB, no toolkit\) app: it draws its windows itself.*click with x, y in window pixels/);
      assert.doesNotMatch(reason, /GTK_MODULES|QT_ACCESSIBILITY|force-renderer-accessibility/, 'no switch it does not have is offered');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('an FLTK app is named as one, with no accessibility, not as a program with no toolkit, and launch_app returns as its window shows', async () => {
    // FLUID maps Xlib beside FLTK: it was told it "maps no toolkit or accessibility library".
    const started = Date.now();
    const result = await callOk(context, 'launch_app', { name: 'fluid', creates_new_application_instance: true });
    const elapsed = Date.now() - started;
    const pid = result.structured.pid as number;
    try {
      assert.match(readFileSync(`/proc/${pid}/maps`, 'utf8'), /\/libfltk\.so/, 'FLUID maps FLTK (the premise)');
      assert.equal(result.structured.accessible, false, result.summary);
      assert.ok(!pidsOnBus().includes(pid), 'pyatspi: FLUID is not on the accessibility bus');
      assert.ok(elapsed < 10_000, `launch_app took ${elapsed} ms`);
      const window = (result.structured.windows as { window_id: number }[])[0]!.window_id;
      const state = await callOk(context, 'get_window_state', { window_id: window, include_screenshot: false });
      const reason = String(state.structured.degraded_reason);
      assert.match(reason, /it is an? FLTK app: FLTK has no accessibility support at all.*click with x, y in window pixels/, reason);
      assert.doesNotMatch(reason, /no toolkit/, reason);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('a Tk window behind another is sent no background keys, as Tk drops them there, and the result says why; active, it takes them', async () => {
    const keyLog = join(folder, 'tk-keys.log');
    writeFileSync(keyLog, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', keyLog], 'CUP Fixture Tk');
    const { process: cover, window: coverWindow } = await desktop.launch('xcalc', [], 'Calculator');
    try {
      await callOk(context, 'bring_to_front', { window_id: coverWindow.id });
      // Sent as key events behind the cover, the key read "delivered, no effect seen" and Tk's log stayed empty.
      const behind = (await callOk(context, 'press_key', { window_id: window.id, key: 'q' })).structured as { path: string; escalation?: { recommended: string; reason: string } };
      assert.equal(behind.path, 'none', JSON.stringify(behind));
      assert.equal(behind.escalation?.recommended, 'foreground');
      assert.match(behind.escalation?.reason ?? '', /Tk reads key events only in the active window, which window \d+ is not .*nothing was sent/);
      const typed = (await callOk(context, 'type_text', { window_id: window.id, text: 'qq' })).structured as { path: string; escalation?: { reason: string } };
      assert.equal(typed.path, 'none', JSON.stringify(typed));
      assert.match(typed.escalation?.reason ?? '', /Tk reads key events only in the active window/);
      await sleep(300);
      assert.equal(readFileSync(keyLog, 'utf8'), '', 'Tk read no key');
      // Active, Tk takes the same sent keys: its own log has them.
      await callOk(context, 'bring_to_front', { window_id: window.id });
      const active = (await callOk(context, 'press_key', { window_id: window.id, key: 'w' })).structured as { path: string };
      assert.equal(active.path, 'key_events', JSON.stringify(active));
      let log = '';
      for (const deadline = Date.now() + 3000; !log.includes('w') && Date.now() < deadline; await sleep(50)) log = readFileSync(keyLog, 'utf8');
      assert.equal(log, 'w\n');
    } finally {
      tk.kill('SIGKILL');
      cover.kill('SIGKILL');
    }
  });

  test('a Java app started without its ATK bridge is named as such, told how to get a tree, and gets no background keys', async () => {
    // Started plainly, as a user starts it (not through launch_app, which loads the bridge): the JVM never joins the
    // bus. The reason once listed every toolkit's switch and told to install a bridge that was installed; and keys
    // sent as X events, which AWT drops, were sent and then judged by the window's pixels.
    const title = 'CUP Swing No Bridge';
    const { process: java, window } = await desktop.launch('java', [join(fixtureApps, 'SwingSplash.java'), title, '0'], title, 30_000, { JAVA_TOOL_OPTIONS: '' });
    try {
      await sleep(2000);
      assert.ok(!pidsOnBus().includes(java.pid!), 'pyatspi: the JVM is not on the accessibility bus');
      const state = await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      assert.equal(state.structured.degraded, true, state.summary);
      const reason = String(state.structured.degraded_reason);
      assert.match(reason, /it is a Java \(AWT\/Swing\) app: it was started without Java's ATK bridge, which is installed here: quit it and relaunch it with launch_app/);
      assert.doesNotMatch(reason, /GTK_MODULES|install its ATK bridge/, 'no other toolkit\'s switch, no install of what is installed');
      assert.match(reason, /delivery_mode "foreground"/);
      for (const [tool, args] of [['hotkey', { keys: ['ctrl', 'a'] }], ['type_text', { text: 'lost' }]] as const) {
        const sent = await callOk(context, tool, { window_id: window.id, ...args });
        assert.equal(sent.structured.path, 'none', `${tool}: nothing is sent to a window that drops sent keys\n${sent.summary}`);
        assert.match(String((sent.structured.escalation as { recommended?: string } | undefined)?.recommended), /foreground/, sent.summary);
        // No element of a window without a tree can be passed: the advice offers none.
        assert.doesNotMatch(`${sent.summary} ${JSON.stringify(sent.structured.escalation)}`, /element_index/, sent.summary);
      }
    } finally {
      java.kill('SIGKILL');
    }
  });

  test('launch_app of a Java app behind a splash screen returns its main frame, accessible through the ATK bridge', async () => {
    // The JVM shows the splash at once and the frame 3 s later, closing the splash; Java registers on the bus as AWT starts.
    const splash = join(folder, 'splash.png');
    const pixels = { width: 160, height: 60, channels: 3 as const, data: Buffer.alloc(160 * 60 * 3, 0x60) };
    writeFileSync(splash, (await encodePng(pixels, 0)).data);
    const title = 'CUP Swing Splash';
    const result = await callOk(context, 'launch_app', {
      name: 'java',
      additional_arguments: [`-splash:${splash}`, join(fixtureApps, 'SwingSplash.java'), title, '3000'],
      creates_new_application_instance: true,
    });
    const pid = result.structured.pid as number;
    try {
      const frames = run('xdotool', ['search', '--name', `^${title}$`]).split('\n').filter(Boolean).map(Number);
      assert.equal(frames.length, 1, 'xdotool finds the frame');
      const windows = result.structured.windows as { window_id: number; title: string }[];
      assert.deepEqual(windows.map((window) => window.window_id), frames, `the result lists the frame alone: ${result.summary}`);
      assert.equal(result.structured.accessible, true, result.summary);
      assert.ok(pidsOnBus().includes(pid), 'pyatspi: the JVM is on the accessibility bus');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('launch_app of a Java app behind a splash window of its own (a JWindow, with a tree) returns its main frame', async () => {
    // jEdit shows its splash as a JWindow: Java has no splash type for it, and the bridge puts it on the bus with a
    // label, so launch_app returned it ("win0") as the app's window, gone two seconds later. The window manager
    // lists it off the taskbar and frameless (xprop), as no window an app is worked in is.
    const title = 'CUP Swing Own Splash';
    const result = await callOk(context, 'launch_app', {
      name: 'java',
      additional_arguments: [join(fixtureApps, 'SwingSplash.java'), title, '3000', 'window'],
      creates_new_application_instance: true,
    });
    const pid = result.structured.pid as number;
    try {
      const frames = run('xdotool', ['search', '--name', `^${title}$`]).split('\n').filter(Boolean).map(Number);
      assert.equal(frames.length, 1, 'xdotool finds the frame');
      const windows = result.structured.windows as { window_id: number; title: string }[];
      assert.deepEqual(windows.map((window) => window.window_id), frames, `the result lists the frame alone: ${result.summary}\n${JSON.stringify(windows)}`);
      assert.equal(result.structured.accessible, true, result.summary);
      assert.ok(pidsOnBus().includes(pid), 'pyatspi: the JVM is on the accessibility bus');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('a click in a Java dialog that renames only its main frame is confirmed by the rename and lists the frame as changed', async () => {
    // jEdit's Replace All, in its Search And Replace dialog, changes the main window's text and title: Java announces
    // neither on the bus, and the click was judged by the dialog alone. Here the dialog's Rename button changes the
    // frame's title and nothing else; without the rule the click was "no effect seen" with a foreground retry offered.
    const title = 'CUP Swing Rename';
    await withSwingFrame(title, async (frame) => {
      await callOk(context, 'click', { window_id: frame, selector: 'role=button name="Rename..."' });
      const dialog = Number(run('xdotool', ['search', '--name', '^Rename Frame$']).trim());
      assert.ok(dialog > 0, 'xdotool finds the dialog');
      const clicked = await callOk(context, 'click', { window_id: dialog, selector: 'role=button name=Rename' });
      const renamed = `${title} (renamed 1)`;
      assert.match(run('xprop', ['-id', String(frame), 'WM_NAME']), new RegExp(`"${renamed.replace(/[()]/g, '\\$&')}"`), 'xprop: the frame was renamed once');
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.deepEqual(clicked.structured.evidence, [`window ${frame} was renamed "${title}" → "${renamed}"`]);
      assert.deepEqual(clicked.structured.other_windows_changed, [{ window_id: frame, title: renamed }]);
    });
  });

  test('a click whose only doing is a Swing field set again to its own text is no effect seen, not confirmed by "text is now"', async () => {
    // Swing's setText removes the text and inserts it again, announcing both: jEdit's Replace All re-set its dialog's
    // Filter field that way, and such a line confirmed clicks that did nothing.
    await withSwingFrame('CUP Swing Retext', async (frame, pid) => {
      const clicked = await callOk(context, 'click', { window_id: frame, selector: 'role=button name=Retext' });
      const script = [
        'import pyatspi',
        'def walk(node):',
        '    if node.getRole() == pyatspi.ROLE_TEXT: print(node.queryText().getText(0, -1))',
        '    for child in node: walk(child)',
        'for app in pyatspi.Registry.getDesktop(0):',
        `    if app.get_process_id() == ${pid}: walk(app)`,
      ].join('\n');
      assert.equal(run('/usr/bin/python3', ['-c', script]).trim(), 'hello', 'pyatspi: the field holds the text it held');
      assert.equal(clicked.structured.effect, 'suspected_noop', `${clicked.summary}\n${JSON.stringify(clicked.structured.evidence)}`);
    });
  });

  test('launch_app of an app whose splash (no accessibility) stays up while its child process shows an accessible window returns at once, accessible, with the child', async () => {
    // LibreOffice's oosplash keeps its splash up while the soffice.bin it started shows its Document Recovery dialog:
    // the splash alone was awaited for a tree until the 20 s deadline, and the result said "no accessibility tree, act
    // on the screenshot". Here the process launched shows a splash with its accessibility off (a GTK3 window with no
    // bridge), and once it is mapped a process it started shows the GTK3 fixture; the splash stays up.
    const title = 'CUP Behind Splash';
    const fixture = join(fixtureApps, 'gtk3_fixture.py');
    const script =
      `(until xdotool search --name '^CUP Splash$' >/dev/null 2>&1; do sleep 0.1; done; exec /usr/bin/python3 ${fixture} --title '${title}') & ` +
      `exec env -u GTK_MODULES NO_AT_BRIDGE=1 /usr/bin/python3 ${fixture} --title 'CUP Splash' --size 300x200`;
    const started = Date.now();
    const result = await callOk(context, 'launch_app', { name: '/bin/sh', additional_arguments: ['-c', script], creates_new_application_instance: true });
    const elapsed = Date.now() - started;
    const windows = result.structured.windows as { window_id: number; pid: number; title: string }[];
    try {
      const frames = run('xdotool', ['search', '--name', `^${title}$`]).split('\n').filter(Boolean).map(Number);
      assert.equal(frames.length, 1, 'xdotool finds the GTK3 window');
      assert.equal(result.structured.accessible, true, result.summary);
      assert.ok(windows.some((window) => window.window_id === frames[0]), `the result lists the GTK3 window: ${result.summary}`);
      assert.ok(pidsOnBus().includes(result.structured.pid as number), `pyatspi: pid ${result.structured.pid} (the result's) is on the accessibility bus`);
      assert.ok(elapsed < 12_000, `launch_app took ${elapsed} ms`);
    } finally {
      for (const pid of new Set([result.structured.pid as number, ...windows.map((window) => window.pid)])) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
  });

  test('launch_app of an app whose splash screen has a tree of its own (GIMP\'s) waits past it for the app\'s window', async () => {
    // GIMP's splash is a GTK window, accessible: launch_app answered with it, and the agent's next reading found no
    // window 10 s later. Watched while the launch runs: xdotool finds the splash and xprop says what type it is.
    const title = 'CUP After Splash';
    const launched = callOk(context, 'launch_app', {
      name: '/usr/bin/python3',
      additional_arguments: [join(fixtureApps, 'gtk3_fixture.py'), '--title', title, '--splash-ms', '3000'],
      creates_new_application_instance: true,
    });
    let splashType = '';
    let pending = true;
    void launched.finally(() => (pending = false)).catch(() => undefined);
    while (pending && !splashType) {
      const [id] = run('xdotool', ['search', '--name', `^${title} Startup$`]).split('\n').filter(Boolean);
      if (id) splashType = run('xprop', ['-id', id, '_NET_WM_WINDOW_TYPE']);
      await sleep(100);
    }
    const result = await launched;
    const pid = result.structured.pid as number;
    try {
      assert.match(splashType, /_NET_WM_WINDOW_TYPE_SPLASH/, 'xprop: the first window was a splash screen (the premise)');
      const frames = run('xdotool', ['search', '--name', `^${title}$`]).split('\n').filter(Boolean).map(Number);
      assert.equal(frames.length, 1, 'xdotool finds the window');
      const windows = result.structured.windows as { window_id: number; title: string }[];
      assert.deepEqual(windows.map((window) => window.title), [title], result.summary);
      assert.deepEqual(windows.map((window) => window.window_id), frames);
      assert.equal(result.structured.accessible, true, result.summary);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('a window of an app that has no accessible object of its own reads as having no tree, never as the app\'s other window', async () => {
    // A top-level window no widget draws (as a splash screen, a video surface, a browser's popup before its object
    // registers) was matched to the app's frame for want of a better one: its reading was the other window's tree.
    const { process: app, window: drawn } = await desktop.launchFixture('gtk3', { title: 'CUP Drawn', extraArgs: ['--raw-window', 'CUP Undrawn'] });
    try {
      const listed = (await callOk(context, 'list_windows', {})).structured.windows as { window_id: number; pid: number; title: string }[];
      const undrawn = listed.find((window) => window.title === 'CUP Undrawn');
      assert.ok(undrawn && undrawn.pid === app.pid, `the second window is listed with the app's pid: ${JSON.stringify(listed)}`);
      const script = `import pyatspi\nfor app in pyatspi.Registry.getDesktop(0):\n    if app.get_process_id() == ${app.pid}:\n        print('\\n'.join(child.name for child in app))`;
      assert.deepEqual(run('/usr/bin/python3', ['-c', script]).split('\n').filter(Boolean), ['CUP Drawn'], 'pyatspi: the app has one top-level object, the drawn window\'s');
      // Read first, before the drawn window was ever read, and again after.
      for (const round of ['first', 'after the drawn window was read']) {
        const state = await callOk(context, 'get_window_state', { pid: app.pid, window_id: undrawn.window_id, include_screenshot: false });
        assert.equal(state.structured.degraded, true, `${round}: ${state.summary}`);
        assert.match(String(state.structured.degraded_reason), /is on the accessibility bus, but none of its accessible windows is this one/);
        assert.doesNotMatch(JSON.stringify(state.structured) + (state.body ?? ""), /Increment/, `${round}: the drawn window's controls are not in the undrawn window's reading`);
        const main = await callOk(context, 'get_window_state', { pid: app.pid, window_id: drawn.id, include_screenshot: false });
        assert.match(main.body ?? "", /btn "Increment"/);
      }
      // Its input is read by its process's toolkit, GTK, which drops X events another client sends: nothing is sent.
      const keys = await callOk(context, 'press_key', { pid: app.pid, window_id: undrawn.window_id, key: 'a' });
      assert.equal(keys.structured.path, 'none', keys.summary);
      assert.match(JSON.stringify(keys.structured), /GTK [\d.]+ ignores synthetic key events/);
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('launch_app of an app that gets the window id of one killed as it started returns its window', async () => {
    // The X server gives a closed client's resource ids to the next client that connects, so a GTK app started
    // right after another died gets the dead app's window id. launch_app's listing before the start still had the
    // dead window, and took the new one for it: "showed no window within 20 s" (CI, after a test that killed its apps).
    const fixture = join(fixtureApps, 'gtk3_fixture.py');
    const { process: doomed, window: old } = await desktop.launchFixture('gtk3', { title: 'CUP Doomed' });
    const title = 'CUP Heir';
    const script = `kill -9 ${doomed.pid}; while kill -0 ${doomed.pid} 2>/dev/null; do sleep 0.02; done; exec /usr/bin/python3 ${fixture} --title '${title}'`;
    const result = await callOk(context, 'launch_app', { name: '/bin/sh', additional_arguments: ['-c', script], creates_new_application_instance: true });
    const pid = result.structured.pid as number;
    try {
      const heir = run('xdotool', ['search', '--name', `^${title}$`]).split('\n').filter(Boolean).map(Number);
      assert.deepEqual(heir, [old.id], 'xdotool: the new window has the dead window\'s id (the premise)');
      assert.deepEqual((result.structured.windows as { window_id: number; pid: number }[]).map((window) => [window.window_id, window.pid]), [[old.id, pid]]);
      assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /CUP Heir/);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('launch_app starts the app in the caller\'s working directory, where its relative file names are', async () => {
    const fixture = join(fixtureApps, 'gtk3_fixture.py');
    const result = await callOk(context, 'launch_app', { name: '/usr/bin/python3', additional_arguments: [fixture, '--title', 'CUP Launch Folder'], creates_new_application_instance: true });
    const pid = result.structured.pid as number;
    try {
      assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /gtk3_fixture/);
      assert.equal(readlinkSync(`/proc/${pid}/cwd`), folder);
      assert.notEqual(process.cwd(), folder, 'the premise: the driver\'s own process runs elsewhere');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
