// Turning keysyms into key presses on the current map: the plan for a keysym (its key and shift levels, or a
// temporary binding), and one stroke of it with the level modifiers it needs.
import { setTimeout as sleep } from 'node:timers/promises';
import type { HeldInputs } from './held-inputs.js';
import type { KeyboardMap } from './keyboard-map.js';
import type { TemporaryKeys } from './temporary-keys.js';

/** Presses (and leaves down) the key producing `keysym`, with Shift / AltGr first when its level needs them. */
export async function pressKeysym(held: HeldInputs, map: KeyboardMap, temporary: TemporaryKeys, keysym: number): Promise<void> {
  await Promise.all(sendKeysymPress(held, map, temporary, keysym));
}

/**
 * Presses the key producing `keysym` and releases what that pressed, without awaiting any write: the requests join
 * the connection's next write, in order. Returns the writes, for the caller to await (see typeText).
 */
export function tapKeysym(held: HeldInputs, map: KeyboardMap, temporary: TemporaryKeys, keysym: number): Promise<void>[] {
  const before = held.heldKeys().length;
  const writes = sendKeysymPress(held, map, temporary, keysym);
  for (const keycode of held.heldKeys().slice(before).reverse()) writes.push(held.releaseKey(keycode));
  return writes;
}

/** The presses pressKeysym makes, sent and not awaited. */
function sendKeysymPress(held: HeldInputs, map: KeyboardMap, temporary: TemporaryKeys, keysym: number): Promise<void>[] {
  const bound = temporary.keycodeOf(keysym);
  if (bound !== undefined) return [held.pressKey(bound)];
  const stroke = map.find(keysym);
  if (!stroke) throw new Error(`keysym 0x${keysym.toString(16)} is neither on the keyboard map nor bound (internal error)`);
  const writes: Promise<void>[] = [];
  for (const [needed, modifier] of [[stroke.shift, 'shift'], [stroke.level3, 'altgr']] as const) {
    if (!needed) continue;
    const { keycode } = map.requireModifierKey(modifier);
    if (!held.holdsKey(keycode)) writes.push(held.pressKey(keycode));
  }
  writes.push(held.pressKey(stroke.keycode));
  return writes;
}

/** Of the keysyms that would do, the first the map has a key for; else the preferred one, to be bound. */
export function chooseKeysym(map: KeyboardMap, keysyms: readonly number[]): { keysym: number; unmapped: boolean } {
  const mapped = keysyms.find((keysym) => map.find(keysym) !== undefined);
  return mapped === undefined ? { keysym: keysyms[0]!, unmapped: true } : { keysym: mapped, unmapped: false };
}

/** Options for a pause that ends early when `signal` aborts. */
export function abortable(signal: AbortSignal | undefined): { signal: AbortSignal } | undefined {
  return signal ? { signal } : undefined;
}

/**
 * Releases what `run` pressed beyond what was held before it, most recent first, after holding it `holdMs`
 * (less when `signal` aborts meanwhile).
 */
export async function strike(held: HeldInputs, holdMs: number, run: () => Promise<void>, signal?: AbortSignal): Promise<void> {
  const before = held.heldKeys().length;
  await run();
  if (holdMs > 0) await sleep(holdMs, undefined, abortable(signal)).catch(() => undefined);
  const pressed = held.heldKeys().slice(before);
  for (const keycode of pressed.reverse()) await held.releaseKey(keycode);
}
