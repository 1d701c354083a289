// Heuristic "bracket-button": labels in angle or square brackets, such as "< OK >", "<Cancel>" or
// "[ Save ]", on a row that holds nothing but such buttons. A highlighted button is the active one.
// Heuristic "word-button": a box's last row of a few bare words set well apart, one of them lit
// (ncdu's "yes   no   don't ask me again"), is a row of choices the same way.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const BUTTON_HEURISTIC = 'bracket-button';
export const WORD_BUTTON_HEURISTIC = 'word-button';

// Labels start with a letter or digit and stay short; "[x]" and "[ ]" are checkboxes, not buttons. A default
// button may wear both brackets ("[< OK >]", mc).
const LABEL = "([A-Za-z0-9][A-Za-z0-9 .&'!?_-]{0,24}?)";
const BUTTON = new RegExp(`\\[<\\s*${LABEL}\\s*>\\]|<\\s*${LABEL}\\s*>|\\[\\s*${LABEL}\\s*\\]`, 'g');
const CHECK_MARK = /^[xX*]$/;

function labelOf(match: RegExpMatchArray): string {
  return match[1] ?? match[2] ?? match[3] ?? '';
}

export function findButtons(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    if (!text.includes('<') && !text.includes('[')) continue;
    const matches = [...text.matchAll(BUTTON)].filter((match) => !CHECK_MARK.test(labelOf(match)));
    if (matches.length === 0) continue;
    // Everything else on the row must be blank: "<html>" inside a line of output is not a button.
    let rest = text;
    for (const match of matches) rest = rest.replace(match[0], ' '.repeat(match[0].length));
    if (rest.trim() !== '') continue;
    // A lone bracketed word outside any box is too weak a sign.
    if (!region.box && matches.length < 2) continue;
    for (const match of matches) {
      const start = match.index;
      const end = start + match[0].length;
      const x = columnAt[start]!;
      const bounds = { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 };
      let highlighted = 0;
      for (let cx = bounds.x; cx < bounds.x + bounds.w; cx++) if (scan.background(cx, y) !== region.background) highlighted++;
      const node: Found = { role: 'button', name: tidy(labelOf(match)), bounds, heuristic: BUTTON_HEURISTIC };
      if (highlighted * 2 > bounds.w) node.selected = true;
      found.push(node);
      scan.claim(bounds);
    }
  }
  const words = wordButtons(scan, regionIndex);
  for (const node of words) scan.claim(node.bounds);
  return [...found, ...words];
}

/** A phrase on a row, ending where three blanks or more (a gap between choices; words of one phrase have one) or the row's end follow. */
const CHOICE_RUN = /\S(?:.*?\S)?(?=\s{3,}|\s*$)/gu;
const MAX_CHOICES = 5;
const CHOICE = /^[\p{L}\p{N}][\p{L}\p{N} .&'!?_-]{0,23}$/u;

/**
 * A box's last row holding two to five short phrases set apart by wide gaps, exactly one of them drawn
 * lit over its whole text and the rest not, is a row of choices (ncdu's "yes   no   don't ask me again",
 * the lit one what Enter picks): buttons, the lit one selected. Without brackets, the lit one and the
 * box's last row are what tell choices from words of a text.
 */
function wordButtons(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  if (!region.box) return [];
  const { x: left, y: top, w, h } = region.rect;
  let last = -1;
  for (let y = top + h - 1; y >= top && last < 0; y--) if (scan.regionRow(regionIndex, y).text.trim() !== '') last = y;
  if (last < 0) return [];
  const { text, columnAt } = scan.regionRow(regionIndex, last);
  const runs = [...text.matchAll(CHOICE_RUN)];
  if (runs.length < 2 || runs.length > MAX_CHOICES || runs.some((run) => !CHOICE.test(run[0]))) return [];
  const nodes = runs.map((run): Found => {
    const x = columnAt[run.index]!;
    return { role: 'button', name: run[0], bounds: { x, y: last, w: scan.columnEnd(last, columnAt, run.index + run[0].length) - x, h: 1 }, heuristic: WORD_BUTTON_HEURISTIC };
  });
  const lit = nodes.map(({ bounds }) => {
    let cells = 0;
    for (let x = bounds.x; x < bounds.x + bounds.w; x++) if (scan.background(x, last) !== region.background) cells++;
    return cells;
  });
  const chosen = lit.findIndex((cells, index) => cells === nodes[index]!.bounds.w);
  if (chosen < 0 || lit.some((cells, index) => index !== chosen && cells > 0)) return [];
  // The row lies inside the box, not on its edge: nothing of it reaches past the region.
  if (nodes.some(({ bounds }) => bounds.x < left || bounds.x + bounds.w > left + w)) return [];
  nodes[chosen]!.selected = true;
  return nodes;
}
