import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import { TestDesktop } from '../helpers/desktop.js';
import { callOk, testContext } from '../helpers/tools.js';

// xcalc (Xaw) has no accessibility and takes X events another client sends: the x11_pixel rung. Each
// press of a key appends its digit, so the display tells one click from a double click.
describe('synthetic pointer input to an Xaw app (xcalc)', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  // Window-local pixels of xcalc's "7" key (its layout is fixed).
  const seven = { x: 68, y: 305 };

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
  });

  after(async () => {
    context?.desktop.close();
    await desktop?.stop();
  });

  /** A fresh xcalc (display "0"), what the input does to its display (its pixels, read from the X server), and the tool's result. */
  async function displayAfter(tool: string | undefined, args: Record<string, unknown>) {
    const { process, window } = await desktop.launch('xcalc', [], 'Calculator');
    try {
      // No tool: the display of a fresh xcalc, for comparison.
      const result = tool ? await callOk(context, tool, { window_id: window.id, ...args }) : { summary: '', structured: {} as Record<string, unknown> };
      const x = await desktop.x11();
      const capture = async () => createHash('sha256').update((await x.getImage(window.id, 0, 0, window.bounds.width, 60)).data).digest('hex');
      // A fresh xcalc is read once it has drawn its display: read at once, on a loaded machine (CI at load 10), it
      // differed from the display a right click, which xcalc ignores, left.
      let display = await capture();
      for (let tries = 0; !tool && tries < 40; tries++) {
        await sleep(50);
        const again = await capture();
        if (again === display) break;
        display = again;
      }
      return { result, display };
    } finally {
      process.kill('SIGKILL');
      await new Promise((resolve) => process.once('exit', resolve));
    }
  }

  test('a background double click is two clicks: the display shows "77", as typing 77 does, not "7"', async () => {
    const double = await displayAfter('double_click', seven);
    assert.equal(double.result.structured.path, 'x11_pixel');
    assert.equal(double.result.structured.effect, 'confirmed');
    const typed = await displayAfter('type_text', { text: '77' });
    assert.equal(typed.result.structured.effect, 'confirmed');
    const single = await displayAfter('click', seven);
    assert.equal(single.result.structured.effect, 'confirmed');
    assert.equal(double.display, typed.display, 'the double click entered 77');
    assert.notEqual(double.display, single.display, 'a single click enters only 7');
  });

  test('a real right click on a key, which xcalc ignores, is not confirmed by the key\'s hover highlight; a real left click is', async () => {
    const ignored = await displayAfter('right_click', { ...seven, delivery_mode: 'foreground' });
    const fresh = await displayAfter(undefined, {});
    assert.equal(ignored.display, fresh.display, 'the right click left the display as a fresh xcalc shows it');
    assert.equal(ignored.result.structured.path, 'x11_pixel_fg');
    assert.notEqual(ignored.result.structured.effect, 'confirmed', ignored.result.summary);
    const clicked = await displayAfter('click', { ...seven, delivery_mode: 'foreground' });
    assert.equal(clicked.result.structured.effect, 'confirmed', clicked.result.summary);
    assert.notEqual(clicked.display, fresh.display, 'the left click entered 7: the X server\'s pixels of the display differ');
  });
});
