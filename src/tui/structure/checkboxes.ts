// Heuristic "checkbox-mark": "[x] label" and "[ ] label" are checkboxes, "(*) label" and "( ) label"
// radio buttons; a mark other than a space means checked.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const CHECKBOX_HEURISTIC = 'checkbox-mark';

const MARK = /^(?:\[([ xX*✓✔])\]|\(([ *•xXo])\))\s+(\S.*)$/u;

export interface Mark {
  role: 'checkbox' | 'radio';
  checked: boolean;
  label: string;
}

/** The mark at the start of a piece of text, if there is one. */
export function readMark(text: string): Mark | undefined {
  const match = MARK.exec(text.trim());
  if (!match) return undefined;
  const mark = match[1] ?? match[2]!;
  return { role: match[1] !== undefined ? 'checkbox' : 'radio', checked: mark !== ' ', label: tidy(match[3]!) };
}

/** Runs of text separated by three or more spaces, as [start, end) offsets. */
export function segments(text: string): [number, number][] {
  const runs: [number, number][] = [];
  const pattern = /\S+(?: {1,2}\S+)*/g;
  for (const match of text.matchAll(pattern)) runs.push([match.index, match.index + match[0].length]);
  return runs;
}

interface Candidate {
  node: Found;
  /** The run of text after the checkbox's own on its row, if it is not another mark: a second column. */
  next?: { text: string; x: number; end: number };
}

/** Whether the cells from a checkbox's label to `end` sit on one strip of a background other than the region's. */
function onStrip(scan: ScreenScan, node: Found, end: number, regionBackground: number): boolean {
  const { x, y } = node.bounds;
  const strip = scan.background(x + MARK_CELLS + 1, y);
  if (strip === regionBackground) return false;
  for (let cx = x + MARK_CELLS + 1; cx < end; cx++) if (scan.background(cx, y) !== strip) return false;
  return true;
}

/**
 * Checkboxes stacked in a column whose rows go on with a second column on the same strip of colour, as
 * a list draws its items (whiptail's tag and description), are named by both, whatever the width of the
 * tag: "mail  Mail server" was one run and "ssh   Secure shell server" two, so one item read "mail Mail
 * server" and the next "ssh". The second column starts where most of those rows continue, and every
 * other row's label must reach over that column. On the region's own background a second column is
 * something else (a form's next field) and stays apart.
 */
function joinSecondColumn(scan: ScreenScan, column: Candidate[], regionBackground: number): void {
  const starts = new Map<number, number>();
  for (const { next } of column) if (next) starts.set(next.x, (starts.get(next.x) ?? 0) + 1);
  let start = -1;
  let count = 0;
  for (const [x, seen] of starts) if (seen > count) [start, count] = [x, seen];
  if (start < 0) return;
  const reaches = ({ node, next }: Candidate) => next?.x === start || node.bounds.x + node.bounds.w > start;
  if (!column.every(reaches)) return;
  if (!column.every(({ node, next }) => onStrip(scan, node, next?.x === start ? next.end : node.bounds.x + node.bounds.w, regionBackground))) return;
  for (const { node, next } of column) {
    if (next?.x !== start) continue;
    node.name = `${node.name} ${next.text}`;
    node.bounds = { ...node.bounds, w: next.end - node.bounds.x };
    scan.claim(node.bounds);
  }
}

/**
 * The checkbox the keys act on, where a program marks it by its mark alone: the mark (or part of it) on
 * another background than its label (whiptail's red cell in "[*]", lynx's reverse "[ ]"). Only when one
 * checkbox of the region is drawn so: a program that colours every mark says nothing about any one.
 */
function markCurrent(scan: ScreenScan, candidates: Candidate[]): void {
  const current = candidates.filter(({ node: { bounds } }) => {
    const label = scan.background(bounds.x + MARK_CELLS + 1, bounds.y);
    for (let x = bounds.x; x < bounds.x + MARK_CELLS; x++) if (scan.background(x, bounds.y) !== label) return true;
    return false;
  });
  if (current.length === 1) current[0]!.node.selected = true;
}

/** "[x]" and "(*)" take three cells. */
const MARK_CELLS = 3;

export function findCheckboxes(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const candidates: Candidate[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    if (!text.includes('[') && !text.includes('(')) continue;
    const runs = segments(text);
    runs.forEach(([start, end], index) => {
      const mark = readMark(text.slice(start, end));
      if (!mark) return;
      const x = columnAt[start]!;
      const bounds = { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 };
      const candidate: Candidate = { node: { role: mark.role, name: mark.label, checked: mark.checked, bounds, heuristic: CHECKBOX_HEURISTIC } };
      const following = runs[index + 1];
      if (following && !readMark(text.slice(...following))) {
        candidate.next = { text: tidy(text.slice(...following)), x: columnAt[following[0]]!, end: scan.columnEnd(y, columnAt, following[1]) };
      }
      candidates.push(candidate);
      scan.claim(bounds);
    });
  }
  const columns = new Map<number, Candidate[]>();
  for (const candidate of candidates) columns.set(candidate.node.bounds.x, [...(columns.get(candidate.node.bounds.x) ?? []), candidate]);
  for (const column of columns.values()) if (column.length > 1) joinSecondColumn(scan, column, region.background);
  markCurrent(scan, candidates);
  return candidates.map((candidate) => candidate.node);
}
