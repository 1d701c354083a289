// The agent cursor: a small arrow, drawn above every window, that shows where the agent points without moving the
// user's real pointer. It is an override-redirect window (the window manager leaves it alone) shaped like an arrow
// (SHAPE bounding region) with an empty SHAPE input region, so clicks at its position reach the window below.
import { EventMask, type Rectangle, type X11Connection } from '../x11/index.js';
import { screenPoint, type Point } from './checks.js';
import { PerConnection } from './per-connection.js';

export interface AgentCursorState {
  visible: boolean;
  /** The arrow's tip, in root-window pixels (meaningful once it has been moved). */
  x: number;
  y: number;
  /** Its window, once created. */
  window: number | undefined;
}

// The arrow, tip at the top-left: "o" outline, "#" fill, "." outside the shape.
const arrow = [
  'o...........',
  'oo..........',
  'o#o.........',
  'o##o........',
  'o###o.......',
  'o####o......',
  'o#####o.....',
  'o######o....',
  'o#######o...',
  'o########o..',
  'o#########o.',
  'o######ooooo',
  'o###o##o....',
  'o##o.o##o...',
  'o#o..o##o...',
  'oo....o##o..',
  'o.....o##o..',
  '.......oo...',
];
const width = arrow[0]!.length;
const height = arrow.length;
const fillRgb = 0xff2a7a;
const outlineRgb = 0x101010;

interface Cursor {
  window: number;
  gc: number;
  fill: Rectangle[];
  state: AgentCursorState;
}

/** The id of the cursor a caller gets when it names none. */
export const DEFAULT_CURSOR = 'default';

/** Each connection's cursors by id: every agent session draws its own. */
const cursors = new PerConnection(async () => new Map<string, Promise<Cursor>>());

async function cursorOf(x: X11Connection, id: string): Promise<Cursor> {
  const byId = await cursors.of(x);
  let cursor = byId.get(id);
  if (!cursor) {
    cursor = createCursor(x, id);
    // A failed creation is forgotten so that the next move retries.
    cursor.catch(() => byId.delete(id));
    byId.set(id, cursor);
  }
  return cursor;
}

async function existingCursor(x: X11Connection, id: string): Promise<Cursor | undefined> {
  const byId = cursors.existing(x);
  return byId ? (await byId).get(id) : undefined;
}

/** Shows the agent cursor `id` with its tip at `to` and puts it above every other window. */
export async function moveAgentCursor(x: X11Connection, to: Point, id = DEFAULT_CURSOR): Promise<AgentCursorState> {
  const point = screenPoint(x, to, 'the agent cursor position');
  const cursor = await cursorOf(x, id);
  // Configure before mapping, so it never shows at the old position; raise on every move, since windows
  // activated in between went above it.
  await x.configureWindow(cursor.window, { x: point.x, y: point.y, stackMode: 'Above' });
  if (!cursor.state.visible) {
    await x.mapWindow(cursor.window);
    // Drawn now as well as on every Expose, so the fill is on the screen when this call returns.
    await x.polyFillRectangle(cursor.window, cursor.gc, cursor.fill);
  }
  await x.sync();
  cursor.state = { visible: true, x: point.x, y: point.y, window: cursor.window };
  return { ...cursor.state };
}

export async function hideAgentCursor(x: X11Connection, id = DEFAULT_CURSOR): Promise<void> {
  const cursor = await existingCursor(x, id);
  if (!cursor?.state.visible) return;
  await x.unmapWindow(cursor.window);
  await x.sync();
  cursor.state = { ...cursor.state, visible: false };
}

/** Where the agent cursor `id` is and whether it shows; resolves immediately when it was never created. */
export async function agentCursorState(x: X11Connection, id = DEFAULT_CURSOR): Promise<AgentCursorState> {
  const cursor = await existingCursor(x, id);
  return cursor ? { ...cursor.state } : { visible: false, x: 0, y: 0, window: undefined };
}

async function createCursor(x: X11Connection, id: string): Promise<Cursor> {
  await x.shape.queryVersion();
  const window = await x.createWindow({
    parent: x.screen.root, x: 0, y: 0, width, height,
    backgroundPixel: pixel(x, outlineRgb),
    overrideRedirect: true,
    // Save-under spares the windows below a repaint each time it moves.
    saveUnder: true,
    eventMask: EventMask.Exposure,
  });
  // The id in the title tells cursors apart for people (and for xwininfo) when several agents act at once.
  const name = Buffer.from(id === DEFAULT_CURSOR ? 'cup-driver agent cursor' : `cup-driver agent cursor (${id})`);
  const atoms = await x.atoms(['WM_NAME', '_NET_WM_NAME', 'UTF8_STRING']);
  const gc = await x.createGC(window, { foreground: pixel(x, fillRgb), graphicsExposures: false });
  const fill = runs('#');
  await x.checked(async () => {
    await x.changeProperty(window, atoms.WM_NAME, atoms.UTF8_STRING, 8, name);
    await x.changeProperty(window, atoms._NET_WM_NAME, atoms.UTF8_STRING, 8, name);
    await x.shape.rectangles(window, 'Bounding', runs('#o'));
    await x.shape.rectangles(window, 'Input', []);
  });
  // The server paints the outline colour (the background) itself; the fill is ours to draw whenever it is exposed.
  x.onEvent((event) => {
    if (event.name === 'Expose' && event.window === window && event.count === 0) void x.polyFillRectangle(window, gc, fill).catch(() => undefined);
  });
  return { window, gc, fill, state: { visible: false, x: 0, y: 0, window } };
}

/** The arrow's cells of the given kinds as one rectangle per horizontal run. */
function runs(kinds: string): Rectangle[] {
  const rectangles: Rectangle[] = [];
  arrow.forEach((row, y) => {
    let start = -1;
    for (let column = 0; column <= row.length; column++) {
      const inside = column < row.length && kinds.includes(row[column]!);
      if (inside && start < 0) start = column;
      if (!inside && start >= 0) {
        rectangles.push({ x: start, y, width: column - start, height: 1 });
        start = -1;
      }
    }
  });
  return rectangles;
}

/** A 0xRRGGBB colour as a pixel of the screen's visual; on a visual without colour masks, black or white. */
function pixel(x: X11Connection, rgb: number): number {
  const visual = x.findVisual(x.screen.rootVisual);
  if (!visual || (visual.class !== 'TrueColor' && visual.class !== 'DirectColor')) {
    return (rgb & 0xffffff) > 0x808080 ? x.screen.whitePixel : x.screen.blackPixel;
  }
  const channel = (value: number, mask: number): number => {
    const shift = Math.log2(mask & -mask);
    const max = mask >>> shift;
    return (Math.round((value / 255) * max) << shift) >>> 0;
  };
  return (channel((rgb >> 16) & 0xff, visual.redMask) | channel((rgb >> 8) & 0xff, visual.greenMask) | channel(rgb & 0xff, visual.blueMask)) >>> 0;
}
