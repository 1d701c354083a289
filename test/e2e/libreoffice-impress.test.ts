// LibreOffice Impress in the background. Objects of no item role that a container selects (the Slides pane shows its
// slides as panels of a document with Selection, and so are a slide's shapes; neither offers an action) are selected by
// a click through the container, as a person's click selects them: judged by pyatspi reading which slide the
// presentation shows (its page-number attribute) and which shape is selected. Its drop-downs are toggle buttons beside a
// combo box that never shows and alone carries the label: named by it, as pyatspi reads the relation. The sidebar's
// grip, a drawing area 4 pixels wide, is no surface to read in the screenshot.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { need } from '../helpers/agent.js';
import { corpusApp, eventually, taskRig, withApp } from '../helpers/task-apps.js';

/** LibreOffice as the corpus starts it (gtk3 plugin, a fresh home), opening Impress. */
const impress = { ...corpusApp('libreoffice-writer'), id: 'libreoffice-impress', args: () => ['--impress', '--norestore'], title: /LibreOffice Impress/ };

describe('LibreOffice Impress, in the background', () => {
  const rig = taskRig('registry');

  /** A first start asks for a template in a modal dialog: an agent closes it. */
  async function closeTemplates(pid: number): Promise<void> {
    const templates = await rig.agent.window(/^Select a Template/, { pid, timeoutMs: 20_000 });
    if (templates) await rig.agent.act('click', { window_id: templates.id, element_index: need(await rig.agent.state(templates), 'button', 'Close').index });
  }

  test('libreoffice-impress: a background click on "Slide 1" in the Slides pane shows slide 1, one on a slide\'s title selects that shape', async () => {
    await withApp(rig.desktop, impress, async ({ window }) => {
      const main = (await rig.agent.window(/LibreOffice Impress$/, { pid: window.pid, timeoutMs: 30_000 }))!;
      assert.ok(main, 'no Impress window');
      const shownPage = async () => {
        const documents = await rig.oracle.attributes(main.pid, main.title, ['document presentation']);
        return documents.map((document) => document.attributes['page-number']).join(',');
      };
      await closeTemplates(window.pid);
      const newSlide = need(await rig.agent.state(main), 'button', 'New Slide');
      await rig.agent.act('click', { window_id: main.id, element_index: newSlide.index });
      assert.equal(await eventually(shownPage, (page) => page === '2'), '2', `a new slide is shown\n${rig.agent.trace()}`);
      const first = await rig.agent.waitFor(main, 'group', 'Slide 1');
      const reply = await rig.agent.call('click', { window_id: main.id, element_index: first.index });
      assert.ok(reply.ok, reply.text);
      assert.equal(reply.structured.delivery_mode, 'background', reply.text);
      assert.equal(reply.structured.effect, 'confirmed', reply.text);
      assert.equal(await eventually(shownPage, (page) => page === '1'), '1', `slide 1 is shown\n${reply.text}\n${rig.agent.trace()}`);

      const title = await rig.agent.waitFor(main, 'group', 'PresentationTitle');
      const select = await rig.agent.call('click', { window_id: main.id, element_index: title.index });
      assert.equal(select.structured.effect, 'confirmed', select.text);
      const document = main.title.replace(/Impress$/, 'Presentation');
      const selected = await eventually(() => rig.oracle.selected(main.pid, main.title, document), (names) => names.length > 0);
      assert.deepEqual(selected.map((name) => name.trim()), ['PresentationTitle'], select.text);
    });
  });

  test('libreoffice-impress: the sidebar\'s drop-downs (a toggle button beside an unshown combo box) are named by the combo box\'s label; its 4-pixel grip is no drawn surface', async () => {
    await withApp(rig.desktop, impress, async ({ window }) => {
      const main = (await rig.agent.window(/LibreOffice Impress$/, { pid: window.pid, timeoutMs: 30_000 }))!;
      await closeTemplates(window.pid);
      const labelled = await rig.oracle.labelled(main.pid, main.title);
      assert.ok(labelled.some((object) => object.role === 'combo box' && object.labels.includes('Background:')), JSON.stringify(labelled));
      const elements = await rig.agent.state(main);
      // The label is where pyatspi places it (the compact view leaves out a label beside the control it names).
      const label = await rig.oracle.find(main.pid, main.title, 'label', 'Background:');
      assert.ok(label.extents, JSON.stringify(label));
      const [labelX, labelY, , labelHeight] = label.extents;
      const dropDown = need(elements, 'button', 'Background:');
      // The button named so is the one in the label's row, right of it.
      const middle = labelY + labelHeight / 2;
      assert.ok(dropDown.bounds!.y <= middle && middle <= dropDown.bounds!.y + dropDown.bounds!.h && dropDown.bounds!.x > labelX, JSON.stringify([label, dropDown]));

      // The sidebar deck's title has a drawing area 4 pixels wide as its grip: no surface with anything to read.
      const grips = (await rig.oracle.attributes(main.pid, main.title, ['drawing area'])).filter(({ extents: [, , w, h] }) => w > 0 && h > 0 && (w < 8 || h < 8));
      assert.ok(grips.length > 0, 'pyatspi reads the thin drawing area');
      const reading = await rig.agent.call('get_window_state', { window_id: main.id, include_screenshot: false });
      const surfaces = (reading.structured.drawn_surfaces ?? []) as { bounds: { w: number; h: number } }[];
      assert.deepEqual(surfaces.filter(({ bounds }) => bounds.w < 8 || bounds.h < 8), [], reading.text.split('\n')[0]);
    });
  });
});
