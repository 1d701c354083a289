// A surface the app draws itself: AisleRiot's cards and Tetravex's tiles are painted on one unnamed drawing area, with
// no accessible object for anything on it. The compact view hoisted it away as an unnamed generic, so a reading showed a
// toolbar and no board, nor where the board is (games trial). The fixture's --board is such an area; pyatspi finds it,
// and the fixture's log says where a click on it landed.
// A link drawn in a label's text: GTK3's markup links (Mines' About dialog: "Website", "GNU General Public License,
// version 3 or later") are objects of role link with no name, no text and no Component, and were read as unnamed links
// with no place (games trial). Their words and box are a stretch of the label's text, which pyatspi reads through the
// link's Hyperlink offsets; the fixture's status says when the link was followed.
// A folder view that paints its files: Thunar's icon view is an object with no child inside a directory pane, beside
// the pane's two scroll bars. Only plain containers were taken for scroll areas, so the view read as an empty group with
// no word of what it draws, and the scroll tool moved the side pane's bar (range 0..0) and said the files were at their
// end (files trial). The fixture's --file-pane is such a pane; pyatspi reads its shape and its bar's value.
// A result painted on a drawing area and said in words only in its description: Qalculate's "= 42" was a surface to
// read in the screenshot, its words in no value, field or diff line but a description change (calculator trial). The
// fixture's --result-area is such an area, with a button that adds 21; pyatspi reads its description.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

interface DrawnSurface {
  element_index: number;
  bounds: { x: number; y: number; w: number; h: number };
}

describe('what the app draws rather than makes of objects: a board, a link in a label', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  let logDir: string;
  const boardLog = () => readFileSync(join(logDir, 'actions.log'), { encoding: 'utf8', flag: 'a+' }).split('\n').filter((line) => line.startsWith('board ')).map((line) => line.split(' ').slice(0, 2).join(' '));

  before(async () => {
    fixtures = await FixtureDesktop.start();
    logDir = mkdtempSync(join(tmpdir(), 'cup-board-'));
    window = await fixtures.launch('gtk3', { title: 'Board Fixture', size: '480x700', extraArgs: ['--board', '--link-label', '--file-pane', '--result-area', '--action-log', join(logDir, 'actions.log')] });
  });

  after(async () => {
    await fixtures?.stop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
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

    // The route the summary offers works: a foreground click at a point of the surface, judged by the app's log. It
    // changes only the surface's pixels, which are its evidence: the tree has nothing of it (it read "no effect seen").
    const point = { x: surface.bounds.x + 50, y: surface.bounds.y + 20 };
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, ...point, delivery_mode: 'foreground' });
    assert.deepEqual(boardLog(), ['board 50,20'], 'the fixture: the press reached the board where aimed');
    const result = clicked.structured as unknown as ActionResult;
    assert.equal(result.effect, 'confirmed', clicked.summary);
    assert.match((result.evidence ?? []).join('\n'), new RegExp(`the surface the app draws changed: \\d+ pixels in ${surface.bounds.x + 40},${surface.bounds.y} 38x58 `), clicked.summary);
    // A point of the surface where nothing is drawn anew (past its squares) is still no effect: the pixels are no blanket.
    const past = await callOk(fixtures.context, 'click', { window_id: window.id, x: surface.bounds.x + 8 * 40 + 30, y: point.y, delivery_mode: 'foreground' });
    assert.deepEqual(boardLog(), ['board 50,20'], 'the fixture: no square there');
    assert.notEqual((past.structured as unknown as ActionResult).effect, 'confirmed', past.summary);
  });

  test('a drawn result the app says in words only in its description is the surface\'s value: shown, sought by value, and its change is each click\'s own evidence', async () => {
    const oracle = new PyatspiOracle(fixtures.desktop.env());
    try {
      // The case: a drawing area with no child and no text, whose description is what it paints (Qalculate's result).
      const area = await oracle.find(window.pid, window.title, 'drawing area', 'Calculation result');
      assert.equal(area.description, '= 0', JSON.stringify(area));
      const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const state = read.structured as { elements: Element[]; drawn_surfaces?: DrawnSurface[] };
      const surface = state.elements.find((element) => element.name === 'Calculation result');
      assert.ok(surface && state.drawn_surfaces?.some((entry) => entry.element_index === surface.index), `a drawn surface: ${read.summary}`);
      assert.match(read.body ?? '', new RegExp(`\\[e${surface.index}\\] gen "Calculation result" [0-9,x ]+ val="= 0"`));
      assert.match(read.summary, new RegExp(`but the words the app gives for it, the value of \\[e${surface.index}\\]`));
      // Quick successive clicks: each says the result it made, not the one before nor the next.
      const clicks = await Promise.all([1, 2].map(() => callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Add 21"' })));
      assert.deepEqual(readFileSync(join(logDir, 'actions.log'), 'utf8').split('\n').filter((line) => line.startsWith('result ')).map((line) => line.split(' ')[1]), ['21', '42'], 'the fixture: two clicks, in order');
      const seen = clicks.map((click) => (click.structured as unknown as ActionResult).diff?.changed?.find((node) => node.index === surface.index)?.changes.value);
      assert.deepEqual(seen, [{ from: '= 0', to: '= 21' }, { from: '= 21', to: '= 42' }], clicks.map((click) => click.summary).join('\n'));
      assert.equal((await oracle.find(window.pid, window.title, 'drawing area', 'Calculation result')).description, '= 42');
      const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'value="= 42"' });
      assert.match(found.body ?? found.summary, new RegExp(`\\[e${surface.index}\\] generic "Calculation result" = "= 42"`), found.summary);
    } finally {
      oracle.close();
    }
  });

  test('a directory pane around a view that paints its files: the view is a drawn surface, and the pane scrolls', async () => {
    const filePane = async () => {
      const script = [
        'import json, pyatspi',
        'from atspi_frames import find_frame',
        `frame = find_frame(${window.pid}, ${JSON.stringify(window.title)})`,
        'pane = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "directory pane" and node.name == "Files")',
        'kids = [pane.getChildAtIndex(i) for i in range(pane.childCount)]',
        'bar = next(kid for kid in kids if kid.getRoleName() == "scroll bar" and kid.getState().contains(pyatspi.STATE_VERTICAL))',
        'view = kids[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)',
        'print(json.dumps({"kids": [[kid.getRoleName(), kid.childCount] for kid in kids], "view": [view.x, view.y, view.width, view.height], "bar": bar.queryValue().currentValue}))',
      ].join('\n');
      const run = spawnSync('/usr/bin/python3', ['-c', script], { env: { ...fixtures.desktop.env(), PYTHONPATH: join(repositoryRoot, 'test', 'fixtures', 'oracle') }, encoding: 'utf8', timeout: 30_000 });
      return JSON.parse(run.stdout) as { kids: [string, number][]; view: [number, number, number, number]; bar: number };
    };
    // The case: the pane holds a view with no child beside its scroll bars, scrolled to its top.
    const before = await filePane();
    assert.deepEqual(before.kids, [['panel', 0], ['scroll bar', 0], ['scroll bar', 0]]);
    assert.equal(before.bar, 0);

    const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const state = read.structured as { elements: Element[]; drawn_surfaces?: DrawnSurface[] };
    const [x, y, w, h] = before.view;
    // The pane's box is the view's too (GTK3's overlay scroll bars): the view is the unnamed one.
    const view = state.elements.find((element) => element.name === '' && element.bounds?.x === x && element.bounds.y === y && element.bounds.w === w && element.bounds.h === h);
    assert.ok(view, `the view's box ${x},${y} ${w}x${h} is in the compact view:\n${read.body}`);
    assert.ok(state.drawn_surfaces?.some((entry) => entry.element_index === view.index), `drawn_surfaces names [e${view.index}]: ${read.summary}`);
    const pane = state.elements.find((element) => element.name === 'Files');
    assert.ok(pane?.role === 'group' && pane.actions.includes('scroll'), `the pane is a scrolling group: ${JSON.stringify(pane)}`);

    // Scrolling the view's element moves its pane's bar, as pyatspi reads it.
    const scrolled = await callOk(fixtures.context, 'scroll', { window_id: window.id, element_index: view.index, direction: 'down', by: 'page', amount: 1 });
    assert.equal((scrolled.structured as unknown as ActionResult).effect, 'confirmed', scrolled.summary);
    assert.ok((await filePane()).bar > 0, `the pane's bar moved: ${scrolled.summary}`);
  });

  test('the link reads "terms of use" at its words\' box, and a foreground click there follows it', async () => {
    // The case, and the oracle: the link has no name and no Component; its label's text between its offsets, and their box.
    const script = [
      'import json, pyatspi',
      'from atspi_frames import find_frame',
      `frame = find_frame(${window.pid}, ${JSON.stringify(window.title)})`,
      'link = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "link")',
      'label = link.parent',
      'hyper = link.queryHyperlink()',
      'start, end = hyper.startIndex, hyper.endIndex',
      'box = label.queryText().getRangeExtents(start, end, pyatspi.DESKTOP_COORDS)',
      'interfaces = [name.lower() for name in link.get_interfaces()]',
      'print(json.dumps({"name": link.name, "component": "component" in interfaces, "words": label.queryText().getText(start, end), "box": list(box)}))',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], { env: { ...fixtures.desktop.env(), PYTHONPATH: join(repositoryRoot, 'test', 'fixtures', 'oracle') }, encoding: 'utf8', timeout: 30_000 });
    const oracle = JSON.parse(run.stdout) as { name: string; component: boolean; words: string; box: [number, number, number, number] };
    assert.deepEqual([oracle.name, oracle.component, oracle.words], ['', false, 'terms of use'], run.stdout + run.stderr);

    const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, format: 'json', include_screenshot: false });
    const links = (read.structured as { elements: Element[] }).elements.filter((element) => element.role === 'link');
    assert.equal(links.length, 1, read.body);
    const [x, y, w, h] = oracle.box;
    assert.deepEqual([links[0]!.name, links[0]!.bounds], ['terms of use', { x, y, w, h }], read.body);

    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=link name="terms of use"' });
    assert.equal((found.structured as { count: number }).count, 1, found.summary);
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=link name="terms of use"', delivery_mode: 'foreground' });
    const status = await fixtures.waitForStatus(window, (now) => now.lastKey !== '');
    assert.equal(status.lastKey, 'link:https://example.org/terms', 'the fixture: the link was followed');
  });
});
