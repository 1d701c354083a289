import { encodeStateSet } from '../../../cup/atspi/states.js';
import type { CellPosition } from '../../../cup/atspi/raw-node.js';
import type { ObjectRef } from './object-ref.js';

/**
 * What does not change while an accessible object lives: its role, its interfaces, the names of its
 * actions (as long as the states they follow stay, see actionStateKey) and, for list items, tree items,
 * headings and landmarks, its structural attributes. Toolkits rarely reuse an object path for another
 * object while the application runs (atk-bridge counts ids up, GTK4 uses UUIDs), so these facts are kept per
 * path and re-read only for objects not seen before, or forgotten. Qt 5 does reuse them: it gives the next object
 * it makes the lowest id no live object holds, so a context menu opened after an in-place editor closed took the
 * editor's path, and was read as a text (see open-popups.ts, which forgets what it finds that way); a walk of a Qt
 * app asks each object's role and forgets the facts of a path whose role changed (tree-reader.ts, reusesPaths).
 * Whether the object had children last time lets the next walk ask for them without waiting.
 */
export interface ObjectFacts {
  role: number;
  interfaces: string[];
  actions?: string[];
  /** The key binding of the first action (menu items', Qt's buttons': see tree-reader's shortcutRoles), read with the actions and kept as long. */
  keyBinding?: string;
  /** actionStateKey of the states the actions were read under: they are read again when it changes. */
  actionsReadUnder?: number;
  /** Attributes that describe structure (level, landmark kind), kept only for the roles that carry them. */
  attributes?: Readonly<Record<string, string>>;
  hadChildren: boolean;
  /** A table cell's row and column, kept while the children above it stay as listed (see tree-reader's relistedAbove). */
  cellPosition?: CellPosition;
  /** Which children the last walk that listed them found (listingOf): kept attributes of children last as long as it. */
  listing?: number;
}

/** A hash of the children listed, in order (FNV-1a over their paths): tells a list whose items changed from one that did not. */
export function listingOf(children: readonly ObjectRef[]): number {
  let hash = 0x811c9dc5;
  for (const child of children) {
    for (let i = 0; i < child.path.length; i++) hash = Math.imul(hash ^ child.path.charCodeAt(i), 0x01000193) >>> 0;
    hash = Math.imul(hash ^ 0x2c, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The states an action's name may follow. Most toolkits name an action once for the object's life, but
 * Blink names it after what it will do and how: a check box's "check" or "uncheck", a button's "press"
 * only while it is enabled and focusable ("doDefault" or "click" otherwise). Names read under other such
 * states are stale. Checked, enabled, expanded, focusable, pressed, sensitive (word 0) and indeterminate
 * (word 1) are what a control flips; selection, focus and showing are left out, as they change over whole
 * lists at once.
 */
const actionStateMask = encodeStateSet(['STATE_CHECKED', 'STATE_ENABLED', 'STATE_EXPANDED', 'STATE_FOCUSABLE', 'STATE_PRESSED', 'STATE_SENSITIVE', 'STATE_INDETERMINATE']);

export function actionStateKey(states: readonly number[]): number {
  return (((states[0] ?? 0) & actionStateMask[0]) >>> 0) + ((states[1] ?? 0) & actionStateMask[1]) * 2 ** 32;
}

export class ObjectFactsCache {
  private readonly byApp = new Map<string, Map<string, ObjectFacts>>();

  get(ref: ObjectRef): ObjectFacts | undefined {
    return this.byApp.get(ref.bus)?.get(ref.path);
  }

  set(ref: ObjectRef, facts: ObjectFacts): void {
    let app = this.byApp.get(ref.bus);
    if (!app) {
      app = new Map();
      this.byApp.set(ref.bus, app);
    }
    app.set(ref.path, facts);
  }

  /** What is known about one object, whose path may now be another object's. */
  forget(ref: ObjectRef): void {
    this.byApp.get(ref.bus)?.delete(ref.path);
  }

  /** Everything known about an application, once its bus name is gone (it exited or crashed). */
  forgetApplication(bus: string): void {
    this.byApp.delete(bus);
  }
}
