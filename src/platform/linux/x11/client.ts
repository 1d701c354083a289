// X11Connection: the public face of a connection, one method per request, over the machinery in connection.ts.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { AnyPropertyType, AtomCache } from './atoms.js';
import { X11Core, type RequestOptions } from './connection.js';
import { parseDisplay } from './display.js';
import { encodeChangeGC, encodeCreateGC, encodePolyFillRectangle, type GCValues, type Rectangle } from './drawing.js';
import { idRequest, requestBuffer } from './encode.js';
import type { X11Error } from './errors.js';
import type { X11Event } from './events.js';
import { enableBigRequests } from './extensions/big-requests.js';
import { Composite } from './extensions/composite.js';
import { ExtensionRegistry, type ExtensionInfo } from './extensions/registry.js';
import { Shape } from './extensions/shape.js';
import { XInput2 } from './extensions/xinput2.js';
import { Xkb } from './extensions/xkb.js';
import { XFixes } from './extensions/xfixes.js';
import { XRes } from './extensions/xres.js';
import { XTest } from './extensions/xtest.js';
import { connectSocket, handshake, SetupInterruptedError } from './handshake.js';
import { encodeGetImage, encodePutImage, fromRgba, parseGetImage, type GetImageOptions, type Image } from './image.js';
import {
  encodeGrabKeyboard,
  encodeSendEvent,
  encodeSetInputFocus,
  encodeWarpPointer,
  parseGetInputFocus,
  parseGrabStatus,
  parseQueryPointer,
  type GrabStatus,
  type InputFocus,
  type PointerState,
  type RevertTo,
} from './input.js';
import {
  encodeChangeKeyboardMapping,
  encodeGetKeyboardMapping,
  parseKeyboardMapping,
  parseModifierMapping,
  parseQueryKeymap,
  type KeyboardMapping,
  type ModifierMapping,
} from './keyboard.js';
import { Opcode } from './opcodes.js';
import {
  encodeChangeProperty,
  encodeDeleteProperty,
  encodeGetProperty,
  parseGetProperty,
  propertyItems,
  propertyText,
  type GetPropertyOptions,
  type PropertyMode,
  type PropertyValue,
} from './properties.js';
import { encodeConvertSelection, encodeGetSelectionOwner, encodeSetSelectionOwner, parseGetSelectionOwner } from './selections.js';
import type { Screen, Setup, Visual } from './setup.js';
import {
  encodeChangeWindowAttributes,
  encodeConfigureWindow,
  encodeCreateWindow,
  encodeTranslateCoordinates,
  parseGeometry,
  parseQueryTree,
  parseTranslateCoordinates,
  parseWindowAttributes,
  type ConfigureValues,
  type CreateWindowOptions,
  type Geometry,
  type Translation,
  type Tree,
  type WindowAttributes,
  type WindowAttributeValues,
} from './windows.js';

export interface ConnectOptions {
  /** Display name; defaults to the DISPLAY environment variable. */
  display?: string;
  /** Deadline for connecting and for each reply, in ms (default 2000). */
  timeoutMs?: number;
  /** Environment to read DISPLAY, XAUTHORITY and HOME from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const setupRetryDelayMs = 25;

export class X11Connection {
  readonly display: string;
  readonly setup: Setup;
  readonly screens: Screen[];
  /** The screen DISPLAY names (":0.1" is screen 1). */
  readonly screen: Screen;
  readonly xtest: XTest;
  readonly composite: Composite;
  readonly shape: Shape;
  readonly xinput2: XInput2;
  readonly xkb: Xkb;
  readonly xres: XRes;
  readonly xfixes: XFixes;

  private readonly core: X11Core;
  private readonly atomCache: AtomCache;
  private readonly extensions: ExtensionRegistry;
  private lastId = 0;

  private constructor(core: X11Core, screen: Screen) {
    this.core = core;
    this.display = core.display;
    this.setup = core.setup;
    this.screens = core.setup.screens;
    this.screen = screen;
    this.atomCache = new AtomCache(core);
    this.extensions = new ExtensionRegistry(core);
    this.xtest = new XTest(core, this.extensions);
    this.composite = new Composite(core, this.extensions, () => this.allocateId());
    this.shape = new Shape(core, this.extensions);
    this.xinput2 = new XInput2(core, this.extensions);
    this.xkb = new Xkb(core, this.extensions);
    this.xres = new XRes(core, this.extensions);
    this.xfixes = new XFixes(core, this.extensions);
  }

  static async connect(options: ConnectOptions = {}): Promise<X11Connection> {
    const env = options.env ?? process.env;
    const target = parseDisplay(options.display ?? env.DISPLAY);
    const timeoutMs = options.timeoutMs ?? 2000;
    const deadline = performance.now() + timeoutMs;
    let opened: { socket: Socket; setup: Setup; leftover: Buffer } | undefined;
    while (!opened) {
      const remaining = Math.max(1, Math.ceil(deadline - performance.now()));
      const socket = await connectSocket(target, remaining);
      try {
        opened = { socket, ...(await handshake(socket, target, remaining, env, timeoutMs)) };
      } catch (error) {
        // A server resetting after its last client left drops new connections for a moment; retry briefly.
        if (!(error instanceof SetupInterruptedError) || performance.now() + setupRetryDelayMs >= deadline) throw error;
        await delay(setupRetryDelayMs);
      }
    }
    const { socket, setup, leftover } = opened;
    const screen = setup.screens[target.screen];
    if (!screen) {
      socket.destroy();
      throw new Error(`DISPLAY=${target.name} names screen ${target.screen}, but the server has ${setup.screens.length} screen(s)`);
    }
    const connection = new X11Connection(new X11Core(socket, target.name, setup, timeoutMs, leftover), screen);
    try {
      await enableBigRequests(connection.core, connection.extensions);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  /** Default reply deadline in ms; changing it affects requests sent afterwards. */
  get timeoutMs(): number {
    return this.core.timeoutMs;
  }

  set timeoutMs(value: number) {
    this.core.timeoutMs = value;
  }

  get closed(): boolean {
    return this.core.closed;
  }

  /** A fresh resource id (window, GC, pixmap) from this client's id range. */
  allocateId(): number {
    const mask = this.setup.resourceIdMask;
    const step = mask & -mask;
    const offset = ++this.lastId * step;
    if (offset > mask) throw new Error(`X11 connection to DISPLAY=${this.display} has used all ${mask / step} resource ids`);
    return (this.setup.resourceIdBase | offset) >>> 0;
  }

  findVisual(visualId: number): Visual | undefined {
    for (const screen of this.screens) {
      for (const depth of screen.depths) {
        const visual = depth.visuals.find((candidate) => candidate.visualId === visualId);
        if (visual) return visual;
      }
    }
    return undefined;
  }

  // --- atoms

  async internAtom(name: string, onlyIfExists = false): Promise<number> {
    return this.atomCache.intern(name, onlyIfExists);
  }

  async getAtomName(atom: number): Promise<string> {
    return this.atomCache.name(atom);
  }

  async atoms(names: readonly string[]): Promise<Record<string, number>> {
    return this.atomCache.many(names);
  }

  // --- properties

  /** null when the window has no such property. */
  async getProperty(window: number, property: number, options?: GetPropertyOptions): Promise<PropertyValue | null> {
    return this.core.request(encodeGetProperty(window, property, options), parseGetProperty);
  }

  /** 32-bit items (CARDINAL, INTEGER...), or null when absent or not format 32. */
  async getCardinals(window: number, property: number | string): Promise<number[] | null> {
    return this.items32(window, property);
  }

  /** Window ids (e.g. _NET_CLIENT_LIST), or null when absent or not format 32. */
  async getWindowList(window: number, property: number | string): Promise<number[] | null> {
    return this.items32(window, property);
  }

  /** Atoms (e.g. _NET_WM_STATE), or null when absent or not format 32. */
  async getAtomList(window: number, property: number | string): Promise<number[] | null> {
    return this.items32(window, property);
  }

  /** An 8-bit text property: UTF8_STRING decoded as UTF-8, STRING as Latin-1; null when absent or not text. */
  async getString(window: number, property: number | string): Promise<string | null> {
    const value = await this.getProperty(window, await this.atomOf(property));
    return value ? propertyText(value) : null;
  }

  /** A NUL-separated text list (WM_CLASS, WM_COMMAND), trailing NUL dropped; null when absent or not text. */
  async getStrings(window: number, property: number | string): Promise<string[] | null> {
    const text = await this.getString(window, property);
    if (text === null) return null;
    return (text.endsWith('\0') ? text.slice(0, -1) : text).split('\0');
  }

  async changeProperty(
    window: number,
    property: number,
    type: number,
    format: 8 | 16 | 32,
    data: Buffer | readonly number[],
    mode: PropertyMode = 'replace',
  ): Promise<void> {
    return this.core.send(encodeChangeProperty(window, property, type, format, data, mode));
  }

  async deleteProperty(window: number, property: number): Promise<void> {
    return this.core.send(encodeDeleteProperty(window, property));
  }

  // --- selections

  async setSelectionOwner(owner: number, selection: number, time: number): Promise<void> {
    return this.core.send(encodeSetSelectionOwner(owner, selection, time));
  }

  /** The window owning the selection, 0 for none. */
  async getSelectionOwner(selection: number): Promise<number> {
    return this.core.request(encodeGetSelectionOwner(selection), parseGetSelectionOwner);
  }

  /** Asks the owner to convert the selection to `target` into `property` on `requestor`; the answer is a SelectionNotify event. */
  async convertSelection(requestor: number, selection: number, target: number, property: number, time: number): Promise<void> {
    return this.core.send(encodeConvertSelection(requestor, selection, target, property, time));
  }

  /** The largest request this server takes, in bytes (BIG-REQUESTS counted): a property larger than this goes by INCR. */
  get maxRequestBytes(): number {
    return this.core.maxRequestBytes;
  }

  // --- windows

  async getGeometry(drawable: number): Promise<Geometry> {
    return this.core.request(idRequest(Opcode.GetGeometry, drawable), parseGeometry);
  }

  async translateCoordinates(source: number, destination: number, x: number, y: number): Promise<Translation> {
    return this.core.request(encodeTranslateCoordinates(source, destination, x, y), parseTranslateCoordinates);
  }

  async queryTree(window: number): Promise<Tree> {
    return this.core.request(idRequest(Opcode.QueryTree, window), parseQueryTree);
  }

  async getWindowAttributes(window: number): Promise<WindowAttributes> {
    return this.core.request(idRequest(Opcode.GetWindowAttributes, window), parseWindowAttributes);
  }

  async changeWindowAttributes(window: number, values: WindowAttributeValues): Promise<void> {
    return this.core.send(encodeChangeWindowAttributes(window, values));
  }

  /** Resolves with the new window's id once the request is written. */
  async createWindow(options: CreateWindowOptions): Promise<number> {
    const id = this.allocateId();
    await this.core.send(encodeCreateWindow(id, options));
    return id;
  }

  async destroyWindow(window: number): Promise<void> {
    return this.core.send(idRequest(Opcode.DestroyWindow, window));
  }

  async mapWindow(window: number): Promise<void> {
    return this.core.send(idRequest(Opcode.MapWindow, window));
  }

  async unmapWindow(window: number): Promise<void> {
    return this.core.send(idRequest(Opcode.UnmapWindow, window));
  }

  async configureWindow(window: number, values: ConfigureValues): Promise<void> {
    return this.core.send(encodeConfigureWindow(window, values));
  }

  async raiseWindow(window: number): Promise<void> {
    return this.configureWindow(window, { stackMode: 'Above' });
  }

  // --- images and drawing

  /** Raw pixels as the server sent them; see toRgb / toRgba in image.ts to convert. */
  async getImage(drawable: number, x: number, y: number, width: number, height: number, options?: GetImageOptions): Promise<Image> {
    return this.core.request(encodeGetImage(drawable, x, y, width, height, options), parseGetImage, options);
  }

  /** Draws tightly packed RGBA pixels at (x, y) of a window of the root's depth and visual (alpha is not blended). */
  async putRgba(drawable: number, gc: number, image: { width: number; height: number; data: Buffer }, x: number, y: number): Promise<void> {
    const depth = this.screen.rootDepth;
    const pixels = fromRgba(image.data, image.width, image.height, depth, this.setup, this.findVisual(this.screen.rootVisual));
    return this.core.send(encodePutImage(drawable, gc, image.width, image.height, x, y, depth, pixels));
  }

  async createGC(drawable: number, values: GCValues = {}): Promise<number> {
    const id = this.allocateId();
    await this.core.send(encodeCreateGC(id, drawable, values));
    return id;
  }

  async changeGC(gc: number, values: GCValues): Promise<void> {
    return this.core.send(encodeChangeGC(gc, values));
  }

  async polyFillRectangle(drawable: number, gc: number, rectangles: readonly Rectangle[]): Promise<void> {
    return this.core.send(encodePolyFillRectangle(drawable, gc, rectangles));
  }

  async freeGC(gc: number): Promise<void> {
    return this.core.send(idRequest(Opcode.FreeGC, gc));
  }

  async freePixmap(pixmap: number): Promise<void> {
    return this.core.send(idRequest(Opcode.FreePixmap, pixmap));
  }

  // --- pointer, focus, events

  async queryPointer(window: number): Promise<PointerState> {
    return this.core.request(idRequest(Opcode.QueryPointer, window), parseQueryPointer);
  }

  async warpPointer(destination: number, x: number, y: number): Promise<void> {
    return this.core.send(encodeWarpPointer(destination, x, y));
  }

  async getInputFocus(): Promise<InputFocus> {
    return this.core.request(requestBuffer(Opcode.GetInputFocus, 0, 4), parseGetInputFocus);
  }

  /** Tries a keyboard grab on `window`; the status says whether another client holds the keyboard. */
  async grabKeyboard(window: number): Promise<GrabStatus> {
    return this.core.request(encodeGrabKeyboard(window), parseGrabStatus);
  }

  /** Gives back a keyboard grab of this connection (time 0: CurrentTime). */
  async ungrabKeyboard(): Promise<void> {
    return this.core.send(idRequest(Opcode.UngrabKeyboard, 0));
  }

  async setInputFocus(window: number, revertTo: RevertTo | number = 'Parent', time = 0): Promise<void> {
    return this.core.send(encodeSetInputFocus(window, revertTo, time));
  }

  /** `event` is a 32-byte event (see encodeClientMessage); destination may be a window, 0 PointerWindow or 1 InputFocus. */
  async sendEvent(destination: number, propagate: boolean, eventMask: number, event: Buffer): Promise<void> {
    return this.core.send(encodeSendEvent(destination, propagate, eventMask, event));
  }

  // --- keyboard

  async getKeyboardMapping(firstKeycode: number, count: number): Promise<KeyboardMapping> {
    return this.core.request(encodeGetKeyboardMapping(firstKeycode, count), parseKeyboardMapping);
  }

  async changeKeyboardMapping(firstKeycode: number, keysymsPerKeycode: number, keysyms: readonly number[]): Promise<void> {
    return this.core.send(encodeChangeKeyboardMapping(firstKeycode, keysymsPerKeycode, keysyms));
  }

  async getModifierMapping(): Promise<ModifierMapping> {
    return this.core.request(requestBuffer(Opcode.GetModifierMapping, 0, 4), parseModifierMapping);
  }

  /** The keycodes currently down on the core keyboard, ascending. */
  async queryKeymap(): Promise<number[]> {
    return this.core.request(requestBuffer(Opcode.QueryKeymap, 0, 4), parseQueryKeymap);
  }

  // --- server

  async grabServer(): Promise<void> {
    return this.core.send(requestBuffer(Opcode.GrabServer, 0, 4));
  }

  async ungrabServer(): Promise<void> {
    return this.core.send(requestBuffer(Opcode.UngrabServer, 0, 4));
  }

  /** Cached per name for the life of the connection. */
  async queryExtension(name: string): Promise<ExtensionInfo> {
    return this.extensions.query(name);
  }

  async listExtensions(): Promise<string[]> {
    return this.extensions.list();
  }

  // --- machinery

  /** Round trip: when it resolves, every earlier request was processed and its error (if any) delivered. */
  async sync(options?: RequestOptions): Promise<void> {
    return this.core.sync(options);
  }

  /**
   * Runs `fn` and syncs; rejects with the X11Error of the first reply-less request issued inside `fn` (even after
   * awaits) that the server refused. Example: `await conn.checked(() => conn.mapWindow(w))`.
   */
  async checked<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.core.checked(fn);
  }

  onEvent(listener: (event: X11Event) => void): () => void {
    return this.core.onEvent(listener);
  }

  /**
   * Calls `listener` after every change of the keyboard's keysyms or modifiers: the core MappingNotify, or once the
   * connection speaks XKB (which then stands in for it after a new keyboard, setxkbmap's), XkbNewKeyboardNotify.
   */
  onKeyboardChange(listener: () => void): () => void {
    const stopCore = this.core.onEvent((event) => {
      if (event.name === 'MappingNotify' && event.request !== 'Pointer') listener();
    });
    const stopXkb = this.xkb.onNewKeyboard(listener);
    return () => {
      stopCore();
      stopXkb();
    };
  }

  /** Errors of reply-less requests (checked or not); errors of requests with replies reject those instead. */
  onError(listener: (error: X11Error) => void): () => void {
    return this.core.onError(listener);
  }

  /** Called once when the connection ends, with the socket error if that is why. */
  onClose(listener: (error: Error | undefined) => void): () => void {
    return this.core.onClose(listener);
  }

  close(): void {
    this.core.close();
  }

  /** Lets the process exit while this connection is open. */
  unref(): void {
    this.core.unref();
  }

  ref(): void {
    this.core.ref();
  }

  private async items32(window: number, property: number | string): Promise<number[] | null> {
    const value = await this.getProperty(window, await this.atomOf(property), { type: AnyPropertyType });
    return value && value.format === 32 ? propertyItems(value) : null;
  }

  private atomOf(property: number | string): number | Promise<number> {
    if (typeof property === 'number') return property;
    return this.atomCache.cached(property) ?? this.atomCache.intern(property);
  }
}
