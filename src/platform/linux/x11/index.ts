// A pure-TypeScript X11 client (core protocol, BIG-REQUESTS, XTEST, Composite, SHAPE, XInput2 raw keys, X-Resource client pids) speaking the wire protocol directly.
//
// Conventions:
// - Requests are pipelined: each method queues its request synchronously, in call order, and the queue is written
//   once per event-loop turn. Awaiting is only needed for the result.
// - Requests with a reply resolve with the parsed reply, or reject with X11Error (server refused),
//   X11TimeoutError (no reply within the deadline: `timeoutMs`, default 2000 ms) or X11ClosedError.
// - Reply-less requests (map, configure, changeProperty, XTEST input...) resolve once written. If the server later
//   refuses one, the X11Error goes to `onError` listeners. To wait for the verdict instead, wrap the calls:
//   `await conn.checked(async () => { await conn.mapWindow(w); await conn.setInputFocus(w); })` rejects with the
//   first such error (it syncs once at the end; errors still reach `onError` too). `sync()` alone waits for
//   everything earlier to be processed.
// - Extension methods look the extension up on first use (one round trip) and fail with a clear error when the
//   server lacks it; await the first call if later requests must follow it.
// - Requests longer than the server's core limit use BIG-REQUESTS when available, else are refused with a RangeError.
// - Property writes take atoms (numbers) so they go out in call order; the typed getters (getString, getCardinals...)
//   also take names and intern them first.
// - Capturing a covered window: without Composite, GetImage returns black for the obscured parts (Xvfb 21.1). After
//   `composite.redirectSubwindows(root, 'automatic')`, getImage(window) returns the window's own pixels, even under
//   other windows or past the screen edge. Redirect early: content hidden at the moment of redirection is only
//   restored when its client repaints. The redirection lasts as long as the connection that made it.
export { Atom, AnyPropertyType, None, type PredefinedAtomName } from './atoms.js';
export { X11Connection, type ConnectOptions } from './client.js';
export type { RequestOptions } from './connection.js';
export { parseDisplay, type DisplayTarget } from './display.js';
export type { GCValues, Rectangle } from './drawing.js';
export { X11ClosedError, X11Error, X11TimeoutError } from './errors.js';
export { encodeSelectionNotify } from './selections.js';
export { encodeClientMessage, encodeInputEvent, EventCode, EventMask, type InputEventFields, type X11Event, type X11EventName, type X11EventOf } from './events.js';
export type { RedirectUpdate } from './extensions/composite.js';
export type { ExtensionInfo } from './extensions/registry.js';
export type { ShapeKind, ShapeOperation } from './extensions/shape.js';
export type { XkbKeySyms, XkbLocks } from './extensions/xkb.js';
export type { FakeEventType, FakeInputOptions } from './extensions/xtest.js';
export { parseRawKeyEvent, XIEventType, type RawKeyEvent } from './extensions/xinput2.js';
export { toRgb, toRgba, type ChannelMasks, type GetImageOptions, type Image, type ImageLayout } from './image.js';
export type { InputFocus, PointerState, RevertTo } from './input.js';
export type { KeyboardMapping, ModifierMapping } from './keyboard.js';
export type { GetPropertyOptions, PropertyMode, PropertyValue } from './properties.js';
export type { PixmapFormat, Screen, Setup, Visual } from './setup.js';
export type {
  ConfigureValues,
  CreateWindowOptions,
  Geometry,
  StackMode,
  Translation,
  Tree,
  WindowAttributes,
  WindowAttributeValues,
} from './windows.js';
export { findCookie, parseXauthority, type XauthEntry } from './xauthority.js';
