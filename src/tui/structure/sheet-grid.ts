// Heuristic "sheet-grid": a spreadsheet's grid (sc), drawn as a highlighted strip of column letters counting
// A, B, C across its top and a highlighted strip of row numbers counting 0, 1, 2 down its left, with the
// cells between. It is a table: the letters are its column headers, each number its row's header, and the
// cell in the one column and row whose labels are left unhighlighted, drawn highlighted itself, is the
// current cell: selected, and where the keys act.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const SHEET_HEURISTIC = 'sheet-grid';

/** A sheet shows at least this many columns and rows. */
const MIN_COLUMNS = 2;
const MIN_ROWS = 3;

interface Token { text: string; from: number; to: number; lit: boolean }

/** Column letters as numbers: A is 0, Z 25, AA 26. */
function letterIndex(label: string): number {
  let value = 0;
  for (const char of label) value = value * 26 + (char.charCodeAt(0) - 64);
  return value - 1;
}

/** Runs of non-blank cells of row y in [from, to), each with whether most of it is highlighted. */
function tokens(scan: ScreenScan, regionIndex: number, y: number, from: number, to: number): Token[] {
  const background = scan.regions[regionIndex]!.background;
  const found: Token[] = [];
  let start = -1;
  for (let x = from; x <= to; x++) {
    const char = x < to ? scan.char(x, y) : ' ';
    const inked = char !== '' && char !== ' ';
    if (inked && start < 0) start = x;
    if (inked || start < 0) continue;
    let lit = 0;
    let text = '';
    for (let c = start; c < x; c++) {
      text += scan.char(c, y);
      if (scan.background(c, y) !== background) lit++;
    }
    found.push({ text, from: start, to: x, lit: lit * 2 > x - start });
    start = -1;
  }
  return found;
}

/** The one token of a run of labels left unhighlighted among highlighted ones: the current column's or row's. */
function unlitOne<T extends { lit: boolean }>(labels: readonly T[]): T | undefined | null {
  const unlit = labels.filter((label) => !label.lit);
  if (unlit.length > 1) return null;
  return unlit[0];
}

export function findSheetGrids(scan: ScreenScan, regionIndex: number): Found[] {
  const { rect } = scan.regions[regionIndex]!;
  const right = rect.x + rect.w;
  for (let y = rect.y; y < rect.y + rect.h - MIN_ROWS; y++) {
    const head = tokens(scan, regionIndex, y, rect.x, right);
    if (head.length < MIN_COLUMNS || !head.every((token) => /^[A-Z]{1,3}$/.test(token.text))) continue;
    if (!head.every((token, index) => index === 0 || letterIndex(token.text) === letterIndex(head[index - 1]!.text) + 1)) continue;
    const currentColumn = unlitOne(head);
    if (currentColumn === null) continue;
    // The row numbers: one number a row at the left, before the first column letter, counting up by one.
    const gutterEnd = head[0]!.from;
    const rows: { y: number; label: Token }[] = [];
    for (let row = y + 1; row < rect.y + rect.h; row++) {
      const [label, ...rest] = tokens(scan, regionIndex, row, rect.x, gutterEnd);
      if (!label || rest.length || !/^\d+$/.test(label.text)) break;
      if (rows.length && Number(label.text) !== Number(rows[rows.length - 1]!.label.text) + 1) break;
      rows.push({ y: row, label });
    }
    if (rows.length < MIN_ROWS) continue;
    const currentRow = unlitOne(rows.map((row) => ({ ...row, lit: row.label.lit })));
    if (currentRow === null) continue;
    // Each letter stands over the middle of its column: columns meet half way between two letters.
    const centre = (token: Token) => (token.from + token.to - 1) / 2;
    const edges = head.map((token, index) => (index === 0 ? gutterEnd : Math.floor((centre(head[index - 1]!) + centre(token)) / 2) + 1));
    const last = head[head.length - 1]!;
    const lastEnd = Math.min(right, edges[edges.length - 1]! + (head.length > 1 ? edges[edges.length - 1]! - edges[edges.length - 2]! : last.to - gutterEnd));
    const spans = edges.map((from, index) => ({ from, to: index + 1 < edges.length ? edges[index + 1]! : lastEnd }));
    const cellText = (row: number, from: number, to: number) => tidy(scan.slice(row, from, to).text);
    const headerRow: Found = {
      role: 'headerrow',
      name: head.map((token) => token.text).join(' '),
      bounds: { x: rect.x, y, w: lastEnd - rect.x, h: 1 },
      heuristic: SHEET_HEURISTIC,
      children: head.map((token, index) => ({ role: 'columnheader', name: token.text, bounds: { x: spans[index]!.from, y, w: spans[index]!.to - spans[index]!.from, h: 1 }, heuristic: SHEET_HEURISTIC })),
    };
    const background = scan.regions[regionIndex]!.background;
    const bodyRows: Found[] = rows.map(({ y: row, label }) => {
      const cells: Found[] = spans.map(({ from, to }, index) => {
        const cell: Found = { role: 'cell', name: cellText(row, from, to), bounds: { x: from, y: row, w: to - from, h: 1 }, heuristic: SHEET_HEURISTIC };
        // The current cell is drawn highlighted where its column's and its row's labels are not.
        if (currentRow?.y === row && currentColumn === head[index] && scan.background(to - 1, row) !== background) cell.selected = true;
        return cell;
      });
      const rowHeader: Found = { role: 'rowheader', name: label.text, bounds: { x: rect.x, y: row, w: gutterEnd - rect.x, h: 1 }, heuristic: SHEET_HEURISTIC };
      return { role: 'row', name: label.text, bounds: { x: rect.x, y: row, w: lastEnd - rect.x, h: 1 }, heuristic: SHEET_HEURISTIC, children: [rowHeader, ...cells] };
    });
    const bounds = { x: rect.x, y, w: lastEnd - rect.x, h: rows[rows.length - 1]!.y - y + 1 };
    scan.claim({ x: rect.x, y, w: rect.w, h: bounds.h });
    return [{ role: 'table', name: '', bounds, heuristic: SHEET_HEURISTIC, children: [headerRow, ...bodyRows] }];
  }
  return [];
}
