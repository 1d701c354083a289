// Controls whose label a person reads is their description, not their name: an app may name a button by an
// identifier and put its label in the tool tip (MATE Calculator's "clear" is described "Clear Display [Escape]").
// Selectors ask the description, and a name that matches nothing says whose description it is; pyatspi's
// description of the button is the judge.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith } from '../helpers/tools.js';

const tip = 'Adds one to the counter';

interface Found {
  count: number;
  matches: { index: number; role: string; name: string; description?: string }[];
  by_description?: string[];
}

describe('described controls found by what their description says', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3', { extraArgs: ['--tooltip', tip] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('description~= finds the button by its tool tip; name~= with the tool tip names the button it describes', async () => {
    const button = await fixtures.oracle.find(gtk3.pid, gtk3.title, 'push button', 'Increment');
    assert.equal(button.description, tip, 'pyatspi reads the tool tip as the button\'s description');
    const sought = tip.split(' ').slice(0, 2).join(' ').toLowerCase();

    const byDescription = (await callOk(fixtures.context, 'find_elements', { window_id: gtk3.id, selector: `role=button description~="${sought}"` })).structured as unknown as Found;
    // The match says the description it was found by, which the compact tree does not show.
    assert.deepEqual(byDescription.matches.map((match) => [match.role, match.name, match.description]), [['button', button.name, button.description]], JSON.stringify(byDescription));

    const byName = await callOk(fixtures.context, 'find_elements', { window_id: gtk3.id, selector: `name~="${sought}"` });
    const found = byName.structured as unknown as Found;
    assert.equal(found.count, 0, 'no element is named so');
    assert.deepEqual(found.by_description, [`[e${byDescription.matches[0]!.index}] button "${button.name}" described "${tip}"`], byName.summary);
    assert.match(byName.summary, /ask description in place of name/);

    // An action whose selector names the button by its description sends nothing, and says the same.
    const before = await fixtures.oracle.status(gtk3.pid, gtk3.title);
    const refused = await failsWith(fixtures.context, 'click', { window_id: gtk3.id, selector: `role=button name~="${sought}"` }, 'not_found');
    assert.deepEqual(refused.structured.by_description, found.by_description, refused.summary);
    assert.deepEqual(await fixtures.oracle.status(gtk3.pid, gtk3.title), before, 'nothing was clicked');
    const clicked = await callOk(fixtures.context, 'click', { window_id: gtk3.id, selector: `role=button description~="${sought}"` });
    assert.equal((clicked.structured as { effect: string }).effect, 'confirmed', clicked.summary);
    assert.equal((await fixtures.oracle.status(gtk3.pid, gtk3.title)).counter, String(Number(before.counter) + 1), 'the fixture counted the click');
  });
});
