// Heuristic "key-hint-bar": a row of key names each followed by what the key does, such as htop's
// "F1Help  F2Setup ... F10Quit" or nano's "^G Help  ^O Write Out", is a toolbar of buttons whose
// shortcut is the key to press.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const KEY_HINT_HEURISTIC = 'key-hint-bar';

const KEY = /F(?:1[0-2]|[1-9])(?![0-9])|\^[A-Z\\\]_@^]|M-[A-Za-z0-9]/g;
const MIN_KEYS = 3;
const MAX_LABEL = 24;

export function findKeyHintBars(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const bars: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    const keys = [...text.matchAll(KEY)];
    if (keys.length < MIN_KEYS) continue;
    // Nothing but blanks before the first key.
    if (text.slice(0, keys[0]!.index).trim() !== '') continue;
    const buttons: Found[] = [];
    let valid = true;
    keys.forEach((key, i) => {
      const labelEnd = i + 1 < keys.length ? keys[i + 1]!.index : text.trimEnd().length;
      const label = tidy(text.slice(key.index + key[0].length, labelEnd));
      if (label === '' || label.length > MAX_LABEL) valid = false;
      const x = columnAt[key.index]!;
      const end = Math.max(key.index + key[0].length, key.index + key[0].length + text.slice(key.index + key[0].length, labelEnd).trimEnd().length);
      buttons.push({ role: 'button', name: label, shortcut: key[0], bounds: { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 }, heuristic: KEY_HINT_HEURISTIC });
    });
    if (!valid) continue;
    const first = buttons[0]!.bounds;
    const last = buttons[buttons.length - 1]!.bounds;
    const bounds = { x: first.x, y, w: last.x + last.w - first.x, h: 1 };
    bars.push({ role: 'toolbar', name: '', bounds, heuristic: KEY_HINT_HEURISTIC, children: buttons });
    scan.claim(bounds);
  }
  return bars;
}
