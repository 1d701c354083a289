// Heuristic "box-drawing": rectangles drawn with line-drawing characters (or +, - and |) become panels
// or dialogs, with the text set into the top border as their title.
import type { Bounds } from '../ui-node.js';
import { tidy, type Found, type ScreenScan } from './scan.js';

export const BOX_HEURISTIC = 'box-drawing';

const TOP_LEFT = new Set([...'┌┏╔╭┍┎╒╓']);
const TOP_RIGHT = new Set([...'┐┓╗╮┑┒╕╖']);
const BOTTOM_LEFT = new Set([...'└┗╚╰┕┖╘╙']);
const BOTTOM_RIGHT = new Set([...'┘┛╝╯┙┚╛╜']);
const VERTICAL = new Set([...'│┃║├┤┠┨╟╢┣┫╠╣╞╡┝┥']);
const HORIZONTAL = new Set([...'─━═┬┴┼╤╧┯┷╪┿╥╨']);
const BOX_GLYPH = /[\u2500-\u257f]/u;
const LEFT_TEE = new Set([...'├┠╟┣╠╞┝']);
const RIGHT_TEE = new Set([...'┤┨╢┫╣╡┥']);

interface Style {
  isTopLeft(char: string): boolean;
  isTopRight(char: string): boolean;
  isBottomLeft(char: string): boolean;
  isBottomRight(char: string): boolean;
  isVertical(char: string): boolean;
  isHorizontal(char: string): boolean;
}

const unicodeStyle: Style = {
  isTopLeft: (char) => TOP_LEFT.has(char),
  isTopRight: (char) => TOP_RIGHT.has(char),
  isBottomLeft: (char) => BOTTOM_LEFT.has(char),
  isBottomRight: (char) => BOTTOM_RIGHT.has(char),
  isVertical: (char) => VERTICAL.has(char),
  isHorizontal: (char) => HORIZONTAL.has(char) || LEFT_TEE.has(char) || RIGHT_TEE.has(char),
};

const asciiStyle: Style = {
  isTopLeft: (char) => char === '+',
  isTopRight: (char) => char === '+',
  isBottomLeft: (char) => char === '+',
  isBottomRight: (char) => char === '+',
  isVertical: (char) => char === '|',
  isHorizontal: (char) => char === '-' || char === '=',
};

/** Line cells along a border row between two columns (exclusive). */
function lineCells(scan: ScreenScan, y: number, from: number, to: number, style: Style): number {
  let count = 0;
  for (let x = from + 1; x < to; x++) if (style.isHorizontal(scan.char(x, y))) count++;
  return count;
}

/** Whether a cell lies under a box drawn over another one (a dialog over a panel), so a side may be missing there. */
type Covered = (x: number, y: number) => boolean;

/** Room around a box where what it covers is hidden too: the padding and the shadow dialogs are drawn with. */
const COVER_COLUMNS = 3;
const COVER_ROWS = 2;

/**
 * The box whose top-left corner is at (x, y), if the four sides close; a side may pass under a cell that
 * `covered` says another box hides. The top border may carry a title
 * and the bottom one a status (mc's free space, a pager's position), so both are found by their corners
 * and need only be partly line.
 */
function traceBox(scan: ScreenScan, x: number, y: number, style: Style, covered: Covered = () => false): Bounds | undefined {
  // The nearest top-right corner closes the box, except one that opens a title framed with corner glyphs
  // of its own (btop's "╭─┐¹cpu┌──┐- 2000ms +┌─╮"), where the box's own corner lies further on.
  for (let right = x + 1; right < scan.grid.cols; right++) {
    if (!style.isTopRight(scan.char(right, y))) continue;
    if (style === unicodeStyle && opensTitleFrame(scan, right, y)) continue;
    return right < x + 2 ? undefined : closeBox(scan, x, y, right, style, covered);
  }
  return undefined;
}

/** A ┐ with text right after it that a ┌ further along the row closes: "┐¹cpu┌". Side by side boxes meet as "┐┌" or "┐ ┌". */
function opensTitleFrame(scan: ScreenScan, right: number, y: number): boolean {
  if (right + 1 >= scan.grid.cols) return false;
  const next = scan.char(right + 1, y);
  if (next === ' ' || next === '' || BOX_GLYPH.test(next)) return false;
  for (let x = right + 2; x < scan.grid.cols; x++) if (TOP_LEFT.has(scan.char(x, y))) return true;
  return false;
}

function closeBox(scan: ScreenScan, x: number, y: number, right: number, style: Style, covered: Covered): Bounds | undefined {
  const { rows } = scan.grid;
  let bottom = y + 1;
  while (bottom < rows && (style.isVertical(scan.char(x, bottom)) || covered(x, bottom))) bottom++;
  if (bottom >= rows || bottom < y + 2 || !style.isBottomLeft(scan.char(x, bottom)) || !style.isBottomRight(scan.char(right, bottom))) return undefined;
  for (let side = y + 1; side < bottom; side++) if (!style.isVertical(scan.char(right, side)) && !covered(right, side)) return undefined;
  const needed = Math.min(2, right - x - 1);
  if (lineCells(scan, y, x, right, style) < needed || lineCells(scan, bottom, x, right, style) < needed) return undefined;
  return { x, y, w: right - x + 1, h: bottom - y + 1 };
}

/** Runs of line drawing in a top border (corners too, which frame titles); what lies between them is title and decoration. */
const BORDER_RUN = /[─━═┤├┨┠╢╟┫┣╣╠╡╞┥┝┬┴┼╤╧┯┷╪┿╥╨┐┌╮╭]+|-{2,}|={2,}/;
/** Brackets and padding around a title: "[ Help ]", "< ~/files >", "┤ Colours ├". */
const TITLE_FRAME = /^[\s[<(=-]+|[\s\]>)=-]+$/g;
const WORDY = /[\p{L}\p{N}]/u;

/** The first piece of the top border with a letter or digit in it: "<─ ~/files ───.[^]>" is titled "~/files". */
function title(scan: ScreenScan, box: Bounds): string {
  const top = scan.slice(box.y, box.x + 1, box.x + box.w - 1).text;
  const piece = top.split(BORDER_RUN).find((part) => WORDY.test(part)) ?? '';
  return tidy(piece.replace(TITLE_FRAME, ''));
}

/** Where a column rule of a grid crosses a divider: ├───┼───┤. */
const CROSSING = new Set([...'┼┿╂╋╪╫╬']);

/**
 * Rows between two upright lines of a box (its sides, or a pane rule inside it) drawn as ├───┤: they split
 * that column of the box into sections and are part of the border. A divider crossed by column rules
 * (├───┼───┤, under a grid's header row: sqlite's `.mode box`, psql) is a rule of the table inside, which
 * reads through it, so it splits nothing.
 */
function dividers(scan: ScreenScan, box: Bounds, left: number, right: number): number[] {
  const found: number[] = [];
  for (let y = box.y + 1; y < box.y + box.h - 1; y++) {
    if (!LEFT_TEE.has(scan.char(left, y)) || !RIGHT_TEE.has(scan.char(right, y))) continue;
    // Like a top border, a divider may carry a label ("├──(#327)─┤"), but is mostly line.
    let line = 0;
    let crossed = false;
    for (let x = left + 1; x < right; x++) {
      const char = scan.char(x, y);
      if (HORIZONTAL.has(char)) line++;
      if (CROSSING.has(char)) crossed = true;
    }
    if (line * 2 > right - left - 1 && !crossed) found.push(y);
  }
  return found;
}

const RULE_TOP = new Set([...'┬┯┰╤╥┳╦']);
const RULE_BOTTOM = new Set([...'┴┷┸╧╨┻╩']);

/**
 * Upright rules from a ┬ in the top border to a ┴ in the bottom one that a divider of one side ends on (├ or ┤
 * on the rule): the box is tiled into panes side by side, each split on its own (ytree's directory tree over its
 * files, beside a column of statistics panels). A table's column rules are crossed by its dividers (┼) or by
 * none, and stay its rules.
 */
function paneRules(scan: ScreenScan, box: Bounds): number[] {
  const bottom = box.y + box.h - 1;
  const rules: number[] = [];
  for (let x = box.x + 1; x < box.x + box.w - 1; x++) {
    if (!RULE_TOP.has(scan.char(x, box.y)) || !RULE_BOTTOM.has(scan.char(x, bottom))) continue;
    let upright = true;
    let tee = false;
    for (let y = box.y + 1; y < bottom && upright; y++) {
      const char = scan.char(x, y);
      upright = VERTICAL.has(char);
      if (LEFT_TEE.has(char) || RIGHT_TEE.has(char)) tee = true;
    }
    if (upright && tee) rules.push(x);
  }
  return rules;
}

export interface DetectedBox {
  node: Found;
  /** The inside of the box, split at divider rows. */
  sections: Bounds[];
}

/**
 * Boxes whose four sides close, then boxes whose sides pass under one of those (mc's panels behind its
 * Copy dialog): the box drawn last hides part of the ones behind it, which are regions all the same.
 */
export function findBoxes(scan: ScreenScan): DetectedBox[] {
  const boxes: DetectedBox[] = [];
  collectBoxes(scan, boxes);
  if (boxes.length === 0) return boxes;
  const covers = boxes.map(({ node: { bounds } }) => ({
    left: bounds.x - COVER_COLUMNS, right: bounds.x + bounds.w - 1 + COVER_COLUMNS, top: bounds.y - COVER_ROWS, bottom: bounds.y + bounds.h - 1 + COVER_ROWS,
  }));
  const covered: Covered = (x, y) => covers.some((cover) => x >= cover.left && x <= cover.right && y >= cover.top && y <= cover.bottom);
  collectBoxes(scan, boxes, covered);
  return boxes;
}

function collectBoxes(scan: ScreenScan, boxes: DetectedBox[], covered?: Covered): void {
  const { cols, rows } = scan.grid;
  const known = new Set(boxes.map(({ node: { bounds } }) => bounds.y * cols + bounds.x));
  for (let y = 0; y < rows - 2; y++) {
    for (let x = 0; x < cols - 2; x++) {
      const char = scan.char(x, y);
      const style = TOP_LEFT.has(char) ? unicodeStyle : char === '+' ? asciiStyle : undefined;
      if (!style || known.has(y * cols + x)) continue;
      const bounds = traceBox(scan, x, y, style, covered);
      if (!bounds) continue;
      // The box's columns between its sides and pane rules, each split at its own dividers.
      const rules = paneRules(scan, bounds);
      const edges = [bounds.x, ...rules, bounds.x + bounds.w - 1];
      const columns = edges.slice(1).map((right, index) => ({ left: edges[index]!, right, splits: dividers(scan, bounds, edges[index]!, right) }));
      const sections: Bounds[] = [];
      for (const { left, right, splits } of columns) {
        let top = bounds.y + 1;
        for (const divider of [...splits, bounds.y + bounds.h - 1]) {
          if (divider > top) sections.push({ x: left + 1, y: top, w: right - left - 1, h: divider - top });
          top = divider + 1;
        }
      }
      const splits = rules.length === 0 ? columns[0]!.splits : [];
      // Untitled borders often have the title on the first row inside, set off by a divider (calcurse).
      let name = title(scan, bounds);
      const [head] = sections;
      if (!name && splits.length > 0 && head && head.h === 1 && head.y === bounds.y + 1) {
        name = tidy(scan.slice(head.y, head.x, head.x + head.w).text);
        if (name) {
          sections.shift();
          scan.claim(head);
        }
      }
      boxes.push({ node: { role: 'panel', name, bounds, heuristic: BOX_HEURISTIC }, sections });
      scan.claim({ x: bounds.x, y: bounds.y, w: bounds.w, h: 1 });
      scan.claim({ x: bounds.x, y: bounds.y + bounds.h - 1, w: bounds.w, h: 1 });
      // Sides are claimed cell by cell: where a side passes under another box, the cell is that box's.
      for (let side = bounds.y + 1; side < bounds.y + bounds.h - 1; side++) {
        for (const column of [bounds.x, bounds.x + bounds.w - 1]) {
          if (style.isVertical(scan.char(column, side))) scan.claim({ x: column, y: side, w: 1, h: 1 });
        }
      }
      for (const { left, right, splits: rows } of columns) for (const divider of rows) scan.claim({ x: left, y: divider, w: right - left + 1, h: 1 });
      for (const rule of rules) scan.claim({ x: rule, y: bounds.y, w: 1, h: bounds.h });
    }
  }
}
