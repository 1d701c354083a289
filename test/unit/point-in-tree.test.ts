import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ATSPI_ROLE, ATSPI_STATE } from '../../src/cup/atspi/constants.js';
import type { AtspiRawNode } from '../../src/cup/atspi/raw-node.js';
import { deepestContaining } from '../../src/platform/linux/atspi/point-in-tree.js';

/** A state set holding the states named. */
const states = (...names: number[]) => names.reduce((set, state) => { set[Math.floor(state / 32)]! |= 1 << state % 32; return set; }, [0, 0]);
const node = (path: string, role: number, box: AtspiRawNode['extents'], set: number[], children: AtspiRawNode[] = []): AtspiRawNode =>
  ({ bus: ':1.5', path, role, name: path, description: '', states: set, interfaces: ['Component'], extents: box, childCount: children.length, children });

// Firefox ESR 140's window as the driver read it right after launch_app (fixture first-point.html): the tab panels
// hold the page's browser and, after it in the same box, the New Tab page Firefox keeps ready, whose panel and frame
// are VISIBLE and not SHOWING.
const shown = states(ATSPI_STATE.VISIBLE, ATSPI_STATE.SHOWING);
const unshown = states(ATSPI_STATE.VISIBLE);
const content = { x: 0, y: 104, w: 1280, h: 696 };
const window = node('frame', ATSPI_ROLE.FRAME, { x: 0, y: 19, w: 1280, h: 781 }, shown, [
  node('panels', ATSPI_ROLE.PANEL, content, shown, [
    node('page-browser', ATSPI_ROLE.SCROLL_PANE, content, shown, [
      node('page-frame', ATSPI_ROLE.INTERNAL_FRAME, content, shown, [
        node('page', ATSPI_ROLE.DOCUMENT_WEB, content, shown, [node('go', ATSPI_ROLE.PUSH_BUTTON, { x: 8, y: 155, w: 30, h: 23 }, shown)]),
      ]),
    ]),
    node('new-tab-browser', ATSPI_ROLE.SCROLL_PANE, content, unshown, [node('new-tab-frame', ATSPI_ROLE.INTERNAL_FRAME, content, unshown)]),
  ]),
]);

test("a point over a page's button is the button, not the frame of the page the browser keeps ready unshown in the same place", () => {
  assert.equal(deepestContaining(window, { x: 0, y: 0 }, 23, 166, true)?.path, 'go');
  assert.equal(deepestContaining(window, { x: 0, y: 0 }, 600, 300, true)?.path, 'page', 'a point on the page beside the button is the page');
});

test('where SHOWING tells nothing (GTK4), what is not marked showing is still under the point', () => {
  assert.equal(deepestContaining(window, { x: 0, y: 0 }, 23, 166, false)?.path, 'new-tab-frame');
});
