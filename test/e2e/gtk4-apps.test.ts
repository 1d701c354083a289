// What GTK 4.8 and libadwaita apps (Clocks, Characters, Fonts) showed the driver wrong, reproduced in the GTK4
// fixture: a stack's page switched away keeps its place and reads as shown, and the switch is announced by new bounds
// alone; GJS's type names ("Gjs_SidebarRow") named rows, and a label whose text looks like a type name
// ("JavaScript", a font's "D050000L") lost it; a menu button was named after its open popover's items. The oracle is
// pyatspi: what the bus says, and what the window's own hit test finds drawn at a point. A menu button offers no action
// of its own but has a button inside that does: a background click on it (GNOME Calculator's mode switch) was refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GTK 4.8 apps: stacked pages, type names and menu buttons', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'GTK4 Apps Fixture', rows: 3, extraArgs: ['--stack', '--names', '--tree-view', '--cell-combo', '--entry-combo'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The name of the button the window's hit test finds drawn at the middle of the object pyatspi names so. */
  async function drawnAt(name: string): Promise<string[]> {
    const found = await fixtures.oracle.find(window.pid, window.title, 'push button', name);
    assert.ok(found.found && found.extents, `pyatspi finds the button ${name}`);
    const [x, y, w, h] = found.extents;
    return fixtures.oracle.hit(window.pid, window.title, Math.floor(x + w / 2), Math.floor(y + h / 2));
  }

  const shownButtons = async () => (await fixtures.elements(window)).filter((element) => element.role === 'button' && element.name.startsWith('Show ')).map((element) => element.name);

  test('a scroll with no element scrolls the one list a GTK 4 window shows, though GTK 4.8 sets no SHOWING', async () => {
    // Every GTK 4 window's scroll by window_id alone was refused: "none of the scrollable regions ... shows now".
    const list = await fixtures.launch('gtk4', { title: 'GTK4 Scroll Fixture', rows: 80 });
    const before = await fixtures.oracle.scrollOffset(list.pid, list.title, 'Row 1');
    const scrolled = await callOk(fixtures.context, 'scroll', { window_id: list.id, direction: 'down', by: 'page', amount: 1 });
    assert.equal((scrolled.structured as unknown as ActionResult).effect, 'confirmed', scrolled.body ?? scrolled.summary);
    assert.ok((await fixtures.oracle.scrollOffset(list.pid, list.title, 'Row 1')) > before, 'pyatspi: the list moved down');
  });

  test('a page the stack never showed, which GTK 4.8 gives no size, is hidden with what it holds', async () => {
    const never = await fixtures.oracle.find(window.pid, window.title, 'push button', 'Show summary');
    assert.ok(never.found && never.extents && (never.extents[2] === 0 || never.extents[3] === 0), `pyatspi: the Details page's button has no size: ${JSON.stringify(never.extents)}`);
    const full = (await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false, detail: 'full' })).structured as { elements: Element[] };
    const button = full.elements.find((element) => element.role === 'button' && element.name === 'Show summary');
    assert.ok(button?.states.includes('hidden'), `the never-shown page's button is hidden: ${JSON.stringify(button)}`);
    const shown = full.elements.find((element) => element.role === 'button' && element.name === 'Show details');
    assert.ok(shown && !shown.states.includes('hidden') && shown.bounds && shown.bounds.w > 0, `the page shown is not: ${JSON.stringify(shown)}`);
  });

  test('the page a stack switched away from is hidden, and a click that only switches the page is confirmed', async () => {
    assert.deepEqual(await shownButtons(), ['Show details'], 'the Summary page is the one shown at first');
    const statusBefore = await fixtures.oracle.statusText(window.pid, window.title);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Show details"' });
    const result = clicked.structured as unknown as ActionResult;
    assert.equal(result.path, 'x11_atspi', 'sent through accessibility, in the background');
    assert.equal(result.effect, 'confirmed', `the page switched: ${clicked.body}`);

    // The quirk: both pages' buttons are visible at one place on the bus, and the status label did not change, so
    // nothing but the new bounds announced the switch. The window's hit test says which page is drawn.
    const [summary, details] = await Promise.all(['Show details', 'Show summary'].map((name) => fixtures.oracle.find(window.pid, window.title, 'push button', name)));
    assert.ok(summary!.states!.includes('visible') && details!.states!.includes('visible'), 'pyatspi: both buttons are visible');
    assert.deepEqual(summary!.extents!.slice(0, 2), details!.extents!.slice(0, 2), 'pyatspi: both buttons are at one place');
    assert.equal(await fixtures.oracle.statusText(window.pid, window.title), statusBefore, 'the fixture announced nothing else');
    assert.equal((await drawnAt('Show details'))[0], 'Show summary', 'pyatspi: the Details page is drawn there');

    assert.deepEqual(await shownButtons(), ['Show summary'], 'only the page drawn is shown');
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=button name="Show details"' });
    const [left] = (found.structured as { matches: Element[] }).matches;
    assert.ok(left?.states.includes('hidden'), `the page left is hidden: ${found.body}`);

    // A selector matching both pages' buttons means the one a person can see: the hidden page's is left out.
    const back = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name^="Show "' });
    assert.equal((back.structured.target as { name?: string } | undefined)?.name, 'Show summary', back.body);
    assert.equal((back.structured as unknown as ActionResult).effect, 'confirmed', back.body);
    assert.equal((await drawnAt('Show summary'))[0], 'Show details', 'pyatspi: the Summary page is drawn again');
    assert.deepEqual(await shownButtons(), ['Show details']);
  });

  test('a tree view that draws its rows and exposes none of them says so, for the screenshot to be read', async () => {
    const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(onBus.some((node) => node.name === 'GtkTreeView'), 'pyatspi: the tree view, named by its type');
    assert.ok(!onBus.some((node) => ['alpha', 'beta', 'gamma'].includes(node.name)), 'pyatspi: none of its rows');
    const state = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const lines = (state.body ?? '').split('\n');
    const hint = lines.findIndex((line) => line.trim() === '# items drawn here are not exposed by the toolkit \u2014 read them on the screenshot');
    assert.ok(hint > 0, state.body);
    assert.match(lines.slice(0, hint).reverse().find((line) => /\[e\d+\]/.test(line)) ?? '', /btn "(Name|Size)"/, 'the hint follows the view\'s own column headers');
  });

  test('a tree view\'s column headers, which GTK 4.8 lists last column first, are listed in column order', async () => {
    // gtk4-widget-factory's headers read right to left: Nick, Name, Icon, Cool, drawn as Cool, Icon, Name, Nick.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const view = walked.findIndex((node) => node.name === 'GtkTreeView');
    const end = walked.findIndex((node, i) => i > view && node.depth <= walked[view]!.depth);
    const onBus = walked.slice(view + 1, end < 0 ? undefined : end).filter((node) => node.role === 'label');
    assert.deepEqual(onBus.map((node) => node.name), ['Size', 'Name'], 'pyatspi: the bus lists the last column first');
    const [name, size] = await Promise.all(['Name', 'Size'].map((label) => fixtures.oracle.find(window.pid, window.title, 'label', label)));
    assert.ok(name!.extents && size!.extents && name!.extents[0] < size!.extents[0], `pyatspi: Name is drawn left of Size: ${JSON.stringify([name, size])}`);
    const state = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    // The view's own headers: the two buttons just before the hint that its rows are not exposed.
    const lines = (state.body ?? '').split('\n');
    const hint = lines.findIndex((line) => line.includes('# items drawn here are not exposed by the toolkit'));
    const headers = lines.slice(hint - 2, hint).map((line) => /btn "([^"]*)"/.exec(line)?.[1]);
    assert.deepEqual(headers, ['Name', 'Size'], state.body);
  });

  test('a combo box whose choice is drawn by a cell view, exposed as an empty filler, says so, for the screenshot to be read', async () => {
    // The case: GTK 4.8's GtkComboBoxText holds its toggle button, and in it an empty cell view; "Decimal" is nowhere.
    const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const combo = onBus.findIndex((node) => node.role === 'combo box' && node.name === 'GtkComboBoxText');
    assert.ok(combo >= 0, 'pyatspi: the combo box, named by its type');
    const rest = onBus.slice(combo + 1);
    const end = rest.findIndex((node) => node.depth <= onBus[combo]!.depth);
    const inside = end < 0 ? rest : rest.slice(0, end);
    assert.ok(inside.some((node) => node.name === 'GtkCellView'), `pyatspi: the cell view: ${JSON.stringify(inside)}`);
    assert.ok(!onBus.some((node) => node.name.includes('Decimal')), 'pyatspi: no object holds the choice');
    const state = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const lines = (state.body ?? '').split('\n');
    const at = lines.findIndex((line) => /\bcmb\b/.test(line) && !/"/.test(line));
    assert.ok(at > 0, state.body);
    const after = lines.slice(at + 1).findIndex((line) => line.trim() === '# items drawn here are not exposed by the toolkit \u2014 read them on the screenshot');
    assert.ok(after >= 0 && after <= 2, `the hint follows the combo box:\n${lines.slice(at, at + 4).join('\n')}`);
  });

  test('rows GTK names by their GJS type are named by their content, and a label reading like a type name keeps it', async () => {
    const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    // The quirks: GTK 4.8 names a row with no name of its own by its type, and a label by its text.
    assert.deepEqual(onBus.filter((node) => node.role === 'table row').map((node) => node.name), ['Gjs_PlaceRow', 'Gjs_PlaceRow'], 'pyatspi reads the type names');
    assert.ok(onBus.some((node) => node.role === 'label' && node.name === 'JavaScript'), 'pyatspi reads the label JavaScript');

    const elements = await fixtures.elements(window);
    assert.deepEqual(elements.filter((element) => element.role === 'row').map((element) => element.name), ['Home', 'Music']);
    assert.ok(elements.some((element) => element.role === 'text' && element.name === 'JavaScript'), `the label keeps its text: ${JSON.stringify(elements.map((element) => element.name))}`);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=row name=Music' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.body);
    const rows = (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'table row');
    assert.deepEqual(rows.map((row) => row.states.includes('selected')), [false, true], 'pyatspi: the second row, Music, is selected');
  });

  test('a click whose only sign is a new row placed in a list is confirmed', async () => {
    const rowsOnBus = async () => (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'table row').length;
    const [rowsBefore, statusBefore] = [await rowsOnBus(), await fixtures.oracle.statusText(window.pid, window.title)];
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Add place"' });
    const result = clicked.structured as unknown as ActionResult;
    assert.equal(result.path, 'x11_atspi');
    assert.equal(result.effect, 'confirmed', `the row was added: ${clicked.body}`);
    assert.equal(await rowsOnBus(), rowsBefore + 1, 'pyatspi: the list has one row more');
    assert.equal(await fixtures.oracle.statusText(window.pid, window.title), statusBefore, 'the fixture announced nothing else');
  });

  test('a menu button is not named after the items of the popover it opened', async () => {
    // The menu button is the object pyatspi finds first by the name GTK gives it (its toggle button inside is the other),
    // known to the driver by its size.
    const onBus = await fixtures.oracle.find(window.pid, window.title, 'push button', 'GtkMenuButton');
    assert.ok(onBus.found && onBus.extents, 'pyatspi finds the menu button');
    const [, , w, h] = onBus.extents;
    const button = (await fixtures.elements(window)).find((element) => element.role === 'button' && element.bounds?.w === w && element.bounds.h === h);
    assert.ok(button && button.name === '', `the menu button reads unnamed while its menu is closed: ${JSON.stringify(button)}`);
    const reread = async () => (await fixtures.elements(window)).find((element) => element.index === button.index);
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button.index, delivery_mode: 'foreground' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.body);
    try {
      const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
      assert.ok(onBus.some((node) => node.role === 'menu item' && node.name === 'About Fixture'), 'pyatspi: the popover holds its items');
      const open = await reread();
      assert.ok(open && open.states.includes('expanded'), `the menu button reads expanded: ${JSON.stringify(open)}`);
      assert.ok(!open.name.includes('About Fixture') && !open.name.includes('Preferences'), `the button's name is not its menu's: "${open.name}"`);
      const items = (await fixtures.elements(window)).filter((element) => element.role === 'menuitem').map((element) => element.name);
      assert.deepEqual(items.slice(-2), ['Preferences', 'About Fixture'], 'the popover\'s items follow the menu bar\'s');
    } finally {
      await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
    }
  });

  test('a background click on a menu button, which offers no action around the button inside it that has one, opens its menu', async () => {
    // The case: GTK 4.8's menu button has an Action interface with no action, and one child, a button offering "click"
    // (GNOME Calculator's mode switch and primary menu); the click was refused as having no action.
    const onBus = await fixtures.oracle.find(window.pid, window.title, 'push button', 'GtkMenuButton');
    assert.ok(onBus.found && onBus.extents, 'pyatspi finds the menu button');
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const [x, y, w, h] = onBus.extents;
    const outer = walked.find((node) => node.role === 'push button' && node.extents?.join() === [x, y, w, h].join());
    assert.deepEqual(outer?.actions, [], `pyatspi: the menu button offers no action: ${JSON.stringify(outer)}`);
    assert.ok(!walked.some((node) => node.role === 'menu item' && node.name === 'About Fixture'), 'pyatspi: the menu is closed');
    const button = (await fixtures.elements(window)).find((element) => element.role === 'button' && element.bounds?.w === w && element.bounds.h === h);
    assert.ok(button, 'the menu button is in the tree');
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button.index });
    try {
      const result = opened.structured as unknown as ActionResult;
      assert.deepEqual([result.path, result.effect], ['x11_atspi', 'confirmed'], opened.body);
      const open = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
      assert.ok(open.some((node) => node.role === 'menu item' && node.name === 'About Fixture'), 'pyatspi: the popover holds its items');
    } finally {
      await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
    }
  });

  test('a selector naming a labelled menu button picks the one control, not its two parts', async () => {
    // The case: GTK 4.8's menu button (named by its type) holds a button named by the label; the tree names both "Mode".
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const inner = walked.findIndex((node) => node.role === 'push button' && node.name === 'Mode');
    assert.ok(inner > 0 && walked[inner - 1]!.name === 'GtkMenuButton' && walked[inner - 1]!.depth === walked[inner]!.depth - 1, 'pyatspi: the labelled button inside a menu button');
    const both = (await fixtures.elements(window)).filter((element) => element.role === 'button' && element.name === 'Mode');
    assert.equal(both.length, 2, 'the tree names the menu button and its button alike');
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Mode' });
    try {
      assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.body);
      const open = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
      assert.ok(open.some((node) => node.role === 'menu item' && node.name === 'Basic'), 'pyatspi: the popover holds its item');
    } finally {
      await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
    }
  });

  test('invoke_menu through a labelled menu button: the two parts GTK 4.8 names alike are one button, and the entry is chosen in its popover, which closes', async () => {
    // The case: GNOME's apps keep their menus behind header-bar menu buttons; invoke_menu followed menu bars only, and
    // ["Mode", "Basic"] was refused (the window has a menu bar without "Mode"), the agent told to click the button.
    const before = await fixtures.oracle.statusText(window.pid, window.title);
    assert.doesNotMatch(before, /last_key=menu:New /, 'nothing chose it before');
    const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['Mode', 'Basic'] });
    assert.deepEqual(chosen.structured.menu_path, ['Mode', 'Basic'], chosen.body);
    assert.equal(chosen.structured.effect, 'confirmed', chosen.body);
    // The oracle: the fixture's status label, read by pyatspi, says the entry's action ran; the popover is gone.
    assert.match(await fixtures.oracle.statusText(window.pid, window.title), /last_key=menu:New /, `was: ${before}\n${chosen.body}`);
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(!walked.some((node) => node.role === 'menu item' && node.name === 'Basic'), 'pyatspi: the popover closed');
    // The diff spans the whole path: the button's press and the popover come and gone are not in it, the status is.
    assert.match(chosen.body ?? '', /last_key=menu:New/, chosen.body);
  });

  test('a popover\'s items are placed where its surface is drawn, and a real click on one chooses it', async () => {
    // GTK 4.8 reports a popover at the place of the button it pops up from, not where its surface is: Text Editor's main
    // menu read 126 px off, and a foreground click on an item fell beside the menu and only closed it.
    const button = (await fixtures.elements(window)).find((element) => element.role === 'button' && element.name === '' && element.bounds && element.bounds.w > 20);
    assert.ok(button, 'the menu button is in the tree');
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button.index, delivery_mode: 'foreground' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.body);
    try {
      const item = (await fixtures.elements(window)).find((element) => element.role === 'menuitem' && element.name === 'About Fixture');
      assert.ok(item?.bounds, 'the popover\'s item is in the tree with a box');
      const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: item.index, delivery_mode: 'foreground' });
      assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.body);
      // The oracle: the fixture's status label, read by pyatspi, says its About action ran.
      assert.match(await fixtures.oracle.statusText(window.pid, window.title), /last_key=menu:About /, `the item was chosen: ${clicked.body}`);
    } finally {
      // The popover closed with the choice; an Escape closes it when the click missed.
      if ((await fixtures.elements(window)).some((element) => element.role === 'menuitem' && element.name === 'About Fixture' && !element.states.includes('offscreen'))) {
        await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
      }
    }
  });

  test("a drop-down opens by a background click; its options are placed on its popover's surface (an arrow taller than the popover); a background click on one only selects it and says so, a real click chooses it", async () => {
    // The case: GTK 4.8's GtkDropDown is a combo box with no action around the toggle button that opens its popover;
    // the popover (a filler named by its type) is reported at the combo box's place, and its surface is 6 px taller.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.deepEqual(walked.find((node) => node.role === 'combo box' && node.name === 'Color')?.actions, [], 'pyatspi: the drop-down offers no action');
    const status = () => fixtures.oracle.statusText(window.pid, window.title);
    assert.match(await status(), /color=Red /, 'the fixture shows Red before');
    // Its choice is the label of the button inside it, and it reads as the drop-down's value.
    const value = async () => ((await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=combobox name=Color' })).structured as { matches: Element[] }).matches.map((match) => match.value);
    assert.deepEqual(await value(), ['Red']);
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=combobox name=Color' });
    try {
      assert.deepEqual([(opened.structured as unknown as ActionResult).path, (opened.structured as unknown as ActionResult).effect], ['x11_atspi', 'confirmed'], opened.body);
      const background = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name=Blue' });
      const result = background.structured as unknown as ActionResult;
      assert.equal(result.effect, 'suspected_noop', background.body);
      assert.equal(result.escalation?.recommended, 'foreground', background.body);
      assert.match(await status(), /color=Red /, 'the fixture still shows Red: nothing was chosen');
      const chosen = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name=Blue', delivery_mode: 'foreground' });
      assert.equal((chosen.structured as unknown as ActionResult).effect, 'confirmed', chosen.body);
      // The oracle: the fixture's status label, read by pyatspi; a click placed at the reported box chose Green.
      assert.match(await status(), /color=Blue /, `the real click chose Blue: ${chosen.body}`);
      assert.deepEqual(await value(), ['Blue']);
    } finally {
      if ((await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).some((node) => node.role === 'push button' && node.states.includes('pressed'))) {
        await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
      }
    }
  });

  test('a drop-down named by nothing but its tooltip is named by it', async () => {
    // The quirk: GTK 4.8 names the drop-down by its type and puts its tooltip in its description (pyatspi).
    const onBus = await fixtures.oracle.find(window.pid, window.title, 'combo box', 'GtkDropDown');
    assert.equal(onBus.description, 'Sort the places by', 'pyatspi reads the drop-down named by its type, its tooltip its description');
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=combobox name="Sort the places by"' });
    const matches = (found.structured as { matches: Element[] }).matches;
    assert.equal(matches.length, 1, found.body);
    assert.ok(matches[0]!.bounds, 'it is on screen');
  });

  test('a combo box with an entry offers the verbs its parts do: its field, named by its label, takes set_value; its button opens the list; the box itself no click', async () => {
    // The quirk: GTK 4.8 names no action on the combo box, only on its entry (activate) and its button (click), both
    // nested in a box of their own; a click on the combo box itself lands on its entry, which opens nothing.
    const onBus = await fixtures.oracle.find(window.pid, window.title, 'combo box', 'Server:');
    assert.deepEqual(onBus.actions, [], `pyatspi: the combo box names no action: ${JSON.stringify(onBus)}`);
    const entry = await fixtures.oracle.find(window.pid, window.title, 'text', 'GtkEntry');
    assert.equal(entry.text, 'alpha.example', 'pyatspi: its entry holds the choice, with no name of its own');
    const elements = await fixtures.elements(window);
    const combo = elements.find((element) => element.role === 'combobox' && element.name === 'Server:');
    assert.ok(combo, 'the tree names the combo box by its label');
    assert.ok(!combo.actions.includes('click'), `no click is offered on the combo box: ${JSON.stringify(combo.actions)}`);
    // The field is called by the combo box's label, and takes the text: the fixture's own status says it took it.
    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=textbox name="Server:"', value: 'delta.example' });
    assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.body);
    assert.equal((await fixtures.oracle.status(window.pid, window.title)).server, 'delta.example', 'the fixture read the text set');
    // set_value on the combo box itself, which exposes no option until opened, sets its field.
    const onBox = await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: combo.index, value: 'epsilon.example' });
    assert.equal((onBox.structured as unknown as ActionResult).effect, 'confirmed', onBox.body);
    assert.equal((await fixtures.oracle.status(window.pid, window.title)).server, 'epsilon.example', 'the fixture read the text set through the combo box');
    // The button beside it offers click, and a click opens the list: pyatspi reads the popover GTK 4.8 adds to the
    // combo box for it (its choices drawn in cell views, exposed as fillers).
    const popover = () => fixtures.oracle.find(window.pid, window.title, 'filler', 'GtkTreePopover');
    assert.equal((await popover()).found, false, 'pyatspi: the list is closed');
    const parts = (await fixtures.elements(window)).filter((element) => element.role === 'button' && element.actions.includes('click'));
    const opener = parts.find((element) => element.bounds && combo.bounds && element.bounds.x > combo.bounds.x && element.bounds.x + element.bounds.w <= combo.bounds.x + combo.bounds.w + 1 && element.bounds.y >= combo.bounds.y && element.bounds.y + element.bounds.h <= combo.bounds.y + combo.bounds.h + 1);
    assert.ok(opener, 'the combo box holds a button that offers click');
    await callOk(fixtures.context, 'click', { window_id: window.id, element_index: opener.index });
    assert.equal((await popover()).found, true, 'pyatspi: the list of choices opened');
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });
  });

  test('a button named by its content keeps its name while its page is switched away', async () => {
    // The quirk: GTK 4.8 names a button whose label is a child widget by its type (pyatspi), so its content names it.
    const typed = (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'push button' && node.name === 'GtkButton');
    assert.ok(typed.length >= 2, 'pyatspi reads the stack pages\' Sort buttons named by their type');
    assert.deepEqual(await shownButtons(), ['Show details'], 'the Summary page is shown');
    const switched = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Show details"' });
    try {
      assert.equal((await drawnAt('Show details'))[0], 'Show summary', 'pyatspi: the Details page is drawn now');
      // Hidden with its page, the button read as renamed to nothing ("Sort summary" → "").
      assert.doesNotMatch(switched.body ?? '', /name: "Sort (summary|details)" → ""|name: "" → "Sort/, switched.body);
      const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=button name="Sort summary"' });
      const [left] = (found.structured as { matches: Element[] }).matches;
      assert.ok(left?.states.includes('hidden'), `the page left's button keeps its name, hidden: ${found.body}`);
    } finally {
      await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Show summary"' });
    }
  });
});

