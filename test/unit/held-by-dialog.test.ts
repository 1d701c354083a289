// A reply held by a dialog (action-outcome.ts heldByDialog): an action call left unanswered while its app opened a
// dialog is that dialog opening. heldByDialog had found which call went unanswered by searching the result's evidence
// for its own note's words; the result now says so in a field (no_reply_call), set where that note is written. The
// texts below are what the results read before that change, and must read the same after it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actionOutcome, heldByDialog, type Observation } from '../../src/platform/action-outcome.js';
import { actionOutput, targetResult } from '../../src/tools/input/outcome.js';

const dialog = { window_id: 42, title: 'About SpeedCrunch', pid: 7, dialog: true };
const unanswered = (newWindows?: Observation['newWindows']): Observation => ({
  evidence: ['[e5] label "Result" name changed'],
  changed: false,
  listening: true,
  unanswered: { call: 'DoAction', timeoutMs: 2000 },
  ...(newWindows ? { newWindows } : {}),
});
const heldLine =
  'DoAction opened the dialog window 42 "About SpeedCrunch": its toolkit runs the dialog inside the call, which answers once the dialog closes ' +
  '(after 2000 ms without that answer the driver went on; the app is not hung); answer or close the dialog (window_id 42) before acting in the window under it';
const unansweredNote =
  'DoAction was dispatched and the application did not answer within 2000 ms (typically because the action opened a modal dialog, whose event loop runs inside the call); ' +
  'no new window of the app appeared; it may be busy or hung: check with get_window_state before repeating the action';

describe('a reply held by a dialog reads as it did', () => {
  test('the backend saw the dialog open: confirmed by it, the unanswered note replaced by the dialog\'s line', () => {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation: unanswered([dialog]) });
    assert.equal(outcome.effect, 'confirmed');
    assert.equal(outcome.reply_held_by_dialog, 42);
    assert.equal(outcome.escalation, undefined);
    assert.deepEqual(outcome.evidence, [heldLine, '[e5] label "Result" name changed']);
    const output = actionOutput('invoke_menu', targetResult(outcome, undefined));
    assert.equal(output.summary, '✅ invoke_menu: confirmed via x11_atspi: it opened dialog 42 "About SpeedCrunch", which holds the call\'s answer until it closes');
    assert.equal(output.body, `- ${heldLine}\n- [e5] label "Result" name changed\nnew window: 42 "About SpeedCrunch" (pid 7)`);
  });

  test('no dialog: unverifiable, with the unanswered note, and heldByDialog leaves it so', () => {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation: unanswered() });
    assert.equal(outcome.effect, 'unverifiable');
    assert.equal(outcome.reply_held_by_dialog, undefined);
    assert.deepEqual(outcome.evidence, [unansweredNote, '[e5] label "Result" name changed']);
    assert.deepEqual(heldByDialog(outcome, 7), outcome);
    assert.equal(actionOutput('click', targetResult(outcome, undefined)).summary, '❔ click: dispatched via x11_atspi, unconfirmed: the app did not answer within 2000 ms');
  });

  test('the tool layer lists the dialog after the backend did not: the same result as the backend\'s', () => {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation: unanswered() });
    // As action-diff.ts does with the windows it found opened, whose evidence line the dialog's line stands for.
    const listed = { ...outcome, new_windows: [dialog], evidence: [...outcome.evidence!, 'window 42 "About SpeedCrunch" opened'] };
    const held = heldByDialog(listed, 7);
    assert.equal(held.effect, 'confirmed');
    assert.equal(held.reply_held_by_dialog, 42);
    assert.deepEqual(held.evidence, [heldLine, '[e5] label "Result" name changed']);
  });

  test('a dialog of another process, or a cancelled call, is not taken for the held reply', () => {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation: unanswered() });
    assert.equal(heldByDialog({ ...outcome, new_windows: [{ ...dialog, pid: 8 }] }, 7).reply_held_by_dialog, undefined);
    assert.equal(heldByDialog({ ...outcome, new_windows: [dialog], cancelled: true }, 7).reply_held_by_dialog, undefined);
  });
});

describe('which call went unanswered is a field of the result, not words of its evidence', () => {
  test('the unanswered outcome names its call in no_reply_call', () => {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation: unanswered() });
    assert.equal(outcome.no_reply_call, 'DoAction');
  });

  test('heldByDialog takes the call from the field: an evidence line from the app in the note\'s words is kept as it is', () => {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation: unanswered() });
    // What the app wrote in a label that reads like the note (a log view showing the driver's own messages).
    const appLine = '[e9] text "SelectChild was dispatched and the application did not answer within 5 ms" appeared';
    const held = heldByDialog({ ...outcome, new_windows: [dialog], evidence: [appLine, ...outcome.evidence!] }, 7);
    assert.deepEqual(held.evidence, [heldLine, appLine, '[e5] label "Result" name changed']);
  });
});
