// Heuristic "key-hint-bar": a row of key names each followed by what the key does, such as htop's
// "F1Help  F2Setup ... F10Quit", nano's "^G Help  ^O Write Out", or mc's " 1Help  2Menu ... 10Quit"
// (function keys by number alone, counting up), is a toolbar of buttons whose shortcut is the key to press.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const KEY_HINT_HEURISTIC = 'key-hint-bar';

const KEY = /F(?:1[0-2]|[1-9])(?![0-9])|\^[A-Z\\\]_@^/?]|M-[A-Za-z0-9]/g;
/** A function key by its number alone, at the start of a word: "1Help", "10Quit", or "6" with no label. */
const NUMBERED_KEY = /(?<!\S)(?:1[0-2]|[1-9])(?![0-9])/g;
const MIN_KEYS = 3;
const MAX_LABEL = 24;

interface KeyMatch {
  index: number;
  length: number;
  shortcut: string;
}

/** Numbered keys count up by one from left to right; anything else on the row is not such a bar. */
function numberedKeys(text: string): KeyMatch[] {
  const keys = [...text.matchAll(NUMBERED_KEY)].map((match) => ({ index: match.index, length: match[0].length, shortcut: `F${match[0]}` }));
  return keys.every((key, i) => i === 0 || Number(key.shortcut.slice(1)) === Number(keys[i - 1]!.shortcut.slice(1)) + 1) ? keys : [];
}

export function findKeyHintBars(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const bars: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    let keys: KeyMatch[] = [...text.matchAll(KEY)].map((match) => ({ index: match.index, length: match[0].length, shortcut: match[0] }));
    // A numbered bar may leave a key without a label (mc's viewer shows a bare "6").
    let numbered = false;
    if (keys.length < MIN_KEYS) {
      keys = numberedKeys(text);
      numbered = true;
    }
    if (keys.length < MIN_KEYS) continue;
    // Nothing but blanks before the first key.
    if (text.slice(0, keys[0]!.index).trim() !== '') continue;
    const buttons: Found[] = [];
    let valid = true;
    keys.forEach((key, i) => {
      const labelStart = key.index + key.length;
      const labelEnd = i + 1 < keys.length ? keys[i + 1]!.index : text.trimEnd().length;
      const label = tidy(text.slice(labelStart, labelEnd));
      if (label.length > MAX_LABEL || (label === '' && !numbered)) valid = false;
      if (label === '') return;
      const x = columnAt[key.index]!;
      const end = labelStart + text.slice(labelStart, labelEnd).trimEnd().length;
      buttons.push({ role: 'button', name: label, shortcut: key.shortcut, bounds: { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 }, heuristic: KEY_HINT_HEURISTIC });
    });
    if (!valid || buttons.length < MIN_KEYS) continue;
    const first = buttons[0]!.bounds;
    const last = buttons[buttons.length - 1]!.bounds;
    const bounds = { x: first.x, y, w: last.x + last.w - first.x, h: 1 };
    bars.push({ role: 'toolbar', name: '', bounds, heuristic: KEY_HINT_HEURISTIC, children: buttons });
    scan.claim(bounds);
  }
  return bars;
}
