import { decodeStateSet } from '../../../cup/atspi/states.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import type { DeliveryMode } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { ToolError } from '../../../errors.js';
import type { Actionable } from './accessible-actions.js';
import { appNotResponding, nothingUnlessUnresponsive } from './unresponsive.js';

function focusedNodes(node: AtspiRawNode, found: AtspiRawNode[] = []): AtspiRawNode[] {
  if (decodeStateSet(node.states).has('STATE_FOCUSED')) found.push(node);
  for (const child of node.children) focusedNodes(child, found);
  return found;
}

/**
 * The object with the keyboard focus among those that say they have it. Qt says it of more than one: of the current
 * item of every view and tab bar, focused or not, and of every widget whose focus proxy has the focus (Kate's status
 * bar buttons, whose proxy is the editor). An editable one takes what is typed, so it is the focus; then one that is
 * showing (a hidden tool view's tab says it too); else the first in document order.
 */
function findFocused(root: AtspiRawNode): AtspiRawNode | undefined {
  const rank = (node: AtspiRawNode) => {
    const states = decodeStateSet(node.states);
    return (states.has('STATE_EDITABLE') ? 2 : 0) + (states.has('STATE_SHOWING') ? 1 : 0);
  };
  return focusedNodes(root).reduce<AtspiRawNode | undefined>((best, node) => (!best || rank(node) > rank(best) ? node : best), undefined);
}

/**
 * The object that has the keyboard focus inside a window, read live. Used when a keyboard tool gets no
 * element: typing goes where the user's typing would go.
 */
export async function focusedElementOf(desktop: LinuxDesktop, window: DesktopWindow): Promise<Actionable | undefined> {
  const tree = await desktop.readWindowTree(window, { maxNodes: 5000, maxDepth: 1000, budgetMs: 5000 });
  if (tree.unresponsive) throw appNotResponding(window.pid, desktop.callTimeoutMs);
  if (!tree.read?.root) {
    throw new ToolError(`cannot find the focused element of window ${window.id}: ${tree.missingReason ?? 'no accessibility tree'}`, 'no_accessibility');
  }
  const focused = findFocused(tree.read.root);
  return focused ? { ref: { bus: focused.bus, path: focused.path }, atspiRole: focused.role, interfaces: focused.interfaces } : undefined;
}

/**
 * The focused element a keyboard action without an element acts on and reads back from. Background input goes
 * through the app, so an app that did not answer stops it. Real keys need no answer (a busy office suite still
 * takes them): they go, and without the element the window's pixels are their read-back.
 */
export function focusedTargetFor(desktop: LinuxDesktop, window: DesktopWindow, mode: DeliveryMode): Promise<Actionable | undefined> {
  return focusedElementOf(desktop, window).catch(mode === 'foreground' ? () => undefined : nothingUnlessUnresponsive(window.pid, desktop.callTimeoutMs));
}
