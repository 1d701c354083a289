// Cancelling a plan while one of its steps is still sending keys: a long foreground type_text stopped by the
// caller and by Escape on the keyboard, and a repeated press_key stopped by the caller. What the field ends up
// holding is read by pyatspi, the keys still down by the X server (XQueryKeymap), the active window by xprop and
// the pointer by xdotool; the Escape is pressed by xdotool, a separate X client, as the person would.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runTool } from '../../src/tools/run.js';
import { startPlanFixtures, type FixtureDesktop } from '../helpers/fixture-desktop.js';
import { personPresses } from '../helpers/person.js';
import { callOk, type Element } from '../helpers/tools.js';

interface StepEntry {
  tool: string;
  cancelled?: boolean;
  result?: { cancelled?: boolean; typed_chars?: number; key_presses?: number; diff_unavailable?: string };
}

interface PlanResult {
  steps: StepEntry[];
  completed_steps: number;
  cancelled: boolean;
  cancel_reason?: string;
  cancel_latency_ms?: number;
}

/** 2000 characters with capitals and digits, so Shift goes down and up all along. */
const longText = Array.from({ length: 120 }, (_, i) => `Line ${String(i).padStart(2, '0')} of Text; `).join('').slice(0, 2000);

describe('cancelling a step while it sends keys', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let other: ClientWindow;
  let field: Element;
  let increment: Element;

  async function fieldText(): Promise<string> {
    return (await fixtures.oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).text ?? '';
  }

  /**
   * Whether the field comes to hold exactly `expected` once the app has worked through the keys it was handed (a
   * busy machine may take seconds), and holds nothing more half a second later. Returns what it holds.
   */
  async function settlesAt(expected: string): Promise<string> {
    let text = await fieldText();
    for (const deadline = Date.now() + 15_000; text !== expected && text.length <= expected.length && Date.now() < deadline; ) {
      await sleep(100);
      text = await fieldText();
    }
    if (text !== expected) return text;
    await sleep(500);
    return fieldText();
  }

  /** The field emptied, and another app's window active, so that the plan activates and restores. */
  async function prepare(): Promise<{ pointer: { x: number; y: number }; counter: number }> {
    await callOk(fixtures.context, 'set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    await callOk(fixtures.context, 'bring_to_front', { pid: other.pid, window_id: other.id });
    for (const deadline = Date.now() + 5000; (await fixtures.readers.activeWindow()) !== other.id && Date.now() < deadline; ) await sleep(20);
    assert.equal(await fixtures.readers.activeWindow(), other.id);
    return { pointer: await fixtures.readers.pointer(), counter: (await fixtures.status(gtk3)).counter };
  }

  /** Starts a plan of `step` then a click on Increment, cancels it by `cancel` once `started` holds, and returns it. */
  async function cancelPlan(
    step: Record<string, unknown>,
    started: (text: string) => boolean,
    cancel: (controller: AbortController) => Promise<void>,
  ): Promise<{ plan: PlanResult; returnedMs: number }> {
    const controller = new AbortController();
    const running = runTool(
      'run_actions',
      { window_id: gtk3.id, steps: [step, { tool: 'click', arguments: { element_index: increment.index } }] },
      { ...fixtures.context, signal: controller.signal },
    );
    let returnedAt = 0;
    const result = running.then((value) => {
      returnedAt = performance.now();
      return value;
    });
    const deadline = Date.now() + 20_000;
    while (!started(await fieldText())) {
      assert.ok(Date.now() < deadline && returnedAt === 0, 'the step began typing before the plan ended');
      await sleep(20);
    }
    const cancelledAt = performance.now();
    await cancel(controller);
    const plan = (await result).structured as unknown as PlanResult;
    return { plan, returnedMs: returnedAt - cancelledAt };
  }

  /** What must hold after any cancelled input: nothing held, the window and pointer given back, the next step never run. */
  async function assertTidy(before: { pointer: { x: number; y: number }; counter: number }): Promise<void> {
    assert.deepEqual(await fixtures.x.queryKeymap(), [], 'no key is left down (XQueryKeymap)');
    assert.equal(await fixtures.readers.activeWindow(), other.id, 'the previously active window is active again');
    assert.deepEqual(await fixtures.readers.pointer(), before.pointer, 'the pointer is back');
    assert.equal((await fixtures.status(gtk3)).counter, before.counter, 'the click after the cancelled step was never sent');
  }

  before(async () => {
    ({ fixtures, gtk3, other, field, increment } = await startPlanFixtures());
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('the caller cancels a plan typing 2000 characters: the field holds exactly the characters sent, a strict prefix', async () => {
    const before = await prepare();
    const { plan, returnedMs } = await cancelPlan(
      { tool: 'type_text', arguments: { element_index: field.index, text: longText, delivery_mode: 'foreground' } },
      (text) => text.length >= 100,
      async (controller) => controller.abort(),
    );
    const step = plan.steps[0]!;
    console.log(`client cancel mid-typing: result ${returnedMs.toFixed(1)} ms after the abort (plan says ${plan.cancel_latency_ms} ms); ${step.result?.typed_chars} of ${longText.length} characters sent`);
    assert.equal(plan.cancelled, true, JSON.stringify(plan));
    assert.equal(plan.cancel_reason, 'client');
    assert.deepEqual(plan.steps.map((entry) => [entry.tool, entry.cancelled ?? false]), [['type_text', true]]);
    assert.equal(plan.completed_steps, 0);
    assert.equal(step.result?.cancelled, true);
    const typed = step.result!.typed_chars!;
    assert.ok(typed >= 100 && typed < longText.length, `${typed} characters sent`);
    // Bounds against hangs, generous for a shared machine; the log line above has the measured latency.
    assert.ok(returnedMs < 1500, `the plan returned ${returnedMs} ms after the abort`);
    assert.equal(await settlesAt(longText.slice(0, typed)), longText.slice(0, typed), 'the field holds what was sent, and nothing after');
    await assertTidy(before);
  });

  test('Escape on the keyboard stops a plan typing 2000 characters the same way', async () => {
    const before = await prepare();
    const { plan, returnedMs } = await cancelPlan(
      { tool: 'type_text', arguments: { element_index: field.index, text: longText, delivery_mode: 'foreground' } },
      (text) => text.length >= 100,
      async () => void (await personPresses(fixtures.desktop.env(), 'Escape')),
    );
    const typed = plan.steps[0]?.result?.typed_chars;
    console.log(`escape mid-typing: result ${returnedMs.toFixed(1)} ms after xdotool started (plan says ${plan.cancel_latency_ms} ms); ${typed} of ${longText.length} characters sent`);
    assert.equal(plan.cancel_reason, 'escape_key', JSON.stringify(plan));
    assert.equal(plan.steps[0]?.cancelled, true);
    assert.ok(typed !== undefined && typed >= 100 && typed < longText.length, `${typed} characters sent`);
    assert.ok(returnedMs < 1500, `the plan returned ${returnedMs} ms after the key`);
    assert.equal(await settlesAt(longText.slice(0, typed)), longText.slice(0, typed), 'the field holds what was sent, and nothing after');
    await assertTidy(before);
  });

  test('a cancel leaves the app about 100 ms of typing: the keys it was handed and had not handled, at its pace, by its own log', async () => {
    // The fixture logs "text <the Name field's text> <epoch ms>" at each change: the app's own word on when it handled each key.
    const log = join(mkdtempSync(join(tmpdir(), 'cup-cancel-')), 'actions.log');
    const logged = await fixtures.launch('gtk3', { title: 'Cancel Log', extraArgs: ['--action-log', log] });
    const name = (await fixtures.elements(logged)).find((element) => element.name === 'Name field')!;
    const handled = () =>
      (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').flatMap((line) => {
        const match = /^text (.*) (\d+(?:\.\d+)?)$/.exec(line);
        return match ? [{ length: match[1]!.length, at: Number(match[2]) }] : [];
      });
    try {
      await callOk(fixtures.context, 'bring_to_front', { pid: other.pid, window_id: other.id });
      const controller = new AbortController();
      const running = runTool('type_text', { window_id: logged.id, element_index: name.index, text: longText, delivery_mode: 'foreground' }, { ...fixtures.context, signal: controller.signal });
      for (const deadline = Date.now() + 20_000; (handled().at(-1)?.length ?? 0) < 200; await sleep(10)) assert.ok(Date.now() < deadline, 'the typing began');
      const abortedAt = Date.now();
      controller.abort();
      const typed = (((await running).structured as { typed_chars?: number }).typed_chars)!;
      assert.ok(typed >= 200 && typed < longText.length, `${typed} characters sent`);
      for (const deadline = Date.now() + 15_000; (handled().at(-1)?.length ?? 0) < typed && Date.now() < deadline; ) await sleep(50);
      const changes = handled();
      const last = changes.at(-1)!;
      assert.equal(last.length, typed, 'the app handled every key sent, and no more');
      const before = changes.filter((change) => change.at <= abortedAt);
      const behind = typed - (before.at(-1)?.length ?? 0);
      // The app's pace over the last 32 characters it handled before the abort, by its log.
      const [from, to] = [before.at(-33) ?? before[0]!, before.at(-1)!];
      const msPerKey = (to.at - from.at) / (to.length - from.length);
      console.log(
        `the app handled its last key ${(last.at - abortedAt).toFixed(0)} ms after the abort; ${behind} of the ${typed} characters sent were not handled yet, ` +
          `${(behind * msPerKey).toFixed(0)} ms of its work at ${msPerKey.toFixed(1)} ms a key`,
      );
      // The pacing hands the app no more than 100 ms of its work at the pace it shows, or two chunks of 8 keys; the
      // bound leaves room for the pace changing on a shared machine (the app slowing down after the abort does not
      // count against the pacing): twice the budget, as the pace the pacing measured over its last looks and the one
      // taken here over the last 32 keys differ by half on a loaded machine (167 ms once, at load 6). Counting 64 keys
      // ahead left from 0 to 64 keys, up to 470 ms of work on a loaded machine, depending on where the abort fell.
      assert.ok(behind <= 16 || behind * msPerKey < 200, `${behind} characters, ${(behind * msPerKey).toFixed(0)} ms of the app's work, were unhandled at the abort`);
      assert.equal((await fixtures.oracle.find(logged.pid, logged.title, 'text', 'Name field')).text, longText.slice(0, typed));
    } finally {
      await callOk(fixtures.context, 'kill_app', { pid: logged.pid }).catch(() => undefined);
    }
  });

  test('the caller cancels a plan pressing a key 100 times: the presses sent are all that arrive', async () => {
    const before = await prepare();
    const { plan, returnedMs } = await cancelPlan(
      { tool: 'press_key', arguments: { element_index: field.index, key: 'k', repeat: 100, delivery_mode: 'foreground' } },
      (text) => text.length >= 5,
      async (controller) => controller.abort(),
    );
    const presses = plan.steps[0]?.result?.key_presses;
    console.log(`client cancel mid-repeat: result ${returnedMs.toFixed(1)} ms after the abort; ${presses} of 100 presses sent`);
    assert.equal(plan.cancel_reason, 'client', JSON.stringify(plan));
    assert.equal(plan.steps[0]?.cancelled, true);
    assert.ok(presses !== undefined && presses >= 5 && presses < 100, `${presses} presses sent`);
    assert.ok(returnedMs < 1500, `the plan returned ${returnedMs} ms after the abort`);
    assert.equal(await settlesAt('k'.repeat(presses)), 'k'.repeat(presses));
    await assertTidy(before);
  });
});
