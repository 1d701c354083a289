// Whether a drag has become a drag and drop between X clients (XDND): its source takes the XdndSelection as it
// begins. A web engine begins one only after its page's process has run the page's dragstart, well after the
// pointer moved; a release before that drops nothing (a page's card dragged in 40 ms on a loaded machine stayed).
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import type { Point } from './checks.js';

export interface DragAndDropWatch {
  /** Whether a drag and drop began since the watch started. */
  readonly begun: boolean;
  /** Resolves once one has begun, or after ms; says whether it has. */
  begins(ms: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** A watch that never sees a start, where the server has no XFIXES: the drag runs as it would without one. */
const blind: DragAndDropWatch = { begun: false, begins: async () => false, stop: async () => undefined };

export async function watchDragAndDrop(x: X11Connection): Promise<DragAndDropWatch> {
  let begun = false;
  const waiters = new Set<() => void>();
  const stop = await x.xfixes
    .watchSelection(x.screen.root, await x.internAtom('XdndSelection'), () => {
      begun = true;
      for (const wake of waiters) wake();
    })
    .catch(() => undefined);
  if (!stop) return blind;
  return {
    get begun() {
      return begun;
    },
    async begins(ms) {
      if (begun || ms <= 0) return begun;
      let wake = (): void => undefined;
      const woken = new Promise<void>((resolve) => waiters.add((wake = resolve)));
      await Promise.race([woken, sleep(ms)]);
      waiters.delete(wake);
      return begun;
    },
    stop: () => stop().catch(() => undefined),
  };
}

/**
 * At the drop point, before the release: waits up to withinMs for a drag and drop to begin, moving a pixel to and fro
 * meanwhile (Gecko begins its drag on the move after its page's dragstart, and a hand is never quite still either).
 * Once one has begun, a move at the drop point makes its source tell the window there where the drop would be
 * (XdndPosition), and that window answers whether it takes it: the release waits for that answer.
 */
export async function holdForDrop(watch: DragAndDropWatch, move: (to: Point) => Promise<void>, at: Point, withinMs: number): Promise<void> {
  const limit = Date.now() + withinMs;
  for (let moves = 0; !watch.begun && Date.now() < limit; moves++) {
    await move({ x: at.x + (moves % 2 === 0 ? 1 : 0), y: at.y });
    await watch.begins(Math.min(stillMs, limit - Date.now()));
  }
  if (watch.begun) {
    await move({ x: at.x + 1, y: at.y });
    await sleep(dropAnswerMs);
  }
  await move(at);
  if (watch.begun) await sleep(dropAnswerMs);
}

/** How long the pointer stays still between two moves while a drag and drop is waited for. */
const stillMs = 50;
/** Long enough for a drop target to answer a position (one round trip between two clients, or the app with itself). */
const dropAnswerMs = 40;
