// Heuristic "bracket-button": labels in angle or square brackets, such as "< OK >", "<Cancel>" or
// "[ Save ]", on a row that holds nothing but such buttons. A highlighted button is the active one.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const BUTTON_HEURISTIC = 'bracket-button';

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
  return found;
}
