import type { CupState } from '../types.js';
import { ATSPI_STATE_NAMES } from './constants.js';

/** Decodes the two-word AT-SPI state set into state names (e.g. "STATE_FOCUSED"). */
export function decodeStateSet(words: readonly number[]): Set<string> {
  const names = new Set<string>();
  for (let word = 0; word < words.length; word++) {
    const bits = words[word]! >>> 0;
    if (bits === 0) continue;
    for (let bit = 0; bit < 32; bit++) {
      if (bits & (1 << bit)) {
        const number = word * 32 + bit;
        names.add(ATSPI_STATE_NAMES[number] ?? `STATE_${number}`);
      }
    }
  }
  return names;
}

/** Encodes state names back into the two-word set (tests and fixtures build raw nodes with it). */
export function encodeStateSet(names: Iterable<string>): [number, number] {
  const words: [number, number] = [0, 0];
  for (const name of names) {
    const number = ATSPI_STATE_NAMES.indexOf(name);
    if (number < 0) throw new Error(`unknown AT-SPI state ${name}`);
    words[number >> 5] = (words[number >> 5]! | (1 << (number & 31))) >>> 0;
  }
  return words;
}

/** Whether the state set (two 32-bit words, bit n is AtspiStateType n) has state number `state`; undefined without a set. */
export function hasState(states: readonly number[] | undefined, state: number): boolean | undefined {
  return states ? ((states[Math.floor(state / 32)] ?? 0) & (1 << state % 32)) !== 0 : undefined;
}

/** AT-SPI states that are a CUP state by themselves; the others CUP derives (disabled, hidden, offscreen, editable, readonly). */
const cupStatesByAtspi: ReadonlyMap<string, CupState> = new Map<string, CupState>([
  ['STATE_FOCUSED', 'focused'],
  ['STATE_SELECTED', 'selected'],
  ['STATE_CHECKED', 'checked'],
  ['STATE_PRESSED', 'pressed'],
  ['STATE_INDETERMINATE', 'mixed'],
  ['STATE_EXPANDED', 'expanded'],
  ['STATE_COLLAPSED', 'collapsed'],
  ['STATE_REQUIRED', 'required'],
  ['STATE_BUSY', 'busy'],
  ['STATE_MODAL', 'modal'],
  ['STATE_MULTISELECTABLE', 'multiselectable'],
]);

/**
 * The CUP state an AT-SPI state (e.g. "STATE_CHECKED") is on an object of an AT-SPI role (e.g.
 * "ROLE_TOGGLE_BUTTON") read as CUP role `cupRole` where known, if it is one by itself. The one mapping behind a
 * tree's states and an action's evidence, so both speak of a toggle button as pressed and of a switch as checked.
 */
export function cupStateOf(atspiState: string, atspiRole: string, cupRole?: string): CupState | undefined {
  // A toggle button's CHECKED is its on state: pressed in ARIA terms (aria-pressed), except on a switch (a page's
  // role=switch, which Blink and Gecko expose as a checkable toggle button), whose on state CUP calls checked.
  if (atspiState === 'STATE_CHECKED' && atspiRole === 'ROLE_TOGGLE_BUTTON') return cupRole === 'switch' ? 'checked' : 'pressed';
  return cupStatesByAtspi.get(atspiState);
}
