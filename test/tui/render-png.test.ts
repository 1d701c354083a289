import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import sharp from 'sharp';
import { encodePng } from '../../src/image/encode.js';
import { TerminalEmulator } from '../../src/tui/emulator.js';
import { CELL_HEIGHT, CELL_WIDTH, renderScreen, type RenderedScreen } from '../../src/tui/render-png.js';
import { recordedGrid, recordedScreen } from './helpers.js';

function pixel(image: RenderedScreen, x: number, y: number): [number, number, number] {
  const offset = (y * image.width + x) * 3;
  return [image.data[offset]!, image.data[offset + 1]!, image.data[offset + 2]!];
}

/** Pixels of one cell that differ from a colour: ink drawn on it. */
function ink(image: RenderedScreen, col: number, row: number, background: [number, number, number]): number {
  let count = 0;
  for (let y = row * CELL_HEIGHT; y < (row + 1) * CELL_HEIGHT; y++) {
    for (let x = col * CELL_WIDTH; x < (col + 1) * CELL_WIDTH; x++) if (pixel(image, x, y).some((value, i) => Math.abs(value - background[i]!) > 40)) count++;
  }
  return count;
}

const BLUE: [number, number, number] = [0x00, 0x00, 0xee];
const LIGHT_GREY: [number, number, number] = [0xe5, 0xe5, 0xe5];

test('the font the glyphs come from is installed (fonts-dejavu-core)', () => {
  assert.ok(existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'));
});

test('dialog --menu: colours per cell, glyphs drawn, highlight where the selection is', async () => {
  const image = await renderScreen(recordedGrid('dialog-menu'));
  assert.deepEqual([image.width, image.height], [80 * CELL_WIDTH, 24 * CELL_HEIGHT]);
  // The backdrop is palette blue, the dialog light grey.
  assert.deepEqual(pixel(image, 2 * CELL_WIDTH + 4, 2 * CELL_HEIGHT + 9), BLUE);
  assert.deepEqual(pixel(image, 40 * CELL_WIDTH + 4, 12 * CELL_HEIGHT + 9), LIGHT_GREY);
  // "Pick a fruit" starts at column 16 of row 5: its letters put dark ink on the grey.
  const screen = recordedScreen('dialog-menu');
  assert.equal(screen.lines[5]!.slice(16, 20), 'Pick');
  assert.ok(ink(image, 16, 5, LIGHT_GREY) > 10, 'P is drawn');
  assert.equal(ink(image, 40, 12, LIGHT_GREY), 0, 'an empty cell has no ink');
  // The selected item (banana, row 8) is on blue; the others on grey.
  assert.deepEqual(pixel(image, 37 * CELL_WIDTH + 1, 8 * CELL_HEIGHT + 1), BLUE);
  assert.deepEqual(pixel(image, 37 * CELL_WIDTH + 1, 7 * CELL_HEIGHT + 1), LIGHT_GREY);
  // The box line of the inner panel's left side runs through the middle of its cells.
  assert.ok(ink(image, 16, 10, LIGHT_GREY) >= CELL_HEIGHT, 'a vertical line spans the whole cell height');
});

test('htop: bright text on black, the selected row in cyan, and a PNG that decodes to the same size', async () => {
  const image = await renderScreen(recordedGrid('htop'));
  assert.deepEqual(pixel(image, 60 * CELL_WIDTH + 1, 20 * CELL_HEIGHT + 1), [0, 0, 0]);
  assert.deepEqual(pixel(image, 60 * CELL_WIDTH + 1, 8 * CELL_HEIGHT + 1), [0x00, 0xcd, 0xcd]);
  const png = await encodePng(image, 0);
  const meta = await sharp(png.data).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['png', 720, 432]);
});

test('a program that asks for the default colours is told the colours the screenshot paints', async () => {
  const replies: string[] = [];
  const emulator = new TerminalEmulator(4, 2, 0, { reply: (data) => replies.push(data), parsed() {}, bell() {}, title() {} });
  try {
    // A full block in default colours, then the foreground and background queries xterm answers.
    emulator.write('\u2588\x1b]10;?\x1b\\\x1b]11;?\x1b\\');
    await emulator.flushed();
    const image = await renderScreen(emulator.readGrid());
    const spec = (rgb: [number, number, number]) => `rgb:${rgb.map((channel) => (channel * 0x101).toString(16).padStart(4, '0')).join('/')}`;
    const painted = pixel(image, 4, 9);
    const blank = pixel(image, 3 * CELL_WIDTH + 4, CELL_HEIGHT + 9);
    assert.deepEqual(replies, [`\x1b]10;${spec(painted)}\x1b\\`, `\x1b]11;${spec(blank)}\x1b\\`]);
  } finally {
    emulator.dispose();
  }
});
