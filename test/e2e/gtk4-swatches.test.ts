// GTK4's colour chooser: each swatch offers the actions select, activate and customize, and a person's click selects
// it while activate is its double click (the chooser's dialog takes it for Select, with the colour chosen before).
// A background click ran activate: Pick a Color closed with nothing chosen. The oracle is the fixture's own log of
// what its palette reported.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';

describe('GTK4 colour swatches', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'Swatches Fixture', rows: 3, size: '520x640', extraArgs: ['--swatches'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('a background click on a swatch that offers select beside activate selects it, and activates nothing', async () => {
    // The case: pyatspi reads the swatch's actions, select and activate among them.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const swatch = walked.find((node) => node.role === 'radio button' && node.name === 'Dark Orange');
    assert.ok(swatch && swatch.actions.includes('select') && swatch.actions.includes('activate'), JSON.stringify(swatch));

    const clicked = (await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=radio name="Dark Orange"' })).structured as unknown as ActionResult;
    assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
    const status = await fixtures.waitForStatus(window, (each) => each.lastKey !== '');
    assert.match(status.lastKey, /^chosen:rgb\(/, `the palette chose the colour, activated nothing: ${status.lastKey}`);
    // A double click is its activation, as a person's double click is.
    await callOk(fixtures.context, 'double_click', { window_id: window.id, selector: 'role=radio name="Dark Orange"' });
    const again = await fixtures.waitForStatus(window, (each) => each.lastKey.startsWith('activated:'));
    assert.equal(again.lastKey, status.lastKey.replace('chosen:', 'activated:'), 'the double click activated the colour chosen');
  });
});
