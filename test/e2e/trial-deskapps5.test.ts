// Debian desktop apps a new user tried, and what they showed wrong: Thunar's first invoke_menu through a menu it makes
// as it opens, whose new items filled the action's inline diff and hid the file list the choice showed; Xarchiver's file
// list, wider than its pane, whose cells out of view to the right read as boxless lines; LXAppearance (GTK 2), whose font
// button read by its font and not by its row's "Default font:", and whose font chooser listed every family out of view;
// Document Scanner with no scanner, whose About window, opened through its menu button, was listed as new and as changed.
// Judged by pyatspi, the X server's windows and the files on disk.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { listClientWindows } from '../../src/platform/linux/windows.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk, childIndices, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('Debian desktop apps a new user tried, judged by pyatspi and the files on disk', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;
  let home: string;

  before(async () => {
    user = await startUserDesktop('cup-deskapps5-home-');
    ({ desktop, context, home } = user);
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test("Thunar: an invoke_menu through a menu made as it opens tells its new items in one line, and the inline diff keeps the file list the choice showed; a tab switched names what its page shows", async () => {
    const folder = join(home, 'files');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    for (const name of ['a.txt', 'b.md', 'notes.txt']) writeFileSync(join(folder, name), `${name}\n`);
    const files = readdirSync(folder).sort();
    const { process, window } = await desktop.launch('thunar', [folder], 'files - Thunar', 20_000, user.env());
    try {
      await accessibleWindowState(context, window, { include_screenshot: false });
      const chosen = await callOk(context, 'invoke_menu', { window_id: window.id, path: ['View', 'List View'] });
      const result = chosen.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', chosen.body);
      // The case: pyatspi reads the View menu closed again, holding the items Thunar made as it opened, none showing,
      // and the list view's cells, one a file.
      const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
      const menu = walked.findIndex((node) => node.role === 'menu' && node.name === 'View');
      const items = childIndices(walked, menu).map((at) => walked[at]!).filter((node) => node.role !== 'separator');
      assert.ok(items.length > 10 && items.every((node) => !node.states.includes('showing')), `pyatspi: View holds ${items.length} items, none showing`);
      const cells = walked.filter((node) => node.role === 'table cell' && node.states.includes('showing')).map((node) => node.name);
      assert.ok(files.every((file) => cells.includes(file)), `pyatspi: the list shows ${JSON.stringify(files)} in ${JSON.stringify(cells)}`);
      // The inline diff: View's items in one line, every file's cell shown.
      const text = chosen.body ?? '';
      assert.match(text, /\+ \d+ items in the closed menu \[e\d+\] mi "View" \(open it to see them\)/, text);
      assert.doesNotMatch(text, /^\+ \[e\d+\] mic "Compact View"$/m, text);
      for (const file of files) assert.match(text, new RegExp(`^\\+ \\[e\\d+\\] cel "${file.replace('.', '\\.')}"`, 'm'), text);
      assert.ok(result.diff?.added.some((node) => node.role === 'cell' && node.name === 'notes.txt'), JSON.stringify(result.diff?.added));

      // Its Preferences: a tab clicked names, among the moves, controls of the page it shows (pyatspi: showing now),
      // where it named three of the page it hid.
      const opened = await callOk(context, 'invoke_menu', { window_id: window.id, path: ['Edit', 'Preferences...'] });
      const prefs = (opened.structured as unknown as ActionResult).new_windows?.find((entry) => entry.title === 'File Manager Preferences');
      assert.ok(prefs, opened.body);
      const tab = await callOk(context, 'click', { window_id: prefs.window_id, selector: 'role=tab name=Behavior' });
      const moved = (tab.structured as unknown as ActionResult).diff?.moved.notable ?? [];
      // A control may be named by the label beside it, whose words pyatspi gives with their line breaks.
      const shownNow = (await pyatspiWalk(window.pid, 'File Manager Preferences', desktop.env())).filter((node) => node.states.includes('showing')).map((node) => node.name.replace(/\s+/g, ' ').trim());
      assert.ok(moved.length > 0 && moved.every((move) => shownNow.includes(move.name)), `the moves named ${JSON.stringify(moved.map((move) => move.name))} are all showing now:\n${tab.body}`);
    } finally {
      process.kill();
    }
  });

  test("Xarchiver: a file list's cells out of its pane to the right are placed under their column headers and counted as out of view, not listed without a box; a real click on one scrolls its column in", async () => {
    const folder = join(home, 'packed');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    for (const name of ['b.md', 'notes.txt']) writeFileSync(join(folder, name), `${name}\n`);
    const archive = join(home, 'packed.tar');
    execFileSync('tar', ['cf', archive, '-C', folder, 'b.md', 'notes.txt', 'sub']);
    // Xarchiver hands an archive to one already running for the user (a socket in /tmp, whatever the display) and exits:
    // no other may run on the machine meanwhile.
    const { process, window } = await desktop.launch('xarchiver', [archive], /^packed\.tar - xarchiver/, 20_000, user.env());
    try {
      const { result, state } = await accessibleWindowState(context, window, { include_screenshot: false });
      // The case: pyatspi places the list's headers, those past the pane's right edge too, and gives the cells under
      // those headers no place (x and y of -2^31).
      const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
      const table = walked.findIndex((node) => node.role === 'table' && childIndices(walked, walked.indexOf(node)).some((at) => walked[at]!.name === 'Filename'));
      const pane = walked[table - 1]!;
      assert.equal(pane.role, 'scroll pane', 'pyatspi: the list lies in a scroll pane');
      const paneEnd = pane.extents![0] + pane.extents![2];
      const children = childIndices(walked, table).map((at) => walked[at]!);
      const headers = children.filter((node) => node.role === 'table column header');
      const outHeaders = headers.filter((node) => node.extents![0] >= paneEnd);
      assert.ok(outHeaders.length > 0, `pyatspi: some headers lie right of the pane's end at ${paneEnd}: ${JSON.stringify(headers.map((node) => [node.name, node.extents]))}`);
      const unplaced = children.filter((node) => node.role === 'table cell' && node.extents?.[0] === -2147483648);
      assert.equal(unplaced.length, outHeaders.length * 3, `pyatspi: the 3 rows' cells under those headers have no place: ${JSON.stringify(unplaced.map((node) => node.name))}`);
      // Read: they are counted with their headers as out of view to the right, and listed nowhere.
      const text = result.body ?? '';
      assert.match(text, new RegExp(`# ${outHeaders.length * 4} more items — scroll right to see`), text);
      assert.doesNotMatch(text, /cel "[^"]*" \{off\}/, text);
      // The whole reading places them under their headers, on their rows.
      const full = (await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false, detail: 'full' })).structured as unknown as { elements: Element[] };
      const header = full.elements.find((element) => element.role === 'columnheader' && element.name === outHeaders[0]!.name);
      const row = full.elements.find((element) => element.role === 'cell' && element.name === 'notes.txt' && element.bounds);
      const cells = full.elements.filter((element) => element.role === 'cell' && element.bounds?.x === header?.bounds?.x);
      assert.equal(cells.length, 3, JSON.stringify(full.elements.filter((element) => element.role === 'cell').map((element) => [element.name, element.bounds])));
      assert.ok(cells.some((cell) => cell.bounds!.y === row!.bounds!.y), JSON.stringify(cells));
      assert.ok(state.elements.every((element) => element.role !== 'cell' || element.bounds), 'every cell the compact read shows has a box');

      // A real click on one of them scrolls its column into view sideways, then lands on it: pyatspi reads the row selected
      // and the cell placed inside the pane. It had been refused as having no position, only the vertical bar tried.
      const last = outHeaders.at(-1)!.name;
      const lastColumn = full.elements.find((element) => element.role === 'columnheader' && element.name === last)!;
      const target = full.elements.find((element) => element.role === 'cell' && element.bounds?.x === lastColumn.bounds!.x && element.bounds.y === row!.bounds!.y)!;
      const clicked = await callOk(context, 'click', { window_id: window.id, element_index: target.index, delivery_mode: 'foreground' });
      assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.body);
      const after = await pyatspiWalk(window.pid, window.title, desktop.env());
      const afterTable = after.findIndex((node) => node.role === 'table' && childIndices(after, after.indexOf(node)).some((at) => after[at]!.name === 'Filename'));
      const afterCells = childIndices(after, afterTable).map((at) => after[at]!).filter((node) => node.role === 'table cell');
      const selected = afterCells.filter((node) => node.states.includes('selected')).map((node) => node.name);
      // The row's name cell holds its name in a child: the row is told by its Size cell, each file's size its own.
      assert.ok(selected.includes(String('notes.txt\n'.length)) && !selected.includes(String('b.md\n'.length)), `pyatspi: the notes.txt row is selected: ${JSON.stringify(selected)}`);
      const shownNow = afterCells.filter((node) => node.name === target.name && node.extents![0] >= pane.extents![0] && node.extents![0] + node.extents![2] <= paneEnd);
      assert.equal(shownNow.length, 3, `pyatspi: the column ${last} is in the pane now: ${JSON.stringify(afterCells.map((node) => [node.name, node.extents]))}`);
    } finally {
      process.kill();
    }
  });

  test('LXAppearance (GTK 2): the font button is named by its row and shows its font as its value; the chooser counts the families out of view; the font chosen and applied is written', async () => {
    const { process, window } = await desktop.launch('lxappearance', [], 'Customize Look and Feel', 20_000, user.env());
    try {
      // The case: pyatspi reads an unnamed push button holding two labels, the font's family and size, right of the
      // label "Default font:".
      const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
      const button = walked.findIndex((node) => node.role === 'push button' && node.name === '' && childIndices(walked, walked.indexOf(node)).length === 2 && childIndices(walked, walked.indexOf(node)).every((at) => walked[at]!.role === 'label'));
      assert.ok(button >= 0, 'pyatspi: an unnamed button holding two labels');
      const font = childIndices(walked, button).map((at) => walked[at]!.name).join(' ');
      const label = walked.find((node) => node.role === 'label' && node.name === 'Default font:');
      assert.ok(label && label.extents![0] + label.extents![2] <= walked[button]!.extents![0], 'pyatspi: "Default font:" stands left of it');
      const fontButton = async () => ((await callOk(context, 'find_elements', { window_id: window.id, selector: 'role=button name="Default font:"' })).structured as { matches: Element[] }).matches;
      assert.deepEqual((await fontButton()).map((match) => match.value), [font]);

      // Its click opens the chooser; each list counts the rows out of its view instead of listing them with no box.
      const opened = await callOk(context, 'click', { window_id: window.id, selector: 'role=button name="Default font:"' });
      const chooser = (opened.structured as unknown as ActionResult).new_windows?.find((entry) => entry.title === 'Pick a Font');
      assert.ok(chooser, opened.body);
      const chooserWindow = { ...window, id: chooser.window_id, title: chooser.title };
      const { result } = await accessibleWindowState(context, chooserWindow, { include_screenshot: false });
      const text = result.body ?? '';
      const inChooser = await pyatspiWalk(window.pid, 'Pick a Font', desktop.env());
      const families = inChooser.findIndex((node) => node.role === 'table' && childIndices(inChooser, inChooser.indexOf(node)).some((at) => inChooser[at]!.name === 'Family'));
      const familyCells = childIndices(inChooser, families).map((at) => inChooser[at]!).filter((node) => node.role === 'table cell');
      const unplaced = familyCells.filter((node) => node.extents?.[0] === -2147483648 && !node.states.includes('showing'));
      assert.ok(unplaced.length > 0, 'pyatspi: GTK 2 gives the families out of view no place');
      assert.doesNotMatch(text, /cel "[^"]*" \{/, `no cell without a box:\n${text}`);
      const familyText = text.slice(text.indexOf('grd "Family:"'), text.indexOf('grd "Style:"'));
      const shown = familyText.match(/ cel "/g)?.length ?? 0;
      const counted = Number(familyText.match(/# (\d+) more items — scroll (?:up|down|up\/down) to see/)?.[1]);
      assert.equal(shown + counted, familyCells.length, familyText);

      // A size chosen, OK and Apply: the button shows it, and LXAppearance writes it to GTK 2's and GTK 3's settings.
      await callOk(context, 'click', { window_id: chooser.window_id, selector: 'role=cell name="12"' });
      await callOk(context, 'click', { window_id: chooser.window_id, selector: 'role=button name=OK' });
      const family = font.replace(/ \d+$/, '');
      assert.deepEqual((await fontButton()).map((match) => match.value), [`${family} 12`]);
      await callOk(context, 'click', { window_id: window.id, selector: 'role=button name=Apply' });
      const settings = readFileSync(join(home, '.gtkrc-2.0'), 'utf8');
      assert.match(settings, new RegExp(`^gtk-font-name="${family} 12"$`, 'm'), settings);
    } finally {
      process.kill();
    }
  });

  test("Document Scanner with no scanner: its empty state reads as pyatspi has it, and the About window its menu button's menu opens is new, not also an other window changed", async () => {
    const { process, window } = await desktop.launch('simple-scan', [], 'Document Scanner', 30_000, user.env());
    try {
      // The empty state: pyatspi reads the hint and a Scan button that cannot be pressed.
      const hint = 'Please check your scanner is connected and powered on.';
      await callOk(context, 'wait_for', { window_id: window.id, selector: `role=text name="${hint}"`, timeout_ms: 20_000 });
      const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
      assert.ok(walked.some((node) => node.role === 'label' && node.name === hint), 'pyatspi: the hint');
      const scan = walked.find((node) => node.role === 'push button' && node.name === 'Scan');
      assert.ok(scan && !scan.states.includes('sensitive'), 'pyatspi: Scan cannot be pressed');
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      assert.ok(state.elements.some((element) => element.role === 'button' && element.name === 'Scan' && element.states?.includes('disabled')), JSON.stringify(state.elements));

      // Two buttons are named "Menu" (the scan type's and the app's): the path's second name picks the app's.
      const chosen = await callOk(context, 'invoke_menu', { window_id: window.id, path: ['Menu', 'About Document Scanner'] });
      const result = chosen.structured as unknown as ActionResult;
      const x = await desktop.x11();
      const about = (await listClientWindows(x)).find((each) => each.pid === window.pid && each.title === 'About Document Scanner');
      assert.ok(about, 'the X server maps the About window');
      assert.deepEqual((result.new_windows ?? []).map((entry) => entry.window_id), [about.id], chosen.body);
      assert.deepEqual(result.other_windows_changed ?? [], [], chosen.body);
      assert.doesNotMatch(chosen.body ?? '', /other windows changed/, chosen.body);
    } finally {
      process.kill();
    }
  });
});
