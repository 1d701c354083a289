// Alt with a letter, in the background: the control of the window whose mnemonic it is (a dialog's "_No" answers
// Alt+N) is pressed through its action, as the toolkit presses it on the real keys.
import { keyBindingCombinations } from '../../../cup/key-binding.js';
import type { SnapshotElement, SnapshotRef } from '../../targets.js';
import { callObject } from '../atspi/operations.js';
import { atspiElement } from '../element-handle.js';
import type { LinuxDesktop } from '../linux-desktop.js';

/** Controls a mnemonic presses. A label's mnemonic focuses its field, which no action of the label does. */
const pressedRoles = new Set(['button', 'checkbox', 'radio', 'switch', 'tab', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio']);
/** The most controls asked for their key binding, in document order: a dialog has a few, a big window hundreds. */
const maxAsked = 400;

/**
 * The shown, enabled controls of the snapshot whose key binding (Action.GetKeyBinding) holds `combo`, their bindings
 * asked of the app together. A toolkit that reports none (most but GTK and Qt) leaves the list empty.
 */
export async function mnemonicControls(desktop: LinuxDesktop, snapshot: SnapshotRef, combo: string): Promise<SnapshotElement[]> {
  const client = await desktop.atspi();
  const shown = (element: SnapshotElement) => !['disabled', 'hidden', 'offscreen'].some((state) => element.states?.includes(state));
  const candidates = [...snapshot.elements.values()].filter((element) => pressedRoles.has(element.role) && shown(element)).slice(0, maxAsked);
  const bindings = await Promise.all(
    candidates.map((element) =>
      callObject(client, atspiElement(element.handle), 'Action', 'GetKeyBinding', 'i', [0]).then(
        (body) => String(body[0] ?? ''),
        () => '',
      ),
    ),
  );
  return candidates.filter((_, i) => keyBindingCombinations(bindings[i]!).includes(combo));
}
