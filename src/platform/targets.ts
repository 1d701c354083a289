// What an action is aimed at, as the tool layer resolves it from a call's arguments and hands it to a backend.
import type { CupRect } from '../cup/types.js';
import type { DesktopWindow } from './windows.js';

declare const opaque: unique symbol;
/**
 * An element as the backend read it (an AT-SPI object on Linux). Callers store it in snapshots and hand it
 * back; only the backend that made it looks inside.
 */
export type ElementHandle = { readonly [opaque]: 'element' };

/** One element of a window snapshot: its index ([eN]) and what the agent saw of it. */
export interface SnapshotElement {
  index: number;
  handle: ElementHandle;
  role: string;
  name: string;
  /** Its description as read then (what one announced again unchanged is told against); none when empty. */
  description?: string;
  /** Its value as read then (a field's text: what one announced again unchanged is told against); none when it has none. */
  value?: string;
  /** Its CUP states as read then (what a state announced again unchanged is told against). */
  states?: readonly string[];
  bounds?: CupRect;
  /** The index of the element it lies in ([eN] of the same snapshot); none for the window's root. */
  parent?: number;
  /** It scrolls what it holds (its CUP actions include scroll): a scroll pane, or a Qt scroll area. */
  scrolls?: true;
  /** It draws items it exposes none of (GTK 4.8's tree and icon views): its pixels alone show what an action did to them. */
  drawsItems?: true;
  /** A surface the app draws itself, with no object for what it shows (CupNode platform drawnSurface): its pixels alone show what an action did there. */
  drawn?: true;
}

/** A window snapshot as plain data: evidence names the elements it holds by their index. */
export interface SnapshotRef {
  id: string;
  pid: number;
  windowId: number;
  /** By index, in document order (indices are not in that order once a window's elements came and went). */
  elements: ReadonlyMap<number, SnapshotElement>;
}

/** An element of a snapshot, in its window as it is now. The backend checks, live, that it is still the object it was. */
export interface ElementTarget {
  kind: 'element';
  snapshot: SnapshotRef;
  element: SnapshotElement;
  window: DesktopWindow;
}

export interface PointTarget {
  kind: 'point';
  window: DesktopWindow;
  /** The window's latest snapshot: the evidence names the elements it holds by their index. */
  snapshot?: SnapshotRef;
  /** Real window pixels (after undoing screenshot downscaling and zoom). */
  windowX: number;
  windowY: number;
  screenX: number;
  screenY: number;
}

export type DeliveryMode = 'background' | 'foreground';
export type PointerKind = 'click' | 'double_click' | 'right_click';

/** How a pointer gesture is sent: `count` 3 makes a click a triple click (a double click is a kind of its own). */
export interface PointerOptions {
  mode: DeliveryMode;
  modifiers: readonly string[];
  count?: 3;
  /**
   * Settled once the caller may have the gesture sent (its reading before the action is done); rejected when the
   * caller refuses the action. What the gesture only reads (its element, its action, the values it reads back)
   * goes on meanwhile; nothing is sent before it settles, and nothing at all when it rejects.
   */
  ready?: Promise<void>;
}
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';
