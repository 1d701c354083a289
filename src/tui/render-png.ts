// The terminal screen as pixels, for people and vision models. Cells are painted onto a raw RGB buffer:
// backgrounds and box-drawing/block characters are drawn directly (so lines join across cells exactly),
// other glyphs come from a cache of masks that librsvg renders from DejaVu Sans Mono, in one batch per
// set of characters not seen before.
import sharp from 'sharp';
import type { RawImage } from '../image/raw-image.js';
import { Attr, DEFAULT_BACKGROUND, DEFAULT_FOREGROUND, resolveColor, type CellGrid, type Rgb } from './grid.js';

export const CELL_WIDTH = 9;
export const CELL_HEIGHT = 18;
const FONT_SIZE = 15;
const BASELINE = 14;
const FONT_FAMILY = 'DejaVu Sans Mono';
/** Glyph masks are two cells wide so wide characters fit. */
const MASK_WIDTH = CELL_WIDTH * 2;
const ATLAS_COLUMNS = 32;

// ---- Glyph masks ------------------------------------------------------------------------------------

const glyphs = new Map<string, Uint8Array>();

function glyphKey(char: string, bold: boolean, italic: boolean): string {
  return `${bold ? 'b' : '-'}${italic ? 'i' : '-'}${char}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Renders every missing glyph in one SVG and cuts it into per-glyph coverage masks. */
async function loadGlyphs(keys: readonly string[]): Promise<void> {
  const missing = [...new Set(keys)].filter((key) => !glyphs.has(key));
  if (missing.length === 0) return;
  const rows = Math.ceil(missing.length / ATLAS_COLUMNS);
  const width = ATLAS_COLUMNS * MASK_WIDTH;
  const height = rows * CELL_HEIGHT;
  const texts = missing.map((key, index) => {
    const x = (index % ATLAS_COLUMNS) * MASK_WIDTH;
    const y = Math.floor(index / ATLAS_COLUMNS) * CELL_HEIGHT + BASELINE;
    const weight = key[0] === 'b' ? ' font-weight="bold"' : '';
    const style = key[1] === 'i' ? ' font-style="italic"' : '';
    return `<text x="${x}" y="${y}"${weight}${style}>${escapeXml(key.slice(2))}</text>`;
  });
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="#000"/>` +
    `<g font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}" fill="#fff" xml:space="preserve">${texts.join('')}</g></svg>`;
  const atlas = await sharp(Buffer.from(svg)).removeAlpha().extractChannel(0).raw().toBuffer();
  missing.forEach((key, index) => {
    const left = (index % ATLAS_COLUMNS) * MASK_WIDTH;
    const top = Math.floor(index / ATLAS_COLUMNS) * CELL_HEIGHT;
    const mask = new Uint8Array(MASK_WIDTH * CELL_HEIGHT);
    for (let y = 0; y < CELL_HEIGHT; y++) mask.set(atlas.subarray((top + y) * width + left, (top + y) * width + left + MASK_WIDTH), y * MASK_WIDTH);
    glyphs.set(key, mask);
  });
}

// ---- Painting ---------------------------------------------------------------------------------------

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = Buffer.alloc(width * height * 3);
  }

  fill(x: number, y: number, w: number, h: number, color: Rgb, alpha = 1): void {
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(this.width, Math.ceil(x + w));
    const y1 = Math.min(this.height, Math.ceil(y + h));
    for (let py = y0; py < y1; py++) {
      for (let px = x0; px < x1; px++) this.blend(px, py, color, alpha);
    }
  }

  blend(px: number, py: number, color: Rgb, alpha: number): void {
    const offset = (py * this.width + px) * 3;
    for (let channel = 0; channel < 3; channel++) {
      const old = this.data[offset + channel]!;
      this.data[offset + channel] = Math.round(old + (color[channel]! - old) * alpha);
    }
  }

  mask(x: number, y: number, mask: Uint8Array, width: number, color: Rgb): void {
    for (let my = 0; my < CELL_HEIGHT; my++) {
      const py = y + my;
      if (py >= this.height) break;
      for (let mx = 0; mx < width; mx++) {
        const coverage = mask[my * MASK_WIDTH + mx]!;
        if (coverage === 0 || x + mx >= this.width) continue;
        this.blend(x + mx, py, color, coverage / 255);
      }
    }
  }
}

/** Line-drawing characters as [up, right, down, left] weights: 1 light, 2 heavy, 3 double. */
const BOX_LINES: Record<string, [number, number, number, number]> = {
  '─': [0, 1, 0, 1], '│': [1, 0, 1, 0], '┌': [0, 1, 1, 0], '┐': [0, 0, 1, 1], '└': [1, 1, 0, 0], '┘': [1, 0, 0, 1],
  '├': [1, 1, 1, 0], '┤': [1, 0, 1, 1], '┬': [0, 1, 1, 1], '┴': [1, 1, 0, 1], '┼': [1, 1, 1, 1],
  '╭': [0, 1, 1, 0], '╮': [0, 0, 1, 1], '╰': [1, 1, 0, 0], '╯': [1, 0, 0, 1],
  '━': [0, 2, 0, 2], '┃': [2, 0, 2, 0], '┏': [0, 2, 2, 0], '┓': [0, 0, 2, 2], '┗': [2, 2, 0, 0], '┛': [2, 0, 0, 2],
  '┣': [2, 2, 2, 0], '┫': [2, 0, 2, 2], '┳': [0, 2, 2, 2], '┻': [2, 2, 0, 2], '╋': [2, 2, 2, 2],
  '═': [0, 3, 0, 3], '║': [3, 0, 3, 0], '╔': [0, 3, 3, 0], '╗': [0, 0, 3, 3], '╚': [3, 3, 0, 0], '╝': [3, 0, 0, 3],
  '╠': [3, 3, 3, 0], '╣': [3, 0, 3, 3], '╦': [0, 3, 3, 3], '╩': [3, 3, 0, 3], '╬': [3, 3, 3, 3],
};

function drawBoxLines(canvas: Canvas, x: number, y: number, weights: [number, number, number, number], color: Rgb): void {
  const cx = x + Math.floor(CELL_WIDTH / 2);
  const cy = y + Math.floor(CELL_HEIGHT / 2);
  const [up, right, down, left] = weights;
  const vertical = (weight: number, from: number, to: number) => {
    if (weight === 3) {
      canvas.fill(cx - 2, from, 1, to - from, color);
      canvas.fill(cx + 1, from, 1, to - from, color);
    } else canvas.fill(cx - (weight === 2 ? 1 : 0), from, weight, to - from, color);
  };
  const horizontal = (weight: number, from: number, to: number) => {
    if (weight === 3) {
      canvas.fill(from, cy - 2, to - from, 1, color);
      canvas.fill(from, cy + 1, to - from, 1, color);
    } else canvas.fill(from, cy - (weight === 2 ? 1 : 0), to - from, weight, color);
  };
  // Each arm runs from the cell edge to just past the centre, so arms meet without gaps.
  if (up) vertical(up, y, cy + 2);
  if (down) vertical(down, cy - 1, y + CELL_HEIGHT);
  if (left) horizontal(left, x, cx + 2);
  if (right) horizontal(right, cx - 1, x + CELL_WIDTH);
}

/** Block elements as filled fractions of the cell, or shades. */
function drawBlock(canvas: Canvas, x: number, y: number, char: string, color: Rgb): boolean {
  const code = char.codePointAt(0)!;
  if (code === 0x2588) canvas.fill(x, y, CELL_WIDTH, CELL_HEIGHT, color);
  else if (code === 0x2580) canvas.fill(x, y, CELL_WIDTH, CELL_HEIGHT / 2, color);
  else if (code >= 0x2581 && code <= 0x2587) {
    const h = ((code - 0x2580) * CELL_HEIGHT) / 8;
    canvas.fill(x, y + CELL_HEIGHT - h, CELL_WIDTH, h, color);
  } else if (code >= 0x2589 && code <= 0x258f) {
    const w = ((0x2590 - code) * CELL_WIDTH) / 8;
    canvas.fill(x, y, w, CELL_HEIGHT, color);
  } else if (code === 0x2590) canvas.fill(x + CELL_WIDTH / 2, y, CELL_WIDTH / 2, CELL_HEIGHT, color);
  else if (code >= 0x2591 && code <= 0x2593) canvas.fill(x, y, CELL_WIDTH, CELL_HEIGHT, color, (code - 0x2590) / 4);
  else return false;
  return true;
}

function isDrawnDirectly(char: string): boolean {
  const code = char.codePointAt(0)!;
  return BOX_LINES[char] !== undefined || (code >= 0x2580 && code <= 0x2593);
}

export interface RenderedScreen extends RawImage {
  cellWidth: number;
  cellHeight: number;
}

/** Paints the grid; the cursor, when visible, is a block in inverse colours. */
export async function renderScreen(grid: CellGrid): Promise<RenderedScreen> {
  const keys: string[] = [];
  for (let index = 0; index < grid.chars.length; index++) {
    const char = grid.chars[index]!;
    if (char === '' || char === ' ' || isDrawnDirectly(char) || grid.flags[index]! & Attr.invisible) continue;
    keys.push(glyphKey(char, (grid.flags[index]! & Attr.bold) !== 0, (grid.flags[index]! & Attr.italic) !== 0));
  }
  await loadGlyphs(keys);

  const canvas = new Canvas(grid.cols * CELL_WIDTH, grid.rows * CELL_HEIGHT);
  for (let row = 0; row < grid.rows; row++) {
    for (let col = 0; col < grid.cols; col++) {
      const index = row * grid.cols + col;
      const width = grid.widths[index]!;
      if (width === 0) continue;
      const flags = grid.flags[index]!;
      const fgIndex = grid.fg[index]!;
      // Like xterm, bold text in one of the eight base colours is shown in its bright variant.
      let fg = resolveColor(flags & Attr.bold && fgIndex >= 0 && fgIndex < 8 ? fgIndex + 8 : fgIndex, DEFAULT_FOREGROUND);
      let bg = resolveColor(grid.bg[index]!, DEFAULT_BACKGROUND);
      const isCursor = grid.cursor.visible && grid.cursor.x === col && grid.cursor.y === row;
      if ((flags & Attr.inverse) !== 0 !== isCursor) [fg, bg] = [bg, fg];
      if (flags & Attr.dim) {
        const mid = (channel: 0 | 1 | 2) => Math.round((fg[channel] + bg[channel]) / 2);
        fg = [mid(0), mid(1), mid(2)];
      }
      const x = col * CELL_WIDTH;
      const y = row * CELL_HEIGHT;
      const cellsWide = Math.min(width, grid.cols - col);
      canvas.fill(x, y, CELL_WIDTH * cellsWide, CELL_HEIGHT, bg);
      const char = grid.chars[index]!;
      if (!(flags & Attr.invisible) && char !== ' ' && char !== '') {
        const lines = BOX_LINES[char];
        if (lines) drawBoxLines(canvas, x, y, lines, fg);
        else if (!drawBlock(canvas, x, y, char, fg)) {
          const mask = glyphs.get(glyphKey(char, (flags & Attr.bold) !== 0, (flags & Attr.italic) !== 0));
          if (mask) canvas.mask(x, y, mask, CELL_WIDTH * cellsWide, fg);
        }
      }
      if (flags & Attr.underline) canvas.fill(x, y + CELL_HEIGHT - 2, CELL_WIDTH * cellsWide, 1, fg);
      if (flags & Attr.strikethrough) canvas.fill(x, y + Math.floor(CELL_HEIGHT / 2), CELL_WIDTH * cellsWide, 1, fg);
    }
  }
  return { width: canvas.width, height: canvas.height, channels: 3, data: canvas.data, cellWidth: CELL_WIDTH, cellHeight: CELL_HEIGHT };
}
