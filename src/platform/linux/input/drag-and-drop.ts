// Whether a drag has become a drag and drop between X clients (XDND), and whether the window under it would take
// the drop. Its source takes the XdndSelection as it begins: a web engine begins one only after its page's process
// has run the page's dragstart, well after the pointer moved, and a release before that drops nothing (a page's
// card dragged in 40 ms on a loaded machine stayed). GTK's sources then show the target's answer by their cursor,
// "dnd-none" until it takes the drop, "dnd-move" (or copy, link) once it does, and a release before that answer
// aborts the drop.
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import type { Point } from './checks.js';

export interface DragAndDropWatch {
  /** Whether a drag and drop began since the watch started. */
  readonly begun: boolean;
  /** Resolves once one has begun, or after ms; says whether it has. */
  begins(ms: number): Promise<boolean>;
  /**
   * Resolves once the source's cursor says the window under it takes the drop, or after ms; at once when no
   * drag-and-drop cursor has shown within answerShowsMs (a source that shows none, as Chromium's, says nothing).
   */
  taken(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/** A watch that never sees a start, where the server has no XFIXES: the drag runs as it would without one. */
const blind: DragAndDropWatch = { begun: false, begins: async () => false, taken: async () => undefined, stop: async () => undefined };

/** The named cursors of a drag whose target would take the drop (GTK's dnd-*, and the freedesktop cursor names). */
const takingCursor = /^(?:dnd-(?:move|copy|link|ask)|move|copy|alias|link)$/;

export async function watchDragAndDrop(x: X11Connection): Promise<DragAndDropWatch> {
  let begun = false;
  /** The drag-and-drop cursor shown last, if any has shown. */
  let cursor: string | undefined;
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  // Each wait is woken by the next event only: a wake that did not make `done` true waits again, for the next one.
  const until = async (done: () => boolean, ms: number) => {
    const limit = Date.now() + ms;
    while (!done() && Date.now() < limit) {
      let wake = (): void => undefined;
      const woken = new Promise<void>((resolve) => waiters.add((wake = resolve)));
      await Promise.race([woken, sleep(limit - Date.now())]);
      waiters.delete(wake);
    }
  };
  const stopSelection = await x.xfixes
    .watchSelection(x.screen.root, await x.internAtom('XdndSelection'), () => {
      begun = true;
      wakeAll();
    })
    .catch(() => undefined);
  if (!stopSelection) return blind;
  const stopCursor = await x.xfixes
    .watchCursor(x.screen.root, (change) => {
      if (change.name === 0) return;
      void x.getAtomName(change.name).then((name) => {
        if (!name.startsWith('dnd-') && !takingCursor.test(name)) return;
        cursor = name;
        wakeAll();
      }, () => undefined);
    })
    .catch(() => undefined);
  return {
    get begun() {
      return begun;
    },
    async begins(ms) {
      await until(() => begun, ms);
      return begun;
    },
    async taken(ms) {
      const limit = Date.now() + ms;
      await until(() => cursor !== undefined, Math.min(ms, answerShowsMs));
      if (cursor !== undefined) await until(() => takingCursor.test(cursor!), limit - Date.now());
    },
    stop: async () => {
      await Promise.all([stopCursor?.(), stopSelection()].map((stopping) => stopping?.catch(() => undefined)));
    },
  };
}

/**
 * At the drop point, before the release: waits up to withinMs for a drag and drop to begin, moving a pixel to and fro
 * meanwhile (Gecko begins its drag on the move after its page's dragstart, and a hand is never quite still either).
 * Once one has begun, a move at the drop point makes its source tell the window there where the drop would be
 * (XdndPosition), and that window answers whether it takes it: the release waits for that answer, as a person waits
 * for the cursor to say so, up to answerMs (a window that refuses the drop is then dropped on all the same, and
 * what it did is judged as any drop's).
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
  if (watch.begun) {
    await sleep(dropAnswerMs);
    await watch.taken(answerMs);
  }
}

/** How long the pointer stays still between two moves while a drag and drop is waited for. */
const stillMs = 50;
/** Long enough for a drop target to answer a position (one round trip between two clients, or the app with itself). */
const dropAnswerMs = 40;
/** How long a drag-and-drop cursor is looked for before the source is taken for one that shows none. */
const answerShowsMs = 150;
/** The longest wait for the target's answer, once the source shows drag-and-drop cursors. */
const answerMs = 1000;
