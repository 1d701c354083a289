// The server's keyboard as a lookup table: which keycode (and which shift level) produces a keysym, which keycodes
// are the modifier keys, and which keycodes are spare (no keysyms at all) for temporary bindings.
import type { KeyboardMapping, ModifierMapping, X11Connection } from '../x11/index.js';
import type { ModifierName } from './keysyms.js';

/** How to produce one keysym: the keycode and the shift levels to hold with it. */
export interface KeyStroke {
  keycode: number;
  shift: boolean;
  /** The third level (AltGr, ISO_Level3_Shift). */
  level3: boolean;
}

/** A modifier key: its keycode and the state bit it sets (ShiftMask 1, ControlMask 4, Mod1Mask 8...). */
export interface ModifierKey {
  keycode: number;
  mask: number;
}

const modifierKeysyms: Record<ModifierName, number[]> = {
  shift: [0xffe1, 0xffe2],
  ctrl: [0xffe3, 0xffe4],
  alt: [0xffe9, 0xffea, 0xffe7, 0xffe8],
  super: [0xffeb, 0xffec],
  altgr: [0xfe03, 0xff7e],
};

// Core keyboard columns (group 1): 0 plain, 1 shifted; XKB servers add the third and fourth levels as 4 and 5.
const columns: readonly { column: number; shift: boolean; level3: boolean }[] = [
  { column: 0, shift: false, level3: false },
  { column: 1, shift: true, level3: false },
  { column: 4, shift: false, level3: true },
  { column: 5, shift: true, level3: true },
];

/** X's keypad keysyms (KP_Space to KP_Equal): keys whose levels follow Num Lock. */
function isKeypadKeysym(keysym: number): boolean {
  return keysym >= 0xff80 && keysym <= 0xffbd;
}

export class KeyboardMap {
  private constructor(
    readonly minKeycode: number,
    readonly maxKeycode: number,
    readonly mapping: KeyboardMapping,
    readonly modifiers: ModifierMapping,
  ) {}

  static async load(x: X11Connection): Promise<KeyboardMap> {
    const { minKeycode, maxKeycode } = x.setup;
    const [mapping, modifiers] = await Promise.all([x.getKeyboardMapping(minKeycode, maxKeycode - minKeycode + 1), x.getModifierMapping()]);
    return new KeyboardMap(minKeycode, maxKeycode, mapping, modifiers);
  }

  /** The keysyms of one keycode, one per column (0 is NoSymbol). */
  keysymsOf(keycode: number): number[] {
    const per = this.mapping.keysymsPerKeycode;
    const start = (keycode - this.minKeycode) * per;
    return this.mapping.keysyms.slice(start, start + per);
  }

  /**
   * The plainest way to produce `keysym`: unshifted before shifted before the third level; undefined if none. A
   * keypad key's second keysym is not taken: Num Lock reaches it, not Shift (XKB's KEYPAD type), and Shift with the
   * key for KP_5 gave the app KP_Begin; such a keysym is bound to a spare keycode instead.
   */
  find(keysym: number): KeyStroke | undefined {
    if (keysym === 0) return undefined;
    const per = this.mapping.keysymsPerKeycode;
    const level3Usable = this.modifierKey('altgr') !== undefined;
    for (const { column, shift, level3 } of columns) {
      if (column >= per || (level3 && !level3Usable)) continue;
      for (let keycode = this.minKeycode; keycode <= this.maxKeycode; keycode++) {
        const start = (keycode - this.minKeycode) * per;
        if (this.mapping.keysyms[start + column] !== keysym) continue;
        if (shift && isKeypadKeysym(this.mapping.keysyms[start] ?? 0)) continue;
        return { keycode, shift, level3 };
      }
    }
    return undefined;
  }

  /** A key that sets the modifier: one producing its keysym and listed in the modifier mapping. */
  modifierKey(modifier: ModifierName): ModifierKey | undefined {
    const wanted = modifierKeysyms[modifier];
    const { keycodesPerModifier, keycodes } = this.modifiers;
    let best: (ModifierKey & { rank: number }) | undefined;
    keycodes.forEach((keycode, index) => {
      if (keycode === 0) return;
      const syms = this.keysymsOf(keycode);
      // Prefer the key whose first keysym is the modifier (Alt_L) over one where it is only shifted (Meta_L on Alt).
      const rank = syms.findIndex((sym) => wanted.includes(sym));
      if (rank < 0 || (best && best.rank <= rank)) return;
      best = { keycode, mask: 1 << Math.floor(index / keycodesPerModifier), rank };
    });
    return best && { keycode: best.keycode, mask: best.mask };
  }

  /** modifierKey, or an error saying the keyboard has no such key. */
  requireModifierKey(modifier: ModifierName): ModifierKey {
    const key = this.modifierKey(modifier);
    if (!key) throw new Error(`the keyboard map has no ${modifier} key: no keycode producing it is in the X server's modifier mapping`);
    return key;
  }

  /** Keycodes with no keysyms and no modifier role, highest first (low codes such as 8 are ignored by some clients). */
  spareKeycodes(): number[] {
    const modifierKeycodes = new Set(this.modifiers.keycodes);
    const spare: number[] = [];
    for (let keycode = this.maxKeycode; keycode >= this.minKeycode; keycode--) {
      if (!modifierKeycodes.has(keycode) && this.keysymsOf(keycode).every((sym) => sym === 0)) spare.push(keycode);
    }
    return spare;
  }
}
