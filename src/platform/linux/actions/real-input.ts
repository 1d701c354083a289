import { ActivationError, canonicalKeyName, inForeground, parseCombination, type ForegroundOptions, type ModifierName, type ParsedKey } from '../input/index.js';
import { windowName, type DesktopWindow } from '../../windows.js';
import type { X11Connection } from '../x11/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { ToolError } from '../../../errors.js';
import type { Observation } from '../../action-outcome.js';
import { editorOpenedDuring } from './opened-editor.js';
import { popoverOpenedDuring, type PopoverWatch } from './opened-popover.js';
import { menusByClient } from '../popups.js';
import { oneLine } from '../../../cup/text.js';
import { keyBindingCombinations } from '../../../cup/key-binding.js';
import { focusForKeys, focusKeepingCaret, type FocusFacts } from './element-point.js';
import type { LiveElementTarget } from './live-target.js';
import type { ObjectRef } from '../atspi/object-ref.js';

/**
 * Runs real input (XTEST) with the window active and focused, then gives the previously active window
 * back its activation and the pointer its position. A window the window manager will not activate is an
 * error before any input is sent. A window whose app opened a menu or drop-down list keeps its activation, and the
 * observation says so: Qt closes its popups when its app loses the focus, so the give-back undid the click; so does
 * one where the input opened an in-place editor and left the focus in it (see opened-editor.ts), or a popover drawn in
 * the window (see opened-popover.ts). `input` may call
 * `sent()` when all it sends has gone out, so that the restore runs while it waits for the effect (see inForeground).
 */
export async function withForeground<T extends Observation | undefined>(
  desktop: LinuxDesktop,
  window: DesktopWindow,
  input: (x: X11Connection, sent: () => void, focused: FocusFacts | undefined) => Promise<T>,
  options: Pick<ForegroundOptions, 'popupGraceMs' | 'focusDirectly'> & RealInputOptions = {},
): Promise<T> {
  const { ready, focus, aimedAt, menusChecked, sentOnceHandled, ...foregroundOptions } = options;
  const x = await desktop.x11();
  // The checks only read: they go on while the caller readies (see TypeRequest.ready); the activation waits for it.
  await Promise.all([menusChecked ?? refuseUnderOtherMenus(desktop, x, window), ready]);
  let popover: PopoverWatch | undefined;
  try {
    // What the input may open in the window that its losing the focus would close: an item's editor, a popover.
    const [editor, watch] = await Promise.all([editorOpenedDuring(desktop, window, aimedAt ?? focus?.element.ref), popoverOpenedDuring(desktop, window)]);
    popover = watch;
    const holdsActivation = async () => (await editor()) ?? (await watch.answer(sentOnceHandled === true));
    // A notification bubble is no window manager's to activate (asking timed out as activation_failed), and it lies
    // over every window already: the pointer reaches it as it is.
    const activate = !window.notification;
    // The element is focused through accessibility as its window is activated, not once it is: after the activation
    // its app answers only when done with its focus-in and redrawing, which the first key then waited for, where
    // real keys queue behind them by themselves (a GTK3 app answered 2 to 19 ms late, by the machine's load).
    const focusing = focus && focusKeepingCaret(desktop, focus.element, focus.facts);
    focusing?.catch(() => undefined);
    const held = desktop.heldActivation;
    desktop.heldActivation = undefined;
    const { value, report } = await inForeground(
      x,
      window.id,
      async (sent) => input(x, sent, focus && focusing ? await focusForKeys(desktop, x, focus.element, focusing) : undefined),
      { holdsActivation, activate, ...(held?.window === window.id ? { heldFrom: held.from } : {}), ...foregroundOptions },
    );
    const keptActive = report.keptActiveFor !== undefined || report.keptActiveWith !== undefined;
    if (keptActive && report.givenBackTo) desktop.heldActivation = { window: window.id, from: report.givenBackTo };
    if (!value) return value;
    const previous = report.givenBackTo ? `window ${report.givenBackTo}` : 'the window active before';
    if (report.wasActive && report.restoredActive) {
      const back = `${previous} has its place back: window ${window.id} had kept the activation since an earlier call, for what that call opened`;
      return { ...value, evidence: [...value.evidence, back] };
    }
    if (!keptActive) return value;
    const kept = report.keptActiveFor
      ? `window ${window.id} stays active with the popup ${report.wasActive ? 'open over it' : 'it opened'} (${report.keptActiveFor.map((id) => `0x${id.toString(16)}`).join(', ')}): giving ${previous} its place back would close it`
      : `window ${window.id} stays active with ${report.keptActiveWith}: giving ${previous} its place back would close it`;
    return { ...value, evidence: [...value.evidence, kept] };
  } catch (error) {
    if (error instanceof ActivationError) throw new ToolError(error.message, 'activation_failed');
    throw error;
  } finally {
    popover?.stop();
  }
}

/** What real input waits for and prepares before the window's activation (see withForeground). */
export interface RealInputOptions {
  /** Settles once input may be sent (see TypeRequest.ready); the checks that only read go on meanwhile. */
  ready?: Promise<void>;
  /** An element to give the keyboard focus before the input (see focusForKeys), with its focus facts asked ahead. */
  focus?: { element: LiveElementTarget; facts?: Promise<FocusFacts> };
  /** The element the input is sent to (default: focus's): never an editor the input opened (see editorOpenedDuring). */
  aimedAt?: ObjectRef;
  /** The check that no other app's menu holds the input, asked ahead (see otherMenusChecked); asked here otherwise. */
  menusChecked?: Promise<void>;
  /**
   * `input` calls `sent()` only once the app has handled all of it (a typing read back by its field's insertions):
   * what the input opened is announced by then, so the give-back does not wait for the app (see opened-popover.ts).
   */
  sentOnceHandled?: boolean;
}

/**
 * Asks now whether another app's menu holds the input (see refuseUnderOtherMenus): a caller that reads before its real
 * input (real typing reads its field) asks it while it reads, where withForeground asked it only once those reads were
 * done. Its refusal is heard where withForeground awaits it.
 */
export function otherMenusChecked(desktop: LinuxDesktop, window: DesktopWindow): Promise<void> {
  const checked = desktop.x11().then((x) => refuseUnderOtherMenus(desktop, x, window));
  checked.catch(() => undefined);
  return checked;
}

/**
 * Real keys cannot reach a notification bubble: nothing gives it the keyboard focus, so they would go to whichever
 * window has it. Refused before anything is sent.
 */
export function refuseKeysToNotification(window: DesktopWindow): void {
  if (!window.notification) return;
  throw new ToolError(
    `window ${window.id} ${oneLine(windowName(window))} is a notification bubble, which never takes the keyboard focus: real keys would go to the active window instead; nothing was sent. ` +
      'Click its buttons (by element_index, in either delivery mode) instead',
    'activation_failed',
  );
}

/**
 * Real input is refused while another app's menu or drop-down list is open: it holds the keyboard and the pointer, so
 * the keys go to it whatever window is activated. " world" typed into a GTK3 field while Mousepad's File menu was
 * open chose that menu's Print (its mnemonic d) and opened the print dialog, and the typing read "no effect seen".
 */
async function refuseUnderOtherMenus(desktop: LinuxDesktop, x: X11Connection, window: DesktopWindow): Promise<void> {
  const menus = (await menusByClient(x, window.id)).others;
  if (menus.length === 0) return;
  const mask = x.setup.resourceIdMask;
  const windows = await desktop.windows();
  const owners = [...new Set(menus.map((menu) => menu.client))].map((client) => {
    const owner = windows.find((candidate) => (candidate.id & ~mask) === client);
    return owner ? `window ${owner.id} ${oneLine(windowName(owner))} (pid ${owner.pid})` : `an X client without a window (menu 0x${menus.find((menu) => menu.client === client)!.id.toString(16)})`;
  });
  throw new ToolError(
    `another app's menu or drop-down list is open, over ${owners.join(', ')}: it holds the keyboard and the pointer, so real input would go to it, not to window ${window.id}; nothing was sent: close it first (press_key "escape" with its window_id, which goes to that menu alone and activates nothing), or act in the background`,
    'input_held_by_menu',
  );
}

/** A key combination, checked and in a canonical spelling ("ctrl+a", "return"), for matching shortcuts. */
export interface KeyCombination {
  parsed: ParsedKey[];
  canonical: string;
}

/** The order of modifiers in a canonical combination (keyBindingCombinations' order, then AltGr). */
const modifierOrder: readonly ModifierName[] = ['ctrl', 'alt', 'shift', 'super', 'altgr'];

/** Parses key names; an unknown name is a tool error that lists the valid ones. */
export function parseKeys(keys: readonly string[]): KeyCombination {
  let parsed: ParsedKey[];
  try {
    parsed = parseCombination(keys);
  } catch (error) {
    throw new ToolError((error as Error).message, 'invalid_key');
  }
  // Every spelling of a key compares as one (enter is return, " " space, ArrowRight right; ctrl+A is ctrl+a): what
  // the keys do in the background was chosen by the name they were given, and " " on a check box was refused.
  // The modifiers go in one order whatever order they were written in (shift+ctrl+s is ctrl+shift+s), the order key
  // bindings are read in (see keyBindingCombinations): a Qt menu item's "Ctrl+Shift+S" went unfound for shift+ctrl+s.
  const modifiers = parsed.flatMap((key) => (key.kind === 'modifier' ? [key.modifier] : [])).sort((a, b) => modifierOrder.indexOf(a) - modifierOrder.indexOf(b));
  const named = parsed.flatMap((key) => (key.kind === 'modifier' ? [] : [canonicalKeyName(key.keysyms[0] ?? 0)]));
  return { parsed, canonical: [...modifiers, ...named].join('+') };
}

/**
 * The combinations a toolkit's key binding holds (keyBindingCombinations), spelled as parseKeys spells the keys asked
 * for, so that the two compare: GTK reports "<Control>Page_Down" and "<Primary>minus", Qt "Ctrl+PgDown" and "Ctrl++",
 * where the keys asked are "ctrl+pagedown", "ctrl+-" and "ctrl+plus", and such a menu item's accelerator went unfound.
 * A combination with a key no name reads is kept as the toolkit wrote it.
 */
export function boundCombinations(binding: string): string[] {
  return keyBindingCombinations(binding).map((combo) => {
    try {
      return parseKeys([combo]).canonical;
    } catch {
      return combo;
    }
  });
}

/** The toolkit of an app, for messages ("GTK 4.8.3"); generic when unknown. */
export async function toolkitName(desktop: LinuxDesktop, bus?: string, pid?: number): Promise<string> {
  try {
    const client = await desktop.atspi();
    let appBus = bus;
    if (!appBus && pid !== undefined) appBus = (await client.applications()).find((app) => app.pid === pid)?.bus;
    if (!appBus) return 'this application';
    const toolkit = await client.toolkitOf(appBus);
    return toolkit ? `${toolkit.name.toUpperCase() === 'GTK' ? 'GTK' : toolkit.name} ${toolkit.version}`.trim() : 'this application';
  } catch {
    return 'this application';
  }
}
