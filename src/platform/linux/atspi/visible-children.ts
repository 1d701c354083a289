import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import { overlap } from '../../../cup/rect.js';
import { unknownCoordinate, type AtspiRawNode, type UnreadChildren } from '../../../cup/atspi/raw-node.js';
import { atspiInterface, NULL_PATH, type ObjectRef } from './object-ref.js';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One bounded call of the walk; undefined when the object lacks what was asked. */
export type WalkCall = (ref: ObjectRef, iface: string, member: string, signature?: string, body?: unknown[]) => Promise<unknown[] | undefined>;

export interface Container extends ObjectRef {
  childCount: number;
  interfaces: readonly string[];
  managesDescendants: boolean;
}

export interface VisibleChildren {
  refs: ObjectRef[];
  unread: UnreadChildren;
}

/**
 * More children than a screen can show at a legible size (a list of 100,000 rows). Reading them all costs
 * calls per child and, in GTK3, time per call that grows with the child count (its containers find a
 * child by walking the whole list), so such a container is read by the part that is on screen.
 */
const manyChildren = 1000;
/**
 * A container that manages its descendants (a spreadsheet, a tree view) creates a child object when
 * asked for it; a few screens' worth is still read whole, beyond that only the visible part.
 */
const manyManagedChildren = 200;
/** Children read at most from one container when its visible part cannot be found: the first ones. */
const blindReadLimit = 100;
/** Points tried from each corner of the visible part, inward, before giving up on hit testing. */
const probeInsets = [1, 8, 24, 48, 96];
/** Rows or columns a table's block is widened by at most when the probes stepped over visible ones. */
const widenLimit = 16;
/** Ancestors above the list looked at for the scroll bar that says how far it is scrolled (viewport, scrolled window). */
const scrollBarDepth = 3;
/** Children an ancestor may have to be searched for its scroll bar (a scrolled window has two or three). */
const scrollBarSiblings = 16;

export function readsVisiblePartOnly(container: Container): boolean {
  return container.childCount > manyChildren || (container.managesDescendants && container.childCount > manyManagedChildren);
}

/** Extents that place an object: toolkits report -1x-1, 0x0 or -2^31 (plus an offset) for what has no place. */
export function placedExtents(extents: Rect | undefined): Rect | undefined {
  if (!extents || extents.w <= 0 || extents.h <= 0) return undefined;
  if (unknownCoordinate(extents.x) || unknownCoordinate(extents.y)) return undefined;
  return extents;
}

function noneUnread(): UnreadChildren {
  return { up: 0, down: 0, left: 0, right: 0 };
}

function asRef(value: unknown): ObjectRef | undefined {
  const pair = value as [string, string] | undefined;
  return Array.isArray(pair) && pair[1] !== NULL_PATH ? { bus: pair[0], path: pair[1] } : undefined;
}

function asNumber(value: unknown): number | undefined {
  const number = Number(value);
  return value !== undefined && Number.isInteger(number) ? number : undefined;
}

function asRect(value: unknown): Rect | undefined {
  const [x, y, w, h] = (value as number[] | undefined) ?? [];
  return placedExtents(h === undefined ? undefined : { x: x!, y: y!, w: w!, h });
}

/**
 * The children of a container with far more of them than can be shown, limited to those on screen
 * (`view` is the part of the container that is visible, in the toolkit's coordinates), with a count of
 * the rest by where they lie. The children are the real objects, so actions on them reach the app.
 *
 * Ways to find the visible range, cheapest first:
 * - A table answers hit tests itself (a spreadsheet cannot list its cells), so the cells at the corners
 *   of the view give its rows and columns. Lists are never hit-tested: the generic hit test (GTK3's list
 *   box, although it says it manages its descendants) tries every child in turn, and in GTK3 finding one
 *   child walks the whole list, so one hit test on a scrolled list of 100,000 rows takes minutes.
 * - A list whose children report where they are even off screen is searched by their extents.
 * - A list whose children off screen have no position (GTK3: -2^31) is probed near the index its scroll
 *   bar points at for a child that is SHOWING, then the run of showing children around it is followed.
 * - Failing all of these, the first children are read and the rest counted below.
 */
export async function visibleChildren(call: WalkCall, container: Container, view: Rect | undefined, limit: number): Promise<VisibleChildren> {
  const count = container.childCount;
  if (!view) return { refs: [], unread: { ...noneUnread(), down: count } };
  const reader = new RangeReader(call, container, view, Math.max(0, limit));
  const component = container.interfaces.includes('Component');
  const found =
    (component && container.interfaces.includes('Table') ? await reader.byHitTest() : undefined) ??
    (component ? await reader.byExtents() : undefined) ??
    (await reader.byScrollPosition());
  return found ?? reader.listRange(0, blindReadLimit - 1);
}

/**
 * Children a container read as visible that are SHOWING but report a place outside the container's
 * visible part are misplaced by the toolkit: GTK3 wraps positions past 2^16 px of scrolling, so row
 * 50,000 of a list says it is a million pixels down while it is on screen. Their extents, and those of
 * their descendants placed as wrongly, are dropped: they read as shown, with no known place.
 */
export function dropMisplacedExtents(container: AtspiRawNode, view: Rect): void {
  const drop = (node: AtspiRawNode) => {
    const own = placedExtents(node.extents);
    if (!own || overlap(view, own)) return;
    node.extents = undefined;
    node.children.forEach(drop);
  };
  for (const child of container.children) if (hasState(child.states, ATSPI_STATE.SHOWING)) drop(child);
}

/** A table's cell under a point. */
interface Hit {
  index: number;
  row: number;
  column: number;
}

/** A question about one child that may go unanswered (the child or its state could not be read). */
type ChildTest = (index: number) => Promise<boolean | undefined>;

class Unanswered extends Error {}

class RangeReader {
  /** Children already asked for, by index: each costs a walk of the list in GTK3. */
  private readonly known = new Map<number, Promise<ObjectRef | undefined>>();

  constructor(
    private readonly call: WalkCall,
    private readonly container: Container,
    private readonly view: Rect,
    private readonly limit: number,
  ) {}

  async byHitTest(): Promise<VisibleChildren | undefined> {
    const { x, y, w, h } = this.view;
    const right = x + w - 1;
    const bottom = y + h - 1;
    const [first, last] = await Promise.all([
      this.cellAt(probeInsets.map((inset) => [x + 1, y + inset])),
      this.cellAt(probeInsets.flatMap((inset) => [[right - 1, bottom - inset], [x + 1, bottom - inset]])),
    ]);
    return first ? this.tableBlock(first, last ?? first) : undefined;
  }

  /**
   * The first child that reaches below the top of the view and the first that starts below its bottom.
   * A child without a place on screen ends the search: the order cannot be judged from it.
   */
  async byExtents(): Promise<VisibleChildren | undefined> {
    const top = this.view.y;
    const bottom = this.view.y + this.view.h;
    const count = this.container.childCount;
    try {
      const first = await this.firstWhere(0, count, Math.floor(count / 2), async (index) => {
        const box = await this.extentsOf(index);
        return box && box.y + box.h > top;
      });
      const height = first < count ? (await this.extentsOf(first))?.h : undefined;
      const guess = first + Math.ceil(this.view.h / Math.max(1, height ?? this.view.h));
      const end = await this.firstWhere(first, count, guess, async (index) => {
        const box = await this.extentsOf(index);
        return box && box.y >= bottom;
      });
      return this.listRange(first, end - 1);
    } catch (error) {
      if (error instanceof Unanswered) return undefined;
      throw error;
    }
  }

  /**
   * For a list whose children off screen have no position: near the index the scroll bar points at,
   * outward by doubling steps, the first child that is SHOWING; then the ends of the run of showing
   * children around it (the visible children of a list are consecutive).
   */
  async byScrollPosition(): Promise<VisibleChildren | undefined> {
    const fraction = await this.scrolledFraction();
    if (fraction === undefined) return undefined;
    const count = this.container.childCount;
    const estimate = Math.min(count - 1, Math.floor(fraction * count));
    const showing: ChildTest = async (index) => hasState(await this.statesOf(index), ATSPI_STATE.SHOWING);
    let anchor: number | undefined;
    for (let step = 0; anchor === undefined && step < count; step = step === 0 ? 1 : step * 2) {
      const candidates = step === 0 ? [estimate] : [estimate + step, estimate - step].filter((index) => index >= 0 && index < count);
      const answers = await Promise.all(candidates.map(showing));
      if (answers.some((answer) => answer === undefined)) return undefined;
      anchor = candidates.find((_, place) => answers[place]);
    }
    if (anchor === undefined) return undefined;
    try {
      const height = (await this.extentsOf(anchor))?.h;
      const run = Math.ceil(this.view.h / Math.max(1, height ?? this.view.h));
      const [first, end] = await Promise.all([
        this.firstWhere(0, anchor, anchor, showing),
        this.firstWhere(anchor + 1, count, anchor + run, async (index) => {
          const answer = await showing(index);
          return answer === undefined ? undefined : !answer;
        }),
      ]);
      return this.listRange(first, end - 1);
    } catch (error) {
      if (error instanceof Unanswered) return undefined;
      throw error;
    }
  }

  /** Children `first` to `last` (within the node limit), with the rest counted above and below. */
  async listRange(first: number, last: number): Promise<VisibleChildren> {
    const count = this.container.childCount;
    const end = Math.min(last, first + this.limit - 1, count - 1);
    const refs: Promise<ObjectRef | undefined>[] = [];
    for (let index = first; index <= end; index++) refs.push(this.childAt(index));
    const read = (await Promise.all(refs)).filter((ref): ref is ObjectRef => ref !== undefined);
    const up = Math.min(first, count);
    return { refs: read, unread: { ...noneUnread(), up, down: Math.max(0, count - up - read.length) } };
  }

  /**
   * The smallest index in [low, high] whose test holds, for a test that fails below some index and holds
   * from it on (high when it holds nowhere below high). It starts at `guess` and widens by doubling steps
   * before halving, so a good guess costs two tests instead of a search over the whole list.
   */
  private async firstWhere(low: number, high: number, guess: number, test: ChildTest): Promise<number> {
    const holds = async (index: number) => {
      const answer = await test(index);
      if (answer === undefined) throw new Unanswered();
      return answer;
    };
    let below = low - 1; // the test fails here (or it is before the range)
    let from = high; // the test holds here (or it is past the range)
    const start = Math.min(Math.max(guess, low), high - 1);
    if (start >= low) {
      if (await holds(start)) {
        from = start;
        for (let step = 1; below < from - 1; step *= 2) {
          const index = Math.max(below + 1, from - step);
          if (await holds(index)) from = index;
          else {
            below = index;
            break;
          }
        }
      } else {
        below = start;
        for (let step = 1; below < from - 1; step *= 2) {
          const index = Math.min(from - 1, below + step);
          if (await holds(index)) {
            from = index;
            break;
          }
          below = index;
        }
      }
    }
    while (from - below > 1) {
      const middle = Math.floor((below + from) / 2);
      if (await holds(middle)) from = middle;
      else below = middle;
    }
    return from;
  }

  /**
   * The fraction of the scrolled content above the view, from the vertical scroll bar beside the list or
   * one of its nearest ancestors. A scroll bar's maximum is the content height less the page (GTK3, Qt),
   * and the page is the view.
   */
  private async scrolledFraction(): Promise<number | undefined> {
    let ancestor = asRef(await this.property(this.container, 'Accessible', 'Parent'));
    for (let level = 0; ancestor && level < scrollBarDepth; level++) {
      const current: ObjectRef = ancestor;
      const [count, parent] = await Promise.all([this.property(current, 'Accessible', 'ChildCount'), this.property(current, 'Accessible', 'Parent')]);
      const siblings = Number(count) > 0 && Number(count) <= scrollBarSiblings ? Number(count) : 0;
      for (let index = 0; index < siblings; index++) {
        const child = asRef((await this.call(current, atspiInterface('Accessible'), 'GetChildAtIndex', 'i', [index]))?.[0]);
        if (!child || asNumber((await this.call(child, atspiInterface('Accessible'), 'GetRole'))?.[0]) !== ATSPI_ROLE.SCROLL_BAR) continue;
        const states = (await this.call(child, atspiInterface('Accessible'), 'GetState'))?.[0] as number[] | undefined;
        if (!hasState(states, ATSPI_STATE.VERTICAL)) continue;
        const [value, min, max] = await Promise.all(['CurrentValue', 'MinimumValue', 'MaximumValue'].map((name) => this.property(child, 'Value', name)));
        const range = Number(max) - Number(min);
        const scrolled = Number(value) - Number(min);
        if (range > 0 && Number.isFinite(scrolled)) return Math.min(1, Math.max(0, scrolled / (range + this.view.h)));
      }
      ancestor = asRef(parent);
    }
    return undefined;
  }

  /** The first point that hits a cell of the table (one of its own children, in a row and a column). */
  private async cellAt(points: number[][]): Promise<Hit | undefined> {
    const table = atspiInterface('Table');
    for (const [px, py] of points) {
      if (px! < this.view.x || py! < this.view.y || px! >= this.view.x + this.view.w || py! >= this.view.y + this.view.h) continue;
      const hit = asRef((await this.call(this.container, atspiInterface('Component'), 'GetAccessibleAtPoint', 'iiu', [px, py, 0]))?.[0]);
      if (!hit || hit.path === this.container.path) continue;
      const [index, parent] = await Promise.all([
        this.call(hit, atspiInterface('Accessible'), 'GetIndexInParent').then((body) => asNumber(body?.[0])),
        this.property(hit, 'Accessible', 'Parent').then(asRef),
      ]);
      if (index === undefined || index < 0 || parent?.path !== this.container.path) continue;
      const [row, column] = await Promise.all([
        this.call(this.container, table, 'GetRowAtIndex', 'i', [index]).then((body) => asNumber(body?.[0])),
        this.call(this.container, table, 'GetColumnAtIndex', 'i', [index]).then((body) => asNumber(body?.[0])),
      ]);
      // A column header is a child of a GTK3 tree view but in no row: look further in.
      if (row !== undefined && row >= 0 && column !== undefined && column >= 0) return { index, row, column };
    }
    return undefined;
  }

  /**
   * The cells of the rows and columns between two visible cells, and the children that come before the
   * first cell (a tree view's column headers). The rest is counted by direction: rows above and below,
   * and beside the visible rows the columns to the left and right.
   */
  private async tableBlock(from: Hit, to: Hit): Promise<VisibleChildren> {
    const table = atspiInterface('Table');
    const [rowCount, columnCount, firstCell] = await Promise.all([
      this.property(this.container, 'Table', 'NRows').then(asNumber),
      this.property(this.container, 'Table', 'NColumns').then(asNumber),
      this.call(this.container, table, 'GetIndexAt', 'ii', [0, 0]).then((body) => asNumber(body?.[0])),
    ]);
    const columns = columnCount ?? 0;
    const rows = rowCount ?? 0;
    const leading = Math.max(0, Math.min(firstCell ?? 0, from.index, this.limit));
    // A probe that first hit a cell below the column headers may have stepped over a row above it.
    let top = await this.widen(Math.min(from.row, to.row), -1, rows, (row) => this.cellInView(row, from.column));
    let left = await this.widen(Math.min(from.column, to.column), -1, columns, (column) => this.cellInView(from.row, column));
    const bottom = await this.widen(Math.max(from.row, to.row), 1, rows, (row) => this.cellInView(row, from.column));
    const right = await this.widen(Math.max(from.column, to.column), 1, columns, (column) => this.cellInView(from.row, column));
    top = Math.max(0, top);
    left = Math.max(0, left);
    const width = right - left + 1;
    // Whole rows within the node limit, at least one.
    const height = Math.max(1, Math.min(bottom - top + 1, Math.floor((this.limit - leading) / width)));
    const replies: Promise<ObjectRef | undefined>[] = [];
    for (let index = 0; index < leading; index++) replies.push(this.childAt(index));
    for (let row = top; row < top + height; row++) {
      for (let column = left; column < left + width; column++) {
        replies.push(this.call(this.container, table, 'GetAccessibleAt', 'ii', [row, column]).then((body) => asRef(body?.[0])));
      }
    }
    const refs = (await Promise.all(replies)).filter((ref): ref is ObjectRef => ref !== undefined);
    // A sheet has more cells (2^20 rows of 2^14 columns) than the 32-bit child count can say.
    const total = Math.max(this.container.childCount, leading + rows * columns);
    const up = top * columns;
    const leftCount = height * left;
    const rightCount = height * Math.max(0, columns - left - width);
    return { refs, unread: { up, left: leftCount, right: rightCount, down: Math.max(0, total - refs.length - up - leftCount - rightCount) } };
  }

  /** Moves an edge of a table's block outward while the next row or column still has a cell in view. */
  private async widen(edge: number, step: 1 | -1, count: number, inView: (index: number) => Promise<boolean>): Promise<number> {
    for (let moves = 0; moves < widenLimit; moves++) {
      const next = edge + step;
      if (next < 0 || next >= count || !(await inView(next))) break;
      edge = next;
    }
    return edge;
  }

  private async cellInView(row: number, column: number): Promise<boolean> {
    const cell = asRef((await this.call(this.container, atspiInterface('Table'), 'GetAccessibleAt', 'ii', [row, column]))?.[0]);
    const box = cell && asRect((await this.call(cell, atspiInterface('Component'), 'GetExtents', 'u', [0]))?.[0]);
    return Boolean(box && overlap(this.view, box));
  }

  private childAt(index: number): Promise<ObjectRef | undefined> {
    let child = this.known.get(index);
    if (!child) {
      child = this.call(this.container, atspiInterface('Accessible'), 'GetChildAtIndex', 'i', [index]).then((body) => asRef(body?.[0]));
      this.known.set(index, child);
    }
    return child;
  }

  private async extentsOf(index: number): Promise<Rect | undefined> {
    const child = await this.childAt(index);
    return child && asRect((await this.call(child, atspiInterface('Component'), 'GetExtents', 'u', [0]))?.[0]);
  }

  private async statesOf(index: number): Promise<number[] | undefined> {
    const child = await this.childAt(index);
    return child && ((await this.call(child, atspiInterface('Accessible'), 'GetState'))?.[0] as number[] | undefined);
  }

  private async property(ref: ObjectRef, iface: string, name: string): Promise<unknown> {
    const body = await this.call(ref, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface(iface), name]);
    return (body?.[0] as { value: unknown } | undefined)?.value;
  }
}
