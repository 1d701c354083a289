// What a new user met filling KeePassXC's database and entry forms (Qt 5) through plans naming their fields by
// selector, reproduced on the PyQt5 fixture (test/fixtures/apps/qt5_fixture.py), and playing GNOME Sudoku (GTK3), whose
// 81 cells are drawing areas of their own and whose number picker is a popover the window's losing the focus closes. The oracle is Debian's pyatspi, reading the same objects from the bus, and
// the fixture's own words for what it took.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { dumpWindow } from '../conformance/oracle-dump.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { eventually } from '../helpers/task-apps.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';

describe('Debian desktop apps tried anew (9): KeePassXC, GNOME Sudoku', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  describe("KeePassXC's stacked pages (--hidden-pages)", () => {
    let window: ClientWindow;
    before(async () => {
      window = await fixtures.launch('qt5', { title: 'Qt Hidden Pages', extraArgs: ['--hidden-pages'] });
    });
    const walked = () => pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const timed = async (run: () => Promise<unknown>) => {
      const started = Date.now();
      await run();
      return Date.now() - started;
    };

    test('an action naming its element by selector reads the part of the window that can show, not the pages behind it', async (t) => {
      // The case: the page behind the shown one holds about a thousand objects, none of them showing (pyatspi).
      const behind = (await walked()).filter((node) => node.name.startsWith('Field ') || node.name.startsWith('Section ') || (node.role === 'text' && !node.states.includes('showing')));
      assert.ok(behind.length >= 700 && behind.every((node) => !node.states.includes('showing')), `pyatspi: ${behind.length} objects behind, showing: ${behind.filter((node) => node.states.includes('showing')).length}`);
      // A whole reading (find_elements reads everything a selector may match) against a click naming its button by
      // selector, alternated so that the machine's load weighs on both alike. KeePassXC's plan steps each took the whole
      // reading's time, 1.5 to 2 s, before a step of 0.3 s.
      const whole: number[] = [];
      const acted: number[] = [];
      for (let round = 0; round < 3; round++) {
        whole.push(await timed(() => callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=button name=Lock' })));
        acted.push(
          await timed(async () => {
            const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Lock', diff: false });
            assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
          }),
        );
      }
      const locked = (await walked()).find((node) => node.role === 'label' && node.name.startsWith('Locked:'));
      assert.equal(locked?.name, 'Locked: 3', 'the fixture counts the three clicks');
      t.diagnostic(`clicks by selector ${acted.join(', ')} ms; whole readings ${whole.join(', ')} ms`);
      assert.ok(Math.min(...acted) < Math.min(...whole) / 2, `clicks by selector took ${acted.join(', ')} ms, whole readings ${whole.join(', ')} ms`);
    });

    /** The texts of the fields on the page behind, as pyatspi reads them (the fixture's own two fields are shown). */
    const behindTexts = async () => (await dumpWindow(window, fixtures.desktop.env())).nodes.filter((node) => node.role === 'text' && !node.states.includes('showing')).map((node) => node.text ?? '');

    test('a selector matching only what the pages behind hold still finds it, by a whole reading', async () => {
      const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'name="Section 3" >> role=textbox [index=0]', value: 'behind' });
      assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
      assert.equal((await behindTexts()).filter((text) => text === 'behind').length, 1, 'pyatspi: one field behind holds the text set');
    });

    test("a click in another window that fills every field behind is told as the count of objects it changed there", async () => {
      // The fields lie 9 levels under the window (KeePassXC's editor, some 15): each changed object is walked up to its
      // window to tell where it is, and objects of one window share the walk (unit/ancestry-walks).
      const tools = (await listClientWindows(await fixtures.desktop.x11())).find((other) => other.pid === window.pid && other.title === `${window.title} Tools`)!;
      const filled = await callOk(fixtures.context, 'click', { window_id: tools.id, selector: 'role=button name="Fill fields"' });
      const result = filled.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', filled.summary);
      const texts = await behindTexts();
      assert.equal(texts.filter((text) => text === 'filled').length, 240, 'pyatspi: every field behind was filled');
      assert.ok((result.evidence ?? []).includes('the app changed 240 objects in its other windows'), JSON.stringify(result.evidence));
    });
  });

  test("GNOME Sudoku: the summary names a few of its 81 drawn cells, drawn_surfaces every one, as pyatspi's drawing areas; a cell clicked for real keeps its number picker open", async () => {
    // A home of its own: Sudoku resumes the game a home saved, where a fresh one asks for a difficulty.
    const home = await mkdtemp(join(tmpdir(), 'cup-deskapps9-home-'));
    const { process, window } = await fixtures.desktop.launch('/usr/games/gnome-sudoku', [], 'Select Difficulty', 20_000, { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CONFIG_HOME: join(home, '.config') });
    try {
      const played = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=option name=Easy', delivery_mode: 'foreground' });
      assert.equal((played.structured as unknown as ActionResult).effect, 'confirmed', played.summary);
      // The case: each cell is an unnamed drawing area of its own, 81 of them showing (pyatspi).
      const cells = await eventually(
        async () => (await pyatspiWalk(window.pid, 'Sudoku', fixtures.desktop.env())).filter((node) => node.role === 'drawing area' && node.states.includes('showing')),
        (found) => found.length === 81,
      );
      assert.equal(cells.length, 81, 'pyatspi: the board shows 81 drawing areas');
      const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const drawn = read.structured.drawn_surfaces as { element_index: number; bounds: { w: number; h: number } }[];
      assert.equal(drawn.length, 81, read.summary);
      const sizes = new Set(cells.map((node) => `${node.extents![2]}x${node.extents![3]}`));
      assert.ok(drawn.every(({ bounds }) => sizes.has(`${bounds.w}x${bounds.h}`)), `each surface has a cell's size (${[...sizes].join(', ')})`);
      // The summary had named all 81 boxes, 3,000 characters before the tree; six, and where the rest are listed.
      assert.match(read.summary, /81 surfaces the app draws itself \((\[e\d+\] \d+x\d+ at \d+,\d+, ){6}and 75 more \(drawn_surfaces lists every one\)/, read.summary);
      assert.ok(read.summary.length < 800, `${read.summary.length} characters: ${read.summary}`);

      // A cell clicked for real opens the number picker, a popover GTK3 draws in the window and closes when the window
      // loses the focus: with another window active before, giving it its place back had closed the picker at once.
      const other = await fixtures.launch('qt5', { title: 'Sudoku Other' });
      assert.ok((await callOk(fixtures.context, 'bring_to_front', { window_id: other.id })).ok);
      const picked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: drawn[0]!.element_index, delivery_mode: 'foreground' });
      const digits = async () => (await pyatspiWalk(window.pid, 'Sudoku', fixtures.desktop.env())).filter((node) => node.role === 'push button' && /^[1-9]$/.test(node.name) && node.states.includes('showing'));
      assert.equal((await digits()).length, 9, `pyatspi: the picker's nine digits show after the click\n${picked.summary}\n${picked.body}`);
      assert.ok((picked.structured as unknown as ActionResult).evidence?.some((line) => line.startsWith(`window ${window.id} stays active with the popover it opened`)), picked.body);
      // Its digit chosen in the background fills the cell and closes it.
      const chosen = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=5' });
      assert.equal((chosen.structured as unknown as ActionResult).effect, 'confirmed', chosen.summary);
      assert.equal((await digits()).length, 0, 'pyatspi: the picker closed');
    } finally {
      process.kill();
      await rm(home, { recursive: true, force: true });
    }
  });
});
