// Typed text that does not arrive as written is not confirmed by what else the app changed meanwhile: the GTK3
// fixture's Name field takes five characters (--name-max-length) and its title gains a modified mark when the field
// changes, as an editor's does. pyatspi reads the field, xprop the title.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk } from '../helpers/tools.js';

interface Typed {
  effect: string;
  evidence?: string[];
  refuted?: boolean;
  escalation?: { reason: string };
}

describe('typed text the field does not show', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Short names', extraArgs: ['--name-max-length', '5'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('real keys past the field\'s limit: the title\'s modified mark is told, and the typing is not confirmed', async () => {
    const field = (await fixtures.elements(window)).find((element) => element.name === 'Name field');
    assert.ok(field, 'the fixture shows its Name field');
    const result = await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: field.index, text: 'hello world', delivery_mode: 'foreground' });
    const typed = result.structured as unknown as Typed;
    // The field changed (it took "hello"): the summary says the typing is not what it shows, not that nothing changed.
    assert.match(result.summary, /the target does not show what was asked/, result.summary);
    assert.equal((await fixtures.oracle.find(window.pid, '*Short names', 'text', 'Name field')).text, 'hello', 'the field kept five characters');
    const title = execFileSync('xprop', ['-id', String(window.id), '_NET_WM_NAME'], { env: fixtures.desktop.env(), encoding: 'utf8', timeout: 10_000 });
    assert.match(title, /"\*Short names"/, 'the app marked its title modified');
    assert.equal(typed.effect, 'suspected_noop', JSON.stringify(typed));
    assert.equal(typed.refuted, true, JSON.stringify(typed));
    assert.match(typed.escalation?.reason ?? '', /does not show all of the typed text added/);
    assert.ok(typed.evidence?.some((line) => line.includes('renamed "Short names" → "*Short names"')), JSON.stringify(typed));
  });

  test('text typed into a field that holds that text already and takes only part of the typing: the field holding the text does not confirm it, in the background and with real keys', async () => {
    // "abc" typed into the field's "abc" left five characters (its most) that hold "abc": each typing was confirmed.
    for (const mode of ['background', 'foreground'] as const) {
      const field = (await fixtures.elements(window)).find((element) => element.name === 'Name field');
      assert.ok(field, 'the fixture shows its Name field');
      const set = (await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: field.index, value: 'abc' })).structured as unknown as Typed;
      assert.equal(set.effect, 'confirmed', JSON.stringify(set));
      const typed = (await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: field.index, text: 'abc', delivery_mode: mode })).structured as unknown as Typed;
      // Where the caret was decides which five ("abcab" at the end, "ababc" after "ab"): either holds "abc".
      const kept = (await fixtures.oracle.find(window.pid, '*Short names', 'text', 'Name field')).text ?? '';
      assert.ok(kept.length === 5 && kept.includes('abc'), `${mode}: the field kept five characters holding "abc": ${JSON.stringify(kept)}`);
      assert.notEqual(typed.effect, 'confirmed', `${mode}: ${JSON.stringify(typed)}`);
      assert.match(typed.escalation?.reason ?? '', /holds "[a-c]{5}" where it held "abc"|does not show all of the typed text added/, `${mode}: ${JSON.stringify(typed)}`);
    }
  });
});
