// The real pointer through XTEST: motion, clicks (with the toolkit's double-click timing), drags with intermediate
// motion, and wheel steps. Each action returns where the pointer was before, for restorePointer.
import { setTimeout as sleep } from 'node:timers/promises';
import { holdForDrop, watchDragAndDrop } from './drag-and-drop.js';
import type { X11Connection } from '../x11/index.js';
import { ToolError } from '../../../errors.js';
import { integerOption, ownEntry, screenPoint, type Point } from './checks.js';
import { HeldInputs } from './held-inputs.js';
import { Keyboard } from './keyboard.js';
import { parseModifier } from './keysyms.js';

export type ButtonName = 'left' | 'middle' | 'right';
export type WheelDirection = 'up' | 'down' | 'left' | 'right';

export const buttons: Record<ButtonName, number> = { left: 1, middle: 2, right: 3 };
export const wheelButtons: Record<WheelDirection, number> = { up: 4, down: 5, left: 6, right: 7 };

export interface ClickOptions {
  button?: ButtonName;
  /** 1 single, 2 double, 3 triple click (at most 10). */
  count?: number;
  /** Held during the click, e.g. ["ctrl"] or ["shift"]. */
  modifiers?: readonly string[];
  /** Pause between the clicks of a multiple click, in ms (default 80: well inside GTK's and Qt's 400 ms). */
  intervalMs?: number;
  /** How long the button stays down, in ms (default 30). */
  holdMs?: number;
}

export interface DragOptions {
  button?: ButtonName;
  /** Motion events between the start and the end (default 12). */
  steps?: number;
  /** Time the motion takes, in ms (default 250). */
  durationMs?: number;
  modifiers?: readonly string[];
  /**
   * How long the button is held at the end, at most, for a drag and drop to begin (default 0): a web engine begins
   * one only once its page's process has run the page's dragstart. One that has begun is released over the drop
   * point only after its target could answer.
   */
  dropBeginsWithinMs?: number;
  /**
   * A cancel stops the motion where it is: a drag and drop that has begun is called off with Escape (its source
   * cancels on it), and the button is released there, so nothing is dropped at the end after the caller gave up.
   */
  signal?: AbortSignal;
}

export interface WheelOptions {
  /** Pause between wheel steps, in ms (default 25). */
  intervalMs?: number;
}

/** Where the pointer is now, in root-window pixels. */
export async function pointerPosition(x: X11Connection): Promise<Point> {
  const state = await x.queryPointer(x.screen.root);
  return { x: state.rootX, y: state.rootY };
}

/** Moves the real pointer; returns where it was. */
export async function moveTo(x: X11Connection, to: Point): Promise<Point> {
  const target = screenPoint(x, to, 'the target point');
  const previous = await pointerPosition(x);
  await motion(x, target);
  return previous;
}

/**
 * Brings the pointer to rest at `to` as a hand does, arriving: a motion a pixel short of it, then onto it. A single jump
 * from elsewhere gives the widget there an enter and no motion inside it, and GTK3 then at times starts no tool tip
 * timer (seen after a tool tip had just hidden). Returns where the pointer was.
 */
export async function arriveAt(x: X11Connection, to: Point): Promise<Point> {
  const target = screenPoint(x, to, 'the target point');
  const previous = await pointerPosition(x);
  await motion(x, { x: target.x > 0 ? target.x - 1 : target.x + 1, y: target.y });
  await sleep(15);
  await motion(x, target);
  return previous;
}

/** The longest pause between a click's presses and releases the X server keeps (see click). */
const maxServerDelayMs = 1000;
/** What the round trip after a click's presses is given beyond their pauses. */
const syncMarginMs = 5000;
/**
 * Toolkits count presses into one double or triple click while each comes within their double-click time of the one
 * before (GTK's and Qt's default 400 ms), with some margin.
 */
const multiClickSpanMs = 500;
/** How far apart two presses may be and still count as one multi-click, with margin (GTK's 5 px, Qt's 4 to 10). */
const multiClickDistancePx = 16;
/** Where and when this driver last released a button through each connection (Date.now()), for a click to start fresh. */
const lastClick = new WeakMap<X11Connection, { at: number; point: Point; button: number }>();

/** Clicks at `at` (count clicks of `button`, modifiers held throughout); returns where the pointer was. */
export async function click(x: X11Connection, at: Point, options: ClickOptions = {}): Promise<Point> {
  const target = screenPoint(x, at, 'the click point');
  const button = buttonNumber(options.button);
  const count = integerOption('count', options.count, 1, 1, 10);
  const intervalMs = integerOption('intervalMs', options.intervalMs, 80, 0, 1000);
  const holdMs = integerOption('holdMs', options.holdMs, 30, 0, 10_000);
  // A double or triple click starts its own count: GTK's text view took a single click of the call before (less than
  // its double-click time before, 42 px away) and a triple click as clicks of one gesture, and selected a word, not the
  // line. So does a single click at the point of the one before, of the same button: two clicks a plan sends on one
  // spot are two gestures, where the toolkit counted the second as a double click (an item view opens its item on it).
  // A single click elsewhere is sent at once.
  const last = lastClick.get(x);
  const since = Date.now() - (last?.at ?? 0);
  const samePlace = last !== undefined && last.button === button && Math.hypot(last.point.x - target.x, last.point.y - target.y) <= multiClickDistancePx;
  if ((count > 1 || samePlace) && since < multiClickSpanMs) await sleep(multiClickSpanMs - since);
  return withModifiers(x, options.modifiers, async (held) => {
    const previous = await approach(x, target);
    // The pauses are the X server's to keep (XTEST's delay, during which it takes no other request of this client),
    // and the presses and releases go out in one write: timed here, or sent across turns of this process's event loop,
    // a loaded machine stretched the 80 ms between a double click's two clicks past the toolkit's double-click time,
    // and GTK took two single clicks. A long hold is this process's to time, so as not to keep its connection's other
    // requests waiting. The round trip after returns once the server took them all.
    try {
      if (holdMs > maxServerDelayMs) {
        for (let index = 0; index < count; index++) {
          if (index > 0) await sleep(intervalMs);
          await held.pressButton(button);
          await sleep(holdMs);
          await held.releaseButton(button);
        }
        return previous;
      }
      const sent: Promise<void>[] = [];
      for (let index = 0; index < count; index++) sent.push(held.pressButton(button, index > 0 ? intervalMs : 0), held.releaseButton(button, holdMs));
      await Promise.all(sent);
      await x.sync({ timeoutMs: count * (intervalMs + holdMs) + syncMarginMs });
      return previous;
    } finally {
      lastClick.set(x, { at: Date.now(), point: target, button });
    }
  });
}

/** Presses at `from`, moves through `steps` intermediate points to `to`, releases there; returns where the pointer was. */
export async function drag(x: X11Connection, from: Point, to: Point, options: DragOptions = {}): Promise<Point> {
  const start = screenPoint(x, from, 'the drag start');
  const end = screenPoint(x, to, 'the drag end');
  const button = buttonNumber(options.button);
  const steps = integerOption('steps', options.steps, 12, 1, 1000);
  const durationMs = integerOption('durationMs', options.durationMs, 250, 0, 60_000);
  const beginsWithinMs = integerOption('dropBeginsWithinMs', options.dropBeginsWithinMs, 0, 0, 60_000);
  const dragAndDrop = await watchDragAndDrop(x);
  try {
    return await withModifiers(x, options.modifiers, async (held) => {
      const previous = await approach(x, start);
      await held.pressButton(button);
      // A pause before moving, so the press is not mistaken for a flick, and drag thresholds count from here.
      await sleep(40);
      for (let step = 1; step <= steps; step++) {
        if (options.signal?.aborted) await callOff(x, held, dragAndDrop.begun);
        await motion(x, {
          x: Math.round(start.x + ((end.x - start.x) * step) / steps),
          y: Math.round(start.y + ((end.y - start.y) * step) / steps),
        });
        if (durationMs > 0) await sleep(durationMs / steps);
      }
      await sleep(40);
      if (options.signal?.aborted) await callOff(x, held, dragAndDrop.begun);
      await holdForDrop(dragAndDrop, (to) => motion(x, to), end, beginsWithinMs);
      await held.releaseButton(button);
      return previous;
    });
  } finally {
    await dragAndDrop.stop();
  }
}

/**
 * Notches one turn of the wheel may take: a scroll of 100 pages, the scroll tool's most, at five notches a page. A
 * limit of 100 refused a scroll of 21 pages or more in the foreground as "amount must be ... from 1 to 100, got 200".
 */
export const maxWheelNotches = 500;

/** Turns the wheel `amount` steps at `at` (buttons 4-7); returns where the pointer was. */
export async function wheel(x: X11Connection, at: Point, direction: WheelDirection, amount = 1, options: WheelOptions = {}): Promise<Point> {
  const target = screenPoint(x, at, 'the scroll point');
  const button = ownEntry(wheelButtons, direction);
  if (button === undefined) throw new RangeError(`direction must be one of ${Object.keys(wheelButtons).join(', ')}, got ${JSON.stringify(direction)}`);
  const steps = integerOption('amount', amount, 1, 1, maxWheelNotches);
  const intervalMs = integerOption('intervalMs', options.intervalMs, 25, 0, 1000);
  return withModifiers(x, [], async (held) => {
    const previous = await approach(x, target);
    for (let step = 0; step < steps; step++) {
      if (step > 0 && intervalMs > 0) await sleep(intervalMs);
      await held.pressButton(button);
      await held.releaseButton(button);
    }
    return previous;
  });
}

/** Puts the pointer back where an action found it (a real motion, so apps see it leave). */
export async function restorePointer(x: X11Connection, position: Point): Promise<void> {
  await motion(x, screenPoint(x, position, 'the pointer position'));
  await x.sync();
}

/** A cancelled drag: Escape calls off a drag and drop that has begun; the caller's finally releases the button where it is. */
async function callOff(x: X11Connection, held: HeldInputs, dragAndDropBegun: boolean): Promise<never> {
  const escape = dragAndDropBegun ? (await Keyboard.of(x).current()).find(escapeKeysym) : undefined;
  if (escape) {
    await held.pressKey(escape.keycode);
    await held.releaseKey(escape.keycode);
  }
  throw new ToolError(`the drag was cancelled part way${escape ? ' (its drag and drop called off with Escape)' : ''}; the button was released where the pointer was, short of the drop point`, 'cancelled');
}

const escapeKeysym = 0xff1b;

/** Moves the pointer to `to` for a press there; returns where it was. */
async function approach(x: X11Connection, to: Point): Promise<Point> {
  const previous = await pointerPosition(x);
  await motion(x, to);
  // Toolkits pick the widget under the pointer from the motion; a press in the same instant can go to the old one.
  await sleep(15);
  return previous;
}

async function motion(x: X11Connection, to: Point): Promise<void> {
  await x.xtest.fakeInput('MotionNotify', 0, { root: x.screen.root, x: to.x, y: to.y });
}

function buttonNumber(button: ButtonName | undefined): number {
  if (button === undefined) return buttons.left;
  const number = ownEntry(buttons, button);
  if (number === undefined) throw new RangeError(`button must be one of ${Object.keys(buttons).join(', ')}, got ${JSON.stringify(button)}`);
  return number;
}

/** Runs a pointer action with modifier keys held, releasing keys and buttons whatever happens. */
async function withModifiers<T>(x: X11Connection, modifiers: readonly string[] | undefined, action: (held: HeldInputs) => Promise<T>): Promise<T> {
  const names = (modifiers ?? []).map(parseModifier);
  const run = async (): Promise<T> => {
    const held = new HeldInputs(x);
    try {
      if (names.length > 0) {
        const map = await Keyboard.of(x).current();
        for (const name of names) {
          const { keycode } = map.requireModifierKey(name);
          if (!held.holdsKey(keycode)) await held.pressKey(keycode);
        }
      }
      return await action(held);
    } finally {
      await held.releaseAll();
    }
  };
  // Modifier keys are keyboard input: queue behind (and ahead of) other keyboard actions on this connection.
  return names.length > 0 ? Keyboard.of(x).exclusive(run) : run();
}
