// What a new user met trying Qt apps the project had not tried (qBittorrent's preferences, ...), reproduced on the
// PyQt5 fixture (test/fixtures/apps/qt5_fixture.py). The oracle is Debian's pyatspi, reading the same objects from the
// bus, and the fixture's own words for what it took.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type OracleNode } from '../helpers/tools.js';

type Match = { name: string; value?: string; bounds?: { x: number; y: number; w: number; h: number } };

describe('Qt apps tried anew (2)', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  describe("qBittorrent's group boxes (--group-boxes)", () => {
    let form: ClientWindow;
    before(async () => {
      form = await fixtures.launch('qt5', { title: 'Qt Group Boxes', extraArgs: ['--group-boxes'] });
    });
    const walked = () => pyatspiWalk(form.pid, form.title, fixtures.desktop.env());
    const boundsOf = (node: OracleNode) => {
      const [x, y, w, h] = node.extents!;
      return { x, y, w, h };
    };
    const find = async (selector: string) => {
      const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector });
      return { matches: found.structured.matches as Match[], summary: `${found.summary}\n${found.body ?? ''}` };
    };
    /** The status label's words: what the fixture's spin boxes hold. */
    const limits = async () => (await walked()).find((node) => node.role === 'label' && node.name.startsWith('Backup after:'))!.name;

    test('a spin box Qt names by its group box is named by the words on its row (not its tool tip), and set by them', async () => {
      const spins = (await walked()).filter((node) => node.role === 'spin button');
      // The quirk: with no buddy label, Qt names each field by the title of the group box it lies in.
      assert.deepEqual(spins.map((node) => node.name), ['Log file', 'Log file', 'Listening Port', 'Editor font'], JSON.stringify(spins));
      for (const [index, words] of ['Backup the log file after:', 'Delete backups older than:', 'Port used for incoming connections:'].entries()) {
        const { matches, summary } = await find(`role=spinbutton name="${words}"`);
        assert.deepEqual(matches.map((match) => match.bounds), [boundsOf(spins[index]!)], summary);
      }
      assert.deepEqual((await find('role=spinbutton name="Log file"')).matches, [], 'no field is named by its group box');
      assert.deepEqual((await find('role=spinbutton name~="unused port"')).matches, [], 'nor by its tool tip, with words on its row');
      // A group box's one field, with no text on its row, is named by the group's title, before its tool tip.
      const slider = (await walked()).find((node) => node.role === 'slider')!;
      assert.equal(slider.name, 'Image quality', JSON.stringify(slider));
      const { matches: sliders, summary: slid } = await find('role=slider name="Image quality"');
      assert.deepEqual(sliders.map((match) => match.bounds), [boundsOf(slider)], slid);
      // A spin box a grid sets right, under a wide field's right edge, is named by the label of its row in the labels' column.
      const size = (await walked()).find((node) => node.role === 'spin button' && node.name === 'Editor font')!;
      const sizeLabel = (await walked()).find((node) => node.role === 'label' && node.name === 'Size')!;
      assert.ok(size.extents![0] - (sizeLabel.extents![0] + sizeLabel.extents![2]) > 160, 'the premise: farther right of its label than a label beside its field');
      const { matches: sizes, summary: sized } = await find('role=spinbutton name=Size');
      assert.deepEqual(sizes.map((match) => match.bounds), [boundsOf(size)], sized);
      // A button's tool tip says what it does, though a text lies left of it on its row (the font it acts on).
      const chooser = (await walked()).find((node) => node.role === 'push button' && node.name === '')!;
      const { matches: choosers, summary: said } = await find('role=button name="Choose font..."');
      assert.deepEqual(choosers.map((match) => match.bounds), [boundsOf(chooser)], said);
      const set = await callOk(fixtures.context, 'set_value', { window_id: form.id, selector: 'role=spinbutton name="Port used for incoming connections:"', value: '51413' });
      assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
      assert.equal(await limits(), 'Backup after: 65, delete after: 6, port: 51413', 'the fixture took the port, and only it');
    });

    test('a checkable group box inside another is named by its own title, told by what it holds, or by none', async () => {
      const nodes = await walked();
      const boxes = nodes.filter((node) => node.role === 'check box' && node.name === 'Interface');
      // The quirk: both checkable group boxes inside "Interface" are named "Interface"; the first one's title is only
      // the name Qt gave the wordless widget it holds (the theme file's path widget).
      assert.equal(boxes.length, 2, JSON.stringify(nodes.filter((node) => node.role === 'check box')));
      assert.ok(nodes.some((node) => node.role === 'filler' && node.name === 'Use custom theme'), 'pyatspi: the path widget carries the title');
      assert.deepEqual((await find('role=checkbox name="Interface"')).matches, [], 'no group box is named by the one around it');
      const { matches, summary } = await find('role=checkbox name="Use custom theme"');
      assert.deepEqual(matches.map((match) => match.bounds), [boundsOf(boxes[0]!)], summary);
      // The other's title ("Show in notification area") is nowhere in the tree: it is unnamed, not named by its
      // check boxes' words.
      const tray = (await find('role=checkbox')).matches.find((match) => JSON.stringify(match.bounds) === JSON.stringify(boundsOf(boxes[1]!)));
      assert.equal(tray?.name, '', JSON.stringify(tray));
      const clicked = await callOk(fixtures.context, 'click', { window_id: form.id, selector: 'role=checkbox name="Use custom theme"' });
      assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
      const checked = (await walked()).find((node) => node.role === 'check box' && JSON.stringify(node.extents) === JSON.stringify(boxes[0]!.extents));
      assert.ok(checked?.states.includes('checked'), `pyatspi: the theme's group box is checked (${JSON.stringify(checked)})`);
      // Its field, now enabled, is named by its label, not by the group box's title as Qt names the widget holding it.
      const field = await find('role=textbox name="Theme file:"');
      assert.equal(field.matches.length, 1, field.summary);
    });
  });

  test("a frame inside a window (Qt's QFrame: KCalc's result display) is a box in it, not a window", async () => {
    const calc = await fixtures.launch('qt5', { title: 'Qt Display Frame', extraArgs: ['--display-frame'] });
    const frames = (await pyatspiWalk(calc.pid, calc.title, fixtures.desktop.env())).filter((node) => node.role === 'frame');
    // The quirk: Qt gives the QFrame inside the window the frame role, a window's root role.
    assert.deepEqual(frames.map((node) => [node.depth > 0, node.name]), [[true, '0']], JSON.stringify(frames));
    const windows = await callOk(fixtures.context, 'find_elements', { window_id: calc.id, selector: 'role=window' });
    assert.deepEqual((windows.structured.matches as Match[]).map((match) => match.name), [], windows.summary);
    const boxes = await callOk(fixtures.context, 'find_elements', { window_id: calc.id, selector: 'role=group name=0' });
    assert.equal((boxes.structured.matches as Match[]).length, 1, boxes.summary);
    const clicked = await callOk(fixtures.context, 'click', { window_id: calc.id, selector: 'role=button name=Compute' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.match(clicked.body ?? '', /grp name: "0" → "84"/, clicked.body);
  });

  test("a tree view's cell Qt announces focused through an object of its own is read once, as the view lists it", async () => {
    const grid = await fixtures.launch('qt5', { title: 'Qt Focused Cell', extraArgs: ['--table'] });
    const clicked = await callOk(fixtures.context, 'click', { window_id: grid.id, selector: 'role=cell name=music', delivery_mode: 'foreground' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    // pyatspi: the view lists one "music" cell, and it is the focused one.
    const cells = (await pyatspiWalk(grid.pid, grid.title, fixtures.desktop.env())).filter((node) => node.name === 'music');
    assert.equal(cells.length, 1, JSON.stringify(cells));
    const found = await callOk(fixtures.context, 'find_elements', { window_id: grid.id, selector: 'name=music' });
    const matches = found.structured.matches as (Match & { states?: string[] })[];
    const [x, y, w, h] = cells[0]!.extents!;
    assert.deepEqual(matches.map((match) => match.bounds), [{ x, y, w, h }], found.summary);
  });

  test('a read-only progress bar offers no increment or decrement, which Qt lists for every value', async () => {
    const form = await fixtures.launch('qt5', { title: 'Qt Progress', extraArgs: ['--password'] });
    const bars = (await pyatspiWalk(form.pid, form.title, fixtures.desktop.env())).filter((node) => node.role === 'progress bar');
    // The quirk: Qt gives the progress bar Increase and Decrease beside its read-only state.
    assert.ok(bars.length > 0 && bars.every((node) => node.actions.includes('Increase') && node.states.includes('read only')), JSON.stringify(bars));
    const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: 'role=progressbar' });
    const matches = found.structured.matches as { actions?: string[] }[];
    assert.equal(matches.length, bars.length, found.summary);
    assert.ok(matches.every((match) => !match.actions?.some((action) => /increment|decrement/.test(action))), JSON.stringify(matches));
  });

  describe("a settings dialog's page list (--page-list)", () => {
    let dialog: ClientWindow;
    before(async () => {
      dialog = await fixtures.launch('qt5', { title: 'Qt Page List', extraArgs: ['--page-list'] });
    });
    /** The page the stack shows, as pyatspi reads its labels: the one showing. */
    const shownPage = async () => {
      const pages = (await pyatspiWalk(dialog.pid, dialog.title, fixtures.desktop.env())).filter((node) => node.role === 'label' && node.name.startsWith('Page: '));
      return pages.filter((node) => node.states.includes('showing')).map((node) => node.name);
    };

    test("a background click that selects an item Qt leaves no current item says so, and the foreground makes it current", async () => {
      assert.deepEqual(await shownPage(), ['Page: Behavior']);
      const clicked = await callOk(fixtures.context, 'click', { window_id: dialog.id, selector: 'role=listitem name=Connection' });
      const result = clicked.structured as unknown as ActionResult;
      // The quirk: Qt selects the item (its Toggle) without making it the list's current row, which the page follows.
      const selected = (await pyatspiWalk(dialog.pid, dialog.title, fixtures.desktop.env())).find((node) => node.role === 'list item' && node.name === 'Connection')!;
      assert.ok(selected.states.includes('selected') && !selected.states.includes('focused'), JSON.stringify(selected));
      assert.deepEqual(await shownPage(), ['Page: Behavior'], 'pyatspi: the page did not change');
      // The selection is what the click did; that the current item did not move is said, with the way to move it.
      assert.equal(result.effect, 'confirmed', clicked.summary);
      assert.ok((result.evidence ?? []).some((line) => /current item stayed where it was .*delivery_mode "foreground" makes it current/.test(line)), JSON.stringify(result.evidence));
      const real = await callOk(fixtures.context, 'click', { window_id: dialog.id, selector: 'role=listitem name=Connection', delivery_mode: 'foreground' });
      assert.equal((real.structured as unknown as ActionResult).effect, 'confirmed', real.summary);
      assert.deepEqual(await shownPage(), ['Page: Connection'], 'pyatspi: the real click switched the page');
    });
  });
});
