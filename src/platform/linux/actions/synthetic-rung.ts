import { setTimeout as sleep } from 'node:timers/promises';
import { pixelChange, type PixelChange } from '../../../image/diff.js';
import { windowName, type DesktopWindow } from '../../windows.js';
import type { RawImage } from '../../../image/raw-image.js';
import type { Observation } from '../../action-outcome.js';
import { abortable } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { toolkitName } from './real-input.js';
import { appNotResponding } from './unresponsive.js';
import { processToolkit } from '../desktop/process-toolkit.js';

/**
 * Whether input sent as X events (SendEvent) reaches a window's app. GTK and Qt read input through
 * XInput2 and drop events another client sends, and so do web engines for the pointer; X toolkits that do
 * not (Xt/Xaw, Motif, Tk), and apps that show no accessibility at all, are worth a synthetic event. Java's AWT takes sent button events but
 * hands key events to its focus owner only while its window holds the X focus, and then from a focus-proxy
 * child, never from the top level the keys are sent to: sent keys are lost there, and pixels that change on
 * their own (a memory gauge, a blinking caret) were once taken for their effect. The toolkit's name is for messages;
 * `accessible` says whether the window has an accessible object of its own (an element of it could be named).
 */
export interface SyntheticReach {
  accepted: boolean;
  toolkit: string;
  accessible: boolean;
  /** Keys are not accepted only because the window is not active, and its app reads sent keys only in the active one. */
  inactive?: true;
}

/**
 * Apps that read sent key events only while their window has the focus: Blink (whose GrabFocus activates its window
 * for the same reason) and Tk, which hands a key to its focus window only once it was told it has the focus. A Tab
 * sent to either behind another window read "delivered, no effect seen", and the app heard nothing.
 */
export async function syntheticEventsReach(desktop: LinuxDesktop, window: DesktopWindow, input: 'keys' | 'pointer'): Promise<SyntheticReach> {
  const reach = await syntheticReach(desktop, window, input);
  if (input !== 'keys' || !reach.accepted || window.active || !reach.keysOnlyWhenActive) return { accepted: reach.accepted, toolkit: reach.toolkit, accessible: reach.accessible };
  return { accepted: false, toolkit: reach.toolkit, accessible: reach.accessible, inactive: true };
}

/** Why sent key events cannot go to the window, as a clause: the toolkit ignores them, or reads them only when active. */
export function sentKeysIgnored(window: DesktopWindow, reach: SyntheticReach): string {
  return reach.inactive
    ? `${reach.toolkit} reads key events only in the active window, which window ${window.id} is not (sent ones are dropped)`
    : `${reach.toolkit} ignores synthetic key events`;
}

async function syntheticReach(desktop: LinuxDesktop, window: DesktopWindow, input: 'keys' | 'pointer'): Promise<{ accepted: boolean; toolkit: string; accessible: boolean; keysOnlyWhenActive: boolean }> {
  const probe = await desktop.readWindowTree(window, { maxNodes: 1, maxDepth: 0, budgetMs: 3000 });
  // A hung app takes no events either, and pixels would not show any effect while it is stopped.
  if (probe.unresponsive) throw appNotResponding(window.pid, desktop.callTimeoutMs);
  // A window with no accessible object of its own (a surface no widget draws) is still its process's: when that
  // process is on the bus, its toolkit is the one that reads the window's input.
  const client = await desktop.atspi();
  const bus = probe.match?.app.bus ?? (await client.applications().catch(() => [])).find((app) => app.pid === window.pid && window.pid > 0)?.bus;
  if (!bus) {
    // Off the bus, the libraries the process maps name its toolkit: a Java app started without its ATK bridge drops
    // sent keys as one with it does, and a GTK or Qt app with its accessibility off drops every sent event.
    const toolkit = processToolkit(window.pid);
    const ignores = input === 'keys' ? toolkit?.ignoresSentKeys : toolkit?.ignoresSentPointer;
    return { accepted: !ignores, toolkit: toolkit?.name ?? 'this application', accessible: false, keysOnlyWhenActive: toolkit?.sentKeysOnlyWhenActive ?? false };
  }
  const reader = await client.toolkitOf(bus).catch(() => undefined);
  const name = reader?.name ?? '';
  // Blink and Gecko take sent key events (keys reach a background page) but read the pointer through XInput2: three
  // clicks sent to a canvas in Chromium reached no page handler, and a 150-pixel overlay scroll bar drawn meanwhile
  // confirmed them.
  const quirks = await client.quirksOf(bus).catch(() => undefined);
  const pointerUnread = input === 'pointer' && (quirks?.webEngine ?? false);
  const ignores = /^(gtk|gail|qt)/i.test(name) || (input === 'keys' && javaToolkit.test(name)) || pointerUnread;
  const keysOnlyWhenActive = quirks?.focusActivatesWindow === true;
  return { accepted: !ignores, toolkit: await toolkitName(desktop, bus), accessible: probe.match !== undefined, keysOnlyWhenActive };
}

/** The name the Java ATK wrapper gives every Java (AWT, Swing) app's toolkit. */
const javaToolkit = /^J2SE-access-bridge/i;

/**
 * A change confined to a sliver at most this many pixels wide or tall is what a blinking text caret
 * does on its own; it is not taken as the input's effect.
 */
const caretSliver = 3;

export function meaningful(change: PixelChange): boolean {
  return change.box !== undefined && change.box.w > caretSliver && change.box.h > caretSliver;
}

/** Longest wait for a window to finish drawing what the pointer's arrival changes, in ms. */
const hoverSettleMs = 250;

/**
 * Waits until the window's pixels hold still (two captures 30 ms apart alike), at most hoverSettleMs: after the
 * pointer arrives over a control, what hovering draws (a highlight, a border) is in place before the "before" of a
 * click's read-back is taken, so it is not taken for the click's effect.
 */
export async function pixelsAtRest(desktop: LinuxDesktop, window: DesktopWindow): Promise<void> {
  let last = await desktop.captureWindow(window);
  for (const deadline = Date.now() + hoverSettleMs; Date.now() < deadline; ) {
    await sleep(30);
    const now = await desktop.captureWindow(window);
    if (pixelChange(last, now).count === 0) return;
    last = now;
  }
}

/**
 * For an app without accessibility the window's own pixels are the read-back: captured before the input
 * and again (for up to half a second, or once when `signal` has aborted) until they change by more than a
 * caret's blink. `command`: the input runs a command (a click, a key press), whose effect may not be drawn at all
 * (Observation.commandUndrawn); typing, a scroll or a drag shows what it did.
 */
export async function observePixels(desktop: LinuxDesktop, window: DesktopWindow, act: () => Promise<void>, signal?: AbortSignal, options: { command?: boolean } = {}): Promise<Observation> {
  const before = await desktop.captureWindow(window);
  await act();
  return pixelsChangedSince(desktop, window, before, signal, options);
}

/** The window's pixels read back against a capture taken before the input (observePixels, after its input). */
export async function pixelsChangedSince(desktop: LinuxDesktop, window: DesktopWindow, before: RawImage, signal?: AbortSignal, options: { command?: boolean } = {}): Promise<Observation> {
  let change: PixelChange = { count: 0 };
  let looked = false;
  for (const deadline = Date.now() + 500; !meaningful(change) && Date.now() < deadline && !(looked && signal?.aborted); looked = true) {
    await sleep(40, undefined, abortable(signal)).catch(() => undefined);
    let after;
    try {
      after = await desktop.captureWindow(window);
    } catch (error) {
      // The input may close or withdraw the window it went to (Return on a dialog's default button): that is its effect.
      if (!(await desktop.windows()).some((open) => open.id === window.id && open.isOnScreen)) {
        return { changed: true, listening: true, evidence: [`window ${window.id} ${windowName(window)} closed or hidden`] };
      }
      throw error;
    }
    change = pixelChange(before, after);
  }
  const evidence = meaningful(change) ? [`the window's pixels changed: ${change.count} pixels in ${change.box!.x},${change.box!.y} ${change.box!.w}x${change.box!.h}`] : [];
  return { changed: evidence.length > 0, listening: true, ...(options.command ? { commandUndrawn: true as const } : {}), evidence, ...(signal?.aborted && !meaningful(change) ? { cancelled: true as const } : {}) };
}
