// Repeated reads of one unchanged window say the same thing, on a real GTK3 app with submenus in its closed menus
// (galculator: View holds Buttons, Calculator holds three). A user's query said "did not search the 17 items of closed
// menus" and, after a whole read of the window in between, 31: the live mirror kept the submenus' items that read
// read, and each closed submenu inside a closed menu was counted again. pyatspi says how many items opening each menu shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, testContext, type WindowState } from '../helpers/tools.js';

/** The count of closed menus' items a query's note gives, or undefined when it gives none. */
function unsearchedItems(summary: string): number | undefined {
  const match = /the query did not search the (\d+) items of closed menus/.exec(summary);
  return match ? Number(match[1]) : undefined;
}

describe('repeated reads of an unchanged window with menus (galculator, GTK3)', () => {
  let desktop: TestDesktop;
  let oracle: PyatspiOracle;
  let window: ClientWindow;
  let context: ReturnType<typeof testContext>;

  before(async () => {
    desktop = await TestDesktop.start();
    oracle = new PyatspiOracle(desktop.env());
    window = (await desktop.launch('galculator', [], 'galculator')).window;
    context = testContext();
    await accessibleWindowState(context, window, { include_screenshot: false });
  });

  after(async () => {
    await context?.desktop.close();
    oracle?.close();
    await desktop?.stop();
  });

  const read = async (args: Record<string, unknown>) => {
    const result = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false, ...args });
    return { summary: result.summary, body: result.body ?? '', state: result.structured as unknown as WindowState };
  };

  test("a query's count of closed menus' items is the items opening each menu shows, before and after a whole read", async () => {
    const entries = (await oracle.menuBars(window.pid, window.title)).flat();
    const closed = entries.filter((entry) => entry.items.length > 0 && !entry.items.some((item) => item.states.includes('showing')));
    assert.equal(closed.length, entries.length, `every menu is closed: ${entries.map((entry) => entry.name).join(', ')}`);
    const items = closed.reduce((sum, entry) => sum + entry.items.length, 0);
    const descendants = closed.reduce((sum, entry) => sum + entry.descendants, 0);
    assert.ok(descendants > items, `submenus hold more items than the menus themselves (${descendants} under them, ${items} in them): the test tells the two apart`);

    const counts: (number | undefined)[] = [];
    for (let i = 0; i < 2; i++) counts.push(unsearchedItems((await read({ query: 'button' })).summary));
    // A whole read (as detail "full", JSON or find_elements make) reads every submenu's items into the live mirror.
    await read({ format: 'json' });
    await read({ detail: 'full' });
    for (let i = 0; i < 2; i++) counts.push(unsearchedItems((await read({ query: 'button' })).summary));
    assert.deepEqual(counts, [items, items, items, items], `pyatspi: ${closed.map((entry) => `${entry.name} ${entry.items.length}`).join(', ')}`);
  });

  test('three compact reads, three JSON reads and a compact read after them give the same count and text', async () => {
    const same = async (args: Record<string, unknown>) => {
      const reads = [await read(args), await read(args), await read(args)];
      for (const later of reads.slice(1)) {
        assert.equal(later.state.node_count, reads[0]!.state.node_count, `node count, ${JSON.stringify(args)}`);
        assert.equal(later.state.shown_count, reads[0]!.state.shown_count, `shown count, ${JSON.stringify(args)}`);
        assert.equal(later.body, reads[0]!.body, `text, ${JSON.stringify(args)}`);
      }
      return reads[0]!;
    };
    const compact = await same({});
    await same({ format: 'json' });
    const again = await read({});
    assert.equal(again.state.node_count, compact.state.node_count, 'compact node count after whole reads');
    assert.equal(again.body, compact.body, 'compact text after whole reads');
  });
});
