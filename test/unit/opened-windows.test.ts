import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DesktopWindow } from '../../src/platform/windows.js';
import { withOpenedWindows } from '../../src/tools/input/action-diff.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';

const window: DesktopWindow = {
  id: 100, pid: 7, title: 'Editor', appName: 'editor', bounds: { x: 0, y: 0, width: 800, height: 600 },
  zIndex: 1, isOnScreen: true, onCurrentSpace: true, minimized: false, active: true,
};
const noEffect: ActionResult = {
  path: 'key_events_fg', delivery_mode: 'foreground', effect: 'suspected_noop', verified: false, evidence: [],
  escalation: { recommended: 'px', reason: 'real input showed no effect' },
};

test('a window of the app that appeared while the action ran is its effect, also after the wait for a first sign ended', () => {
  const opened = withOpenedWindows(noEffect, window, [{ window_id: 200, title: 'Save As', pid: 7 }]);
  assert.equal(opened.effect, 'confirmed');
  assert.equal(opened.verified, true);
  assert.deepEqual(opened.evidence, ['window 200 "Save As" opened']);
  assert.equal(opened.escalation, undefined, 'no advice to do it again');
});

test('another app\'s new window, an action that sent nothing, or one already confirmed are left as they are', () => {
  assert.equal(withOpenedWindows(noEffect, window, [{ window_id: 300, title: 'Chat', pid: 8 }]), noEffect);
  const unsent: ActionResult = { ...noEffect, path: 'none' };
  assert.equal(withOpenedWindows(unsent, window, [{ window_id: 200, title: 'Save As', pid: 7 }]), unsent);
  const confirmed: ActionResult = { ...noEffect, effect: 'confirmed', verified: true, evidence: ['x'] };
  assert.equal(withOpenedWindows(confirmed, window, [{ window_id: 200, title: 'Save As', pid: 7 }]), confirmed);
  assert.equal(withOpenedWindows(noEffect, window, undefined), noEffect);
});
