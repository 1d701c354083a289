import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { SnapshotRef } from '../../targets.js';
import { atspiElement } from '../element-handle.js';
import type { Actionable } from './accessible-actions.js';

/**
 * How long a terminal's screen must stay unchanged before an action's effect is read, in ms. A terminal shows what
 * the program behind it writes, after the keys went through it (a shell echoes them, then runs the line), and VTE
 * draws what came in at its next update, tens of ms later: the toolkit's own burst (a scrolled-back view jumping to
 * the bottom at the first key) was over long before. LXTerminal scrolled back, typed "echo x" and Return, read only
 * the jump, neither the command line nor its output, in the evidence or the diff.
 */
const terminalQuietMs = 150;
/** How long at most the quiet is waited for: a program that never stops writing (top, a progress bar) is read then. */
export const terminalQuietLimitMs = 1000;

/** The quiet an action's effect is waited for when the target is a terminal or the window holds one, else undefined. */
export function terminalQuiet(snapshot: SnapshotRef | undefined, target?: Actionable): number | undefined {
  if (target?.atspiRole === ATSPI_ROLE.TERMINAL) return terminalQuietMs;
  for (const element of snapshot?.elements.values() ?? []) if (atspiElement(element.handle).atspiRole === ATSPI_ROLE.TERMINAL) return terminalQuietMs;
  return undefined;
}
