// The live tree mirror on the GTK3 fixture started with --control: the fixture changes itself on command
// (rows added, removed and renamed, text, states, a widget packed and a button relabelled without an event, a scroll, window moves
// and resizes), picked at random from a printed seed, and after every change the mirror's reading must equal
// a fresh walk of the window; so must every element a read of the change's events alone (eventsOnly, as a
// wait makes it) says it read now. The independent witness of what another client changed is pyatspi.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import type { TreeLimits } from '../../src/platform/desktop.js';
import { LinuxDesktop, type WindowTree } from '../../src/platform/linux/linux-desktop.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureControl } from '../helpers/fixture-control.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { cup, firstDifference, generator, staleCurrent } from '../helpers/mirror-compare.js';

const title = 'CUP Fixture Mirror';
const limits: TreeLimits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 10_000 };
const MUTATIONS = 120;

describe('the live tree mirror on a GTK3 app', () => {
  let fixtures: FixtureDesktop;
  let desktop: LinuxDesktop;
  let socketDir: string;
  /** A list of 30 rows, read whole, and one of 300, which GTK3 manages itself and is read by its visible part. */
  const windows: { window: ClientWindow; control: FixtureControl }[] = [];

  before(async () => {
    fixtures = await FixtureDesktop.start();
    socketDir = mkdtempSync(join(tmpdir(), 'cup-mirror-'));
    for (const rows of [30, 300]) {
      const socket = join(socketDir, `control-${rows}`);
      const window = await fixtures.launch('gtk3', { title: `${title} ${rows}`, rows, extraArgs: ['--control', socket] });
      windows.push({ window, control: await FixtureControl.open(socket) });
    }
    desktop = new LinuxDesktop({ autoStartDesktop: false, log: () => undefined });
  });

  after(async () => {
    for (const { control } of windows) control.close();
    desktop?.close();
    await fixtures?.stop();
    rmSync(socketDir, { recursive: true, force: true });
  });

  /** The window as the X server has it now (a move or resize changes its bounds). */
  async function current(window: ClientWindow): Promise<ClientWindow> {
    const found = (await listClientWindows(fixtures.x)).find((candidate) => candidate.id === window.id);
    assert.ok(found, 'the fixture window is still there');
    return found;
  }

  /**
   * An events-only read, then a full mirror read, between two fresh walks that agree: the window did not
   * change while the four ran (GTK finishes some changes later, e.g. a window that grows to fit a longer row
   * waits for the window manager), so the mirror must read what both walks read, and what the events-only
   * read read now must be as the walks have it (the checks it left undone fall to the full read after it).
   * Tried again while the window is still settling.
   */
  async function compareSettled(window: ClientWindow): Promise<{ mirrored: WindowTree; difference?: string; identical: boolean; quick: WindowTree; staleQuick?: string }> {
    for (let attempt = 0; ; attempt++) {
      const now = await current(window);
      const firstWalk = await desktop.readWindowTree(now, { ...limits, fresh: true });
      const quick = await desktop.readWindowTree(now, { ...limits, eventsOnly: true });
      const mirrored = await desktop.readWindowTree(now, limits);
      const secondWalk = await desktop.readWindowTree(await current(window), { ...limits, fresh: true });
      const [first, second] = [cup(firstWalk), cup(secondWalk)];
      assert.ok(mirrored.read?.root && !mirrored.read.truncated, `the mirror read the window: ${mirrored.missingReason ?? ''}`);
      if (firstDifference(first.root, second.root) !== undefined && attempt < 10) continue;
      const mine = cup(mirrored);
      return {
        mirrored,
        difference: firstDifference(mine.root, second.root) ?? firstDifference(mine.root, first.root),
        identical: JSON.stringify(mine.identities) === JSON.stringify(second.identities),
        quick,
        staleQuick: staleCurrent(quick, secondWalk) ?? staleCurrent(quick, firstWalk),
      };
    }
  }

  for (const [which, rows] of [[0, 30], [1, 300]] as const) it(`equals a fresh walk after each of ${MUTATIONS} random changes (${rows} rows)`, async (t) => {
    const { window, control } = windows[which]!;
    const seed = Number(process.env.MIRROR_SEED ?? Math.floor(Math.random() * 2 ** 31));
    t.diagnostic(`seed ${seed} (MIRROR_SEED=${seed} replays it)`);
    console.log(`live-mirror seed ${seed}`);
    const random = generator(seed);
    const pick = (n: number) => Math.floor(random() * n);
    const word = () => `w${pick(100_000)}`;
    const changes: [number, () => Record<string, unknown>][] = [
      [5, () => ({ do: 'add_row', text: `Added ${word()}` })],
      [4, () => ({ do: 'remove_row', index: pick(1000) })],
      [5, () => ({ do: 'rename_row', index: pick(1000), text: `Renamed ${word()}` })],
      [3, () => ({ do: 'select_row', index: pick(1000) })],
      [3, () => ({ do: 'toggle_check' })],
      [3, () => ({ do: 'set_entry', text: random() < 0.2 ? '' : word() })],
      [1, () => ({ do: 'set_placeholder', text: `Hint ${word()}` })],
      [2, () => ({ do: 'set_slider', value: pick(101) })],
      [2, () => ({ do: 'set_color', index: pick(3) })],
      [3, () => ({ do: 'pack_button', text: `Packed ${word()}` })],
      [2, () => ({ do: 'unpack_button' })],
      [2, () => ({ do: 'toggle_sensitive' })],
      [1, () => ({ do: 'toggle_row_sensitive' })],
      [2, () => ({ do: 'toggle_pad' })],
      [2, () => ({ do: 'relabel_button', text: `Relabelled ${word()}` })],
      [1, () => ({ do: 'set_tooltip', text: `Tip ${word()}` })],
      [1, () => ({ do: 'set_title', text: `${window.title} ${word()}` })],
      [3, () => ({ do: 'scroll', fraction: random() })],
      [1, () => ({ do: 'resize', width: 420 + pick(300), height: 520 + pick(240) })],
      [1, () => ({ do: 'move', x: pick(500), y: pick(100) })],
    ];
    const total = changes.reduce((sum, [weight]) => sum + weight, 0);
    const choose = () => {
      let at = random() * total;
      for (const [weight, make] of changes) {
        at -= weight;
        if (at < 0) return make();
      }
      return changes[0]![1]();
    };

    await desktop.readWindowTree(await current(window), limits);
    const done: string[] = [];
    let fromMirror = 0;
    let readNow = 0;
    const walkedBecause = new Map<string, number>();
    for (let i = 0; i < MUTATIONS; i++) {
      const command = choose();
      await control.send(command);
      done.push(JSON.stringify(command));
      const { mirrored, difference, identical, quick, staleQuick } = await compareSettled(window);
      if (mirrored.mirror?.fromMirror) fromMirror++;
      else walkedBecause.set(mirrored.mirror?.walkedBecause ?? 'no mirror', (walkedBecause.get(mirrored.mirror?.walkedBecause ?? 'no mirror') ?? 0) + 1);
      readNow += quick.mirror?.current?.size ?? 0;
      assert.equal(staleQuick, undefined, `seed ${seed}, change ${i + 1} (${done.at(-1)}), after ${done.slice(-6, -1).join(', ')}: ${staleQuick}`);
      assert.equal(difference, undefined, `seed ${seed}, change ${i + 1} (${done.at(-1)}), after ${done.slice(-6, -1).join(', ')}: ${difference}`);
      assert.ok(identical, `seed ${seed}, change ${i + 1}: the same objects`);
    }
    const walks = [...walkedBecause].map(([reason, count]) => `${count}x ${reason}`).join(', ');
    t.diagnostic(`${fromMirror} of ${MUTATIONS} reads came from the mirror; walked: ${walks}; events-only reads read ${readNow} elements now`);
    console.log(`live-mirror: ${fromMirror} of ${MUTATIONS} reads from the mirror; walked: ${walks}; events-only reads read ${readNow} elements now`);
    // Moves walk; the rest is the mirror's to keep up with.
    assert.ok(fromMirror >= MUTATIONS / 2, `most reads came from the mirror (${fromMirror}; walked: ${walks})`);
    assert.ok(readNow > 0, 'the events-only reads read what the changes named');
  });

  it('shows the buttons in a row that turned insensitive or sensitive as the row is, though GTK announces the row alone', async () => {
    const { window, control } = windows[0]!;
    const increment = (tree: WindowTree): CupNode | undefined => {
      const find = (at: CupNode | undefined): CupNode | undefined =>
        !at ? undefined : at.role === 'button' && at.name === 'Increment' ? at : at.children?.map(find).find(Boolean);
      return find(cup(tree).root);
    };
    for (const turn of [1, 2]) {
      let settled = (await compareSettled(window)).mirrored;
      for (let attempt = 0; !settled.mirror?.fromMirror && attempt < 10; attempt++) settled = await desktop.readWindowTree(await current(window), limits);
      const now = await current(window);
      const wasDisabled = !(await fixtures.oracle.find(now.pid, now.title, 'push button', 'Increment')).states?.includes('sensitive');
      assert.equal(increment(settled)?.states?.includes('disabled') ?? false, wasDisabled, `turn ${turn}: the settled read shows Increment as pyatspi does`);
      await control.send({ do: 'toggle_row_sensitive' });
      const witnessed = await fixtures.oracle.find(now.pid, now.title, 'push button', 'Increment');
      assert.equal(witnessed.states?.includes('sensitive'), wasDisabled, `turn ${turn}: pyatspi sees Increment follow its row`);
      const after = await desktop.readWindowTree(now, limits);
      assert.equal(after.mirror?.fromMirror, true, `turn ${turn}: read from the mirror (walked: ${after.mirror?.walkedBecause})`);
      assert.equal(increment(after)?.states?.includes('disabled') ?? false, !wasDisabled, `turn ${turn}: the next read shows Increment as its row is`);
    }
  });

  it("shows another client's change in the very next read", async () => {
    const { window, control } = windows[0]!;
    const node = (tree: WindowTree, role: string, name: string): CupNode | undefined => {
      const find = (at: CupNode | undefined): CupNode | undefined =>
        !at ? undefined : at.role === role && at.name === name ? at : at.children?.map(find).find(Boolean);
      return find(cup(tree).root);
    };
    // The status label repeats the check box and the field, and the window grows to fit it: a long text and
    // a clear box first ("checked=false"), so that the changes below shorten it and the window stays as it is.
    await control.send({ do: 'set_entry', text: 'x'.repeat(80) });
    // The title is the last one the random changes gave it.
    const titled = await current(window);
    if ((await fixtures.oracle.find(titled.pid, titled.title, 'check box', 'Enable feature')).states?.includes('checked')) {
      await control.send({ do: 'toggle_check' });
    }
    // Settled first: the mirror serves reads once the window stays where it is.
    let before = (await compareSettled(window)).mirrored;
    for (let attempt = 0; !before.mirror?.fromMirror && attempt < 10; attempt++) before = await desktop.readWindowTree(await current(window), limits);
    let now = await current(window);
    const wasChecked = node(before, 'checkbox', 'Enable feature')?.states?.includes('checked') ?? false;
    await fixtures.oracle.act(now.pid, now.title, 'check box', 'Enable feature');
    const witnessed = await fixtures.oracle.find(now.pid, now.title, 'check box', 'Enable feature');
    assert.equal(witnessed.states?.includes('checked'), !wasChecked, 'pyatspi sees the check box flipped');
    const after = await desktop.readWindowTree(now, limits);
    assert.equal(after.mirror?.fromMirror, true, `read from the mirror (walked: ${after.mirror?.walkedBecause})`);
    assert.equal(node(after, 'checkbox', 'Enable feature')?.states?.includes('checked') ?? false, !wasChecked, 'the next read shows the flip');

    now = await current(window);
    const text = `from pyatspi ${Date.now()}`;
    await fixtures.oracle.setText(now.pid, now.title, 'text', 'Name field', text);
    assert.equal((await fixtures.oracle.find(now.pid, now.title, 'text', 'Name field')).text, text, 'pyatspi sees the new text');
    const typed = await desktop.readWindowTree(now, limits);
    assert.equal(typed.mirror?.fromMirror, true, `read from the mirror (walked: ${typed.mirror?.walkedBecause})`);
    assert.equal(node(typed, 'textbox', 'Name field')?.value, text, 'the next read shows the text');
  });
});
