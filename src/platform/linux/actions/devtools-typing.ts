// Typing into a web page's field through its browser's debugging connection: the rung between EditableText
// (Blink has none, Gecko's changes nothing in a page) and X key events (Blink reads them only in its active
// window). The page's own node for the accessible field is found and given the text inside the page, so a
// covered window is typed into without being raised; the accessibility tree reads the text back, as for
// every other rung.
import { actionOutcome, type ActionOutcome, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { SnapshotRef } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { normaliseWhitespace } from '../../../cup/text.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { ancestry, extents, readName, readRole, readText } from '../atspi/operations.js';
import { findDebuggingEndpoint } from '../browser/endpoint.js';
import { relaunchCall } from '../browser/page-connections.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { Actionable } from './accessible-actions.js';
import { liveStates } from './live-states.js';
import { scrollIntoViewQuietly } from './scroll-into-view.js';
import { onlyReturns, returnActed, returnChanged } from './return-press.js';
import { observe, type Probe } from './verification.js';

export interface DevToolsTypingRequest {
  window: DesktopWindow;
  target: Actionable;
  /** How results name the target: "[e12]" or "the focused element". */
  label: string;
  /** The target's text, read before and after. */
  probe: Probe;
  text: string;
  /** The text replaces the field's whole text (set_value) instead of going in at its end (type_text). */
  replace: boolean;
  /** Whether the probe's read shows the text arrived. */
  arrived: (values: readonly (string | undefined)[]) => boolean;
  snapshot?: SnapshotRef;
}

/**
 * The outcome when the page took the text, else why this rung did not run, said so that an escalation can
 * carry it (undefined for an app that shows no web pages, where the rung means nothing).
 */
export type DevToolsTyping = { outcome: ActionOutcome } | { skipped: string | undefined };

/** The page has no node that is the field: nothing was typed, and the next rung may try. */
class FieldNotInPage extends Error {}

/** How long Chromium may take to put a page's change into its accessibility tree. */
const readBackMs = 3000;

/** Whether a web document holds the object (its ancestors in its application). */
export async function inPage(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  const { paths } = await ancestry(client, ref);
  const roles = await Promise.all(paths.map((path) => readRole(client, { bus: ref.bus, path }).catch(() => undefined)));
  return roles.some((role) => role === ATSPI_ROLE.DOCUMENT_WEB);
}

/**
 * Whether EditableText takes nothing on this field: a page's field where the engine answers it and changes nothing
 * (Gecko: editableTextIdleInPages). Its text goes to the page's node, then keys, without waiting out a read-back of an
 * insertion that never shows (1.7 to 2.5 s a call). The browser's own bars take it.
 */
export async function editableTextIdle(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  return (await client.quirksOf(ref.bus)).editableTextIdleInPages && (await inPage(client, ref));
}

/**
 * The page the window shows over the browser's debugging connection, or the refusal that says why there is none: a
 * connection that cannot be made (Firefox holds one BiDi session at a time) has done nothing yet.
 */
export async function pageOrRefusal(desktop: LinuxDesktop, window: DesktopWindow): Promise<Awaited<ReturnType<LinuxDesktop['pages']['page']>> | ToolError> {
  return desktop.pages.page(window).catch((error: unknown) => (error instanceof ToolError ? error : Promise.reject(error)));
}

export async function typeThroughDevTools(desktop: LinuxDesktop, request: DevToolsTypingRequest): Promise<DevToolsTyping> {
  const { window, target, label } = request;
  const client = await desktop.atspi();
  // Only the field of a web engine that answers a debugging connection is looked for in a page: another app's ancestor
  // may be a browser with a port.
  if (!(await client.quirksOf(target.ref.bus)).pageDebugging) return { skipped: undefined };
  // Blink says its document has the focus while its window is inactive, whatever field the page focused: the text
  // goes to that field, as a person's typing would (a field clicked behind another window, then typed into with no element).
  if (target.atspiRole === ATSPI_ROLE.DOCUMENT_WEB) return typeIntoPageFocus(desktop, request);
  // Nor a field of the browser's own interface (its address bar, its find bar), which no page holds: a relaunch
  // with a debugging endpoint was advised for Chromium's find bar, and would have typed nothing there.
  if (!(await inPage(client, target.ref))) return { skipped: undefined };
  const endpoint = findDebuggingEndpoint(window.pid);
  if (!endpoint) return { skipped: `To type into the page without the window's focus, relaunch the browser with a debugging endpoint: ${relaunchCall(window)}.` };
  const skipped = (reason: string) => ({ skipped: `The browser's debugging connection (${endpoint.protocol} on port ${endpoint.port}) could not type into ${label} either: ${reason}.` });
  let states = await liveStates(desktop, target.ref);
  // A read-only field is the caller's to refuse, with its own error.
  if (!states.has('STATE_EDITABLE') || states.has('STATE_READ_ONLY')) return { skipped: undefined };
  // A newline in a single-line field is a Return press: the DevTools protocol sends one to the page as input,
  // WebDriver BiDi's key actions only to the focused window, which Gecko's key events rung reaches anyway.
  const returns = request.text.includes('\n') && !states.has('STATE_MULTI_LINE');
  if (returns && (request.replace || endpoint.protocol !== 'cdp')) return skipped('a newline in a single-line field is a Return press, which only key events make here');
  if (!states.has('STATE_SHOWING')) {
    const shows = async () => (states = await liveStates(desktop, target.ref)).has('STATE_SHOWING');
    if (!(await scrollIntoViewQuietly(desktop, target.ref, shows))) return skipped('it is scrolled out of the page\'s view and could not be brought into it');
  }
  const [bounds, name, text] = await Promise.all([extents(client, target.ref), readName(client, target.ref), readText(client, target.ref)]);
  const page = await pageOrRefusal(desktop, window);
  if (page instanceof ToolError) return skipped(page.message);
  let node = '';
  let returned: { before: string; after: string } | undefined;
  let observation;
  // The field as the tree reads it shows what the page holds after the last Return (its text, or a change from the
  // text before when the page's value could not be read).
  const returnShown = (values: readonly (string | undefined)[]) =>
    returned ? normaliseWhitespace(values[0] ?? '') === normaliseWhitespace(returned.after) : values[0] !== undefined && values[0] !== text;
  try {
    observation = await observe(
      desktop,
      target.ref.bus,
      [request.probe],
      async () => {
        const inserted = await page.insertIntoField({ bounds, name, text, singleLine: returns }, request.text, request.replace);
        if (!inserted.inserted) throw new FieldNotInPage(inserted.reason);
        node = inserted.node;
        returned = inserted.returned;
      },
      // A Return press may empty the field (see returnActed): the field's own events, not its text, tell then. After a
      // last Return the page has said what it made of the field (insertThroughCdp reads it around the press), and the
      // wait goes on until the tree shows that too: Chromium tells the Return's effect a moment after the typed line,
      // and a to-do field's Return was read back holding the line, the diff saying `value: "" → "Call mum"` and no
      // item added, while the evidence said the page had emptied it.
      { snapshot: request.snapshot, settleMs: readBackMs, ...(returns ? { target: target.ref, ...(request.text.endsWith('\n') ? { until: returnShown } : {}) } : { until: request.arrived }) },
    );
  } catch (error) {
    if (error instanceof FieldNotInPage) return skipped(error.message);
    throw error;
  }
  const how = `${label} is <${node}> in the page: the text went in through the browser's debugging connection (${endpoint.protocol} on port ${endpoint.port}), without the window's focus`;
  // Return presses alone have no text to arrive: what they did is all the evidence there is.
  const after = await request.probe.read().catch(() => undefined);
  const arrived = !onlyReturns(request.text) && request.arrived([after]);
  // The page's own value around the last Return press (see insertThroughCdp), else the field's events.
  const pageSaw = request.text.endsWith('\n') ? returnChanged(label, returned?.before, returned?.after, observation) : undefined;
  const acted = returns ? (pageSaw ?? returnActed(request.text, label, observation, arrived, { before: text, after })) : undefined;
  if (arrived || acted) {
    const evidence = acted?.evidence ?? observation.evidence;
    return { outcome: actionOutcome({ path: 'devtools', mode: 'background', observation: { ...observation, evidence: [how, ...evidence] } }) };
  }
  // The page took the call, and the accessibility tree does not show the text: not confirmed, whatever the page said.
  return {
    outcome: actionOutcome({
      path: 'devtools',
      mode: 'background',
      observation: { ...observation, changed: false, listening: true },
      escalation: {
        recommended: 'foreground',
        reason: returns
          ? `${how}, with a Return press for each newline, and ${label} reported no change from it (what else the page changes meanwhile is not counted); read the window with get_window_state before pressing it again`
          : `${how}, yet the text of ${label} does not show it; ${RETRY_IN_FOREGROUND}`,
      },
    }),
  };
}

/**
 * Types into the page's focused element, where the tree names only the page as focused (see typeThroughDevTools): the
 * page's own account of its focused field, and the accessibility tree's events from it, tell where the text went.
 */
async function typeIntoPageFocus(desktop: LinuxDesktop, request: DevToolsTypingRequest): Promise<DevToolsTyping> {
  const { window, target, label } = request;
  const endpoint = findDebuggingEndpoint(window.pid);
  if (!endpoint) return { skipped: `To type into the page without the window's focus, relaunch the browser with a debugging endpoint: ${relaunchCall(window)}.` };
  const skipped = (reason: string) => ({ skipped: `The browser's debugging connection (${endpoint.protocol} on port ${endpoint.port}) could not type into the page's focused element either: ${reason}.` });
  // A newline is a Return press, which this rung does not make in a field it has not found (see insertThroughCdp).
  if (request.text.includes('\n') || request.replace) return skipped('a newline, or a whole text replaced, needs the field named by its element_index');
  const page = await pageOrRefusal(desktop, window);
  if (page instanceof ToolError) return skipped(page.message);
  let inserted: { node: string; value: string } | undefined;
  try {
    const observation = await observe(
      desktop,
      target.ref.bus,
      [],
      async () => {
        const done = await page.insertIntoFocus(request.text);
        if (!done.inserted) throw new FieldNotInPage(done.reason);
        inserted = done;
      },
      { snapshot: request.snapshot, settleMs: readBackMs },
    );
    const how = `${label} is the page, whose focused element, <${inserted!.node}>, took the text through the browser's debugging connection (${endpoint.protocol} on port ${endpoint.port}), without the window's focus; the page says it holds ${JSON.stringify(inserted!.value)}`;
    if (observation.changed) return { outcome: actionOutcome({ path: 'devtools', mode: 'background', observation: { ...observation, evidence: [how, ...observation.evidence] } }) };
    // The page took the call, and the accessibility tree shows nothing of it: not confirmed, whatever the page said.
    return {
      outcome: actionOutcome({
        path: 'devtools',
        mode: 'background',
        observation: { ...observation, changed: false, listening: true },
        escalation: { recommended: 'foreground', reason: `${how}, yet the window's tree shows no change; read the window with get_window_state before typing again` },
      }),
    };
  } catch (error) {
    if (error instanceof FieldNotInPage) return skipped(error.message);
    throw error;
  }
}
