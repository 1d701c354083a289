// Heuristic "key-hint-bar": a row of key names each followed by what the key does, such as htop's
// "F1Help  F2Setup ... F10Quit", nano's "^G Help  ^O Write Out", or mc's " 1Help  2Menu ... 10Quit"
// (function keys by number alone, counting up), is a toolbar of buttons whose shortcut is the key to press.
// Hint rows that name a key, a space (or ": ") and the label, with hints apart by two blanks or more, are
// bars too: calcurse's "? Help  q Quit  TAB Chg Win" and aptitude's "C-T: Menu  ?: Help  q: Quit"; so are
// rows of key:label hints (newsboat's and mutt's "q:Quit ENTER:Open n:Next Unread").
import { tidy, type Found, type ScreenScan } from './scan.js';

export const KEY_HINT_HEURISTIC = 'key-hint-bar';

const KEY = /F(?:1[0-2]|[1-9])(?![0-9])|\^[A-Z\\\]_@^/?]|M-[A-Za-z0-9]/g;
/** A function key by its number alone: "1Help", "10Quit", or "6" with no label. */
const NUMBERED_KEY = /(?:1[0-2]|[1-9])(?![0-9])/g;
const MIN_KEYS = 3;
const MAX_LABEL = 24;
/** A spaced hint's key already has its own shape, so its label may say more (aptitude's "g: Preview/Download/Install/Remove Pkgs"). */
const MAX_SPACED_LABEL = 40;

interface KeyMatch {
  index: number;
  length: number;
  shortcut: string;
}

/**
 * Numbered keys count up from left to right. By one, the numbers alone make the bar (mc); with gaps
 * ("1Help  2Sort  10Quit") the labels must also be drawn in another colour than their numbers, as bars
 * that skip keys do, so a sentence with counts in it is not read as one.
 */
function numberedKeys(scan: ScreenScan, y: number, text: string, columnAt: readonly number[]): KeyMatch[] {
  const number = (key: KeyMatch) => Number(key.shortcut.slice(1));
  const background = (index: number) => scan.background(columnAt[index]!, y);
  const keys: KeyMatch[] = [];
  for (const match of text.matchAll(NUMBERED_KEY)) {
    const key = { index: match.index, length: match[0].length, shortcut: `F${match[0]}` };
    if (match.index > 0 && text[match.index - 1] !== ' ') {
      // A number glued to the label before it starts the next key only when it is the next number and drawn
      // as the first key's number is, unlike that label: mc on a narrow screen runs "9Pu~Dn10Quit" together,
      // and F10 was read as part of F9's label, so "Quit" named the PullDn key.
      const previous = keys[keys.length - 1];
      if (!previous || number(key) !== number(previous) + 1) continue;
      if (background(match.index) === background(match.index - 1) || background(match.index) !== background(keys[0]!.index)) continue;
    }
    keys.push(key);
  }
  if (keys.every((key, i) => i === 0 || number(key) === number(keys[i - 1]!) + 1)) return keys;
  const rising = keys.every((key, i) => i === 0 || number(key) > number(keys[i - 1]!));
  const labelStands = (key: KeyMatch) => {
    const labelAt = key.index + key.length;
    if (labelAt >= columnAt.length || text[labelAt] === ' ') return false;
    return scan.background(columnAt[labelAt]!, y) !== scan.background(columnAt[key.index]!, y);
  };
  return rising && keys.every(labelStands) ? keys : [];
}

/** A key as hint rows spell it before a label: one visible character, ^X, C-X, M-x, Fn or a capitalised name. */
const SPACED_HINT = /^(\S|\^[A-Z\\\]_@^/?]|[CM]-[A-Za-z0-9]|F(?:1[0-2]|[1-9])|TAB|ESC|ENTER|RET|SPC|SPACE|DEL):? (\S.*)$/;
/** Hints are apart by two blanks or more. */
const HINT_SEPARATOR = /\S+(?: \S+)*/g;

function spacedKeys(text: string): (KeyMatch & { label: string; labelAt: number })[] {
  const hints = [];
  for (const segment of text.matchAll(HINT_SEPARATOR)) {
    const hint = SPACED_HINT.exec(segment[0]);
    if (!hint) return [];
    const key = hint[1]!;
    hints.push({ index: segment.index, length: key.length, shortcut: key, label: hint[2]!, labelAt: segment.index + segment[0].length - hint[2]!.length });
  }
  return hints;
}

/** The bar of a row's hint buttons, from the first to the last. */
function toolbarOf(buttons: Found[], y: number): Found {
  const first = buttons[0]!.bounds;
  const last = buttons[buttons.length - 1]!.bounds;
  return { role: 'toolbar', name: '', bounds: { x: first.x, y, w: last.x + last.w - first.x, h: 1 }, heuristic: KEY_HINT_HEURISTIC, children: buttons };
}

function spacedBar(scan: ScreenScan, y: number, text: string, columnAt: readonly number[]): Found | undefined {
  const hints = spacedKeys(text);
  if (hints.length < MIN_KEYS || hints.some((hint) => hint.label.length > MAX_SPACED_LABEL)) return undefined;
  const buttons: Found[] = hints.map((hint) => {
    const x = columnAt[hint.index]!;
    return { role: 'button', name: hint.label, shortcut: hint.shortcut, bounds: { x, y, w: scan.columnEnd(y, columnAt, hint.labelAt + hint.label.length) - x, h: 1 }, heuristic: KEY_HINT_HEURISTIC };
  });
  return toolbarOf(buttons, y);
}

/**
 * Hints written key, colon, label with no blank between (newsboat's and mutt's "q:Quit ENTER:Open n:Next
 * Unread"): a key as SPACED_HINT spells it, after a blank or the row's start, followed by a colon and a
 * word. Hints may be one blank apart and labels may hold blanks, so each hint runs up to the next key.
 */
const COLON_KEY = /(?<!\S)(<[A-Za-z]\w*>|ENTER|TAB|ESC|RET|SPC|SPACE|DEL|\^[A-Z\\\]_@^/?]|[CM]-[A-Za-z0-9]|F(?:1[0-2]|[1-9])|[^\s:]):(?=[^\s:])/g;

function colonBar(scan: ScreenScan, y: number, text: string, columnAt: readonly number[]): Found | undefined {
  const keys = [...text.matchAll(COLON_KEY)];
  if (keys.length < MIN_KEYS || text.slice(0, keys[0]!.index).trim() !== '') return undefined;
  const buttons: Found[] = [];
  for (const [i, key] of keys.entries()) {
    const labelAt = key.index + key[0].length;
    // A label ends at the next key, or at a wider gap (newsboat's "?:Help" then its position "Top" far right).
    const labelEnd = labelAt + text.slice(labelAt, i + 1 < keys.length ? keys[i + 1]!.index : text.length).split(/\s{2,}/)[0]!.trimEnd().length;
    const label = tidy(text.slice(labelAt, labelEnd));
    if (label === '' || label.length > MAX_LABEL) return undefined;
    const x = columnAt[key.index]!;
    buttons.push({ role: 'button', name: label, shortcut: key[1]!, bounds: { x, y, w: scan.columnEnd(y, columnAt, labelEnd) - x, h: 1 }, heuristic: KEY_HINT_HEURISTIC });
  }
  return toolbarOf(buttons, y);
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
      keys = numberedKeys(scan, y, text, columnAt);
      numbered = true;
    }
    if (keys.length < MIN_KEYS) {
      const spaced = spacedBar(scan, y, text, columnAt) ?? colonBar(scan, y, text, columnAt);
      if (spaced) {
        bars.push(spaced);
        scan.claim(spaced.bounds);
      }
      continue;
    }
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
    const bar = toolbarOf(buttons, y);
    bars.push(bar);
    scan.claim(bar.bounds);
  }
  return bars;
}
