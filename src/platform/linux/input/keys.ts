// Key presses and combinations through XTEST: "return", "f5", "ctrl+shift+t", with repeat counts.
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import { integerOption } from './checks.js';
import { HeldInputs } from './held-inputs.js';
import { Keyboard } from './keyboard.js';
import { abortable, chooseKeysym, pressKeysym, strike } from './keystrokes.js';
import { parseCombination, parseModifier } from './keysyms.js';
import { defaultSettleMs, InputSettler } from './settle.js';
import { TemporaryKeys } from './temporary-keys.js';

export interface KeyPressOptions {
  /** How many times to press the combination (default 1, at most 1000). */
  repeat?: number;
  /** Pause between repeats, in ms (default 30). */
  delayMs?: number;
  /** How long the keys stay down, in ms (default 20). */
  holdMs?: number;
  /** Extra pause once the app has read a temporarily bound key, before it is unbound, in ms (default 30). */
  settleMs?: number;
  /** Stops the repeats when it aborts: no further press is sent, and whatever is held is released. */
  signal?: AbortSignal;
}

export interface KeyPressResult {
  /** Times the combination was pressed (and released). */
  presses: number;
  /** The signal stopped the repeats before the last. */
  cancelled?: true;
}

/** Presses one key, with `modifiers` (e.g. ["ctrl", "shift"]) held around it. */
export async function pressKey(x: X11Connection, key: string, modifiers: readonly string[] = [], options: KeyPressOptions = {}): Promise<KeyPressResult> {
  for (const modifier of modifiers) parseModifier(modifier);
  return pressCombination(x, [...modifiers, key], options);
}

/**
 * Presses the keys of a combination in order ("ctrl+shift+t", or ["ctrl", "shift", "t"]) and releases them in
 * reverse. A key on a shifted level brings its Shift (ctrl+plus is Ctrl+Shift+= on a US keyboard); a character the
 * map lacks is bound to a spare keycode for the duration.
 */
export async function pressCombination(x: X11Connection, combination: string | readonly string[], options: KeyPressOptions = {}): Promise<KeyPressResult> {
  const keys = parseCombination(combination);
  const repeat = integerOption('repeat', options.repeat, 1, 1, 1000);
  const delayMs = integerOption('delayMs', options.delayMs, 30, 0, 10_000);
  const holdMs = integerOption('holdMs', options.holdMs, 20, 0, 10_000);
  const settleMs = integerOption('settleMs', options.settleMs, defaultSettleMs, 0, 10_000);
  const keyboard = Keyboard.of(x);
  return keyboard.exclusive(async () => {
    const map = await keyboard.current();
    const held = new HeldInputs(x);
    const settler = new InputSettler(x, settleMs);
    const temporary = new TemporaryKeys(x, map, () => settler.settle());
    const signal = options.signal;
    let presses = 0;
    try {
      const steps = keys.map((key) => (key.kind === 'modifier' ? { modifier: map.requireModifierKey(key.modifier).keycode } : chooseKeysym(map, key.keysyms)));
      const unmapped = steps.flatMap((step) => ('unmapped' in step && step.unmapped ? [step.keysym] : []));
      await temporary.bind(unmapped);
      for (let round = 0; round < repeat; round++) {
        if (round > 0 && delayMs > 0) await sleep(delayMs, undefined, abortable(signal)).catch(() => undefined);
        if (signal?.aborted) break;
        // The bindings are restored after the last press: the app must have read it by then. A cancel may make any
        // press the last.
        if (unmapped.length > 0 && (round === repeat - 1 || signal)) await settler.markNextKey();
        await strike(held, holdMs, async () => {
          for (const step of steps) {
            if (!('modifier' in step)) await pressKeysym(held, map, temporary, step.keysym);
            else if (!held.holdsKey(step.modifier)) await held.pressKey(step.modifier);
          }
        }, signal);
        presses++;
      }
    } finally {
      await held.releaseAll();
      await temporary.restore();
    }
    return { presses, ...(presses < repeat ? { cancelled: true as const } : {}) };
  });
}
