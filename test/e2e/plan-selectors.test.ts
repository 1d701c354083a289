// Actions that name their element by selector, and run_actions steps that act in a window an earlier step of the
// same plan produced (window_id {"from_step": N}): one call for "Save As…, wait for the dialog, type a name, Save".
// Judged by the app: the file the GTK3 fixture writes on Save, the name zenity prints on OK, the fixture's status
// label read by pyatspi.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runTool } from '../../src/tools/run.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith, pyatspiWalk } from '../helpers/tools.js';

interface StepEntry {
  index: number;
  tool: string;
  ok: boolean;
  summary: string;
  error?: { code: string; message: string };
  window_from_step?: { from_step: number; window_id: number; pid: number };
  result?: { selected?: { selector: string; window_id: number; role: string; name: string }; windows?: { window_id: number }[] };
}

interface PlanResult {
  steps: StepEntry[];
  completed_steps: number;
  stopped_at_step?: number;
}

describe('selectors in actions and window references in plans', () => {
  let fixtures: FixtureDesktop;
  let app: ClientWindow;
  let saveDir: string;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    saveDir = mkdtempSync(join(tmpdir(), 'cup-plan-save-'));
    app = await fixtures.launch('gtk3', { title: 'Plan Editor', rows: 3, extraArgs: ['--save-chooser', saveDir, '--waits', '--later-ms', '1500', '--late-enable'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  async function plan(args: Record<string, unknown>): Promise<PlanResult> {
    const result = await runTool('run_actions', args, fixtures.context);
    assert.ok(result.ok, result.summary);
    return result.structured as unknown as PlanResult;
  }

  test('one run_actions call: Save As…, wait for the chooser, type a file name into its name field by selector, press Save; the app writes the file', async () => {
    const result = await plan({
      window_id: app.id,
      steps: [
        { tool: 'set_value', arguments: { selector: 'role=textbox name="Name field"', value: 'written by one plan' } },
        { tool: 'click', arguments: { selector: 'role=button name="Save As…"' } },
        { tool: 'wait_for', arguments: { window_title: 'Save As' } },
        { tool: 'type_text', arguments: { window_id: { from_step: -1 }, selector: 'role=textbox name="Name:"', text: 'one-plan.txt' } },
        { tool: 'click', arguments: { window_id: { from_step: 2 }, selector: 'role=button name=Save' } },
        { tool: 'wait_for', arguments: { window_title: 'Save As', gone: true } },
      ],
    });
    const lines = result.steps.map((step) => `${step.index} ${step.summary} ${step.error?.message ?? ''}`).join('\n');
    assert.equal(result.completed_steps, 6, lines);
    assert.ok(result.steps.every((step) => step.ok), lines);
    // The app's word: the file it saved where the chooser was told, holding its Name field's text.
    assert.equal(readFileSync(join(saveDir, 'one-plan.txt'), 'utf8'), 'written by one plan');
    // The references named the window the wait_for matched, and the selectors the elements in it.
    const dialog = result.steps[2]!.result!.windows![0]!.window_id;
    assert.deepEqual(result.steps[3]!.window_from_step, { from_step: 2, window_id: dialog, pid: app.pid });
    assert.equal(result.steps[4]!.window_from_step?.window_id, dialog);
    assert.deepEqual(
      [result.steps[3]!.result!.selected, result.steps[4]!.result!.selected].map((selected) => [selected?.window_id, selected?.role, selected?.name]),
      [
        [dialog, 'textbox', 'Name:'],
        [dialog, 'button', 'Save'],
      ],
    );
  });

  test('find_elements by a name that is an element\'s value (a sheet\'s cell is named by its place) says which element holds it and to ask value instead', async () => {
    // The Volume slider holds 50 (pyatspi's Value), and no element is named 50.
    const [volume] = await fixtures.oracle.values(app.pid, app.title, 'slider');
    assert.equal(volume, 50);
    const byName = await callOk(fixtures.context, 'find_elements', { window_id: app.id, selector: 'role=slider name=50' });
    assert.equal(byName.structured.count, 0);
    assert.match(byName.summary, /it is the value, not the name, of \[e\d+\] slider "Volume" = "50": ask value in place of name/, byName.summary);
    assert.deepEqual((byName.structured.by_value as string[]).length, 1);
    const byValue = await callOk(fixtures.context, 'find_elements', { window_id: app.id, selector: 'role=slider value=50' });
    assert.deepEqual((byValue.structured.matches as { name: string }[]).map((match) => match.name), ['Volume']);
  });

  test('a selector that matches nothing, or several, sends nothing and says what it saw and how to pick one', async () => {
    const before = await fixtures.status(app);
    const missing = await failsWith(fixtures.context, 'click', { window_id: app.id, selector: 'role=button name="Incremnt"' }, 'not_found');
    assert.match(missing.summary, /selector "role=button name=\\"Incremnt\\"" matches no element in window \d+ "Plan Editor"/);
    assert.match(missing.summary, /nearest names: "Increment"/);
    assert.match(missing.summary, /Nothing was sent/);
    const several = await failsWith(fixtures.context, 'click', { window_id: app.id, selector: 'role=button name~=later' }, 'ambiguous');
    assert.match(several.summary, /matches \d+ elements, and one is needed: \[e\d+\] button "Add later"/);
    assert.match(several.summary, /\[index=0\]/);
    // Items of closed menus (pyatspi: none showing) are listed with their states, and the error says none is shown.
    const items = (await fixtures.oracle.menuBars(app.pid, app.title)).flat().flatMap((entry) => entry.items).filter((item) => /u/.test(item.name));
    assert.deepEqual(items.map((item) => [item.name, item.states.includes('showing')]), [['Quit', false], ['About', false]]);
    const closed = await failsWith(fixtures.context, 'click', { window_id: app.id, selector: 'role=menuitem name~=u' }, 'ambiguous');
    for (const name of ['Quit', 'About']) assert.match(closed.summary, new RegExp(`\\[e\\d+\\] menuitem "${name}" \\{[^}]*(hidden|offscreen)[^}]*\\} \\(window \\d+\\)`));
    assert.match(closed.summary, /None of them is shown .*open what holds the one meant/);
    assert.doesNotMatch(several.summary, /None of them is shown/);
    await failsWith(fixtures.context, 'click', { window_id: app.id, selector: 'role=button name=Increment', element_index: 1 }, 'conflicting_target');
    await failsWith(fixtures.context, 'type_text', { selector: 'role=textbox', text: 'x' }, 'missing_window_id');
    assert.deepEqual(await fixtures.status(app), before, 'nothing reached the app');

    // Outside a plan too: a click by selector acts on the one element it names, and says which.
    const clicked = await callOk(fixtures.context, 'click', { pid: app.pid, selector: 'role=button name=Increment' });
    assert.equal((clicked.structured.selected as { name: string }).name, 'Increment');
    assert.equal((await fixtures.status(app)).counter, before.counter + 1, 'the Increment button was clicked once');
  });

  test('a step\'s selector waits for the element an earlier step makes appear; a call of its own waits only when asked', async () => {
    // "Add later" adds a button "Arrived N" 1.5 s after its click, long after the click's own result (no effect seen):
    // the next step clicks the new button by selector, with no wait_for between.
    const before = await fixtures.status(app);
    const arrivals = (await pyatspiWalk(app.pid, app.title, fixtures.desktop.env())).filter((node) => node.name.startsWith('Arrived ')).length;
    const arrived = `Arrived ${arrivals + 1}`;
    const result = await plan({
      window_id: app.id,
      steps: [
        { tool: 'click', arguments: { selector: 'role=button name="Add later"' } },
        { tool: 'click', arguments: { selector: `role=button name="${arrived}"` } },
      ],
    });
    const lines = result.steps.map((step) => `${step.index} ${step.summary} ${step.error?.message ?? ''}`).join('\n');
    assert.equal(result.completed_steps, 2, lines);
    assert.ok(result.steps.every((step) => step.ok), lines);
    assert.equal(result.steps[1]!.result!.selected!.name, arrived);
    assert.equal((await fixtures.status(app)).counter, before.counter + 1, 'pyatspi: the button that arrived took the click');

    // Alone, a call matches once, unless it gives selector_timeout_ms; either way nothing is sent when nothing matches.
    const next = `role=button name="Arrived ${arrivals + 2}"`;
    const atOnce = await failsWith(fixtures.context, 'click', { window_id: app.id, selector: next }, 'not_found');
    assert.match(atOnce.summary, /give selector_timeout_ms to wait for it/);
    const started = Date.now();
    const waited = await failsWith(fixtures.context, 'click', { window_id: app.id, selector: next, selector_timeout_ms: 400 }, 'not_found');
    assert.ok(Date.now() - started >= 400, `refused after ${Date.now() - started} ms`);
    assert.match(waited.summary, /after waiting \d+ ms/);
    assert.equal((await fixtures.status(app)).counter, before.counter + 1, 'nothing more reached the app');
  });

  test('a step whose window_id names a step that produced no window fails with no_step_window, and sends nothing', async () => {
    const before = await fixtures.status(app);
    const result = await plan({
      window_id: app.id,
      steps: [
        { tool: 'click', arguments: { selector: 'role=button name=Increment' } },
        { tool: 'press_key', arguments: { window_id: { from_step: 0 }, key: 'x' } },
        { tool: 'click', arguments: { selector: 'role=button name=Increment' } },
      ],
    });
    assert.equal(result.stopped_at_step, 1);
    const failed = result.steps[1]!;
    assert.equal(failed.error?.code, 'no_step_window', failed.summary);
    assert.match(failed.error!.message, /steps\[1\]\.window_id \{"from_step": 0\}: step 0 \(click\) produced no window/);
    const after = await fixtures.status(app);
    assert.equal(after.counter, before.counter + 1, 'step 0 ran, step 2 did not');
    assert.equal(after.lastKey, before.lastKey, 'no key was pressed');
  });

  test('a plan whose later step has a selector that cannot parse is refused before its first step runs', async () => {
    const before = await fixtures.status(app);
    for (const [selector, problem] of [
      ['role=textbox placeholder=Replace', /unknown field "placeholder"/],
      ['role=txtbox name=Name', /role "txtbox" is no CUP role/],
    ] as const) {
      const refused = await failsWith(
        fixtures.context,
        'run_actions',
        {
          window_id: app.id,
          steps: [
            { tool: 'click', arguments: { selector: 'role=button name=Increment' } },
            { tool: 'type_text', arguments: { selector, text: 'x' } },
          ],
        },
        'invalid_selector',
      );
      assert.match(refused.summary, /steps\[1\]\.selector: invalid selector/);
      assert.match(refused.summary, problem);
    }
    const after = await fixtures.status(app);
    assert.equal(after.counter, before.counter, 'step 0 was not sent');
    assert.equal(after.lastKey, before.lastKey, 'nothing was typed');
  });

  test('find_elements takes window_id alone, as the actions do, and its token clicks the element it found', async () => {
    const before = await fixtures.status(app);
    const found = await callOk(fixtures.context, 'find_elements', { window_id: app.id, selector: 'role=button name=Increment' });
    const structured = found.structured as { window: { pid: number }; matches: { element_token: string }[] };
    assert.equal(structured.window.pid, app.pid);
    assert.equal(structured.matches.length, 1, found.body);
    await callOk(fixtures.context, 'click', { element_token: structured.matches[0]!.element_token });
    assert.equal((await fixtures.status(app)).counter, before.counter + 1, 'pyatspi: the button found counted the click');
  });

  test('!disabled finds the buttons pyatspi reads enabled and showing, and disabled the others', async () => {
    const named = (matches: { name: string }[]) => matches.map((match) => match.name).sort();
    const found = async (selector: string) => named((await callOk(fixtures.context, 'find_elements', { window_id: app.id, selector })).structured.matches as { name: string }[]);
    const buttons = (await pyatspiWalk(app.pid, app.title, fixtures.desktop.env())).filter((node) => node.role === 'push button' && node.states.includes('showing') && node.name);
    const enabled = buttons.filter((node) => node.states.includes('enabled')).map((node) => node.name).sort();
    const disabled = buttons.filter((node) => !node.states.includes('enabled')).map((node) => node.name).sort();
    assert.ok(enabled.length > 0 && disabled.length > 0, `pyatspi reads both kinds: ${JSON.stringify({ enabled, disabled })}`);
    assert.deepEqual((await found('role=button !disabled')).filter((name) => name), enabled);
    assert.deepEqual((await found('role=button disabled')).filter((name) => name), disabled);
  });

  test('get_window_state, wait_for, invoke_menu and bring_to_front take window_id alone too, as list_windows gives it', async () => {
    // An agent that read list_windows and asked get_window_state by window_id got 'pid: required'.
    const read = await callOk(fixtures.context, 'get_window_state', { window_id: app.id, include_screenshot: false });
    assert.equal((read.structured as { window: { pid: number } }).window.pid, app.pid, read.summary);
    const waited = await callOk(fixtures.context, 'wait_for', { window_id: app.id, selector: 'role=button name=Increment', timeout_ms: 3000 });
    assert.equal((waited.structured as { count: number }).count, 1, waited.summary);
    await callOk(fixtures.context, 'invoke_menu', { window_id: app.id, path: ['Edit', 'Copy'] });
    assert.equal((await fixtures.status(app)).lastKey, 'menu:Copy', 'pyatspi: the fixture ran Edit > Copy');
    const front = await callOk(fixtures.context, 'bring_to_front', { window_id: app.id });
    assert.equal((front.structured as { window_id: number }).window_id, app.id);
    assert.equal(await fixtures.readers.activeWindow(), app.id, 'xdotool: the window is the active one');
    assert.deepEqual((waited.structured.matches as { window_id: number }[]).map((match) => match.window_id), [app.id], waited.summary);
    // A title alone needs no process: any app's window counts.
    const titled = await callOk(fixtures.context, 'wait_for', { window_title: app.title, timeout_ms: 2000 });
    assert.deepEqual((titled.structured.windows as { window_id: number }[]).map((window) => window.window_id), [app.id], titled.summary);
    // A selector with neither names nothing to look in: the error says what would.
    const missing = await failsWith(fixtures.context, 'wait_for', { selector: 'role=button name=Increment', timeout_ms: 100 }, 'missing_window_id');
    assert.match(missing.summary, /window_id/);
  });

  test('a click on a button the app enables a moment after a name is typed (as a file chooser\'s Save) waits for it; one that stays disabled is refused', async () => {
    const before = await fixtures.status(app);
    const result = await plan({
      window_id: app.id,
      steps: [
        { tool: 'type_text', arguments: { selector: 'role=textbox name="File name"', text: 'notes.txt', diff: false } },
        { tool: 'click', arguments: { selector: 'role=button name="Enabled later"' } },
      ],
    });
    assert.equal(result.completed_steps, 2, result.steps.map((step) => `${step.summary} ${step.error?.message ?? ''}`).join('\n'));
    assert.ok(result.steps.every((step) => step.ok), result.steps.map((step) => `${step.summary} ${step.error?.message ?? ''}`).join('\n'));
    assert.equal((await fixtures.status(app)).counter, before.counter + 1, 'the button, enabled 600 ms after the typing, took the click');

    // A button that stays disabled is still refused, once the wait is over, and nothing is sent.
    const started = Date.now();
    const refused = await failsWith(fixtures.context, 'click', { window_id: app.id, selector: 'role=button name="Disabled button"' }, 'element_disabled');
    assert.match(refused.summary, /button "Disabled button" is disabled .*did not enable it within 1000 ms.*nothing was sent/);
    assert.ok(Date.now() - started >= 1000, `refused after ${Date.now() - started} ms`);
    assert.equal((await fixtures.status(app)).counter, before.counter + 1);
  });

  test('a recorded click by selector replays: the element recorded is found again, and the selector is not sent beside its token', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cup-plan-record-')), 'trajectory');
    const before = (await fixtures.status(app)).counter;
    await callOk(fixtures.context, 'start_recording', { output_dir: dir });
    try {
      await callOk(fixtures.context, 'click', { window_id: app.id, selector: 'role=button name=Increment' });
    } finally {
      await callOk(fixtures.context, 'stop_recording', {});
    }
    const replayed = await callOk(fixtures.context, 'replay_trajectory', { dir, delay_ms: 0 });
    const steps = replayed.structured.steps as { ok: boolean; summary: string }[];
    assert.deepEqual(steps.map((step) => step.ok), [true], JSON.stringify(steps));
    assert.equal((await fixtures.status(app)).counter, before + 2, 'clicked when recorded and again when replayed');
  });

  test('a dialog of another app (zenity): the step after a wait_for acts in the window it matched, with that window\'s pid', async () => {
    const printed = join(mkdtempSync(join(tmpdir(), 'cup-plan-zenity-')), 'out.txt');
    const zenity = spawn('/bin/sh', ['-c', `exec zenity --entry --title "Plan Question" --text "Your name" > '${printed}'`], { env: fixtures.desktop.env(), stdio: 'ignore' });
    const exited = once(zenity, 'exit');
    try {
      const result = await plan({
        window_id: app.id,
        steps: [
          { tool: 'wait_for', arguments: { window_title: 'Plan Question', timeout_ms: 20_000 } },
          { tool: 'wait_for', arguments: { window_id: { from_step: 0 }, selector: 'role=textbox' } },
          { tool: 'type_text', arguments: { window_id: { from_step: 0 }, selector: 'role=textbox', text: 'Ada' } },
          { tool: 'click', arguments: { window_id: { from_step: 0 }, selector: 'role=button name=OK' } },
        ],
      });
      const lines = result.steps.map((step) => `${step.summary} ${step.error?.message ?? ''}`).join('\n');
      assert.equal(result.completed_steps, 4, lines);
      assert.ok(result.steps.every((step) => step.ok), lines);
      assert.equal(result.steps[2]!.window_from_step?.pid, zenity.pid, 'the referenced window\'s pid, not the plan\'s');
      await Promise.race([exited, sleep(10_000).then(() => assert.fail('zenity did not exit after OK'))]);
      assert.equal(readFileSync(printed, 'utf8').trim(), 'Ada', 'zenity prints what its entry holds');
    } finally {
      if (zenity.exitCode === null && zenity.signalCode === null) zenity.kill();
    }
  });
});
