// Formatting changes no text, name or state, only the text's attributes: the GTK3 fixture's text view (--rich-text)
// toggles a bold tag on the text selected with ctrl+b, and with a Bold button that takes no focus from it. Both read
// "no effect seen" (a tag applied in GtkTextView sends nothing the driver heard); they are confirmed by the weight of
// the text selected, read before and after, as pyatspi's getAttributeRun and the fixture's status judge.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk } from '../helpers/tools.js';

interface Acted {
  effect: string;
  evidence?: string[];
}

const title = 'Rich text';

describe('formatting the text selected in a text view', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title, extraArgs: ['--rich-text'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  const element = async (name: string) => {
    const found = (await fixtures.elements(window)).find((candidate) => candidate.name === name);
    assert.ok(found, `the fixture shows ${name}`);
    return found;
  };
  const weight = async () => (await fixtures.oracle.attributeRun(window.pid, title, 'text', 'Notes', 6)).attributes.weight;

  test('ctrl+b and the Bold button are told by the weight of the text selected', async () => {
    // "beta", selected through the view's Text, which the keys' focusing keeps.
    assert.deepEqual(await fixtures.oracle.selectText(window.pid, title, 'text', 'Notes', 6, 10), [6, 10]);
    assert.equal(await weight(), '400', 'pyatspi: "beta" starts plain');
    const notes = await element('Notes');
    const bold = (await callOk(fixtures.context, 'press_key', { window_id: window.id, element_index: notes.index, key: 'ctrl+b', delivery_mode: 'foreground' })).structured as unknown as Acted;
    assert.match(await fixtures.oracle.statusText(window.pid, title), /last_key=bold:on/);
    assert.equal(await weight(), '700', 'pyatspi: "beta" is bold');
    assert.equal(bold.effect, 'confirmed', JSON.stringify(bold));
    assert.ok((bold.evidence ?? []).some((line) => /\[e\d+\] text at 6\.\.10 \("beta"\): weight 400 → 700/.test(line)), JSON.stringify(bold.evidence));
    // The button takes no focus: the view keeps it, and its selection, which the button's click formats.
    const button = await element('Bold');
    const plain = (await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button.index })).structured as unknown as Acted;
    assert.match(await fixtures.oracle.statusText(window.pid, title), /last_key=bold:off/);
    assert.equal(await weight(), '400', 'pyatspi: "beta" is plain again');
    assert.equal(plain.effect, 'confirmed', JSON.stringify(plain));
    assert.ok((plain.evidence ?? []).some((line) => /\[e\d+\] text at 6\.\.10 \("beta"\): weight 700 → 400/.test(line)), JSON.stringify(plain.evidence));
  });
});
