// Key names to the bytes an xterm sends for them, following the terminal modes the program set.
import { ToolError } from '../errors.js';

export interface KeyModes {
  /** DECCKM: cursor keys send SS3 sequences (ESC O A) instead of CSI ones (ESC [ A). */
  applicationCursorKeys: boolean;
}

interface Modifiers {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

const ESC = '\x1b';
const CSI = `${ESC}[`;
const SS3 = `${ESC}O`;

/** Cursor-like keys: CSI/SS3 plus a final letter; with modifiers CSI 1;m letter. */
const LETTER_KEYS: Record<string, string> = { up: 'A', down: 'B', right: 'C', left: 'D', home: 'H', end: 'F' };
/** Keys sent as CSI n ~, with modifiers CSI n;m ~. */
const TILDE_KEYS: Record<string, number> = {
  insert: 2, delete: 3, pageup: 5, pagedown: 6,
  f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24,
};
/** F1-F4 are SS3 P..S, with modifiers CSI 1;m P..S. */
const PF_KEYS: Record<string, string> = { f1: 'P', f2: 'Q', f3: 'R', f4: 'S' };

const ALIASES: Record<string, string> = {
  return: 'enter', esc: 'escape', del: 'delete', ins: 'insert', pgup: 'pageup', pgdn: 'pagedown',
  arrowup: 'up', arrowdown: 'down', arrowleft: 'left', arrowright: 'right', bs: 'backspace', spacebar: 'space',
};
const MODIFIER_NAMES: Record<string, keyof Modifiers> = {
  ctrl: 'ctrl', control: 'ctrl', alt: 'alt', meta: 'alt', option: 'alt', shift: 'shift',
};

export const KEY_NAMES = [
  'Enter', 'Tab', 'Escape', 'Backspace', 'Space', 'Up', 'Down', 'Left', 'Right', 'Home', 'End', 'PageUp', 'PageDown',
  'Insert', 'Delete', ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
];

function invalid(key: string, why: string): ToolError {
  return new ToolError(
    `key ${JSON.stringify(key)}: ${why}. Valid keys: a single character, or one of ${KEY_NAMES.join(', ')} ` +
      '(case-insensitive; aliases Return, Esc, Del, PgUp, PgDn, ArrowUp...), optionally with modifiers such as ctrl+c, alt+x, shift+Tab, ctrl+alt+Delete; ' +
      'key hints as screens spell them work too: ^X (ctrl+x), M-U (alt+u), C-T (ctrl+t), Ctrl-X',
    'invalid_key',
    { key },
  );
}

/** xterm's modifier parameter: 1 + shift + 2 alt + 4 ctrl. */
function modifierParameter(mods: Modifiers): number {
  return 1 + (mods.shift ? 1 : 0) + (mods.alt ? 2 : 0) + (mods.ctrl ? 4 : 0);
}

function hasModifier(mods: Modifiers): boolean {
  return mods.ctrl || mods.alt || mods.shift;
}

function controlCharacter(char: string): string | undefined {
  const lower = char.toLowerCase();
  if (lower >= 'a' && lower <= 'z' && lower.length === 1) return String.fromCharCode(lower.charCodeAt(0) - 96);
  const specials: Record<string, string> = { '@': '\x00', ' ': '\x00', '[': '\x1b', '\\': '\x1c', ']': '\x1d', '^': '\x1e', _: '\x1f', '?': '\x7f' };
  return specials[char];
}

function encodeCharacter(key: string, char: string, mods: Modifiers): string {
  let out = char;
  if (mods.shift) out = out.toUpperCase();
  if (mods.ctrl) {
    const control = controlCharacter(char);
    if (control === undefined) throw invalid(key, `ctrl+${char} has no control code (use a letter or one of @ [ \\ ] ^ _ ?)`);
    out = control;
  }
  return mods.alt ? `${ESC}${out}` : out;
}

function encodeNamed(key: string, name: string, mods: Modifiers, modes: KeyModes): string {
  const letter = LETTER_KEYS[name];
  if (letter) {
    if (hasModifier(mods)) return `${CSI}1;${modifierParameter(mods)}${letter}`;
    return `${modes.applicationCursorKeys ? SS3 : CSI}${letter}`;
  }
  const tilde = TILDE_KEYS[name];
  if (tilde !== undefined) return hasModifier(mods) ? `${CSI}${tilde};${modifierParameter(mods)}~` : `${CSI}${tilde}~`;
  const pf = PF_KEYS[name];
  if (pf) return hasModifier(mods) ? `${CSI}1;${modifierParameter(mods)}${pf}` : `${SS3}${pf}`;
  const alt = mods.alt ? ESC : '';
  switch (name) {
    case 'enter':
      if (mods.ctrl) throw invalid(key, 'ctrl+Enter sends nothing different from Enter on a terminal');
      return `${alt}\r`;
    case 'tab':
      if (mods.ctrl) throw invalid(key, 'ctrl+Tab cannot be sent to a terminal program');
      return mods.shift ? `${alt}${CSI}Z` : `${alt}\t`;
    case 'escape':
      return `${alt}${ESC}`;
    case 'backspace':
      return `${alt}${mods.ctrl ? '\x08' : '\x7f'}`;
    case 'space':
      return `${alt}${mods.ctrl ? '\x00' : ' '}`;
    default:
      throw invalid(key, `unknown key name "${name}"`);
  }
}

/** Modifier words joined by hyphens, as "Ctrl-X", "Alt-F4" or "ctrl-alt-Delete" are written. */
const HYPHENATED_MODIFIERS = /^((?:(?:ctrl|control|alt|meta|option|shift)-)+)(.+)$/i;

/**
 * The bytes for one key description such as "Enter", "ctrl+c", "shift+Tab", "F10" or "a", or a key as
 * screens and manuals spell it: "^X", "M-U", "C-T" (the spellings a key hint's `shortcut` carries, which
 * the tree shows in a button's name, "^X Exit") and "Ctrl-X".
 */
export function encodeKey(key: string, modes: KeyModes): string {
  if (key.length === 0) throw invalid(key, 'empty key');
  if ([...key].length === 1) return key;
  const shown = shortcutKey(key);
  if (shown !== undefined && shown !== key) return encodeKey(shown, modes);
  const hyphenated = HYPHENATED_MODIFIERS.exec(key);
  const joined = hyphenated ? `${hyphenated[1]!.replaceAll('-', '+')}${hyphenated[2]!}` : key;
  // "ctrl++" and "alt+-" name the "+" and "-" keys themselves.
  const parts = joined.endsWith('++') ? [...joined.slice(0, -2).split('+'), '+'] : joined.split('+');
  const base = parts.pop()!;
  if (base === '') throw invalid(key, 'nothing after the last "+"');
  const mods: Modifiers = { ctrl: false, alt: false, shift: false };
  for (const part of parts) {
    const modifier = MODIFIER_NAMES[part.toLowerCase()];
    if (!modifier) throw invalid(key, `unknown modifier "${part}" (use ctrl, alt or shift)`);
    mods[modifier] = true;
  }
  if ([...base].length === 1) return encodeCharacter(key, base, mods);
  const lower = base.toLowerCase();
  return encodeNamed(key, ALIASES[lower] ?? lower, mods, modes);
}

/**
 * The key name (as tui_press takes it) for a shortcut as a screen shows it: "F10", "^X" (ctrl+x), "M-U"
 * (alt+u); undefined for a spelling that names no key. "^/" is the byte ctrl+_ sends, as terminals do.
 */
/** Key names hint lines spell in capitals ("TAB Chg Win"), as the names encodeKey takes. */
const NAMED_HINT_KEYS: Record<string, string> = { TAB: 'Tab', ESC: 'Escape', ENTER: 'Enter', RET: 'Enter', SPC: 'Space', SPACE: 'Space', DEL: 'Delete' };

export function shortcutKey(shortcut: string): string | undefined {
  if (/^F(?:[1-9]|1[0-2])$/.test(shortcut)) return shortcut;
  const control = /^\^(.)$/.exec(shortcut);
  if (control) return `ctrl+${control[1] === '/' ? '_' : control[1]!.toLowerCase()}`;
  const meta = /^M-([A-Za-z0-9])$/.exec(shortcut);
  if (meta) return `alt+${meta[1]!.toLowerCase()}`;
  // Emacs-style "C-T" (aptitude's hint line) is ctrl with that letter.
  const emacsControl = /^C-([A-Za-z])$/.exec(shortcut);
  if (emacsControl) return `ctrl+${emacsControl[1]!.toLowerCase()}`;
  // A hint naming a single printable key ("q Quit", "?: Help") is that character.
  if ([...shortcut].length === 1 && shortcut.trim() !== '') return shortcut;
  const named = Object.hasOwn(NAMED_HINT_KEYS, shortcut) ? NAMED_HINT_KEYS[shortcut] : undefined;
  if (named) return named;
  // A key named in angle brackets (mutt's "<Space>:NextPg", "<PageDown>") is the key of that name.
  const angled = /^<([A-Za-z]\w*)>$/.exec(shortcut)?.[1]?.toLowerCase();
  const name = angled === undefined ? undefined : (ALIASES[angled] ?? angled);
  return KEY_NAMES.find((key) => key.toLowerCase() === name);
}

export type MouseButton = 'left' | 'middle' | 'right';
const BUTTON_CODES: Record<MouseButton, number> = { left: 0, middle: 1, right: 2 };

/** Press and release at a cell (0-based), in SGR encoding when the program asked for it, else the X10 form. */
export function encodeClick(x: number, y: number, button: MouseButton, sgr: boolean): string {
  const code = BUTTON_CODES[button];
  if (sgr) return `${CSI}<${code};${x + 1};${y + 1}M${CSI}<${code};${x + 1};${y + 1}m`;
  if (x > 222 || y > 222) throw new ToolError(`cell ${x},${y} is beyond what the program's mouse encoding can express (it did not enable SGR mouse mode)`, 'mouse_unavailable');
  const cell = (value: number) => String.fromCharCode(32 + value + 1);
  return `${CSI}M${String.fromCharCode(32 + code)}${cell(x)}${cell(y)}${CSI}M${String.fromCharCode(32 + 3)}${cell(x)}${cell(y)}`;
}
