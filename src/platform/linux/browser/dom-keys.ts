// X keysyms as the DOM names keys (KeyboardEvent.key), for keys pressed in a page through its browser's debugging
// connection: puppeteer's keyboard takes these names and fills in the codes Chromium needs.
import type { ModifierName, ParsedKey } from '../input/index.js';

const namedKeysyms: Record<number, string> = {
  0xff0d: 'Enter', 0xff8d: 'Enter',
  0xff09: 'Tab',
  0xff1b: 'Escape',
  0x20: ' ',
  0xff08: 'Backspace',
  0xffff: 'Delete',
  0xff63: 'Insert',
  0xff50: 'Home',
  0xff57: 'End',
  0xff55: 'PageUp',
  0xff56: 'PageDown',
  0xff51: 'ArrowLeft', 0xff52: 'ArrowUp', 0xff53: 'ArrowRight', 0xff54: 'ArrowDown',
};
for (let n = 1; n <= 12; n++) namedKeysyms[0xffbe + n - 1] = `F${n}`;

const domModifiers: Partial<Record<ModifierName, string>> = { ctrl: 'Control', shift: 'Shift', alt: 'Alt', super: 'Meta' };

/** A combination as the DOM names its keys: the modifiers to hold and the key; undefined for a key it has no name for here. */
export interface DomCombination {
  modifiers: string[];
  key: string;
}

/**
 * The combination in DOM key names, or undefined where one of its keys has none here (AltGr, the keypad's digits, a
 * character outside printable ASCII, which puppeteer's US layout lacks): those stay with the keys that can press them.
 */
export function domCombination(keys: readonly ParsedKey[]): DomCombination | undefined {
  const modifiers: string[] = [];
  let key: string | undefined;
  for (const parsed of keys) {
    if (parsed.kind === 'modifier') {
      const name = domModifiers[parsed.modifier];
      if (!name) return undefined;
      modifiers.push(name);
      continue;
    }
    const keysym = parsed.keysyms[0]!;
    key = namedKeysyms[keysym] ?? (keysym > 0x20 && keysym < 0x7f ? String.fromCharCode(keysym) : undefined);
    if (key === undefined) return undefined;
  }
  // A lone modifier is a key of its own.
  if (key === undefined) key = modifiers.pop();
  return key === undefined ? undefined : { modifiers, key };
}
