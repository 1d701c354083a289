// Why a Return cannot go to a text field in the background, said so that the agent knows the one route left.
import { actionNames } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { Actionable } from './accessible-actions.js';

/**
 * A Return into a text field goes in the background through the field's "activate" action (GTK3's and GTK 4's
 * entries offer it), as the app takes key events sent there from none of GTK 4.8 or Qt: a Qt line edit offers only
 * SetFocus, and a GTK 4 text view (GNOME Calculator's display) or spin button no activate either. The refusal had said
 * only that "return" had no accessibility equivalent; it now says what the field offers instead and what to call.
 * `subject` names the field (and why a Return is wanted), `ignored` why sent keys are not read, `outcome` "nothing was
 * sent" or "nothing was typed", and `advice` the calls to make.
 */
export async function returnRefusal(desktop: LinuxDesktop, target: Actionable, subject: string, ignored: string, outcome: string, advice: string): Promise<string> {
  const offered = target.interfaces.includes('Action') ? await actionNames(await desktop.atspi(), target.ref).catch(() => []) : [];
  const offers = offered.length > 0 ? `it offers ${offered.map((name) => JSON.stringify(name)).join(', ')}` : 'it offers no actions';
  return `${subject} offers no "activate" action through accessibility (${offers}), which is what a Return in a field goes through in the background, and ${ignored}; ${outcome}: ${advice}`;
}

/** The press_key call that sends a Return to the element as real keys. */
export function foregroundReturnCall(windowId: number, elementIndex: number | undefined): string {
  const element = elementIndex !== undefined ? `, "element_index": ${elementIndex}` : '';
  return `press_key {"window_id": ${windowId}${element}, "key": "return", "delivery_mode": "foreground"}`;
}
