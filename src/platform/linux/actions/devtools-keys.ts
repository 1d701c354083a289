// Keys for a web page's focused element through its browser's debugging connection, in the background: Blink reads
// sent X key events only in its active window, so a Tab, an Enter or an Escape for a page behind another window was
// refused with the foreground as the only way. The DevTools protocol's key events reach the page whatever window has
// the X focus, and the accessibility tree reads back what they did, as for every other rung.
import { actionOutcome, type ActionOutcome } from '../../action-outcome.js';
import type { SnapshotRef } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { domCombination } from '../browser/dom-keys.js';
import { findDebuggingEndpoint } from '../browser/endpoint.js';
import { relaunchCall } from '../browser/page-connections.js';
import type { ParsedKey } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { Actionable } from './accessible-actions.js';
import type { AccessibilityEvent } from '../atspi/event-monitor.js';
import { extents, readName } from '../atspi/operations.js';
import { inPage, pageOrRefusal } from './devtools-typing.js';
import { liveStates } from './live-states.js';
import { observe, type Probe } from './verification.js';

export interface DevToolsKeysRequest {
  window: DesktopWindow;
  /** The element the keys are for: the page's focused element, or one named (given the page's focus first). */
  target: Actionable;
  /** The call named the element (element_index or token), rather than the focused one being found. */
  named: boolean;
  /** How results name the target: "[e12]" or "the focused element". */
  label: string;
  probes: Probe[];
  keys: readonly ParsedKey[];
  /** The keys in their canonical spelling ("ctrl+a", "return"), for the evidence. */
  written: string;
  repeat: number;
  snapshot?: SnapshotRef;
  signal?: AbortSignal;
}

/** The outcome when the keys went into the page, else why this rung did not run (undefined: it means nothing here). */
export type DevToolsKeys = { outcome: ActionOutcome } | { skipped: string | undefined };

export async function pressThroughDevTools(desktop: LinuxDesktop, request: DevToolsKeysRequest): Promise<DevToolsKeys> {
  const { window, target, label } = request;
  const client = await desktop.atspi();
  // Only a web page or an element of one, in an engine that answers a debugging connection: not the browser's own bars.
  // Blink says its document has the focus while its window is inactive, whatever element the page focused: the
  // protocol's keys go to that element, as a person's would.
  const ofPage = target.atspiRole === ATSPI_ROLE.DOCUMENT_WEB || (await inPage(client, target.ref));
  if (!(await client.quirksOf(target.ref.bus)).pageDebugging || !ofPage) return { skipped: undefined };
  const endpoint = findDebuggingEndpoint(window.pid);
  if (!endpoint) return { skipped: `To press keys in the page without the window's focus, relaunch the browser with a debugging endpoint: ${relaunchCall(window)}` };
  // BiDi's key actions go to the focused window only (Gecko reads sent X key events anyway).
  if (endpoint.protocol !== 'cdp') return { skipped: undefined };
  const skipped = (reason: string) => ({ skipped: `The browser's debugging connection (${endpoint.protocol} on port ${endpoint.port}) could not press them either: ${reason}` });
  const combination = domCombination(request.keys);
  if (!combination) return skipped(`${JSON.stringify(request.written)} has a key the page's key events do not name here`);
  const page = await pageOrRefusal(desktop, window);
  if (page instanceof ToolError) return skipped(page.message);
  // The protocol's keys go to the page's focused element: one named is given the page's focus first, as real keys for
  // it are sent after the element is focused. (The focused element found for a call that named none is the page's focus
  // as the browser last announced it.)
  let focused: string | undefined;
  if (request.named && !(await liveStates(desktop, target.ref)).has('STATE_FOCUSED')) {
    const [bounds, name] = await Promise.all([extents(client, target.ref), readName(client, target.ref)]);
    const focus = await page.focusElement(bounds, name);
    if (!focus.focused) return skipped(`${label} could not be given the page's focus, which the keys go to: ${focus.reason}`);
    focused = `${label} is <${focus.node}> in the page, given the page's focus first`;
  }
  // The focus given is not the keys' effect, whenever its events come.
  const focusing = (event: AccessibilityEvent) => focused !== undefined && event.kind === 'StateChanged' && event.detail === 'focused' && event.path === target.ref.path;
  const observation = await observe(desktop, target.ref.bus, request.probes, () => page.pressKeys(combination, request.repeat, request.signal), { snapshot: request.snapshot, signal: request.signal, ignore: focusing });
  const how = `${JSON.stringify(request.written)} went to ${label} through the browser's debugging connection (${endpoint.protocol} on port ${endpoint.port}), without the window's focus${focused ? `; ${focused}` : ''}`;
  return { outcome: actionOutcome({ path: 'devtools', mode: 'background', observation: observation.changed ? { ...observation, evidence: [how, ...observation.evidence] } : observation }) };
}
