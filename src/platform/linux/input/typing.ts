// Typing text through XTEST, one real key press and release per character, any Unicode character included.
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import { integerOption } from './checks.js';
import { HeldInputs } from './held-inputs.js';
import { Keyboard } from './keyboard.js';
import type { KeyboardMap } from './keyboard-map.js';
import { abortable, chooseKeysym, pressKeysym, strike, tapKeysym } from './keystrokes.js';
import { textCharacterKeysyms, textCharacters } from './keysyms.js';
import { KeyPacer, pacingChunk, type HandledReports } from './pacing.js';
import { defaultSettleMs, InputSettler } from './settle.js';
import { TemporaryKeys } from './temporary-keys.js';

export interface TypeTextOptions {
  /** Pause between characters, in ms (default 12). */
  delayMs?: number;
  /** How long each key stays down, in ms (default 8). */
  holdMs?: number;
  /** Extra pause once the app has read the keys, before temporary bindings change, in ms (default 30). */
  settleMs?: number;
  /**
   * Stops the typing before the next character when it aborts: nothing more is sent, whatever is held is
   * released. The keys are paced to the app (pacing.ts), so it is at most a few dozen characters behind.
   */
  signal?: AbortSignal;
  /**
   * Characters the receiving app has reported handled (counted from its text field's accessibility events): with a
   * signal, the pacing then follows these reports, which come sooner than the app's user time.
   */
  handled?: HandledReports;
}

export interface TypeTextResult {
  /** Characters typed (a "\r\n" pair counts once); with `cancelled`, those sent before the signal aborted. */
  characters: number;
  /** The distinct characters that had no key and were bound to spare keycodes for the duration. */
  temporarilyBound: string[];
  /** The signal stopped the typing before the last character. */
  cancelled?: true;
}

interface PlannedCharacter {
  character: string;
  keysym: number;
  /** No key produces it: it needs a temporary binding. */
  unmapped: boolean;
}

/** "\n" (or "\r\n", "\r") presses Return and "\t" Tab; other control characters are refused before anything is typed. */
export async function typeText(x: X11Connection, text: string, options: TypeTextOptions = {}): Promise<TypeTextResult> {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`);
  const delayMs = integerOption('delayMs', options.delayMs, 12, 0, 10_000);
  const holdMs = integerOption('holdMs', options.holdMs, 8, 0, 10_000);
  const settleMs = integerOption('settleMs', options.settleMs, defaultSettleMs, 0, 10_000);
  const characters = textCharacters(text);
  const keyboard = Keyboard.of(x);
  return keyboard.exclusive(async () => {
    const map = await keyboard.current();
    const plan = characters.map((character) => planCharacter(map, character));
    const settler = new InputSettler(x, settleMs);
    const temporary = new TemporaryKeys(x, map, () => settler.settle());
    const needsBinding = plan.some((step) => step.unmapped);
    const segments = segment(plan, temporary.capacity);
    const held = new HeldInputs(x);
    const pacer = new KeyPacer(x, options.signal, options.handled);
    // Keys struck with no hold are not awaited one by one: they go to the X server in one write until the typing
    // next waits (a chunk's end, a pause, a binding). A write per key cost this process about 10 ms of CPU per 100
    // characters, on a two-core machine where the app typed into needs the other core.
    const unwritten: Promise<void>[] = [];
    const written = () => Promise.all(unwritten.splice(0));
    let sent = 0;
    try {
      typing: for (const part of segments) {
        await written();
        await temporary.bind(part.filter((step) => step.unmapped).map((step) => step.keysym));
        for (const [index, step] of part.entries()) {
          if (sent > 0 && sent % pacingChunk === 0) {
            await written();
            await pacer.chunkSent(sent);
          }
          if (sent > 0 && delayMs > 0) await sleep(delayMs, undefined, abortable(options.signal)).catch(() => undefined);
          if (options.signal?.aborted) break typing;
          // The bindings change after a segment's last key: the app must have read it by then. A cancel may end the
          // segment at any bound key.
          if (needsBinding && (index === part.length - 1 || (options.signal && step.unmapped))) {
            await written();
            await settler.markNextKey();
          }
          if (holdMs === 0) unwritten.push(...tapKeysym(held, map, temporary, step.keysym));
          else await strike(held, holdMs, () => pressKeysym(held, map, temporary, step.keysym), options.signal);
          sent++;
        }
      }
      await written();
    } finally {
      // Written or failed, every key sent is settled before the releases (a failed write is the error above).
      await Promise.allSettled(unwritten);
      await held.releaseAll();
      await temporary.restore();
    }
    const temporarilyBound = [...new Set(plan.slice(0, sent).filter((step) => step.unmapped).map((step) => step.character))];
    return { characters: sent, temporarilyBound, ...(sent < plan.length ? { cancelled: true as const } : {}) };
  });
}

function planCharacter(map: KeyboardMap, character: string): PlannedCharacter {
  return { character, ...chooseKeysym(map, textCharacterKeysyms(character)) };
}

/** Consecutive runs of characters whose unmapped ones fit the spare keycodes together. */
function segment(plan: readonly PlannedCharacter[], capacity: number): PlannedCharacter[][] {
  const unmapped = plan.filter((step) => step.unmapped);
  if (unmapped.length > 0 && capacity === 0) {
    const examples = [...new Set(unmapped.map((step) => step.character))].slice(0, 5).join('');
    throw new Error(`no key types "${examples}" and the keyboard map has no spare keycode to bind it to; only characters on the current layout can be typed`);
  }
  const segments: PlannedCharacter[][] = [];
  let current: PlannedCharacter[] = [];
  let bound = new Set<number>();
  for (const step of plan) {
    if (step.unmapped && !bound.has(step.keysym) && bound.size === capacity) {
      segments.push(current);
      current = [];
      bound = new Set();
    }
    if (step.unmapped) bound.add(step.keysym);
    current.push(step);
  }
  if (current.length > 0) segments.push(current);
  return segments;
}
