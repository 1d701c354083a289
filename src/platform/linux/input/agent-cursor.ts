// The agent cursor: a small arrow (or another look: a colour, size, icon and label the tools render), drawn above
// every window, that shows where the agent points without moving the user's real pointer. It is an override-redirect
// window (the window manager leaves it alone) shaped like its look (SHAPE bounding region) with an empty SHAPE input
// region, so clicks at its position reach the window below.
import type { RawImage } from '../../../image/raw-image.js';
import type { AgentCursorLook } from '../../desktop.js';
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
const fillRgb = 0xff2a7a;
const outlineRgb = 0x101010;

/** A look ready to draw: its pixels, the point it marks, and its shape as one rectangle per opaque run. */
interface PreparedLook {
  image: RawImage;
  hotspot: { x: number; y: number };
  opacity: number;
  shape: Rectangle[];
}

interface Cursor {
  window: number;
  gc: number;
  look: PreparedLook;
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

/** Shows the agent cursor `id` with its hotspot (the arrow's tip) at `to` and puts it above every other window. */
export async function moveAgentCursor(x: X11Connection, to: Point, id = DEFAULT_CURSOR): Promise<AgentCursorState> {
  const point = screenPoint(x, to, 'the agent cursor position');
  const cursor = await cursorOf(x, id);
  const { hotspot } = cursor.look;
  // Configure before mapping, so it never shows at the old position; raise on every move, since windows
  // activated in between went above it.
  await x.configureWindow(cursor.window, { x: point.x - hotspot.x, y: point.y - hotspot.y, stackMode: 'Above' });
  if (!cursor.state.visible) {
    await x.mapWindow(cursor.window);
    // Drawn now as well as on every Expose, so the look is on the screen when this call returns.
    await draw(x, cursor);
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

/**
 * Gives cursor `id` a new look (undefined: the default arrow), creating it hidden when it does not exist yet. A
 * shown cursor is redrawn in place: its hotspot stays where it pointed.
 */
export async function setAgentCursorLook(x: X11Connection, id: string, look: AgentCursorLook | undefined): Promise<void> {
  const cursor = await cursorOf(x, id);
  cursor.look = look ? prepare(look) : defaultLook();
  const { image, hotspot, opacity, shape } = cursor.look;
  const atoms = await x.atoms(['_NET_WM_WINDOW_OPACITY', 'CARDINAL']);
  await x.checked(async () => {
    await x.configureWindow(cursor.window, { x: cursor.state.x - hotspot.x, y: cursor.state.y - hotspot.y, width: image.width, height: image.height });
    await x.shape.rectangles(cursor.window, 'Bounding', shape);
    // Only a compositing manager blends by this property; without one the cursor is drawn opaque.
    if (opacity < 1) await x.changeProperty(cursor.window, atoms._NET_WM_WINDOW_OPACITY!, atoms.CARDINAL!, 32, cardinal(Math.round(opacity * 0xffffffff)));
    else await x.deleteProperty(cursor.window, atoms._NET_WM_WINDOW_OPACITY!);
    if (cursor.state.visible) await draw(x, cursor);
  });
}

/** Takes cursor `id` off the screen for good (its session ended); a later move creates it afresh. */
export async function removeAgentCursor(x: X11Connection, id: string): Promise<void> {
  const byId = await cursors.existing(x);
  const cursor = await byId?.get(id);
  if (!cursor) return;
  byId!.delete(id);
  await x.destroyWindow(cursor.window);
  await x.freeGC(cursor.gc);
  await x.sync();
}

function draw(x: X11Connection, cursor: Cursor): Promise<void> {
  return x.putRgba(cursor.window, cursor.gc, cursor.look.image, 0, 0);
}

async function createCursor(x: X11Connection, id: string): Promise<Cursor> {
  await x.shape.queryVersion();
  const look = defaultLook();
  const window = await x.createWindow({
    parent: x.screen.root, x: 0, y: 0, width: look.image.width, height: look.image.height,
    backgroundPixel: x.screen.blackPixel,
    overrideRedirect: true,
    // Save-under spares the windows below a repaint each time it moves.
    saveUnder: true,
    eventMask: EventMask.Exposure,
  });
  // The id in the title tells cursors apart for people (and for xwininfo) when several agents act at once.
  const name = Buffer.from(id === DEFAULT_CURSOR ? 'cup-driver agent cursor' : `cup-driver agent cursor (${id})`);
  const atoms = await x.atoms(['WM_NAME', '_NET_WM_NAME', 'UTF8_STRING']);
  const gc = await x.createGC(window, { graphicsExposures: false });
  const cursor: Cursor = { window, gc, look, state: { visible: false, x: 0, y: 0, window } };
  await x.checked(async () => {
    await x.changeProperty(window, atoms.WM_NAME!, atoms.UTF8_STRING!, 8, name);
    await x.changeProperty(window, atoms._NET_WM_NAME!, atoms.UTF8_STRING!, 8, name);
    await x.shape.rectangles(window, 'Bounding', look.shape);
    await x.shape.rectangles(window, 'Input', []);
  });
  // The look is ours to draw whenever it is exposed (the window's background is only what shows before that).
  x.onEvent((event) => {
    if (event.name === 'Expose' && event.window === window && event.count === 0) void draw(x, cursor).catch(() => undefined);
  });
  return cursor;
}

function prepare(look: AgentCursorLook): PreparedLook {
  if (look.image.channels !== 4) throw new Error('an agent cursor look needs RGBA pixels');
  return { image: look.image, hotspot: look.hotspot, opacity: look.opacity, shape: opaqueRuns(look.image) };
}

/** The arrow, tip at the top-left: its outline and fill colours, the rest outside the shape. */
function defaultLook(): PreparedLook {
  const width = arrow[0]!.length;
  const height = arrow.length;
  const data = Buffer.alloc(width * height * 4);
  arrow.forEach((row, y) => {
    [...row].forEach((cell, column) => {
      if (cell === '.') return;
      const rgb = cell === '#' ? fillRgb : outlineRgb;
      data.set([(rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, 255], (y * width + column) * 4);
    });
  });
  return prepare({ image: { width, height, channels: 4, data }, hotspot: { x: 0, y: 0 }, opacity: 1 });
}

/** The pixels at least half opaque, as one rectangle per horizontal run. */
function opaqueRuns(image: RawImage): Rectangle[] {
  const rectangles: Rectangle[] = [];
  for (let y = 0; y < image.height; y++) {
    let start = -1;
    for (let column = 0; column <= image.width; column++) {
      const inside = column < image.width && image.data[(y * image.width + column) * 4 + 3]! >= 128;
      if (inside && start < 0) start = column;
      if (!inside && start >= 0) {
        rectangles.push({ x: start, y, width: column - start, height: 1 });
        start = -1;
      }
    }
  }
  return rectangles;
}

function cardinal(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value >>> 0);
  return bytes;
}
