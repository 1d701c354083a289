// Element indices that stay put across one window's snapshots, on the real GTK3 fixture's search bar: its Find adds
// the query to a combo box's history, a new menu item ahead of Find and Close in the tree (as a text editor's search
// does). The fixture's own label, read by pyatspi, says what each button received: searches, closes, history entries
// and the search field's text (which clicking a history entry would change).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { stopDaemon } from '../daemon/helpers.js';
import { cliPath } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, failsWith, type Element } from '../helpers/tools.js';

interface History {
  searches: number;
  closes: number;
  entries: number;
  search: string;
}

/** The one element of that role and name. */
function named(elements: readonly Element[], role: string, name: string): Element {
  const found = elements.filter((element) => element.role === role && element.name === name);
  assert.equal(found.length, 1, `one ${role} "${name}" among ${elements.map((element) => `${element.role} "${element.name}"`).join(', ')}`);
  return found[0]!;
}

describe('element indices stay put across a window\'s snapshots (GTK3)', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Search Fixture', rows: 3, extraArgs: ['--history'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The fixture's history label, as pyatspi reads it. */
  async function history(): Promise<History> {
    const text = (await fixtures.oracle.texts(window.pid, window.title)).find((line) => line.startsWith('searches='));
    const match = text && /^searches=(\d+) closes=(\d+) entries=(\d+) search=(.*)$/.exec(text);
    assert.ok(match, `the history label reads ${JSON.stringify(text)}`);
    return { searches: Number(match[1]), closes: Number(match[2]), entries: Number(match[3]), search: match[4]! };
  }

  async function waitForHistory(accept: (now: History) => boolean): Promise<History> {
    const deadline = Date.now() + 3000;
    for (;;) {
      const now = await history();
      if (accept(now) || Date.now() > deadline) return now;
      await sleep(50);
    }
  }

  async function read(detail: 'compact' | 'full' = 'compact'): Promise<Element[]> {
    return (await accessibleWindowState(fixtures.context, window, { include_screenshot: false, detail })).state.elements;
  }

  async function click(index: number): Promise<ActionResult & { summary: string }> {
    const result = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: index });
    return { ...(result.structured as unknown as ActionResult), summary: result.summary };
  }

  /** Unique role+name pairs and their indices, to compare two readings' numbering. */
  function numbering(elements: readonly Element[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const element of elements) counts.set(`${element.role} ${element.name}`, (counts.get(`${element.role} ${element.name}`) ?? 0) + 1);
    return new Map(elements.filter((element) => counts.get(`${element.role} ${element.name}`) === 1).map((element) => [`${element.role} ${element.name}`, element.index]));
  }

  test('a Find that adds a history entry ahead of Close: the index of Close read before still clicks Close', async () => {
    const { snapshot_id: snapshotBefore, elements } = (await accessibleWindowState(fixtures.context, window, { include_screenshot: false })).state;
    const find = named(elements, 'button', 'Find');
    const close = named(elements, 'button', 'Close');
    const start = await history();

    const found = await click(find.index);
    assert.equal(found.effect, 'confirmed', found.summary);
    const afterFind = await waitForHistory((now) => now.searches === start.searches + 1);
    assert.equal(afterFind.entries, start.entries + 1, 'the query went into the history');
    // The trial's click: by the bare index read before the action. It reaches Close, not Find.
    const closed = await click(close.index);
    assert.equal(closed.effect, 'confirmed', closed.summary);
    assert.match(closed.summary, /Close/);
    const afterClose = await waitForHistory((now) => now.closes === start.closes + 1);
    assert.equal(afterClose.closes, start.closes + 1, 'Close received the click');
    assert.equal(afterClose.searches, afterFind.searches, 'Find did not');

    // The diff named the new entry by a number the window never used, valid in the action's snapshot.
    const added = found.diff!.added.find((entry) => entry.name === `query ${afterFind.searches}`);
    assert.ok(added, JSON.stringify(found.diff));
    assert.ok(!elements.some((element) => element.index === added.index), `[e${added.index}] is a new number`);
    assert.equal(fixtures.context.state.snapshots.get(found.snapshot_id!)?.elements.get(added.index)?.name, added.name);

    // The element token taken before the action names Close too.
    const token = await callOk(fixtures.context, 'click', { element_token: `${snapshotBefore}:${close.index}` });
    assert.equal((token.structured as unknown as ActionResult).effect, 'confirmed');
    assert.equal((await waitForHistory((now) => now.closes === start.closes + 2)).closes, start.closes + 2);
  });

  test('repeat reads, compact or full, keep every element\'s index; only new elements have new numbers', async () => {
    const first = numbering(await read());
    await click(named(await read(), 'button', 'Find').index);
    await waitForHistory((now) => now.entries > 0);
    const compact = numbering(await read());
    const full = numbering(await read('full'));
    for (const [key, index] of first) {
      if (compact.has(key)) assert.equal(compact.get(key), index, `${key} in a compact read after the action`);
      if (full.has(key)) assert.equal(full.get(key), index, `${key} in a full read`);
    }
    for (const [key, index] of compact) assert.equal(full.get(key), index, `${key}: compact and full reads number alike`);
    assert.ok([...first.keys()].filter((key) => compact.has(key)).length > 10, 'most elements are in both readings');
  });

  test('the index of an entry the app removed is refused, clearly, and nothing is clicked; a later entry has another number', async () => {
    await click(named(await read(), 'button', 'Find').index);
    const withEntries = await waitForHistory((now) => now.entries > 0);
    const elements = await read('full');
    const entry = elements.find((element) => element.role === 'menuitem' && element.name.startsWith('query '));
    assert.ok(entry, 'the full read shows the history entries');
    const forgot = await click(named(elements, 'button', 'Forget').index);
    assert.equal(forgot.effect, 'confirmed', forgot.summary);
    assert.equal((await waitForHistory((now) => now.entries === 0)).entries, 0);
    assert.ok(forgot.diff!.removed.some((removed) => removed.name === entry.name), JSON.stringify(forgot.diff));

    const refused = await failsWith(fixtures.context, 'click', { window_id: window.id, element_index: entry.index }, 'stale_element');
    assert.match(refused.summary, new RegExp(`\\[e${entry.index}\\] is gone from window ${window.id}`));
    assert.match(refused.summary, /get_window_state/);

    // A new entry where the old one was: under a numbering by position it would take the old index.
    await click(named(await read(), 'button', 'Find').index);
    const again = await waitForHistory((now) => now.entries === 1);
    const fresh = (await read('full')).find((element) => element.role === 'menuitem' && element.name.startsWith('query '));
    assert.ok(fresh && fresh.index !== entry.index, `the new entry has its own number (${fresh?.index}, the removed one had ${entry.index})`);
    await failsWith(fixtures.context, 'click', { window_id: window.id, element_index: entry.index }, 'stale_element');
    const after = await history();
    assert.equal(after.search, withEntries.search, 'no history entry was clicked: the search text is as it was');
    assert.deepEqual(after, again, 'nothing reached the app');
  });

  test('run_actions: a later step\'s index read before the plan still names its element after an earlier step added nodes', async () => {
    const elements = await read();
    const start = await history();
    const result = await callOk(fixtures.context, 'run_actions', {
      window_id: window.id,
      steps: [
        { tool: 'click', arguments: { element_index: named(elements, 'button', 'Find').index } },
        { tool: 'click', arguments: { element_index: named(elements, 'button', 'Close').index } },
      ],
    });
    const plan = result.structured as { completed_steps: number; diff?: { added: { index: number; name: string }[] }; snapshot_id?: string };
    assert.equal(plan.completed_steps, 2, result.summary);
    const now = await waitForHistory((read) => read.closes === start.closes + 1);
    assert.deepEqual([now.searches, now.closes], [start.searches + 1, start.closes + 1], 'Find once, then Close');
    const added = plan.diff?.added.find((entry) => entry.name === `query ${now.searches}`);
    assert.ok(added, JSON.stringify(plan.diff));
    assert.equal(fixtures.context.state.snapshots.get(plan.snapshot_id!)?.elements.get(added.index)?.name, added.name, 'the plan diff\'s index is the new snapshot\'s');
  });

  test('over the CLI, as the trial ran it: get_window_state, Find, then Close by its earlier index', async () => {
    const env = fixtures.desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
    const cli = (args: string[]) => spawnSync(process.execPath, [cliPath, ...args], { env, encoding: 'utf8', timeout: 60_000 });
    try {
      const state = cli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id, include_screenshot: false }), '--json']);
      assert.equal(state.status, 0, state.stderr);
      const elements = (JSON.parse(state.stdout) as { structuredContent: { elements: Element[] } }).structuredContent.elements;
      const start = await history();
      const find = cli(['call', 'click', JSON.stringify({ window_id: window.id, element_index: named(elements, 'button', 'Find').index })]);
      assert.equal(find.status, 0, find.stderr);
      assert.match(find.stdout, /^\+ \[e\d+\] mi "query \d+"$/m);
      await waitForHistory((now) => now.searches === start.searches + 1);
      const close = cli(['call', 'click', JSON.stringify({ window_id: window.id, element_index: named(elements, 'button', 'Close').index })]);
      assert.equal(close.status, 0, close.stderr);
      const now = await waitForHistory((read) => read.closes === start.closes + 1);
      assert.deepEqual([now.searches, now.closes], [start.searches + 1, start.closes + 1], close.stdout);
    } finally {
      await stopDaemon(env);
    }
  });
});

// gtk3-widget-factory's Page 1 → Page 2 gave Page 2's unnamed slider the index of Page 1's (the same role, no name,
// the same unnamed parents, in place of one that left the reading), and back on Page 1 its slider came with a new
// index: an index read on Page 1 reached another object on Page 2. The fixture's stack holds the same two pages,
// and its status (read by pyatspi) says which page's slider or Apply button an action reached.
describe('element indices across a stack\'s pages (GTK3): a hidden page keeps its indices', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Stack Fixture', rows: 2, extraArgs: ['--stack-pages'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  async function read(): Promise<Element[]> {
    return (await accessibleWindowState(fixtures.context, window, { include_screenshot: false })).state.elements;
  }

  /** The status's last_key, as pyatspi reads it, once it is `expected` (or after 3 s, whatever it is). */
  async function lastKey(expected: string): Promise<string> {
    const deadline = Date.now() + 3000;
    for (;;) {
      const now = (await fixtures.oracle.status(window.pid, window.title)).last_key ?? '';
      if (now === expected || Date.now() > deadline) return now;
      await sleep(50);
    }
  }

  const pageSlider = (elements: readonly Element[]) => named(elements, 'slider', '');

  test('an index read on Page 1 names nothing on Page 2 and the same object back on Page 1', async () => {
    const page1 = await read();
    const slider = pageSlider(page1);
    const apply = named(page1, 'button', 'Apply');
    const toPage2 = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: named(page1, 'radio', 'Page 2').index });
    assert.ok(!/~ \[e\d+\] sld/.test(toPage2.summary), `the diff takes Page 2's slider for no change of Page 1's: ${toPage2.summary}`);

    const page2 = await read();
    assert.notEqual(pageSlider(page2).index, slider.index, 'Page 2\'s slider has a number of its own');
    assert.notEqual(named(page2, 'button', 'Apply').index, apply.index, 'Page 2\'s Apply has a number of its own');
    // Page 1's indices reach nothing now: refused, and neither page's control received anything.
    await failsWith(fixtures.context, 'click', { window_id: window.id, element_index: apply.index }, 'stale_element');
    await failsWith(fixtures.context, 'set_value', { window_id: window.id, element_index: slider.index, value: '77' }, 'stale_element');
    assert.equal(await lastKey('never'), '', 'nothing reached either page');
    // Page 2's own index reaches Page 2's button.
    await callOk(fixtures.context, 'click', { window_id: window.id, element_index: named(page2, 'button', 'Apply').index });
    assert.equal(await lastKey('apply:2'), 'apply:2');

    await callOk(fixtures.context, 'click', { window_id: window.id, element_index: named(page2, 'radio', 'Page 1').index });
    const back = await read();
    assert.equal(pageSlider(back).index, slider.index, 'Page 1\'s slider has its number again');
    assert.equal(named(back, 'button', 'Apply').index, apply.index, 'Page 1\'s Apply has its number again');
    // The indices read on Page 1 before the switches act on Page 1's controls.
    await callOk(fixtures.context, 'click', { window_id: window.id, element_index: apply.index });
    assert.equal(await lastKey('apply:1'), 'apply:1');
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: slider.index, value: '42' });
    assert.equal(await lastKey('slider:1:42'), 'slider:1:42');
  });

  test('a click on the switcher\'s radio button of the page shown is confirmed as so, with no advice to click again', async () => {
    // System Monitor's Processes switch, clicked while shown, read "no effect seen" with advice to retry in the foreground.
    assert.ok((await fixtures.oracle.find(window.pid, window.title, 'radio button', 'Page 1')).states?.includes('checked'), 'pyatspi: Page 1 is checked');
    const again = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: named(await read(), 'radio', 'Page 1').index });
    assert.equal(again.structured.effect, 'confirmed', again.summary);
    assert.equal(again.structured.escalation, undefined, again.summary);
    assert.match((again.structured.evidence as string[]).join('\n'), /\[e\d+\] radio "Page 1" was checked already, and still is: nothing to change/);
    assert.ok((await fixtures.oracle.find(window.pid, window.title, 'radio button', 'Page 1')).states?.includes('checked'), 'pyatspi: Page 1 is still checked');
    assert.ok(!(await fixtures.oracle.find(window.pid, window.title, 'radio button', 'Page 2')).states?.includes('checked'), 'pyatspi: Page 2 is not');
  });
});
