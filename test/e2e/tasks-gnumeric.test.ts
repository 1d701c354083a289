// Office tasks a new user did in Gnumeric through the tool registry, judged by the workbook the app saved on disk.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { eventually } from '../helpers/task-apps.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk } from '../helpers/tools.js';
import { resultText } from '../../src/tools/call-result.js';
import { runTool } from '../../src/tools/run.js';

describe('office tasks in Gnumeric, judged by the saved workbook', () => {
  let user: UserDesktop;

  before(async () => {
    user = await startUserDesktop('cup-gnumeric-home-');
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test('Format Cells: the Style: drop-down a foreground click opens for the first time is read (its items, the button keeping its label), Bold is chosen by selector, and the saved file holds the bold cells', async () => {
    const { desktop, context, home } = user;
    const input = join(home, 'numbers.csv');
    writeFileSync(input, '3\n5\n9\n');
    const { process, window } = await desktop.launch('gnumeric', [input], /^numbers\.csv/, 30_000, user.env());
    try {
      await accessibleWindowState(context, window, { include_screenshot: false });
      const at = { pid: window.pid };
      // Select A1:A3 through the name box (the sheet's grid has no accessible cells), then Format > Cells > Format...
      await callOk(context, 'run_actions', {
        ...at,
        window_id: window.id,
        steps: [
          { tool: 'set_value', arguments: { selector: 'role=textbox value=A1', value: 'A1:A3' } },
          { tool: 'press_key', arguments: { selector: 'role=textbox value="A1:A3"', key: 'return' } },
        ],
      });
      const menu = await callOk(context, 'invoke_menu', { ...at, window_id: window.id, path: ['Format', 'Cells', 'Format...'] });
      const dialogId = ((menu.structured as unknown as ActionResult).new_windows ?? []).find((opened) => opened.title === 'Format Cells')?.window_id;
      assert.ok(dialogId, `Format Cells opened: ${resultText(menu)}`);
      await callOk(context, 'click', { ...at, window_id: dialogId, selector: 'role=tab name=Font' });
      // Gnumeric's Style: is a button that pops up a GTK3 menu it lists among no object's children; the first time it
      // opens, GTK3 announces only the item under the pointer focused (SELECTED, never FOCUSED). The click had read
      // "no effect seen" with the menu on screen, and no reading found its items.
      const opened = await callOk(context, 'click', { ...at, window_id: dialogId, selector: 'role=button name="Style:"', delivery_mode: 'foreground' });
      const result = opened.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', `the menu opened is the click's effect: ${resultText(opened)}`);
      const items = await callOk(context, 'find_elements', { ...at, window_id: dialogId, selector: 'role=menuitem name="Bold Italic"' });
      assert.equal((items.structured.matches as unknown[]).length, 1, `the open menu's items are read: ${resultText(items)}`);
      // The menu is read under the button that opened it; the button still draws its label's value, and is named by it.
      const button = await callOk(context, 'find_elements', { ...at, window_id: dialogId, selector: 'role=button name="Style:"' });
      assert.deepEqual((button.structured.matches as { value?: string }[]).map((match) => match.value), ['Regular'], resultText(button));
      await callOk(context, 'click', { ...at, window_id: dialogId, selector: 'role=menuitem name=Bold' });
      await callOk(context, 'click', { ...at, window_id: dialogId, selector: 'role=button name=OK' });

      // Saved as uncompressed Gnumeric XML through Save As, a path typed as its name.
      const saved = join(home, 'bold.xml');
      const plan = await runTool(
        'run_actions',
        {
          ...at,
          window_id: window.id,
          steps: [
            { tool: 'hotkey', arguments: { keys: ['ctrl', 'shift', 's'] } },
            { tool: 'wait_for', arguments: { window_title: 'Save the current workbook', timeout_ms: 10_000 } },
            { tool: 'set_value', arguments: { window_id: { from_step: 1 }, selector: 'role=combobox name="File type:"', value: 'Gnumeric XML uncompressed (*.xml)' } },
            { tool: 'set_value', arguments: { window_id: { from_step: 1 }, selector: 'role=textbox name=Name:', value: saved } },
            { tool: 'click', arguments: { window_id: { from_step: 1 }, selector: 'role=button name=Save' } },
          ],
        },
        context,
      );
      assert.ok(plan.ok, resultText(plan));
      const xml = await eventually(
        async () => {
          try {
            return readFileSync(saved, 'utf8');
          } catch {
            return '';
          }
        },
        (text) => text.includes('</gnm:Workbook>'),
        20_000,
      );
      // The file's own style regions (not Gnumeric's word): A1:A3 (columns 0, rows 0-2) in a bold font.
      const boldRegions = [...xml.matchAll(/<gnm:StyleRegion startCol="(\d+)" startRow="(\d+)" endCol="(\d+)" endRow="(\d+)">[\s\S]*?<\/gnm:StyleRegion>/g)]
        .filter((region) => /<gnm:Font [^>]*Bold="1"/.test(region[0]))
        .map((region) => region.slice(1).join(','));
      assert.deepEqual(boldRegions, ['0,0,0,2'], `bold style regions in ${saved}`);
    } finally {
      process.kill('SIGKILL');
    }
  });
});
