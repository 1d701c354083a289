// Keys sent as X events to one window (SendEvent): nothing is activated or focused. Toolkits that read
// input through XInput2 (GTK, Qt) drop such events; Xt/Xaw, Motif and Tk apps act on them.
import { encodeInputEvent, EventMask, type X11Connection } from '../x11/index.js';
import { Keyboard } from './keyboard.js';
import type { KeyPressResult } from './keys.js';
import type { KeyboardMap } from './keyboard-map.js';
import { parseCombination, textCharacterKeysyms, textCharacters, type ParsedKey } from './keysyms.js';
import type { TypeTextResult } from './typing.js';

/** A key the layout has no key for: the foreground binds it to a spare keycode, sent events cannot (see strokeFor). */
export class NoKeyOnLayout extends Error {}

interface SyntheticStroke {
  keycode: number;
  state: number;
}

function strokeFor(map: KeyboardMap, keysyms: readonly number[], held: number, label: string): SyntheticStroke {
  for (const keysym of keysyms) {
    const stroke = map.find(keysym);
    if (!stroke) continue;
    let state = held;
    if (stroke.shift) state |= map.requireModifierKey('shift').mask;
    if (stroke.level3) state |= map.requireModifierKey('altgr').mask;
    return { keycode: stroke.keycode, state };
  }
  // A spare keycode bound for the moment would reach the app only if it re-read the map first; a
  // synthetic event gives no such guarantee, so a character the layout lacks is refused.
  throw new NoKeyOnLayout(`no key on the current keyboard layout produces ${label}; synthetic key events can only send what the layout has`);
}

async function send(x: X11Connection, window: number, stroke: SyntheticStroke): Promise<void> {
  const fields = { root: x.screen.root, window, rootX: 0, rootY: 0, eventX: 0, eventY: 0, state: stroke.state, detail: stroke.keycode };
  await x.sendEvent(window, false, EventMask.KeyPress, encodeInputEvent({ ...fields, type: 'KeyPress' }));
  await x.sendEvent(window, false, EventMask.KeyRelease, encodeInputEvent({ ...fields, type: 'KeyRelease' }));
}

function plan(map: KeyboardMap, keys: readonly ParsedKey[], label: string): SyntheticStroke {
  let held = 0;
  let target: ParsedKey | undefined;
  for (const key of keys) {
    if (key.kind === 'modifier') held |= map.requireModifierKey(key.modifier).mask;
    else target = key;
  }
  if (!target || target.kind !== 'key') throw new Error(`"${label}" has no key besides modifiers`);
  return strokeFor(map, target.keysyms, held, `"${target.name}"`);
}

/**
 * Sends one combination ("ctrl+s", ["alt", "f4"]) as synthetic key events, `repeat` times, or fewer when `signal`
 * aborts first.
 */
export async function syntheticCombination(
  x: X11Connection,
  window: number,
  combination: string | readonly string[],
  repeat = 1,
  signal?: AbortSignal,
): Promise<KeyPressResult> {
  const keys = parseCombination(combination);
  const map = await Keyboard.of(x).current();
  const stroke = plan(map, keys, typeof combination === 'string' ? combination : combination.join('+'));
  let presses = 0;
  for (; presses < repeat && !signal?.aborted; presses++) await send(x, window, stroke);
  await x.sync();
  return { presses, ...(presses < repeat ? { cancelled: true as const } : {}) };
}

/** The distinct characters of `text` that no key of the current layout types, which synthetic key events cannot send. */
export async function charactersWithoutKey(x: X11Connection, text: string): Promise<string[]> {
  const map = await Keyboard.of(x).current();
  const keyless = (character: string): boolean => {
    try {
      return !textCharacterKeysyms(character).some((keysym) => map.find(keysym) !== undefined);
    } catch {
      // A control character: syntheticText refuses it with its own error.
      return false;
    }
  };
  return [...new Set(textCharacters(text))].filter(keyless);
}

/**
 * Sends text as synthetic key events; "\n" is Return and "\t" Tab. Every character is checked before any is
 * sent; when `signal` aborts, the rest is not.
 */
export async function syntheticText(x: X11Connection, window: number, text: string, signal?: AbortSignal): Promise<TypeTextResult> {
  const map = await Keyboard.of(x).current();
  const strokes = textCharacters(text).map((character) => strokeFor(map, textCharacterKeysyms(character), 0, JSON.stringify(character)));
  let characters = 0;
  for (; characters < strokes.length && !signal?.aborted; characters++) await send(x, window, strokes[characters]!);
  await x.sync();
  return { characters, temporarilyBound: [], ...(characters < strokes.length ? { cancelled: true as const } : {}) };
}
