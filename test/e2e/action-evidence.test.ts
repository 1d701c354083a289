// What an action's evidence says about the objects the app reported changed must be where they ended, as pyatspi
// reads them afterwards: a state switched several times within the action is its net change, and a label set
// again to the same text is no change of name. A menu item chosen by path reports what it did as a click does:
// the dialog it opened (judged by the X server and pyatspi) and the window's diff.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { resultText } from '../../src/tools/call-result.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, failsWith, testContext, type Element } from '../helpers/tools.js';
import { FixtureControl } from '../helpers/fixture-control.js';
import { observe, readAhead } from '../../src/platform/linux/actions/verification.js';
import { doAction } from '../../src/platform/linux/atspi/operations.js';
import { atspiElement } from '../../src/platform/linux/element-handle.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

describe('action evidence and menu results on a real GTK3 app', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Evidence Fixture', rows: 3, extraArgs: ['--flicker', '--dialog-menu', '--details-button', '--hidden-echo'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  function named(list: Element[], name: string): Element {
    const found = list.find((element) => element.role === 'button' && element.name === name);
    assert.ok(found, `no button "${name}"`);
    return found;
  }

  test('a click on a command whose label ends in an ellipsis waits for the window it opens after its first effects', async () => {
    const elements = await fixtures.elements(window);
    const details = named(elements, 'Details…');
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: details.index });
    const result = called.structured as unknown as ActionResult;
    // The X server: the window the app built 300 ms after the status said "details".
    const later = (await listClientWindows(await fixtures.desktop.x11())).find((candidate) => candidate.pid === window.pid && candidate.title === 'Later dialog');
    assert.ok(later, 'the X server lists the window the click opened');
    assert.deepEqual(result.new_windows?.map((opened) => opened.window_id), [later.id], `the result names it: ${called.summary}`);
    assert.match(result.evidence?.[0] ?? '', /^window \d+ "Later dialog" opened/, JSON.stringify(result.evidence));
    await callOk(fixtures.context, 'click', { window_id: later.id, element_index: named(await fixtures.elements(later), 'Close dialog').index });
  });

  test('an object the app renames while keeping it hidden is said hidden in the evidence, as pyatspi reads it', async () => {
    // A compact reading leaves it out; a full one, which the snapshot is, holds it.
    const elements = (await accessibleWindowState(fixtures.context, window, { include_screenshot: false, detail: 'full' })).state.elements;
    const echo = elements.find((element) => element.role === 'text' && /^count \d+$/.test(element.name));
    assert.ok(echo, 'the fixture\'s hidden label is read');
    const label = await fixtures.oracle.find(window.pid, window.title, 'label', echo.name);
    assert.ok(!label.states?.includes('showing') && !label.states?.includes('visible'), `pyatspi: the label is hidden (${label.states?.join(' ')})`);
    const counted = Number(/\d+/.exec(echo.name)![0]);
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: named(elements, 'Increment').index });
    const evidence = (called.structured as unknown as ActionResult).evidence ?? [];
    assert.ok(evidence.includes(`[e${echo.index}] text "${echo.name}" (hidden): name is now "count ${counted + 1}"`), JSON.stringify(evidence));
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'label', `count ${counted + 1}`)).states?.includes('showing'), false, 'pyatspi: renamed and still hidden');
    // A shown object's line has no such mark.
    assert.ok(evidence.some((line) => /^\[e\d+\] text "counter=\d+ [^"]*": name is now/.test(line)), JSON.stringify(evidence));
  });

  test('a click after which one button went enabled, disabled, enabled and another disabled and back: the evidence says where each ended, and no name line for labels set to the same text', async () => {
    const elements = await fixtures.elements(window);
    const [flicker, flickered, blinked] = ['Flicker', 'Flickered', 'Blinked'].map((name) => named(elements, name));
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'push button', 'Flickered')).states?.includes('sensitive'), false, 'Flickered starts disabled');

    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: flicker!.index });
    const result = called.structured as unknown as ActionResult;
    const evidence = result.evidence ?? [];
    const text = resultText(called);

    // pyatspi: Flickered ended enabled, Blinked where it began (enabled), both still named as before.
    const [nowFlickered, nowBlinked] = await Promise.all(['Flickered', 'Blinked'].map((name) => fixtures.oracle.find(window.pid, window.title, 'push button', name)));
    assert.equal(nowFlickered.states?.includes('sensitive'), true, 'Flickered ended enabled');
    assert.equal(nowBlinked.states?.includes('sensitive'), true, 'Blinked ended enabled, as it began');

    const lineOf = (element: Element) => evidence.find((line) => line.startsWith(`[e${element.index}] `));
    const flickeredLine = lineOf(flickered!);
    assert.ok(flickeredLine, `the app's events about Flickered are evidence: ${JSON.stringify(evidence)}`);
    assert.match(flickeredLine, /: -dis(,|$)/, 'it went from disabled to enabled');
    assert.doesNotMatch(flickeredLine, /\+dis/, 'nothing reads as it ending disabled');
    const blinkedLine = lineOf(blinked!);
    assert.ok(blinkedLine, `the app's events about Blinked are evidence: ${JSON.stringify(evidence)}`);
    assert.match(blinkedLine, /: \+dis and back(,|$)/, 'a state that ended where it began says so');
    assert.ok(!evidence.some((line) => /name is now "(Flickered|Blinked)"/.test(line)), `a label set to its own text is no new name: ${JSON.stringify(evidence)}`);
    // The diff, read independently of the events, agrees: Flickered lost dis, Blinked is unchanged.
    assert.match(text, new RegExp(`^~ \\[e${flickered!.index}\\] btn "Flickered" states: -dis$`, 'm'), text);
    assert.doesNotMatch(text, new RegExp(`^~ \\[e${blinked!.index}\\] `, 'm'), text);
  });

  test('a dialog titled as its main window is read through its own object, not the main window\'s', async () => {
    // xfce4-taskmanager's Kill asks in a message dialog titled "Task Manager", whose accessible is named "Question":
    // the name of the main window's frame agreed with the title, and the dialog's tree came back as the main window's.
    const asking = await fixtures.launch('gtk3', { title: 'Asking Fixture', rows: 3, extraArgs: ['--ask-button'] });
    try {
      const called = await callOk(fixtures.context, 'click', { window_id: asking.id, element_index: named(await fixtures.elements(asking), 'Ask…').index });
      const dialog = (called.structured as unknown as ActionResult).new_windows?.find((opened) => opened.title === asking.title);
      assert.ok(dialog, `the question is a new window: ${called.summary}`);
      assert.equal((await fixtures.oracle.find(asking.pid, 'Question', 'push button', 'Yes')).found, true, 'pyatspi reads the question\'s Yes');
      assert.match(dialog.tree ?? '', /btn "Yes"/, dialog.tree);
      assert.doesNotMatch(dialog.tree ?? '', /"Ask…"/, 'not the main window\'s tree');
      // The question's own objects are its window's news: the app has no other window they could have changed in.
      const listed = (await callOk(fixtures.context, 'list_windows', { pid: asking.pid })).structured.windows as { window_id: number }[];
      assert.deepEqual(listed.map((entry) => entry.window_id).sort(), [asking.id, dialog.window_id].sort(), 'the app shows the two windows only');
      const evidence = (called.structured as unknown as ActionResult).evidence ?? [];
      assert.ok(!evidence.some((line) => /in its other windows/.test(line)), `no other window changed: ${JSON.stringify(evidence)}`);
      const state = await callOk(fixtures.context, 'get_window_state', { window_id: dialog.window_id, include_screenshot: false });
      assert.match(resultText(state), /txt "Really do it\?"/, resultText(state));
      await callOk(fixtures.context, 'click', { window_id: dialog.window_id, selector: 'role=button name=No' });
      assert.equal((await fixtures.waitForStatus(asking, (status) => status.lastKey !== '')).lastKey, 'asked:no', 'the fixture: No answered it');
    } finally {
      process.kill(asking.pid);
    }
  });

  test('Alt with a letter in the background presses the control whose mnemonic it is: a question\'s _Yes answers alt+y', async () => {
    // GTK reports a button's mnemonic as its key binding ("<Alt>y"). Alt+Y in the background was refused, with advice to
    // pass the element_index of the focused element, which no element of an inactive dialog reports.
    const asking = await fixtures.launch('gtk3', { title: 'Mnemonic Fixture', rows: 3, extraArgs: ['--ask-button'] });
    try {
      const called = await callOk(fixtures.context, 'click', { window_id: asking.id, selector: 'role=button name="Ask…"' });
      const dialog = (called.structured as unknown as ActionResult).new_windows?.find((opened) => opened.title === asking.title);
      assert.ok(dialog, `the question is a new window: ${called.summary}`);
      await callOk(fixtures.context, 'get_window_state', { window_id: dialog.window_id, include_screenshot: false });
      const pressed = await callOk(fixtures.context, 'press_key', { window_id: dialog.window_id, key: 'alt+y', delivery_mode: 'background' });
      const result = pressed.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', pressed.summary);
      assert.match((result.evidence ?? []).join(' | '), /"alt\+y" is the mnemonic of \[e\d+\] button "Yes", pressed through its action/);
      assert.equal((await fixtures.waitForStatus(asking, (status) => status.lastKey !== '')).lastKey, 'asked:yes', 'the fixture: Yes answered it');
      await assert.rejects(fixtures.oracle.find(asking.pid, 'Question', 'push button', 'Yes'), /no window 'Question'/, 'pyatspi: the question is gone');
    } finally {
      process.kill(asking.pid);
    }
  });

  /**
   * The pid of the sleep (the fixture's viewer) the action's evidence says the app started, checked in /proc as ps
   * reads it: the fixture's child, and sleep.
   */
  function startedViewer(called: Awaited<ReturnType<typeof callOk>>, fixturePid: number): number {
    const result = called.structured as unknown as ActionResult;
    const line = (result.evidence ?? []).find((entry) => /started sleep \(pid \d+\)/.test(entry));
    assert.ok(line, `the evidence names the program: ${called.summary} ${JSON.stringify(result.evidence)}`);
    const started = Number(/pid (\d+)/.exec(line)![1]);
    const stat = readFileSync(`/proc/${started}/stat`, 'utf8');
    assert.equal(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), fixturePid, 'its parent is the fixture');
    assert.equal(readFileSync(`/proc/${started}/comm`, 'utf8').trim(), 'sleep');
    return started;
  }

  test('a click whose app starts a program and changes nothing it shows names the program, not "no effect"', async () => {
    // A file manager's click that opens a file starts its viewer, whose window comes later than the wait for a first
    // sign: "no effect seen" invited a retry that would open the file twice.
    const launching = await fixtures.launch('gtk3', { title: 'Viewer Fixture', rows: 3, extraArgs: ['--viewer-button'] });
    let started: number | undefined;
    try {
      const called = await callOk(fixtures.context, 'click', { window_id: launching.id, element_index: named(await fixtures.elements(launching), 'Open in viewer').index });
      started = startedViewer(called, launching.pid);
      assert.equal((called.structured as unknown as ActionResult).effect, 'confirmed', called.summary);
    } finally {
      if (started !== undefined) process.kill(started);
      process.kill(launching.pid);
    }
  });

  test('a double click that selects a file and opens it in a program names the program beside the selection', async () => {
    // Thunar's detailed list: a background double click on a file selected it and started AbiWord, whose window came
    // two seconds later; the evidence told of the selection only, so a second try would open the file twice.
    const launching = await fixtures.launch('gtk3', { title: 'Opening Fixture', rows: 3, extraArgs: ['--file-list', '--open-starts-viewer'] });
    let started: number | undefined;
    try {
      const called = await callOk(fixtures.context, 'double_click', { window_id: launching.id, selector: 'name="File list" >> role=cell name="beta.txt" [index=0]' });
      assert.match(((called.structured as unknown as ActionResult).evidence ?? []).join(' | '), /\+sel/, 'the selection is evidence too');
      started = startedViewer(called, launching.pid);
      assert.equal((await fixtures.status(launching)).lastKey, 'activated:beta.txt', 'the fixture: beta.txt was opened');
    } finally {
      if (started !== undefined) process.kill(started);
      process.kill(launching.pid);
    }
  });

  test('a dialog its app fills a moment after showing it is read once filled: its tree in new_windows holds what came later', async () => {
    const preparing = await fixtures.launch('gtk3', { title: 'Preparing Fixture', rows: 3, extraArgs: ['--late-dialog'] });
    try {
      const called = await callOk(fixtures.context, 'click', { window_id: preparing.id, element_index: named(await fixtures.elements(preparing), 'Prepare…').index });
      const dialog = (called.structured as unknown as ActionResult).new_windows?.find((opened) => opened.title === 'Prepared');
      assert.ok(dialog, `the dialog is a new window: ${called.summary}`);
      assert.equal((await fixtures.oracle.find(preparing.pid, 'Prepared', 'push button', 'Done')).found, true, 'pyatspi reads its Done button');
      const done = /\[e(\d+)\] btn "Done"/.exec(dialog.tree ?? '');
      assert.ok(done, `the tree holds the button put in after the dialog showed: ${dialog.tree}`);
      await callOk(fixtures.context, 'click', { window_id: dialog.window_id, element_index: Number(done[1]) });
      assert.equal((await fixtures.waitForStatus(preparing, (status) => status.lastKey !== '')).lastKey, 'prepared', 'the fixture: Done, by the index the tree gave, answered it');
    } finally {
      process.kill(preparing.pid);
    }
  });

  test('invoke_menu File > Reset… lists the dialog it opened in new_windows, with its tree, and a diff of the window, as a click does', async () => {
    await fixtures.elements(window);
    const called = await callOk(fixtures.context, 'invoke_menu', { pid: window.pid, window_id: window.id, path: ['File', 'Reset...'] });
    const result = called.structured as unknown as ActionResult & { menu_path: string[]; action: string };
    const text = resultText(called);
    assert.deepEqual(result.menu_path, ['File', 'Reset…']);
    assert.equal(result.path, 'x11_atspi');
    const dialog = result.new_windows?.find((opened) => opened.title === 'Confirm reset');
    assert.ok(dialog, `the dialog is in new_windows: ${text}`);
    assert.equal(dialog.pid, window.pid);
    assert.equal(await fixtures.readers.mapState(dialog.window_id), 'IsViewable', 'the X server shows the dialog');
    assert.equal((await fixtures.oracle.find(window.pid, 'Confirm reset', 'push button', 'Cancel')).found, true, 'pyatspi reads its Cancel button');
    const cancel = /\[e(\d+)\] btn "Cancel"/.exec(dialog.tree ?? '');
    assert.ok(cancel, dialog.tree);
    assert.match(text, /^new window: \d+ "Confirm reset" \(pid \d+, snapshot s\w+\):$/m);
    assert.ok(result.snapshot_id && result.diff, `the window's diff: ${text}`);
    assert.match(text, /^chose File > Reset… in window \d+ \("click"\)$/m);

    // Its modal dialog up, the window's menus are out of reach: a second Reset… is refused and opens no second dialog.
    const listed = await callOk(fixtures.context, 'list_windows', {});
    const listedDialog = (listed.structured.windows as { window_id: number; modal?: boolean; dialog_of?: number }[]).find((entry) => entry.window_id === dialog.window_id);
    assert.deepEqual([listedDialog?.modal, listedDialog?.dialog_of], [true, window.id], 'list_windows says the dialog is modal, and whose');
    const refused = await failsWith(fixtures.context, 'invoke_menu', { pid: window.pid, window_id: window.id, path: ['File', 'Reset...'] }, 'blocked_by_modal_dialog');
    assert.match(refused.summary, new RegExp(`waits on its modal dialog ${dialog.window_id} "Confirm reset".*Nothing was sent`));
    await failsWith(fixtures.context, 'invoke_menu', { pid: window.pid, path: ['File', 'Reset...'] }, 'blocked_by_modal_dialog');
    // window_id alone names the window (and its process), as for the other actions; neither is refused up front.
    await failsWith(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['File', 'Reset...'] }, 'blocked_by_modal_dialog');
    await failsWith(fixtures.context, 'invoke_menu', { path: ['File', 'Reset...'] }, 'missing_pid');
    assert.equal((await fixtures.readers.windowsNamed('Confirm reset')).length, 1, 'xwininfo: still one dialog');
    // So are its buttons: a click by index on the window under the dialog is refused, and the app counts nothing.
    const counted = (await fixtures.status(window)).counter;
    const increment = (await fixtures.elements(window)).find((element) => element.role === 'button' && element.name === 'Increment')!;
    const underDialog = await failsWith(fixtures.context, 'click', { window_id: window.id, element_index: increment.index }, 'blocked_by_modal_dialog');
    assert.match(underDialog.summary, new RegExp(`^click: window ${window.id} .*waits on its modal dialog ${dialog.window_id} "Confirm reset".*Nothing was sent`));
    assert.equal((await fixtures.status(window)).counter, counted, 'pyatspi: the counter did not move');

    // Its tree's indices act on the dialog: Cancel closes it, as the fixture's status says.
    const closed = await callOk(fixtures.context, 'click', { window_id: dialog.window_id, element_index: Number(cancel[1]) });
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'dialog:cancel')).lastKey, 'dialog:cancel');
    // The closing says it all: not also the app's bookkeeping (its application object losing a child) or what the
    // dialog's own objects did on the way out.
    assert.deepEqual(await fixtures.readers.windowsNamed('Confirm reset'), [], 'the X server no longer has the dialog');
    const closing = (closed.structured as unknown as ActionResult).evidence ?? [];
    assert.ok(closing.includes(`window ${dialog.window_id} "Confirm reset" closed or hidden`), JSON.stringify(closing));
    assert.deepEqual(closing.filter((line) => /^\[e\d+\]|application/.test(line)), [], `one line for the closed dialog: ${JSON.stringify(closing)}`);
  });

  test('a plan chooses File > Reset… and answers the dialog it opened: invoke_menu is a step, and its new window the next step\'s', async () => {
    const result = (await callOk(fixtures.context, 'run_actions', {
      window_id: window.id,
      steps: [
        { tool: 'invoke_menu', arguments: { path: ['File', 'Reset...'] } },
        { tool: 'click', arguments: { window_id: { from_step: 0 }, selector: 'role=button name=Cancel' } },
      ],
    })).structured as unknown as { completed_steps: number; steps: { ok: boolean; summary: string; window_from_step?: { window_id: number } }[] };
    const lines = result.steps.map((step) => step.summary).join('\n');
    assert.equal(result.completed_steps, 2, lines);
    assert.ok(result.steps.every((step) => step.ok), lines);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'dialog:cancel')).lastKey, 'dialog:cancel', 'the fixture: Cancel answered the dialog');
    assert.deepEqual(await fixtures.readers.windowsNamed('Confirm reset'), [], 'xwininfo: the dialog is gone');
  });

  test('a fact the read-back told is not told again from the app\'s events: a field\'s new text once, a check box\'s +chk once', async () => {
    const elements = await fixtures.elements(window);
    const field = elements.find((element) => element.name === 'Name field');
    const check = elements.find((element) => element.role === 'checkbox' && element.name === 'Enable feature');
    assert.ok(field && check, 'the fixture has its Name field and its check box');
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: field.index, value: '' });
    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: field.index, value: 'told once' });
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'text', 'Name field')).text, 'told once', 'pyatspi: the field holds it');
    const setLines = ((set.structured as unknown as ActionResult).evidence ?? []).filter((line) => line.includes(`[e${field.index}]`));
    assert.deepEqual(setLines, [`text of [e${field.index}]: "" → "told once"`], JSON.stringify(set.structured));

    const wasChecked = (await fixtures.oracle.find(window.pid, window.title, 'check box', 'Enable feature')).states?.includes('checked') ?? false;
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: check.index });
    const nowChecked = (await fixtures.oracle.find(window.pid, window.title, 'check box', 'Enable feature')).states?.includes('checked') ?? false;
    assert.equal(nowChecked, !wasChecked, 'pyatspi: the click toggled the check box');
    const checkLines = ((clicked.structured as unknown as ActionResult).evidence ?? []).filter((line) => line.includes(`[e${check.index}]`));
    const toggled = nowChecked ? '+chk' : '-chk';
    assert.equal(checkLines.filter((line) => line.includes(toggled)).length, 1, `${toggled} is told once: ${JSON.stringify(checkLines)}`);
  });

  test('the evidence quotes typed text as the field holds it: runs of spaces kept, a tab written \\t', async () => {
    const field = (await fixtures.elements(window)).find((element) => element.name === 'Name field');
    assert.ok(field, 'the fixture has its Name field');
    const typed = 'if x:    y\tz';
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: field.index, value: '' });
    const called = await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: field.index, text: typed });
    const node = await fixtures.oracle.find(window.pid, window.title, 'text', 'Name field');
    assert.equal(node.text, typed, 'pyatspi: the field holds the text, four spaces and the tab included');
    const evidence = (called.structured as unknown as ActionResult).evidence ?? [];
    assert.ok(evidence.some((line) => line.includes('"if x:    y\\tz"')), `the evidence quotes it so: ${JSON.stringify(evidence)}`);
  });

  test('what the app sent before an action was sent is not its evidence: a field the app set while the action was being readied, then a click with an effect of its own', async () => {
    // Pluma's save said "Saving file…" in its status bar after the save's evidence was read, and the next invoke_menu
    // listed it as its own. The app here sets its Name field by itself after observe started listening and before it
    // acts (the readiness it waits for, ahead, is when the fixture says the change is made and its events are heard).
    const socket = join(tmpdir(), `cup-evidence-control-${process.pid}`);
    const own = await fixtures.launch('gtk3', { title: 'Earlier Fixture', rows: 3, extraArgs: ['--control', socket] });
    const control = await FixtureControl.open(socket);
    try {
      const context = fixtures.context as LinuxToolContext;
      const elements = await fixtures.elements(own);
      const snapshot = context.state.snapshots.latestForWindow(own.id);
      assert.ok(snapshot, 'the reading is kept as a snapshot');
      const [increment, field] = [['button', 'Increment'], ['textbox', 'Name field']].map(([role, name]) => {
        const found = [...snapshot.elements.values()].find((element) => element.role === role && element.name === name);
        assert.ok(found, `no ${role} "${name}" among ${JSON.stringify(elements.map((element) => `${element.role} "${element.name}"`))}`);
        return found;
      });
      const button = atspiElement(increment!.handle);
      const client = await context.desktop.atspi();
      const counterBefore = (await fixtures.status(own)).counter;
      const ahead = (async () => {
        let heard!: () => void;
        const arrived = new Promise<void>((resolve) => (heard = resolve));
        const stop = await client.events.listen((event) => {
          if (event.sender === button.bus && event.kind === 'TextChanged' && event.path === atspiElement(field!.handle).path) heard();
        });
        try {
          // observe is listening by then (it starts at once).
          await sleep(50);
          await control.send({ do: 'set_entry', text: 'Saving file…' });
          await arrived;
        } finally {
          stop();
        }
        return readAhead(context.desktop, button.bus, []);
      })();
      const observation = await observe(context.desktop, button.bus, [], async () => void (await doAction(client, button, 0)), { snapshot, ahead });
      const status = await fixtures.status(own);
      assert.equal(status.text, 'Saving file…', 'the app set its field');
      assert.equal(status.counter, counterBefore + 1, 'the click counted');
      const evidence = observation.evidence;
      assert.ok(!evidence.some((line) => line.startsWith(`[e${field!.index}] `)), `the field the app set before the click is not its evidence: ${JSON.stringify(evidence)}`);
      assert.ok(evidence.some((line) => line.includes(`counter=${counterBefore + 1}`)), `the click's own effect is: ${JSON.stringify(evidence)}`);
    } finally {
      control.close();
      process.kill(own.pid);
    }
  });

  test('a dialog an accessibility action runs in a nested main loop (gtk_dialog_run) still takes real keys: Escape closes it and the app answers after', async () => {
    // The second fixture runs its Reset… dialog inside the menu item's handler, as Gnumeric runs its Save As: the
    // dispatch of the action's accessibility call lasts as long as the dialog. The driver closed that call's
    // connection meanwhile, and atk-bridge's handling of the first real key press froze the app on it.
    const running = await fixtures.launch('gtk3', { title: 'Run Dialog Fixture', rows: 3, extraArgs: ['--dialog-menu', '--run-dialog'] });
    const menu = await callOk(fixtures.context, 'invoke_menu', { window_id: running.id, pid: running.pid, path: ['File', 'Reset…'] });
    const dialog = (menu.structured as unknown as ActionResult).new_windows?.find((opened) => opened.title === 'Confirm reset');
    assert.ok(dialog, `the menu item opened the dialog: ${menu.summary}`);
    await callOk(fixtures.context, 'press_key', { window_id: dialog.window_id, key: 'escape', delivery_mode: 'foreground', diff: false });
    // The X server, which a frozen app cannot hold up: the dialog goes (a generous bound against a hang).
    const deadline = Date.now() + 5000;
    while ((await fixtures.readers.windowsNamed('Confirm reset')).length > 0 && Date.now() < deadline) await sleep(100);
    assert.deepEqual(await fixtures.readers.windowsNamed('Confirm reset'), [], 'xdotool: Escape closed the dialog');
    assert.equal((await fixtures.waitForStatus(running, (status) => status.lastKey === 'dialog:cancel')).lastKey, 'dialog:cancel', 'pyatspi: the app answers, and its dialog was cancelled');
  });

  test('a driver that goes away while the dialog its menu action opened still runs leaves the app answering', async () => {
    // FileZilla's Site Manager, chosen through invoke_menu, runs inside the item's accessibility call. A key typed
    // into it, then the driver's daemon replaced (a rebuild; an idle daemon, an MCP server and a one-shot call end
    // too): the hang-up of the action's connection reached the app inside that dispatch, and its accessibility
    // answered no one again, pyatspi included, while the dialog stayed up.
    const running = await fixtures.launch('gtk3', { title: 'Driver Away Fixture', rows: 3, extraArgs: ['--dialog-menu', '--run-dialog'] });
    const leaving = testContext();
    try {
      const menu = await callOk(leaving, 'invoke_menu', { window_id: running.id, path: ['File', 'Reset…'] });
      const dialog = (menu.structured as unknown as ActionResult).new_windows?.find((opened) => opened.title === 'Confirm reset');
      assert.ok(dialog, `the menu item opened the dialog: ${menu.summary}`);
      await callOk(leaving, 'press_key', { window_id: dialog.window_id, key: 'shift', delivery_mode: 'foreground', diff: false });
    } finally {
      leaving.desktop.close();
    }
    // pyatspi, a client of its own: the app still answers (its oracle gives up after 15 s).
    assert.match(await fixtures.oracle.statusText(running.pid, running.title), /^counter=/, 'pyatspi: the app answers after the driver went away');
    const dialog = (await fixtures.readers.windowsNamed('Confirm reset'))[0];
    assert.ok(dialog, 'xdotool: the dialog is still up');
    await callOk(fixtures.context, 'press_key', { window_id: dialog, key: 'escape', delivery_mode: 'foreground', diff: false });
    assert.equal((await fixtures.waitForStatus(running, (status) => status.lastKey === 'dialog:cancel')).lastKey, 'dialog:cancel', 'pyatspi: the dialog took the Escape');
    process.kill(running.pid, 'SIGKILL');
  });
});

// GTK 4.8 announces states again that did not change (a disabled slider's SENSITIVE and ENABLED off, when the value it
// shares with another moves it), and a state's first event need not be a change from where the snapshot showed it: the
// evidence tells a state against the snapshot, and pyatspi judges where each ended.
describe('action evidence of states on a real GTK4 app', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'State Evidence GTK4', rows: 3, extraArgs: ['--linked-slider', '--reveal-echo'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('set_value on a slider whose value a disabled slider shares: the disabled one, disabled before and after, is not said to turn disabled', async () => {
    const elements = await fixtures.elements(window);
    const volume = elements.find((element) => element.role === 'slider' && element.name === 'Volume');
    const copy = elements.find((element) => element.role === 'slider' && element.name === 'Volume copy');
    assert.ok(volume && copy, 'the fixture has both sliders');
    assert.ok(copy.states.includes('disabled'), `the snapshot shows the copy disabled: ${JSON.stringify(copy)}`);
    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: volume.index, value: '70' });
    const after = await fixtures.oracle.find(window.pid, window.title, 'slider', 'Volume copy');
    assert.equal(after.states?.includes('sensitive'), false, 'pyatspi: the copy is still disabled');
    assert.equal(after.value, 70, 'pyatspi: the copy moved with the value it shares');
    const evidence = (set.structured as unknown as ActionResult).evidence ?? [];
    assert.equal(set.structured.effect, 'confirmed', set.summary);
    assert.ok(!evidence.some((line) => line.includes('+dis') || line.includes('-dis')), `no line says a slider's disabled state changed: ${JSON.stringify(evidence)}`);
  });

  test('a click that fills a collapsed field and unfolds it: its text line is not said hidden, as the diff says it turned shown', async () => {
    // A compact reading leaves the hidden field out; a full one, which the snapshot is, holds it.
    const elements = (await accessibleWindowState(fixtures.context, window, { include_screenshot: false, detail: 'full' })).state.elements;
    const field = elements.find((element) => element.role === 'textbox' && element.name === 'Count');
    assert.ok(field && field.states.includes('hidden'), `the snapshot reads the collapsed field hidden: ${JSON.stringify(field)}`);
    const folded = await fixtures.oracle.find(window.pid, window.title, 'text', 'Count');
    assert.equal(folded.extents?.[3], 0, `pyatspi: the field has no height before (${JSON.stringify(folded.extents)})`);
    const show = elements.find((element) => element.role === 'button' && element.name === 'Show count');
    assert.ok(show, 'the fixture has Show count');
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: show.index });
    const unfolded = await fixtures.oracle.find(window.pid, window.title, 'text', 'Count');
    assert.equal(unfolded.text, 'count 1', 'pyatspi: the click filled the field');
    assert.ok((unfolded.extents?.[3] ?? 0) > 0, `pyatspi: the field has a height now (${JSON.stringify(unfolded.extents)})`);
    const result = clicked.structured as unknown as ActionResult;
    const line = (result.evidence ?? []).find((told) => told.startsWith(`[e${field.index}] `));
    assert.ok(line, `the field's new text is evidence: ${JSON.stringify(result.evidence)}`);
    assert.doesNotMatch(line, /\(hidden\)/, `the field is on screen now: ${line}; ${clicked.summary}`);
    assert.match(line, /text is now "count 1"/);
  });

  test('a foreground click that checks a check box: its +chk is told once, and never as a change there and back', async () => {
    const check = (await fixtures.elements(window)).find((element) => element.role === 'checkbox' && element.name === 'Enable feature');
    assert.ok(check && !check.states.includes('checked'), `the snapshot shows the check box unchecked: ${JSON.stringify(check)}`);
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: check.index, delivery_mode: 'foreground' });
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'check box', 'Enable feature')).states?.includes('checked'), true, 'pyatspi: the click checked it');
    const lines = ((clicked.structured as unknown as ActionResult).evidence ?? []).filter((line) => line.includes(`[e${check.index}]`));
    assert.equal(lines.filter((line) => line.includes('+chk')).length, 1, `+chk is told once: ${JSON.stringify(lines)}`);
    assert.ok(!lines.some((line) => line.includes('-chk') || line.includes('and back')), `nothing says it was unchecked or went back: ${JSON.stringify(lines)}`);
  });
});
