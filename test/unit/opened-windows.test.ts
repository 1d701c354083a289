// An action after which its app shows a new top-level window did something, whatever its rung saw (new-windows.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modalDialogOver, type DesktopWindow } from '../../src/platform/windows.js';
import { appearedWindows, confirmedByClosedWindow, confirmedByOpenedWindows } from '../../src/tools/input/new-windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';

const noop: ActionResult = {
  path: 'key_events_fg',
  effect: 'suspected_noop',
  verified: false,
  evidence: [],
  delivery_mode: 'foreground',
  escalation: { recommended: 'px', reason: 'real input showed no effect' },
};
const dialog = { window_id: 42, title: 'Save File As', pid: 7 };
const window = (id: number, pid: number, title = `window ${id}`): DesktopWindow => ({
  id,
  pid,
  title,
  appName: 'app',
  bounds: { x: 0, y: 0, width: 100, height: 100 },
  zIndex: 0,
  isOnScreen: true,
  onCurrentSpace: true,
  minimized: false,
  active: false,
});

describe('an action confirmed by the window its app opened', () => {
  test('a window of the app that appeared confirms the action and takes back the retry', () => {
    const result = confirmedByOpenedWindows({ ...noop, new_windows: [dialog] }, 7);
    assert.equal(result.effect, 'confirmed');
    assert.equal(result.verified, true);
    assert.equal(result.escalation, undefined);
    assert.deepEqual(result.evidence, ['window 42 "Save File As" opened']);
  });

  test('a window of another process, one that closed again, or nothing sent confirms nothing', () => {
    assert.equal(confirmedByOpenedWindows({ ...noop, new_windows: [{ ...dialog, pid: 8 }] }, 7).effect, 'suspected_noop');
    assert.equal(confirmedByOpenedWindows({ ...noop, new_windows: [{ ...dialog, tree_error: 'the window closed again' }] }, 7).effect, 'suspected_noop');
    assert.equal(confirmedByOpenedWindows({ ...noop, path: 'none', new_windows: [dialog] }, 7).effect, 'suspected_noop');
  });

  test('an action confirmed already keeps its evidence as it was', () => {
    const confirmed: ActionResult = { ...noop, effect: 'confirmed', verified: true, evidence: ['[e3] textbox: text is now "x"'], escalation: undefined, new_windows: [dialog] };
    assert.deepEqual(confirmedByOpenedWindows(confirmed, 7), confirmed);
  });
});

describe('the windows an action opened', () => {

  test('a window whose id was listed before under another process is new: X gives a dead client\'s ids to the next one', () => {
    const opened = appearedWindows([window(8388611, 100), window(500, 7)], [window(8388611, 200), window(500, 7), window(600, 7)]);
    assert.deepEqual(
      opened.map((entry) => [entry.window_id, entry.pid]),
      [
        [8388611, 200],
        [600, 7],
      ],
    );
  });
});

describe('the modal dialog over a window', () => {
  const window = (id: number, extra: Partial<DesktopWindow> = {}): DesktopWindow => ({
    id, pid: 7, title: `w${id}`, appName: 'app', bounds: { x: 0, y: 0, width: 10, height: 10 }, zIndex: id, isOnScreen: true, onCurrentSpace: true, minimized: false, active: false, ...extra,
  });
  const main = window(1);
  const other = window(2);

  test('a modal dialog of the window, or of the whole app, blocks it', () => {
    const dialog = window(3, { modal: true, transientFor: 1 });
    assert.equal(modalDialogOver(main, [main, other, dialog])?.id, 3);
    assert.equal(modalDialogOver(other, [main, other, dialog]), undefined, 'another window of the app is not its dialog\'s');
    const appModal = window(4, { modal: true });
    assert.equal(modalDialogOver(other, [main, other, appModal])?.id, 4);
  });

  test('a modal dialog of a dialog of the window blocks the window too', () => {
    // Java with two frames up: its owner-less message box is a dialog of the second frame, which it makes a dialog of the first.
    const second = window(2, { transientFor: 1 });
    const notice = window(3, { modal: true, transientFor: 2 });
    assert.equal(modalDialogOver(main, [main, second, notice])?.id, 3);
    assert.equal(modalDialogOver(second, [main, second, notice])?.id, 3);
    assert.equal(modalDialogOver(window(4), [main, second, notice, window(4)]), undefined, 'a window outside its chain is not blocked');
  });

  test('a modal window the window is a dialog of, directly or through another dialog, does not block it', () => {
    // LibreOffice's Document Recovery (modal to the whole app) and the question it asks in a modal dialog of its own.
    const recovery = window(5, { modal: true });
    const question = window(6, { modal: true, transientFor: 5 });
    assert.equal(modalDialogOver(question, [recovery, question]), undefined);
    assert.equal(modalDialogOver(recovery, [recovery, question])?.id, 6, 'the question still blocks the window it asks for');
    const nested = window(7, { modal: true, transientFor: 6 });
    assert.equal(modalDialogOver(nested, [recovery, question, nested]), undefined);
    assert.equal(modalDialogOver(main, [main, recovery, question])?.id, 5, 'another window of the app waits on the app-modal one');
  });

  test('a dialog only transient for it, minimized, or of another process blocks nothing', () => {
    assert.equal(modalDialogOver(main, [main, window(3, { transientFor: 1 })]), undefined);
    assert.equal(modalDialogOver(main, [main, window(3, { modal: true, transientFor: 1, minimized: true })]), undefined);
    assert.equal(modalDialogOver(main, [main, window(3, { modal: true, transientFor: 1, pid: 8 })]), undefined);
  });
});

describe('an action confirmed by its window closing', () => {
  const confirmReset = window(42, 7, 'Confirm reset');

  // A dialog's Return answered in the app's idle time after the wait for a first sign had ended (at load) read "no
  // effect seen" beside "no diff: the window closed".
  test('a window gone once the action ended confirms it and takes back the retry', () => {
    const result = confirmedByClosedWindow(noop, confirmReset, []);
    assert.equal(result.effect, 'confirmed');
    assert.equal(result.escalation, undefined);
    assert.deepEqual(result.evidence, ['window 42 "Confirm reset" closed or hidden']);
  });

  test('a window still listed, nothing sent, or a refuted action confirms nothing', () => {
    assert.deepEqual(confirmedByClosedWindow(noop, confirmReset, [confirmReset]), noop);
    assert.equal(confirmedByClosedWindow({ ...noop, path: 'none' }, confirmReset, []).effect, 'suspected_noop');
    assert.equal(confirmedByClosedWindow({ ...noop, refuted: true }, confirmReset, []).effect, 'suspected_noop');
  });
});
