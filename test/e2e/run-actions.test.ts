// run_actions and the click tools' chaining on the GTK3 fixture, in process: what the app received is read by
// pyatspi (the fixture's status label and the entry's text), the pointer and active window by xdotool and xprop,
// and Escape is pressed by xdotool, a separate X client, as the person at the keyboard would.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolCallResult } from '../../src/tools/call-result.js';
import { runTool } from '../../src/tools/run.js';
import { resultText } from '../../src/tools/call-result.js';
import { startPlanFixtures, type FixtureDesktop } from '../helpers/fixture-desktop.js';
import { personPresses } from '../helpers/person.js';
import { callOk, failsWith, pyatspiWalk, type Element } from '../helpers/tools.js';

interface StepEntry {
  index: number;
  tool: string;
  ok: boolean;
  summary: string;
  effect?: string;
  error?: { code: string; message: string };
  cancelled?: boolean;
}

interface PlanResult {
  steps: StepEntry[];
  completed_steps: number;
  failed_steps: number;
  stopped_at_step?: number;
  cancelled: boolean;
  cancel_reason?: string;
  cancel_latency_ms?: number;
}

describe('run_actions: several steps in one call, stopped by Escape', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let other: ClientWindow;
  let field: Element;
  let increment: Element;

  interface PlanDiff {
    diff: { changed: { index: number; changes: { name?: { from: string; to: string }; value?: { from: string; to: string } } }[] };
  }

  async function plan(args: Record<string, unknown>): Promise<PlanResult> {
    return (await callOk(fixtures.context, 'run_actions', { window_id: gtk3.id, ...args })).structured as unknown as PlanResult;
  }

  /** Another app's window active, so giving the activation back is something to see. */
  async function activateOther(): Promise<number> {
    await callOk(fixtures.context, 'bring_to_front', { pid: other.pid, window_id: other.id });
    await waitUntilActive(other.id);
    return other.id;
  }

  async function waitUntilActive(window: number): Promise<void> {
    const deadline = Date.now() + 5000;
    while ((await fixtures.readers.activeWindow()) !== window && Date.now() < deadline) await sleep(20);
  }

  async function fieldText(): Promise<string> {
    return (await fixtures.oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).text ?? '';
  }

  before(async () => {
    ({ fixtures, gtk3, other, field, increment } = await startPlanFixtures());
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('types into a field, clicks a button and waits, in one call given the window alone (wait_for takes its pid)', async () => {
    const before = await fixtures.status(gtk3);
    const result = await plan({
      steps: [
        { tool: 'set_value', arguments: { element_index: field.index, value: '' } },
        { tool: 'type_text', arguments: { element_index: field.index, text: 'planned ✓' } },
        { tool: 'click', arguments: { element_index: increment.index } },
        { tool: 'wait', arguments: { ms: 50 } },
        { tool: 'wait_for', arguments: { selector: `role=text name~="counter=${before.counter + 1} "`, timeout_ms: 5000 } },
      ],
    });
    assert.equal(result.completed_steps, 5, JSON.stringify(result));
    assert.equal(result.cancelled, false);
    assert.deepEqual(result.steps.map((step) => [step.tool, step.ok]), [['set_value', true], ['type_text', true], ['click', true], ['wait', true], ['wait_for', true]]);
    assert.equal(result.steps[2]!.effect, 'confirmed');
    assert.equal(await fieldText(), 'planned ✓');
    assert.equal((await fixtures.status(gtk3)).counter, before.counter + 1);

    // One diff over the plan, indexed by the snapshot the plan leaves behind.
    const diff = (result as unknown as PlanDiff).diff;
    const counterLine = diff.changed.find((entry) => entry.changes.name?.to.includes(`counter=${before.counter + 1}`));
    assert.ok(counterLine, `the status label's change is in the plan's diff: ${JSON.stringify(diff.changed)}`);
    assert.ok(diff.changed.some((entry) => entry.index === field.index || entry.changes.value?.to === 'planned ✓' || entry.changes.name?.to.includes('planned ✓')), 'the typed text is in it');
    const again = await callOk(fixtures.context, 'click', { window_id: gtk3.id, element_index: increment.index, diff: false });
    assert.equal(again.structured.effect, 'confirmed', 'an index from the plan\'s snapshot still names the button');
  });

  test('a plan naming no window whose every step names the same one has that window\'s diff, as the app\'s status says', async () => {
    const before = await fixtures.status(gtk3);
    const called = await callOk(fixtures.context, 'run_actions', {
      steps: [
        { tool: 'click', arguments: { window_id: gtk3.id, element_index: increment.index } },
        { tool: 'click', arguments: { window_id: gtk3.id, element_index: increment.index } },
      ],
    });
    assert.equal((await fixtures.status(gtk3)).counter, before.counter + 2, 'the fixture counted both clicks');
    const diff = (called.structured as unknown as PlanDiff).diff;
    assert.ok(diff, `a diff over the plan: ${resultText(called)}`);
    assert.ok(diff.changed.some((entry) => entry.changes.name?.to.includes(`counter=${before.counter + 2} `)), `the status label's change is in it: ${JSON.stringify(diff.changed)}`);
    assert.doesNotMatch(resultText(called), /names no window/);
  });

  test('a plan that ends by reading what it did shows the elements its find_elements step matched, with their values, in its text', async () => {
    const called = await callOk(fixtures.context, 'run_actions', {
      window_id: gtk3.id,
      steps: [
        { tool: 'set_value', arguments: { element_index: field.index, value: 'read back' } },
        { tool: 'find_elements', arguments: { selector: 'role=textbox name="Paste target"' } },
      ],
    });
    assert.equal(await fieldText(), 'read back', 'pyatspi reads the value the plan set');
    const text = resultText(called);
    assert.match(text, new RegExp(`^\\[1\\] find_elements: .*\\n    \\[e${field.index}\\] textbox "Paste target" = "read back".* token=\\S+ window=${gtk3.id}$`, 'm'), text);
  });

  test('a step finds the app done with what the step before set off: a search field re-filters 150 ms after its last key, and the next step reads the filtered list', async () => {
    const filtering = await fixtures.launch('gtk3', { title: 'Plan Filter', rows: 3, extraArgs: ['--filter'] });
    const filter = (await fixtures.elements(filtering)).find((element) => element.name === 'Filter')!;
    const result = (await callOk(fixtures.context, 'run_actions', {
      window_id: filtering.id,
      steps: [
        { tool: 'type_text', arguments: { element_index: filter.index, text: 'ban' } },
        { tool: 'find_elements', arguments: { selector: 'name=Matches >> role=text' } },
      ],
    })).structured as unknown as PlanResult & { steps: { result?: { matches?: { name: string }[] } }[] };
    assert.equal(result.completed_steps, 2, JSON.stringify(result.steps));
    // What the app shows after the plan, as pyatspi reads it: the labels inside Matches.
    const walked = await pyatspiWalk(filtering.pid, filtering.title, fixtures.desktop.env());
    const box = walked.findIndex((node) => node.name === 'Matches');
    const end = walked.findIndex((node, i) => i > box && node.depth <= walked[box]!.depth);
    const shown = walked.slice(box + 1, end < 0 ? undefined : end).filter((node) => node.depth === walked[box]!.depth + 1).map((node) => node.name);
    assert.deepEqual(shown, ['banana'], 'pyatspi: the list is filtered');
    assert.deepEqual(result.steps[1]!.result?.matches?.map((match) => match.name), shown, 'the plan\'s second step read the filtered list, not the one before the filter ran');
  });

  test('click {text, press_key}: clicks, types, then presses, in one call (foreground); pointer and active window come back', async () => {
    await callOk(fixtures.context, 'set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    const activeBefore = await activateOther();
    const pointerBefore = await fixtures.readers.pointer();
    const result = await callOk(fixtures.context, 'click', {
      window_id: gtk3.id,
      element_index: field.index,
      text: 'chained',
      press_key: 'F5',
      delivery_mode: 'foreground',
    });
    const structured = result.structured as { effect: string; chain: StepEntry[]; cancelled: boolean };
    assert.deepEqual(structured.chain.map((step) => [step.tool, step.ok]), [['type_text', true], ['press_key', true]], result.summary);
    assert.equal(structured.cancelled, false);
    assert.match(result.summary, /then type_text \w+, press_key \w+/);
    const status = await fixtures.waitForStatus(gtk3, (read) => read.lastKey === 'F5');
    assert.equal(status.lastKey, 'F5', 'the key came after the click');
    assert.equal(await fieldText(), 'chained');
    const chainDiff = (result.structured as unknown as PlanDiff).diff;
    assert.ok(
      chainDiff.changed.some((entry) => entry.changes.value?.to === 'chained' || entry.changes.name?.to.includes('chained')),
      `one diff spans the click and the typing: ${JSON.stringify(chainDiff.changed)}`,
    );
    assert.deepEqual(await fixtures.readers.pointer(), pointerBefore, 'the pointer is back');
    assert.equal(await fixtures.readers.activeWindow(), activeBefore, `the previously active window is active again: ${result.summary}`);
  });

  test('typing into fields the app filled goes where a person\'s would: after a background click, where the click puts the caret (past a short text, its end); into an unfocused field, at its end', async () => {
    // The app set their text, which leaves their caret at the start: a person's click past the text puts it at the
    // end. Gnumeric's name box held "A6", and a background click with text "B5" made it "B5A6".
    const filled = await fixtures.launch('gtk3', { title: 'Prefilled Fixture', rows: 3, extraArgs: ['--prefilled', 'A6'] });
    const text = async (name: string) => (await fixtures.oracle.find(filled.pid, filled.title, 'text', name)).text;
    assert.deepEqual([await text('Prefilled A'), await text('Prefilled B')], ['A6', 'A6']);
    await callOk(fixtures.context, 'click', { window_id: filled.id, selector: 'name="Prefilled A"', text: 'B5' });
    assert.equal(await text('Prefilled A'), 'A6B5', 'pyatspi: the chained click typed after the text');
    await callOk(fixtures.context, 'type_text', { window_id: filled.id, selector: 'name="Prefilled B"', text: '!' });
    assert.equal(await text('Prefilled B'), 'A6!', 'pyatspi: type_text appended to the unfocused field');
  });

  test('stop_on_error: true stops at the failed step; false runs the rest and reports each', async () => {
    const steps = [
      { tool: 'click', arguments: { element_index: 9999 } },
      { tool: 'click', arguments: { element_index: increment.index } },
    ];
    const before = (await fixtures.status(gtk3)).counter;
    const called = await callOk(fixtures.context, 'run_actions', { window_id: gtk3.id, steps });
    const stopped = called.structured as unknown as PlanResult;
    assert.match(called.summary, /step 0 \(click\) failed \[unknown_element\]; the step after it was not run \(1 of 2 ran\)$/, called.summary);
    assert.equal(stopped.stopped_at_step, 0);
    assert.equal(stopped.steps.length, 1);
    assert.equal(stopped.steps[0]!.error?.code, 'unknown_element');
    assert.equal((await fixtures.status(gtk3)).counter, before, 'the click after the failed step was not sent');
    // Failing at the last step stops nothing: the summary does not say steps were held back.
    const last = await callOk(fixtures.context, 'run_actions', { window_id: gtk3.id, steps: [...steps].reverse() });
    assert.match(last.summary, /step 1 \(click\) failed \[unknown_element\]; it was the last of the 2 steps$/, last.summary);
    assert.equal((await fixtures.status(gtk3)).counter, before + 1, 'the click before the failed last step was sent');
    const all = await plan({ steps, stop_on_error: false });
    assert.equal(all.steps.length, 2);
    assert.equal(all.failed_steps, 1);
    assert.equal(all.completed_steps, 2);
    assert.equal(all.steps[1]!.effect, 'confirmed');
    assert.equal((await fixtures.status(gtk3)).counter, before + 2);
  });

  test('stop_on_error: a step that sent nothing (text typed at a button in the background) stops the plan; the click after it is not sent', async () => {
    const steps = [
      { tool: 'type_text', arguments: { element_index: increment.index, text: 'x' } },
      { tool: 'click', arguments: { element_index: increment.index } },
    ];
    const before = (await fixtures.status(gtk3)).counter;
    const called = await callOk(fixtures.context, 'run_actions', { window_id: gtk3.id, steps });
    const stopped = called.structured as unknown as PlanResult & { steps: (StepEntry & { error?: { message: string } })[] };
    // The text an agent reads says why the step sent nothing and what to try, under the step's own line, once.
    const message = stopped.steps[0]?.error?.message ?? '';
    assert.match(message, /retry with delivery_mode "foreground"/, JSON.stringify(stopped.steps[0]));
    assert.equal(message.split('nothing was sent').length - 1, 1, `"nothing was sent" once: ${message}`);
    assert.ok(resultText(called).includes(`[0] type_text: ${stopped.steps[0]!.summary}\n    not_delivered: ${message}`), resultText(called));
    assert.equal(stopped.stopped_at_step, 0, JSON.stringify(stopped));
    assert.equal(stopped.steps.length, 1);
    assert.equal(stopped.steps[0]!.ok, false);
    assert.equal(stopped.steps[0]!.error?.code, 'not_delivered');
    assert.equal(stopped.failed_steps, 1);
    assert.equal((await fixtures.status(gtk3)).counter, before, 'the click after the undelivered step was not sent');

    // A chained click stops the same way: the click goes, the typing at the button sends nothing, the key is not pressed.
    const chained = await callOk(fixtures.context, 'click', { window_id: gtk3.id, element_index: increment.index, text: 'x', press_key: 'F7' });
    const chain = (chained.structured as { chain: StepEntry[] }).chain;
    assert.deepEqual(chain.map((step) => [step.tool, step.ok, step.error?.code]), [['type_text', false, 'not_delivered']], chained.summary);
    assert.match(chained.summary, /then type_text failed \[not_delivered\], press_key not sent/);
    const after = await fixtures.waitForStatus(gtk3, (status) => status.counter === before + 1);
    assert.equal(after.counter, before + 1, 'the click itself went');
    assert.notEqual(after.lastKey, 'F7', 'the key after the undelivered typing was not pressed');
  });

  test('a step naming its own window_id acts in that window with its own app\'s pid, not the plan\'s (another app\'s button clicked in the middle of a plan)', async () => {
    const mine = (await fixtures.status(gtk3)).counter;
    const theirs = (await fixtures.status(other)).counter;
    const result = await plan({
      steps: [
        { tool: 'click', arguments: { element_index: increment.index } },
        { tool: 'click', arguments: { window_id: other.id, selector: 'role=button name=Increment' } },
        { tool: 'click', arguments: { element_index: increment.index } },
      ],
    });
    assert.deepEqual(result.steps.map((step) => [step.ok, step.error?.code]), [[true, undefined], [true, undefined], [true, undefined]], JSON.stringify(result.steps));
    assert.equal((await fixtures.waitForStatus(other, (status) => status.counter === theirs + 1)).counter, theirs + 1, 'the other app\'s button was clicked');
    assert.equal((await fixtures.waitForStatus(gtk3, (status) => status.counter === mine + 2)).counter, mine + 2, 'the plan\'s own clicks went');
  });

  test('a step with window_id null is not sent to the plan\'s window: Escape by pid reaches the dialog an earlier step opened', async () => {
    const main = await fixtures.launch('gtk3', { title: 'Plan dialog', extraArgs: ['--dialog-button'] });
    try {
      await escapeToDialog(main);
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('a plan aimed at a dialog clicks its Cancel, then waits for the dialog to be gone: the wait is not refused for the closed window', async () => {
    const main = await fixtures.launch('gtk3', { title: 'Plan dialog gone', extraArgs: ['--dialog-button'] });
    try {
      const opener = (await fixtures.elements(main)).find((element) => element.name === 'Reset…');
      assert.ok(opener, 'the fixture shows its dialog button');
      await callOk(fixtures.context, 'click', { pid: main.pid, window_id: main.id, element_index: opener.index, diff: false });
      const opened = await callOk(fixtures.context, 'wait_for', { pid: main.pid, window_title: 'Confirm reset' });
      const dialog = (opened.structured.windows as { window_id: number }[])[0]!.window_id;
      const state = await callOk(fixtures.context, 'get_window_state', { pid: main.pid, window_id: dialog, include_screenshot: false });
      const cancel = (state.structured.elements as Element[]).find((element) => element.role === 'button' && element.name === 'Cancel');
      assert.ok(cancel, 'the dialog shows Cancel');
      const result = (await callOk(fixtures.context, 'run_actions', {
        pid: main.pid,
        window_id: dialog,
        steps: [
          { tool: 'click', arguments: { element_index: cancel.index } },
          { tool: 'wait_for', arguments: { window_title: 'Confirm reset', gone: true } },
        ],
      })).structured as unknown as PlanResult;
      assert.equal(result.failed_steps, 0, JSON.stringify(result.steps));
      assert.equal(result.completed_steps, 2, JSON.stringify(result.steps));
      // The app's own word (pyatspi) that the dialog took the click, and the X server's that no window has its title.
      assert.equal((await fixtures.waitForStatus(main, (read) => read.lastKey !== '')).lastKey, 'dialog:cancel');
      assert.deepEqual(await fixtures.readers.windowsNamed('Confirm reset'), []);
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('a wait for a button to be gone from the dialog an earlier step opened and a later one closed is answered by the dialog closing, not refused', async () => {
    const main = await fixtures.launch('gtk3', { title: 'Plan dialog button gone', extraArgs: ['--dialog-button'] });
    try {
      const opener = (await fixtures.elements(main)).find((element) => element.name === 'Reset…');
      assert.ok(opener, 'the fixture shows its dialog button');
      const called = await callOk(fixtures.context, 'run_actions', {
        pid: main.pid,
        window_id: main.id,
        steps: [
          { tool: 'click', arguments: { element_index: opener.index } },
          { tool: 'wait_for', arguments: { window_id: null, window_title: 'Confirm reset' } },
          { tool: 'click', arguments: { window_id: { from_step: 1 }, selector: 'role=button name=Cancel' } },
          { tool: 'wait_for', arguments: { window_id: { from_step: 1 }, selector: 'role=button name=Cancel', gone: true } },
        ],
      });
      const result = called.structured as unknown as PlanResult & { steps: (StepEntry & { result?: { window_closed?: boolean } })[] };
      assert.deepEqual(result.steps.map((step) => [step.tool, step.ok, step.error?.code]), [['click', true, undefined], ['wait_for', true, undefined], ['click', true, undefined], ['wait_for', true, undefined]], resultText(called));
      assert.equal(result.steps[3]!.result?.window_closed, true, resultText(called));
      assert.match(resultText(called), /nothing matches "role=button name=Cancel" \(window \d+ has closed\)/);
      // The app's own word (pyatspi) that the dialog took the click, and the X server's that no window has its title.
      assert.equal((await fixtures.waitForStatus(main, (read) => read.lastKey !== '')).lastKey, 'dialog:cancel');
      assert.deepEqual(await fixtures.readers.windowsNamed('Confirm reset'), []);
      // The same wait on its own, given the closed dialog's id, is answered too; an id never read is still refused.
      const dialog = (result.steps[1]!.result as unknown as { windows: { window_id: number }[] }).windows[0]!.window_id;
      const alone = await callOk(fixtures.context, 'wait_for', { window_id: dialog, selector: 'role=button name=Cancel', gone: true, timeout_ms: 1000 });
      assert.equal(alone.structured.window_closed, true);
      await failsWith(fixtures.context, 'wait_for', { window_id: dialog + 999_999, selector: 'role=button name=Cancel', gone: true, timeout_ms: 1000 }, 'window_not_found');
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  async function escapeToDialog(main: ClientWindow): Promise<void> {
    const opener = (await fixtures.elements(main)).find((element) => element.name === 'Reset…');
    assert.ok(opener, 'the fixture shows its dialog button');
    const result = (await callOk(fixtures.context, 'run_actions', {
      pid: main.pid,
      window_id: main.id,
      steps: [
        { tool: 'click', arguments: { element_index: opener.index } },
        { tool: 'wait_for', arguments: { window_id: null, window_title: 'Confirm reset' } },
        { tool: 'press_key', arguments: { window_id: null, key: 'escape', delivery_mode: 'foreground' } },
      ],
    })).structured as unknown as PlanResult;
    assert.equal(result.completed_steps, 3, JSON.stringify(result.steps));
    // The app's own word, read by pyatspi: the dialog took the Escape (its Cancel response); the main window would say last_key=Escape.
    const status = await fixtures.waitForStatus(main, (read) => read.lastKey !== '');
    assert.equal(status.lastKey, 'dialog:cancel', JSON.stringify(result.steps));
  }

  test('every step is checked before the first runs: a refused tool or bad arguments send nothing', async () => {
    const before = (await fixtures.status(gtk3)).counter;
    const refused = await failsWith(fixtures.context, 'run_actions', {
      window_id: gtk3.id,
      steps: [{ tool: 'click', arguments: { element_index: increment.index } }, { tool: 'kill_app', arguments: { pid: gtk3.pid } }],
    }, 'invalid_arguments');
    assert.match(refused.summary, /steps\[1\]\.tool "kill_app"/);
    const bad = await failsWith(fixtures.context, 'run_actions', {
      window_id: gtk3.id,
      steps: [{ tool: 'click', arguments: { element_index: increment.index } }, { tool: 'wait', arguments: { ms: -1 } }],
    }, 'invalid_arguments');
    assert.match(bad.summary, /steps\[1\]/);
    await failsWith(fixtures.context, 'run_actions', { window_id: gtk3.id, steps: [{ tool: 'run_actions', arguments: {} }] }, 'invalid_arguments');
    assert.equal((await fixtures.status(gtk3)).counter, before, 'nothing was clicked');
  });

  test("Escape on the keyboard during a wait cancels within 100 ms; the next step's click never happens", async () => {
    await callOk(fixtures.context, 'set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    const before = (await fixtures.status(gtk3)).counter;
    const running = runTool('run_actions', {
      window_id: gtk3.id,
      steps: [
        { tool: 'type_text', arguments: { element_index: field.index, text: 'armed' } },
        { tool: 'wait', arguments: { ms: 5000 } },
        { tool: 'click', arguments: { element_index: increment.index } },
      ],
    }, fixtures.context);
    let returnedAt = 0;
    const result = running.then((value: ToolCallResult) => {
      returnedAt = performance.now();
      return value;
    });
    // The guard is armed before the first step: once the typed text shows, the plan is in its wait.
    while ((await fieldText()) !== 'armed') await sleep(20);
    const pressedAt = await personPresses(fixtures.desktop.env(), 'Escape');
    const plan = (await result).structured as unknown as PlanResult;
    console.log(`escape: plan stopped ${plan.cancel_latency_ms} ms after the guard saw the key; result ${(returnedAt - pressedAt).toFixed(1)} ms after xdotool returned`);
    assert.equal(plan.cancelled, true, JSON.stringify(plan));
    assert.equal(plan.cancel_reason, 'escape_key');
    // Bounds against hangs; npm run bench measures the latency (the target is 100 ms).
    assert.ok(plan.cancel_latency_ms! < 1000, `stopped ${plan.cancel_latency_ms} ms after the cancel`);
    assert.ok(returnedAt - pressedAt < 1500, `the result came ${returnedAt - pressedAt} ms after the key`);
    // The text shows while type_text still reads its effect back, so the Escape lands at the boundary after it or
    // inside the wait; either way the wait is cut short and the click never sent.
    const ran = plan.steps.map((step) => [step.tool, step.cancelled ?? false]);
    assert.ok(JSON.stringify(ran) === JSON.stringify([['type_text', false], ['wait', true]]) || JSON.stringify(ran) === JSON.stringify([['type_text', false]]), JSON.stringify(ran));
    assert.equal(plan.completed_steps, 1);
    assert.equal((await fixtures.status(gtk3)).counter, before, 'the click after the wait was never sent');
  });

  test("Escape during a plan's wait_for: the step says Escape stopped it (not the caller) and what the wait last saw", async () => {
    await callOk(fixtures.context, 'set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    const running = runTool('run_actions', {
      window_id: gtk3.id,
      steps: [
        { tool: 'type_text', arguments: { element_index: field.index, text: 'waiting' } },
        { tool: 'wait_for', arguments: { selector: 'role=button name="Incremant"', timeout_ms: 20_000 } },
        { tool: 'click', arguments: { element_index: increment.index } },
      ],
    }, fixtures.context);
    while ((await fieldText()) !== 'waiting') await sleep(20);
    // Well inside the 20 s wait once type_text has read its effect back.
    await sleep(1500);
    await personPresses(fixtures.desktop.env(), 'Escape');
    const plan = (await running).structured as unknown as PlanResult;
    assert.equal(plan.cancel_reason, 'escape_key', JSON.stringify(plan));
    const wait = plan.steps[1]!;
    assert.equal(wait.tool, 'wait_for', JSON.stringify(plan.steps));
    assert.equal(wait.error?.code, 'cancelled');
    // It said "cancelled by the caller", and nothing of what it had seen.
    assert.match(wait.error!.message, /^the wait was cancelled by Escape pressed on the keyboard after \d+ ms; last seen: 0 matches; nearest names "Increment"/, wait.error!.message);
  });

  test('Escape after a foreground step: the pointer and the previously active window are as before the plan', async () => {
    const activeBefore = await activateOther();
    const pointerBefore = await fixtures.readers.pointer();
    const before = (await fixtures.status(gtk3)).counter;
    const running = runTool('run_actions', {
      window_id: gtk3.id,
      steps: [
        { tool: 'click', arguments: { element_index: increment.index, delivery_mode: 'foreground' } },
        { tool: 'wait', arguments: { ms: 5000 } },
        { tool: 'click', arguments: { element_index: increment.index, delivery_mode: 'foreground' } },
      ],
    }, fixtures.context);
    // The first click has landed once the counter moves; the Escape comes while it gives things back, or in the wait.
    await fixtures.waitForStatus(gtk3, (status) => status.counter === before + 1, 10_000);
    await personPresses(fixtures.desktop.env(), 'Escape');
    const plan = (await running).structured as unknown as PlanResult;
    assert.equal(plan.cancel_reason, 'escape_key', JSON.stringify(plan));
    assert.equal(plan.completed_steps, 1);
    assert.equal((await fixtures.status(gtk3)).counter, before + 1, 'only the first click was sent');
    assert.deepEqual(await fixtures.readers.pointer(), pointerBefore, 'the pointer is back');
    assert.equal(await fixtures.readers.activeWindow(), activeBefore, 'the previously active window is active again');
  });

  test("the driver's own Escape (press_key escape, foreground) does not cancel its plan", async () => {
    const before = (await fixtures.status(gtk3)).counter;
    const result = await plan({
      steps: [
        { tool: 'press_key', arguments: { element_index: field.index, key: 'escape', delivery_mode: 'foreground' } },
        { tool: 'wait', arguments: { ms: 100 } },
        { tool: 'click', arguments: { element_index: increment.index } },
      ],
    });
    assert.equal(result.cancelled, false, JSON.stringify(result));
    assert.equal(result.completed_steps, 3);
    assert.equal((await fixtures.status(gtk3)).counter, before + 1);
  });

  test('a caller that cancels (its AbortSignal) stops the plan at once, with cancel_reason client', async () => {
    const before = (await fixtures.status(gtk3)).counter;
    await callOk(fixtures.context, 'set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    const controller = new AbortController();
    const running = runTool('run_actions', {
      window_id: gtk3.id,
      steps: [
        { tool: 'type_text', arguments: { element_index: field.index, text: 'client' } },
        { tool: 'wait', arguments: { ms: 5000 } },
        { tool: 'click', arguments: { element_index: increment.index } },
      ],
    }, { ...fixtures.context, signal: controller.signal });
    while ((await fieldText()) !== 'client') await sleep(20);
    const abortedAt = performance.now();
    controller.abort();
    const plan = (await running).structured as unknown as PlanResult;
    const tookMs = performance.now() - abortedAt;
    console.log(`client cancel in process: result ${tookMs.toFixed(1)} ms after abort (plan says ${plan.cancel_latency_ms} ms)`);
    assert.equal(plan.cancel_reason, 'client');
    assert.ok(tookMs < 1000, `stopped after ${tookMs} ms`);
    assert.equal((await fixtures.status(gtk3)).counter, before);
  });
  test('a plan cancelled while it waits its turn behind the window\'s earlier action says so, and that nothing was sent', async () => {
    for (const planTarget of [{ window_id: gtk3.id }, {}]) {
      const before = (await fixtures.status(gtk3)).counter;
      // The earlier action: a plan holding the app's line for 1.5 s.
      const earlier = runTool('run_actions', { window_id: gtk3.id, steps: [{ tool: 'wait', arguments: { ms: 1500 } }] }, fixtures.context);
      await sleep(200);
      const controller = new AbortController();
      const click = { tool: 'click', arguments: { window_id: gtk3.id, element_index: increment.index } };
      const waiting = runTool('run_actions', { ...planTarget, steps: [click, click, click] }, { ...fixtures.context, signal: controller.signal });
      await sleep(300);
      controller.abort();
      const result = await waiting;
      await earlier;
      const text = resultText(result);
      assert.match(text, /cancelled while (it )?wait(ing|ed) for (the window's|its app's|the app's) earlier action/i, text);
      assert.match(text, /nothing was sent/, text);
      assert.doesNotMatch(text, /after 0 of 3 steps/, text);
      // The fixture's own counter: no click reached it.
      assert.equal((await fixtures.status(gtk3)).counter, before, text);
    }
  });
});
