// An accessible field found in a Chromium page over the DevTools protocol: the DOM node at the field's centre
// (DOM.getNodeForLocation hit-tests through same-process frames and into shadow roots), and the accessibility
// node around it that Chromium itself computed, whose name is the one the AT-SPI field has. The text goes in
// through the page (insertIntoElement), so no window is focused or raised.
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import * as scripts from './page-scripts.js';
import type { AccessibleField, FieldInsertion } from './puppeteer-page.js';

/** Chromium's roles for a date or time field: not editable text, but a value the page sets (settable). */
const dateTimeRoles = new Set(['Date', 'DateTime', 'InputTime']);

function editable(node: Protocol.Accessibility.AXNode): boolean {
  if (node.ignored) return false;
  const settableDate = dateTimeRoles.has(String(node.role?.value));
  return (node.properties ?? []).some((property) => property.name === 'editable' || (settableDate && property.name === 'settable' && property.value.value === true));
}

/**
 * The editable accessibility node the hit node belongs to: the hit's own node or the nearest ancestor that is
 * editable, then up through its editable ancestors to the outermost (a contenteditable's paragraphs are
 * editable too; the field is their host).
 */
export function editableAround(nodes: readonly Protocol.Accessibility.AXNode[], backendNodeId: number): Protocol.Accessibility.AXNode | undefined {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  const chain: Protocol.Accessibility.AXNode[] = [];
  let node: Protocol.Accessibility.AXNode | undefined = nodes.find((candidate) => candidate.backendDOMNodeId === backendNodeId) ?? nodes[0];
  for (; node; node = node.parentId ? byId.get(node.parentId) : undefined) {
    if (!node.ignored) chain.push(node);
  }
  const first = chain.findIndex(editable);
  if (first < 0) return undefined;
  let last = first;
  while (last + 1 < chain.length && editable(chain[last + 1]!)) last++;
  return chain[last];
}

/** The DOM node the page's hit test finds at the point (the document's CSS pixels) and the accessibility nodes around it, or why none. */
async function accessibleNodesAt(session: CDPSession, point: { x: number; y: number }): Promise<{ hit: number; nodes: Protocol.Accessibility.AXNode[] } | { reason: string }> {
  let hit: Protocol.DOM.GetNodeForLocationResponse;
  try {
    hit = await session.send('DOM.getNodeForLocation', { x: Math.round(point.x), y: Math.round(point.y), includeUserAgentShadowDOM: false, ignorePointerEventsNone: true });
  } catch (error) {
    // Chromium's answer for a point where its hit test finds nothing; other protocol errors are the connection's.
    if (error instanceof Error && /No node found/i.test(error.message)) return { reason: 'no node of the page lies at its centre' };
    throw error;
  }
  const { nodes } = await session.send('Accessibility.getPartialAXTree', { backendNodeId: hit.backendNodeId, fetchRelatives: true });
  return { hit: hit.backendNodeId, nodes };
}

async function find(session: CDPSession, point: { x: number; y: number }, field: AccessibleField): Promise<{ backendNodeId: number } | { reason: string }> {
  const around = await accessibleNodesAt(session, point);
  if ('reason' in around) return around;
  const { hit, nodes } = around;
  const node = editableAround(nodes, hit);
  if (!node?.backendDOMNodeId) {
    const there = nodes.find((candidate) => candidate.backendDOMNodeId === hit);
    return { reason: `no editable node of the page lies at its centre (${Math.round(point.x)},${Math.round(point.y)} of the document, where there is ${there?.role?.value ? `a ${String(there.role.value)} node` : 'no accessible node'})` };
  }
  const name = scripts.normalText(node.name?.value);
  if (name !== scripts.normalText(field.name)) return { reason: `the page's editable node at its centre is named "${name}" (${node.role?.value ?? 'no role'}), not "${scripts.normalText(field.name)}"` };
  // Without a name to tell two fields apart, their text must agree as well (Chromium masks a password in both).
  const value = node.value?.value;
  if (name === '' && value !== undefined && scripts.normalText(value) !== scripts.normalText(field.text)) {
    return { reason: `the page's unnamed editable node at its centre holds "${scripts.normalText(value)}", not "${scripts.normalText(field.text)}"` };
  }
  return { backendNodeId: node.backendDOMNodeId };
}

/** Enter as Chromium's input pipeline takes it from a keyboard: the page gets keydown, keypress and keyup, and a form submits. */
async function pressReturn(session: CDPSession): Promise<void> {
  const key = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 };
  await session.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text: '\r', unmodifiedText: '\r' });
  await session.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
}

/**
 * Finds the field at the point (the document's CSS pixels) and inserts the text into it, or says why not. In a
 * single-line field a newline is a Return press (what a user's typing would make of it): the lines go in one by
 * one, each followed by Enter through the page's input, which needs no window focus; the page may act on it (add
 * the line somewhere and empty the field, submit a form), and the next line goes into the field as it then is.
 */
export async function insertThroughCdp(page: Page, point: { x: number; y: number }, field: AccessibleField, text: string, replace: boolean): Promise<FieldInsertion> {
  const session = await page.createCDPSession();
  try {
    const found = await find(session, point, field);
    if ('reason' in found) return { inserted: false, reason: found.reason };
    const { object } = await session.send('DOM.resolveNode', { backendNodeId: found.backendNodeId });
    if (!object.objectId) return { inserted: false, reason: 'its DOM node could not be reached in the page' };
    const insert = async (part: string, replacing: boolean) => {
      const called = await session.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: `function (text, replace) { return { node: (${scripts.describeNode})(this), ...(${scripts.insertIntoElement})(this, text, replace) }; }`,
        arguments: [{ value: part }, { value: replacing }],
        returnByValue: true,
      });
      if (called.exceptionDetails) return { reason: `the page threw: ${called.exceptionDetails.exception?.description ?? called.exceptionDetails.text}` };
      const result = called.result.value as { node: string; value?: string; refused?: string };
      if (result.refused) return { reason: `<${result.node}> takes no text (${result.refused === 'read_only' ? 'read-only or disabled' : 'not a text field'})` };
      return { node: result.node, value: result.value ?? '' };
    };
    // The field's value as the page has it: what a Return press did to it is read here, not from the accessibility
    // tree, where Chromium may fold the line and its Return into one update in which the field reports nothing.
    const valueNow = async () =>
      String((await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: 'function () { return this.value ?? this.innerText; }', returnByValue: true })).result.value ?? '');
    const lines = field.singleLine ? text.split(/\r?\n/) : [text];
    let done: { node: string; value: string } | { reason: string } = { node: '', value: '' };
    let returned: { before: string; after: string } | undefined;
    for (const [i, line] of lines.entries()) {
      if (i > 0) {
        const before = await valueNow();
        await pressReturn(session);
        // A Return that took the page elsewhere (a form submitted) leaves no field to read.
        returned = await valueNow().then((after) => ({ before, after }), () => undefined);
      }
      // An empty line after a Return has nothing to insert; the field keeps the focus the insertion gave it.
      if (line !== '' || i === 0) done = await insert(line, replace && i === 0);
      if ('reason' in done) return { inserted: false, reason: i === 0 ? done.reason : `after the Return press of line ${i}, ${done.reason}` };
    }
    return { inserted: true, ...(done as { node: string; value: string }), ...(returned ? { returned } : {}) };
  } finally {
    await session.detach().catch(() => {});
  }
}

/** The page's focus went to its node for the element (described as "button#actions"), or why not. */
export type ElementFocus = { focused: true; node: string } | { focused: false; reason: string };

/**
 * Gives the page's keyboard focus to the node that is the accessible element: the nearest focusable accessibility node
 * around the one at the point (the document's CSS pixels) named as the element is, focused inside the page only.
 */
export async function focusThroughCdp(page: Page, point: { x: number; y: number }, name: string): Promise<ElementFocus> {
  const session = await page.createCDPSession();
  try {
    const around = await accessibleNodesAt(session, point);
    if ('reason' in around) return { focused: false, reason: around.reason };
    const { nodes } = around;
    const byId = new Map(nodes.map((node) => [node.nodeId, node]));
    const focusable = (node: Protocol.Accessibility.AXNode) => (node.properties ?? []).some((property) => property.name === 'focusable' && property.value.value === true);
    let node: Protocol.Accessibility.AXNode | undefined = nodes.find((candidate) => candidate.backendDOMNodeId === around.hit) ?? nodes[0];
    while (node && (node.ignored || !focusable(node))) node = node.parentId ? byId.get(node.parentId) : undefined;
    if (!node?.backendDOMNodeId) return { focused: false, reason: 'no focusable node of the page lies at its centre' };
    const named = scripts.normalText(node.name?.value);
    if (named !== scripts.normalText(name)) return { focused: false, reason: `the page's focusable node at its centre is named "${named}" (${node.role?.value ?? 'no role'}), not "${scripts.normalText(name)}"` };
    const { object } = await session.send('DOM.resolveNode', { backendNodeId: node.backendDOMNodeId });
    if (!object.objectId) return { focused: false, reason: 'its DOM node could not be reached in the page' };
    // Focused as a script focuses it; the page's active element, through open shadow roots, tells whether it took it.
    const called = await session.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration: `function () { this.focus(); let active = document.activeElement; while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement; return { node: (${scripts.describeNode})(this), took: active === this }; }`,
      returnByValue: true,
    });
    if (called.exceptionDetails) return { focused: false, reason: `the page threw: ${called.exceptionDetails.exception?.description ?? called.exceptionDetails.text}` };
    const result = called.result.value as { node: string; took: boolean };
    return result.took ? { focused: true, node: result.node } : { focused: false, reason: `<${result.node}> did not take the page's focus` };
  } finally {
    await session.detach().catch(() => {});
  }
}
