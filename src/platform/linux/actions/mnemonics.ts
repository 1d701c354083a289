// Key combinations a window's controls answer to, in the background: Alt with a letter presses the control whose
// mnemonic it is (a dialog's "_No" answers Alt+N), a menu item's accelerator (Ctrl+S) chooses that item, both through
// accessibility, as the toolkit does on the real keys.
import type { SnapshotElement, SnapshotRef } from '../../targets.js';
import { callObject } from '../atspi/operations.js';
import { atspiElement } from '../element-handle.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { menuBarItems, menuItemEnabled } from './menu-path.js';
import { boundCombinations } from './real-input.js';

/** Controls a mnemonic presses. A label's mnemonic focuses its field, which no action of the label does. */
const pressedRoles = new Set(['button', 'checkbox', 'radio', 'switch', 'tab', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio']);
/** The most controls asked for their key binding, in document order: a dialog has a few, a big window hundreds. */
const maxAsked = 400;

/**
 * The shown, enabled controls of the snapshot whose key binding (Action.GetKeyBinding) holds `combo`, their bindings
 * asked of the app together. A toolkit that reports none (most but GTK and Qt) leaves the list empty.
 */
export async function mnemonicControls(desktop: LinuxDesktop, snapshot: SnapshotRef, combo: string): Promise<SnapshotElement[]> {
  const shown = (element: SnapshotElement) => !['disabled', 'hidden', 'offscreen'].some((state) => element.states?.includes(state));
  return boundTo(desktop, [...snapshot.elements.values()].filter((element) => pressedRoles.has(element.role) && shown(element)).slice(0, maxAsked), combo);
}

/** Those of `candidates` whose key binding (Action.GetKeyBinding), asked of the app together, holds `combo`. */
async function boundTo(desktop: LinuxDesktop, candidates: readonly SnapshotElement[], combo: string): Promise<SnapshotElement[]> {
  const client = await desktop.atspi();
  const bindings = await Promise.all(candidates.map((element) => bindingOf(client, atspiElement(element.handle))));
  return candidates.filter((_, i) => boundCombinations(bindings[i]!).includes(combo));
}

/** The key binding of an object's first action (Action.GetKeyBinding); empty when it reports none. */
function bindingOf(client: AtspiClient, ref: ObjectRef): Promise<string> {
  return callObject(client, ref, 'Action', 'GetKeyBinding', 'i', [0]).then(
    (body) => String(body[0] ?? ''),
    () => '',
  );
}

/**
 * The menu-bar path of the one enabled menu item whose accelerator is `combo` (File > Save for Ctrl+S), in open or
 * closed menus alike, as the window's accelerators work whether their menu shows or not; none when no item, or items
 * at more than one path, answer to it. Read live, not from a snapshot: a compact reading leaves closed menus unread.
 * A toolkit that reports no key bindings (most but GTK and Qt) has none.
 */
export async function acceleratorMenuPath(desktop: LinuxDesktop, window: ClientWindow, combo: string): Promise<string[] | undefined> {
  const client = await desktop.atspi();
  const items = await menuBarItems(desktop, window);
  const bindings = await Promise.all(items.map((item) => bindingOf(client, item.ref)));
  const bound = items.filter((_, i) => boundCombinations(bindings[i]!).includes(combo));
  const enabled = (await Promise.all(bound.map(async (item) => ((await menuItemEnabled(desktop, item.ref)) ? [item] : [])))).flat();
  const distinct = new Set(enabled.map((item) => JSON.stringify(item.path)));
  return distinct.size === 1 ? enabled[0]!.path : undefined;
}
