// Action results that must not lie, on real apps, each judged by a reader independent of the driver:
// a background click whose app runs a modal dialog inside the call (Qt 5), real clicks on elements with
// no visible box of their own (a closed drop-down's options, a row scrolled out of its list), and a real
// click on a minimized window (which the window manager slides back into place).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { encodeClientMessage, EventMask } from '../../src/platform/linux/x11/index.js';
import type { ToolContext } from '../../src/tools/context.js';
import { resolveTarget } from '../../src/tools/input/targets.js';
import { runTool } from '../../src/tools/run.js';
import { fixtureApps, TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { removeProfile } from '../helpers/profiles.js';
import { resultText } from '../../src/tools/call-result.js';
import { accessibleWindowState, callOk, failsWith, testContext, type Element } from '../helpers/tools.js';
import { chromiumFlags } from '../helpers/web-browser.js';

interface Action {
  path: string;
  effect: string;
  verified: boolean;
  evidence?: string[];
  no_reply_ms?: number;
  reply_held_by_dialog?: number;
  new_windows?: { window_id: number; title: string; pid: number; dialog?: boolean }[];
}

function find(elements: Element[], role: string, name: string): Element {
  const found = elements.find((element) => element.role === role && element.name === name);
  assert.ok(found, `no ${role} "${name}" among: ${elements.map((e) => `${e.role} "${e.name}"`).join(', ')}`);
  return found;
}

/** The X server's own list (xwininfo): ids of the windows named exactly `title`, anywhere in the window tree. */
function xWindowsNamed(title: string, env: NodeJS.ProcessEnv): number[] {
  const tree = execFileSync('xwininfo', ['-root', '-tree'], { env, encoding: 'utf8', timeout: 10_000 });
  const quoted = `"${title}"`;
  return tree
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('0x') && line.slice(line.indexOf(' ') + 1).startsWith(`${quoted}:`))
    .map((line) => Number.parseInt(line, 16));
}

/** The active window as the window manager published it (xprop), independent of the driver. */
function activeWindow(env: NodeJS.ProcessEnv): string {
  return execFileSync('xprop', ['-root', '_NET_ACTIVE_WINDOW'], { env, encoding: 'utf8', timeout: 10_000 }).trim();
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${what} within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe('honest action results on real apps', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;

  async function elements(window: ClientWindow): Promise<Element[]> {
    return (await accessibleWindowState(context, window, { include_screenshot: false, detail: 'full' })).state.elements;
  }

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  test('Qt 5 (SpeedCrunch): a background click that opens a modal dialog is confirmed by the dialog, which holds the call\'s answer, names the one dialog, and the next calls work', async () => {
    const env = desktop.env();
    const { process: app, window: main } = await desktop.launch('speedcrunch', [], 'SpeedCrunch');
    try {
      // Help > About runs QDialog::exec() inside the DoAction call: Qt answers only when the dialog closes.
      const about = find(await elements(main), 'menuitem', 'About SpeedCrunch');
      assert.deepEqual(xWindowsNamed('About SpeedCrunch', env), []);
      const result = await runTool('click', { window_id: main.id, element_index: about.index }, context);
      assert.equal(result.ok, true, `not an error: ${result.summary}`);
      const action = result.structured as unknown as Action;
      assert.equal(action.path, 'x11_atspi');
      assert.ok((action.no_reply_ms ?? 0) > 0, JSON.stringify(action));
      const dialog = action.new_windows?.find((window) => window.title === 'About SpeedCrunch');
      assert.ok(dialog, `the result names the dialog: ${JSON.stringify(action.new_windows)}`);
      // The unanswered call is the dialog opening, not an app that did not answer.
      assert.equal(action.effect, 'confirmed', JSON.stringify(action));
      assert.equal(action.reply_held_by_dialog, dialog.window_id, JSON.stringify(action));
      assert.match(action.evidence?.[0] ?? '', new RegExp(`^DoAction opened the dialog window ${dialog.window_id} "About SpeedCrunch": its toolkit runs the dialog inside the call`));
      assert.match(result.summary, /confirmed via x11_atspi: it opened dialog \d+ "About SpeedCrunch"/);
      assert.doesNotMatch(resultText(result), /did not answer/, resultText(result));
      assert.equal(dialog.pid, main.pid);
      // Exactly one dialog, by the X server's own count, and pyatspi reads it.
      assert.deepEqual(xWindowsNamed('About SpeedCrunch', env), [dialog.window_id]);
      assert.equal((await oracle.find(main.pid, 'About SpeedCrunch', 'push button', 'Close')).found, true);

      // The next calls work: the dialog reads, and its Close button closes it.
      const dialogWindow = (await context.desktop.windows()).find((window) => window.id === dialog.window_id);
      assert.ok(dialogWindow);
      const close = find(await elements(dialogWindow), 'button', 'Close');
      const closed = (await callOk(context, 'click', { window_id: dialog.window_id, element_index: close.index })).structured as unknown as Action;
      assert.equal(closed.path, 'x11_atspi');
      await until('the dialog is gone from the X server', () => xWindowsNamed('About SpeedCrunch', env).length === 0);

      // The main window still reads and takes input through accessibility, as pyatspi confirms.
      const input = (await elements(main)).find((element) => element.role === 'textbox' && element.states.includes('editable'));
      assert.ok(input, 'the expression line');
      const typed = (await callOk(context, 'type_text', { window_id: main.id, element_index: input.index, text: '6*7' })).structured as unknown as Action;
      assert.equal(typed.effect, 'confirmed', JSON.stringify(typed));
      assert.ok((await oracle.texts(main.pid, main.title)).includes('6*7'), 'pyatspi reads the typed text');
      assert.equal(app.exitCode, null, 'SpeedCrunch is still running');
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('Qt 5 (SpeedCrunch): invoke_menu Help > About is confirmed by the dialog it opened, not framed as an app that did not answer', async () => {
    const env = desktop.env();
    const { process: app, window: main } = await desktop.launch('speedcrunch', [], 'SpeedCrunch');
    try {
      assert.deepEqual(xWindowsNamed('About SpeedCrunch', env), []);
      const result = await runTool('invoke_menu', { window_id: main.id, path: ['Help', 'About SpeedCrunch'] }, context);
      const text = resultText(result);
      assert.equal(result.ok, true, text);
      const action = result.structured as unknown as Action;
      const dialog = action.new_windows?.find((window) => window.title === 'About SpeedCrunch');
      assert.ok(dialog, text);
      // The oracles: the X server lists the one dialog, and pyatspi reads its Close button.
      assert.deepEqual(xWindowsNamed('About SpeedCrunch', env), [dialog.window_id]);
      assert.equal((await oracle.find(main.pid, 'About SpeedCrunch', 'push button', 'Close')).found, true);
      assert.equal(action.effect, 'confirmed', text);
      assert.equal(action.reply_held_by_dialog, dialog.window_id, text);
      assert.match(result.summary, /it opened dialog \d+ "About SpeedCrunch"/, text);
      assert.doesNotMatch(text, /did not answer/, text);
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('a click on a disabled button is refused in the background and the foreground, and sends nothing (GTK3 fixture)', async () => {
    const env = desktop.env();
    const { process: app, window } = await desktop.launchFixture('gtk3', { title: 'Honesty disabled', rows: 5 });
    try {
      const disabled = find(await elements(window), 'button', 'Disabled button');
      const oracleStates = (await oracle.find(window.pid, window.title, 'push button', 'Disabled button')).states ?? [];
      assert.ok(!oracleStates.includes('sensitive') && !oracleStates.includes('enabled'), `pyatspi: the button is disabled: ${oracleStates.join(',')}`);
      const statusBefore = await oracle.status(window.pid, window.title);
      const activeBefore = activeWindow(env);
      for (const delivery_mode of ['background', 'foreground']) {
        for (const tool of ['click', 'double_click', 'right_click']) {
          const refused = await failsWith(context, tool, { window_id: window.id, element_index: disabled.index, delivery_mode }, 'element_disabled');
          assert.match(refused.summary, /\[e\d+\] button "Disabled button" is disabled .*nothing was sent/);
        }
      }
      // Nothing reached the app, and the foreground refusal came before the window was touched.
      assert.deepEqual(await oracle.status(window.pid, window.title), statusBefore);
      assert.equal(activeWindow(env), activeBefore);
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('a click reads its element while the caller readies and sends nothing until it is ready, nor at all when refused (GTK3 fixture)', async () => {
    const env = desktop.env();
    const { process: app, window } = await desktop.launchFixture('gtk3', { title: 'Honesty ready', rows: 5 });
    try {
      const increment = find(await elements(window), 'button', 'Increment');
      const target = await resolveTarget(context, { window_id: window.id, element_index: increment.index });
      const counter = async () => Number((await oracle.status(window.pid, window.title)).counter);
      const start = await counter();
      // Held: the click's reads go on, its action waits for the caller.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const clicking = context.desktop.pointer(target, 'click', { mode: 'background', modifiers: [], ready: held });
      await sleep(400);
      assert.equal(await counter(), start, 'pyatspi: nothing was clicked before the caller was ready');
      release();
      const outcome = await clicking;
      assert.equal(outcome.effect, 'confirmed', JSON.stringify(outcome));
      assert.equal(await counter(), start + 1, 'pyatspi: the click went once the caller was ready');
      // Refused, in the background and the foreground: the caller's refusal is the answer, and nothing reaches the app or its window.
      const activeBefore = activeWindow(env);
      for (const mode of ['background', 'foreground'] as const) {
        const refusal = Promise.reject(new Error('refused by the caller'));
        refusal.catch(() => undefined);
        await assert.rejects(context.desktop.pointer(target, 'click', { mode, modifiers: [], ready: refusal }), /refused by the caller/);
      }
      await sleep(300);
      assert.equal(await counter(), start + 1, 'pyatspi: a refused click sent nothing');
      assert.equal(activeWindow(env), activeBefore, 'xdotool: the refused foreground click activated nothing');
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('real typing that ends in punctuation is judged once the app took every key: the letters alone arriving first is no rewrite (GTK3 fixture)', async () => {
    const { process: app, window } = await desktop.launchFixture('gtk3', { title: 'Honesty dots', rows: 5 });
    try {
      const field = find(await elements(window), 'textbox', 'Paste target');
      // Thirty dots after the last letter: the app takes them a key at a time, well after its text holds every letter.
      const text = `Loading${'.'.repeat(30)}`;
      const typed = await callOk(context, 'type_text', { window_id: window.id, element_index: field.index, text, delivery_mode: 'foreground' });
      const result = typed.structured as unknown as Action;
      assert.equal(result.effect, 'confirmed', resultText(typed));
      // The app took the text as typed (pyatspi): the result does not say it rewrote it, nor advise against typing again.
      assert.equal((await oracle.find(window.pid, window.title, 'text', 'Paste target')).text, text);
      assert.ok(!(result.evidence ?? []).some((line) => /rewrote/.test(line)), resultText(typed));
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('set_value on a check box its app turns back off: no effect, and the advice names only calls their tools accept (set_value takes no delivery_mode) (GTK3 fixture)', async () => {
    const { process: app, window } = await desktop.launchFixture('gtk3', { title: 'Honesty locked', rows: 5, extraArgs: ['--locked-check'] });
    try {
      const locked = find(await elements(window), 'checkbox', 'Locked setting');
      const set = await callOk(context, 'set_value', { window_id: window.id, element_index: locked.index, value: 'true' });
      const result = set.structured as unknown as Action & { escalation?: { recommended: string; reason: string } };
      assert.equal(result.effect, 'suspected_noop', resultText(set));
      // The app refused the change, as pyatspi and its own status say.
      assert.equal((await oracle.find(window.pid, window.title, 'check box', 'Locked setting')).states?.includes('checked'), false);
      assert.equal((await oracle.status(window.pid, window.title)).last_key, 'locked:refused');
      const advice = result.escalation?.reason ?? '';
      assert.equal(result.escalation?.recommended, 'foreground', resultText(set));
      assert.doesNotMatch(resultText(set), /retry with delivery_mode/);
      assert.match(advice, /set_value has no foreground delivery, so do it with real input: click with delivery_mode "foreground" on the element/);
      // Each call the advice names takes what it names: a click with delivery_mode "foreground" is sent (and refused
      // again by the app), where set_value with it would be invalid_arguments.
      await failsWith(context, 'set_value', { window_id: window.id, element_index: locked.index, value: 'true', delivery_mode: 'foreground' }, 'invalid_arguments');
      const clicked = await runTool('click', { window_id: window.id, element_index: locked.index, delivery_mode: 'foreground' }, context);
      assert.equal(clicked.ok, true, resultText(clicked));
      assert.equal((clicked.structured as unknown as Action).path, 'x11_pixel_fg', resultText(clicked));
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('galculator (GTK3): a real click does not count a tool tip hiding as its effect; a click that works still confirms with one hiding', async () => {
    const env = desktop.env();
    const { process: app, window } = await desktop.launch('galculator', [], 'galculator');
    try {
      const found = await elements(window);
      const display = () => oracle.find(window.pid, window.title, 'text', '').then((node) => node.text);
      const center = (element: Element) => ({ x: element.bounds!.x + element.bounds!.w / 2, y: element.bounds!.y + element.bounds!.h / 2 });
      const local = (element: Element) => ({ x: center(element).x - window.bounds.x, y: center(element).y - window.bounds.y });
      const recall = find(found, 'button', 'MR');
      assert.ok(recall.states.includes('disabled'), 'memory recall is disabled with nothing in memory');
      /**
       * The person's pointer rests on MR (xdotool is another X client) until the X server shows galculator's tool tip:
       * an override-redirect window of its class right under the root, viewable (pyatspi lists no tool tip under the app).
       */
      const tooltipShown = async () => {
        const [x, y] = [Math.round(center(recall).x), Math.round(center(recall).y)];
        execFileSync('xdotool', ['mousemove', String(x - 5), String(y), 'sleep', '0.1', 'mousemove', String(x), String(y)], { env, timeout: 10_000 });
        await until('the X server shows a tool tip window of galculator', () => {
          const popups = execFileSync('xwininfo', ['-root', '-children'], { env, encoding: 'utf8', timeout: 10_000 })
            .split('\n')
            .filter((line) => line.includes('"Galculator")'))
            .map((line) => line.trim().split(' ')[0]!);
          return popups.some((id) => /Map State: IsViewable/.test(execFileSync('xwininfo', ['-id', id], { env, encoding: 'utf8', timeout: 10_000 })));
        });
      };
      const shownBefore = await display();

      // By point, in the foreground, on the disabled MR: the press hides the tool tip, and that is all it does.
      await tooltipShown();
      const onDisabled = (await callOk(context, 'click', { window_id: window.id, ...local(recall), delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.notEqual(onDisabled.effect, 'confirmed', JSON.stringify(onDisabled));
      assert.ok(!(onDisabled.evidence ?? []).some((line) => /tool tip/.test(line)), JSON.stringify(onDisabled.evidence));
      assert.equal(await display(), shownBefore, 'pyatspi: the display is unchanged');

      // The same with the tool tip hiding, on the key 7: the display's change confirms it.
      await tooltipShown();
      const seven = (await callOk(context, 'click', { window_id: window.id, ...local(find(found, 'button', '7')), delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(seven.effect, 'confirmed', JSON.stringify(seven));
      await until('pyatspi reads 7 on the display', async () => (await display()) === '7');
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('galculator (GTK3): a background click on a key reads its effect once the key is released; background typing at the read-only display is refused offering real keys, and real typing into the calculator is judged by what changed', async () => {
    const { process: app, window } = await desktop.launch('galculator', [], 'galculator');
    try {
      const display = () => oracle.find(window.pid, window.title, 'text', '').then((node) => node.text);
      const one = find(await elements(window), 'button', '1');
      // galculator shows every key press for about 100 ms (its key is a toggle button, checked meanwhile).
      const clicked = await callOk(context, 'click', { window_id: window.id, element_index: one.index });
      const action = clicked.structured as unknown as Action & { diff: { changed: { index: number; changes: { states?: { added: string[] } } }[] } };
      assert.equal(action.effect, 'confirmed', clicked.summary);
      assert.equal(await display(), '1', 'pyatspi: the display shows 1');
      assert.equal((await oracle.find(window.pid, window.title, 'toggle button', '1')).states?.includes('checked'), false, 'pyatspi: the key is released');
      // Neither the diff nor the evidence leaves the key pressed: the press is told with its release, in the diff's words.
      const pressed = action.diff.changed.filter((entry) => entry.changes.states?.added.includes('pressed'));
      assert.deepEqual(pressed, [], resultText(clicked));
      assert.ok(!(action.evidence ?? []).some((line) => /"1"(: |.*: )\+prs$|states of \[e\d+\]: \+prs$/.test(line)), JSON.stringify(action.evidence));
      assert.ok(!(action.evidence ?? []).some((line) => /checked/.test(line)), 'the evidence speaks CUP, as the diff does');

      // Real keys into the calculator: the focused element is its read-only display, which is not where the text "12+30="
      // goes; the display going to 42 is the keys' effect.
      await callOk(context, 'click', { window_id: window.id, element_index: find(await elements(window), 'button', 'AC').index });
      await callOk(context, 'bring_to_front', { pid: window.pid, window_id: window.id });
      const displayFocused = async () => (await oracle.find(window.pid, window.title, 'text', '')).states?.includes('focused') === true;
      await until('pyatspi sees the display focused', displayFocused);
      // In the background, text goes into an editable field only: the read-only display refuses it, and the refusal offers
      // the real keys, which galculator acts on.
      const refused = await failsWith(context, 'type_text', { window_id: window.id, text: '17' }, 'read_only');
      assert.match(refused.summary, /the focused element is read-only; nothing was typed\..*if the app acts on keys typed there .*retry with delivery_mode "foreground"/, refused.summary);
      assert.equal(await display(), '0', 'pyatspi: nothing was typed');
      const seventeen = await callOk(context, 'type_text', { window_id: window.id, text: '17', delivery_mode: 'foreground' });
      assert.equal(seventeen.structured.effect, 'confirmed', resultText(seventeen));
      await until('pyatspi reads 17 on the display', async () => (await display()) === '17');
      await callOk(context, 'click', { window_id: window.id, element_index: find(await elements(window), 'button', 'AC').index });
      await until('pyatspi sees the display focused and cleared', async () => (await displayFocused()) && (await display()) === '0');

      const typed = await callOk(context, 'type_text', { window_id: window.id, text: '12+30=', delivery_mode: 'foreground' });
      const result = typed.structured as unknown as Action;
      assert.equal(result.effect, 'confirmed', resultText(typed));
      assert.match(result.evidence?.[0] ?? '', /the focused element is not an editable field, so the typed text is not looked for in it/);
      // What the display shows is the app's answer to the keys, not the typed text rewritten: no line says both.
      assert.ok(!(result.evidence ?? []).some((line) => /rewrote/.test(line)), resultText(typed));
      await until('pyatspi reads 42 on the display', async () => (await display()) === '42');
    } finally {
      app.kill('SIGKILL');
    }
  });

  // A row scrolled out of its list is scrolled in and clicked instead: test/e2e/scroll-into-view.
  test('GTK3: a real click on an option of a closed drop-down is refused and clicks nothing', async () => {
    const env = desktop.env();
    const { process: app, window } = await desktop.launchFixture('gtk3', { title: 'Honesty GTK3', rows: 40 });
    try {
      const found = await elements(window);
      const statusBefore = await oracle.status(window.pid, window.title);
      const activeBefore = activeWindow(env);

      const green = find(found, 'menuitem', 'Green');
      const refused = await failsWith(context, 'click', { window_id: window.id, element_index: green.index, delivery_mode: 'foreground' }, 'element_not_visible');
      assert.match(refused.summary, /closed menu or drop-down \(opened by combo box "Color"\).*Nothing was sent/);

      // Nothing was clicked: the app's status, its drop-down's popup and the active window are as they were.
      assert.deepEqual(await oracle.status(window.pid, window.title), statusBefore);
      assert.equal((await oracle.find(window.pid, window.title, 'menu item', 'Green')).states?.includes('showing'), false);
      assert.equal(activeWindow(env), activeBefore);

      // Once the drop-down is open, the same option has a box of its own and a real click chooses it.
      const opened = (await callOk(context, 'click', { window_id: window.id, element_index: find(found, 'combobox', 'Color').index, delivery_mode: 'foreground' }))
        .structured as unknown as Action;
      assert.equal(opened.path, 'x11_pixel_fg');
      await until('pyatspi sees the option showing', async () => (await oracle.find(window.pid, window.title, 'menu item', 'Green')).states?.includes('showing') === true);
      const chosen = (await callOk(context, 'click', { window_id: window.id, element_index: find(await elements(window), 'menuitem', 'Green').index, delivery_mode: 'foreground' }))
        .structured as unknown as Action;
      assert.equal(chosen.effect, 'confirmed', JSON.stringify(chosen));
      assert.equal((await oracle.status(window.pid, window.title)).color, 'Green');
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('Qt 5 (qt5ct): a real click on an item of a closed combo box, which Qt reports showing at the screen\'s corner, is refused; opened, the item is clicked', async () => {
    const { process: app, window } = await desktop.launch('qt5ct', [], /^Qt5 Configuration Tool/);
    try {
      const combo = async () => (await oracle.find(window.pid, window.title, 'combo box', 'Fusion')).found ? 'Fusion' : (await oracle.find(window.pid, window.title, 'combo box', 'Windows')).found ? 'Windows' : 'neither';
      // Read first, which waits for the app's tree on the bus: the window maps before it is there.
      const all = await elements(window);
      assert.equal(await combo(), 'Fusion', 'the Style combo box shows Fusion');
      // Qt names the combo box by the text it shows; the "Style:" label beside it names it here.
      const styleBox = find(all, 'combobox', 'Style:');
      assert.equal(styleBox.value, 'Fusion');
      // Its closed list's "Windows" item, as pyatspi reads it: showing, at 0,0, off the window.
      const closedItem = await oracle.find(window.pid, window.title, 'list item', 'Windows');
      assert.deepEqual(closedItem.extents?.slice(0, 2), [0, 0], JSON.stringify(closedItem));
      assert.ok(closedItem.states?.includes('showing'), JSON.stringify(closedItem));
      const item = all.find((element) => element.name === 'Windows' && element.bounds?.x === 0 && element.bounds.y === 0);
      assert.ok(item, 'the driver lists the closed item with its 0,0 box');
      // The compact view counts the closed list's choices as a closed menu's items, not as lying off the window.
      const compact = (await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false })).body ?? '';
      const styleLines = compact.split('\n').slice(compact.split('\n').findIndex((line) => line.includes(`[e${styleBox.index}] cmb "Style:"`)));
      assert.match(styleLines[1] ?? '', /^\s+# 2 more items \u2014 open the list to see, or set_value with a choice's text$/, compact);
      assert.doesNotMatch(compact, /li "Windows"|scroll up to see/, compact);
      const refused = await failsWith(context, 'click', { window_id: window.id, element_index: item.index, delivery_mode: 'foreground' }, 'element_not_visible');
      assert.match(refused.summary, /Open what holds it first/);
      assert.equal(await combo(), 'Fusion', 'nothing was chosen');

      // Opened with a real click, the list is a popup where its items really are: the item is clicked and chosen.
      await callOk(context, 'click', { window_id: window.id, element_index: styleBox.index, delivery_mode: 'foreground' });
      await until('the list has opened where its combo box is', async () => ((await oracle.find(window.pid, window.title, 'list item', 'Windows')).extents?.[1] ?? 0) > 0);
      const opened = (await elements(window)).find((element) => element.name === 'Windows' && (element.bounds?.y ?? 0) > 0);
      assert.ok(opened, 'the open list\'s item has a real box');
      assert.match((await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false })).body ?? '', /\[e\d+\] li "Windows" \d+,\d+/, 'the open list\'s choices are listed');
      await callOk(context, 'click', { window_id: window.id, element_index: opened.index, delivery_mode: 'foreground' });
      await until('the combo box shows Windows', async () => (await combo()) === 'Windows');
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('a real click on a button of a minimized window waits out the window manager\'s restore and lands on the button', async () => {
    const { process: app, window } = await desktop.launchFixture('gtk4', { title: 'Honesty minimized' });
    try {
      const increment = find(await elements(window), 'button', 'Increment');
      const x = await desktop.x11();
      const hidden = await x.internAtom('_NET_WM_STATE_HIDDEN');
      // ICCCM WM_CHANGE_STATE with IconicState (3): how a client asks to be minimized.
      await x.sendEvent(x.screen.root, false, EventMask.SubstructureRedirect | EventMask.SubstructureNotify, encodeClientMessage(window.id, await x.internAtom('WM_CHANGE_STATE'), 32, [3]));
      await until('the window manager minimized the window', async () => (await x.getAtomList(window.id, '_NET_WM_STATE'))?.includes(hidden) === true);
      const counter = Number((await oracle.status(window.pid, window.title)).counter);
      const clicked = (await callOk(context, 'click', { window_id: window.id, element_index: increment.index, delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
      assert.equal(Number((await oracle.status(window.pid, window.title)).counter), counter + 1, 'pyatspi: the button was pressed once');
    } finally {
      app.kill('SIGKILL');
    }
  });

  test('Chromium: a real click on an option of a closed <select> (which Chromium places over the select) is refused; opened, it is chosen', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'cup-honesty-chromium-'));
    const args = [...chromiumFlags(profile), '--window-size=900,600', `file://${join(fixtureApps, 'select_page.html')}`];
    const { process: app, window } = await desktop.launch('chromium', args, 'Select test - Chromium', 60_000);
    try {
      let found: Element[] = [];
      await until('the page is in the tree', async () => (found = await elements(window)).some((element) => element.name === 'Banana'), 30_000);
      const textsBefore = await oracle.texts(window.pid, window.title);
      assert.ok(textsBefore.includes('nothing chosen'), JSON.stringify(textsBefore));

      for (const name of ['Banana', 'Apple']) {
        // Apple is the chosen option: Chromium even marks it showing, though its menu is closed.
        const option = found.find((element) => element.name === name && element.role === 'menuitem');
        assert.ok(option, `option ${name}`);
        const refused = await failsWith(context, 'click', { window_id: window.id, element_index: option.index, delivery_mode: 'foreground' }, 'element_not_visible');
        assert.match(refused.summary, /closed menu or drop-down \(opened by combo box "Fruit"\)/);
      }
      const combo = await oracle.find(window.pid, window.title, 'combo box', 'Fruit');
      assert.equal(combo.states?.includes('expanded'), false, 'the select was not opened');
      assert.deepEqual(await oracle.texts(window.pid, window.title), textsBefore);

      const opened = (await callOk(context, 'click', { window_id: window.id, element_index: find(found, 'combobox', 'Fruit').index, delivery_mode: 'foreground' }))
        .structured as unknown as Action;
      assert.equal(opened.effect, 'confirmed', JSON.stringify(opened));
      await until('pyatspi sees the select expanded', async () => (await oracle.find(window.pid, window.title, 'combo box', 'Fruit')).states?.includes('expanded') === true);
      const banana = find(await elements(window), 'menuitem', 'Banana');
      const chosen = (await callOk(context, 'click', { window_id: window.id, element_index: banana.index, delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(chosen.effect, 'confirmed', JSON.stringify(chosen));
      await until('pyatspi reads the page saying Banana was chosen', async () => (await oracle.texts(window.pid, window.title)).includes('chose Banana'));
    } finally {
      const exited = new Promise((resolve) => app.once('exit', resolve));
      if (app.exitCode === null && app.signalCode === null) {
        app.kill('SIGKILL');
        await Promise.race([exited, sleep(5000)]);
      }
      await removeProfile(profile);
    }
  });
});
