// What a new user met filling KeePassXC's database and entry forms (Qt 5) through plans naming their fields by
// selector, reproduced on the PyQt5 fixture (test/fixtures/apps/qt5_fixture.py). The oracle is Debian's pyatspi, reading
// the same objects from the bus, and the fixture's own words for what it took.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';

describe('Debian desktop apps tried anew (9): KeePassXC', () => {
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
      // Qt names each line edit there by its group box's title, "Section N", and its label "Field N.M:".
      const behind = (await walked()).filter((node) => node.name.startsWith('Field ') || node.name.startsWith('Section '));
      assert.ok(behind.length >= 900 && behind.every((node) => !node.states.includes('showing')), `pyatspi: ${behind.length} objects behind, showing: ${behind.filter((node) => node.states.includes('showing')).length}`);
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

    test('a selector matching only what the pages behind hold still finds it, by a whole reading', async () => {
      const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=textbox name="Field 3.0:"', value: 'behind' });
      assert.equal((set.structured as unknown as ActionResult).selected?.name, 'Field 3.0:', set.summary);
      // The first line edit Qt names "Section 3" is the one on the row of "Field 3.0:".
      const held = await fixtures.oracle.find(window.pid, window.title, 'text', 'Section 3');
      assert.ok(held.found && !held.states?.includes('showing'), `pyatspi: the field is behind: ${JSON.stringify(held)}`);
      assert.equal(held.text, 'behind', 'pyatspi: the field behind holds the text set');
    });
  });
});
