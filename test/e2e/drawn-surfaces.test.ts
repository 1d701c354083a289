// A surface the app draws itself: AisleRiot's cards and Tetravex's tiles are painted on one unnamed drawing area, with
// no accessible object for anything on it. The compact view hoisted it away as an unnamed generic, so a reading showed a
// toolbar and no board, nor where the board is (games trial). The fixture's --board is such an area; pyatspi finds it,
// and the fixture's status line says where a click on it landed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

interface DrawnSurface {
  element_index: number;
  bounds: { x: number; y: number; w: number; h: number };
}

describe('a surface the app draws itself is shown with its place and the pixel route', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Board Fixture', size: '480x700', extraArgs: ['--board'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('the unnamed drawing area is in the compact view with its box, named in the summary, and a click at its point lands there', async () => {
    // The case: pyatspi reads an unnamed drawing area with no children and no action.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const boards = walked.filter((node) => node.role === 'drawing area' && node.name === '');
    assert.equal(boards.length, 1, JSON.stringify(walked.filter((node) => node.role === 'drawing area')));
    const board = boards[0]!;
    assert.deepEqual(board.actions, []);
    const [x, y, w, h] = board.extents!;

    const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const state = read.structured as { elements: Element[]; drawn_surfaces?: DrawnSurface[]; window: { bounds: { x: number; y: number } } };
    const shown = state.elements.find((element) => element.bounds?.x === x && element.bounds.y === y && element.bounds.w === w && element.bounds.h === h);
    assert.ok(shown, `the board's box ${x},${y} ${w}x${h} is in the compact view:\n${read.body}`);
    assert.match(read.body ?? '', new RegExp(`\\[e${shown.index}\\] gen ${x},${y} ${w}x${h}`));
    const surface = state.drawn_surfaces?.find((entry) => entry.element_index === shown.index);
    assert.ok(surface, `drawn_surfaces names [e${shown.index}]: ${read.summary}`);
    // In screenshot pixels: the window is smaller than the screenshot's limit, so one pixel each.
    assert.deepEqual(surface.bounds, { x: x - state.window.bounds.x, y: y - state.window.bounds.y, w, h });
    assert.match(read.summary, new RegExp(`\\[e${shown.index}\\] ${w}x${h} at ${surface.bounds.x},${surface.bounds.y}\\b`));

    // The route the summary offers works: a foreground click at a point of the surface, judged by the app.
    const point = { x: surface.bounds.x + 50, y: surface.bounds.y + 20 };
    await callOk(fixtures.context, 'click', { window_id: window.id, ...point, delivery_mode: 'foreground' });
    const status = await fixtures.oracle.statusText(window.pid, window.title);
    assert.match(status, /pad=board@50,20 /, status);
  });
});
