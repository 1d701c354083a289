import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { DBusError, DBusTimeoutError, type DBusConnection } from '../dbus/index.js';
import { atspiInterface, type ObjectRef } from './object-ref.js';

export interface ReadTreeOptions {
  /** Stop adding nodes at this many (the result is then marked truncated). */
  maxNodes: number;
  /** Depth below the start object that is still read (0 = only the start object). */
  maxDepth: number;
  /** Per-call timeout: an application that does not answer one call within it is considered hung. */
  callTimeoutMs: number;
  /** Budget for the whole walk; what is not read by then is left out and the result marked truncated. */
  budgetMs: number;
  /** When the toolkit sets SHOWING reliably, a non-showing object's position is not asked (it has none on screen). */
  trustShowing: boolean;
  /** Calls in flight at once; enough to hide latency without queueing so deep that queued calls time out. */
  concurrency?: number;
}

export interface ReadTreeResult {
  root?: AtspiRawNode;
  nodeCount: number;
  truncated: boolean;
  /** Set when the application stopped answering; the tree is then partial or absent. */
  failure?: string;
  calls: number;
  elapsedMs: number;
}

const STATE_SHOWING = 25;
const comboBoxRole = 11;
/** Roles whose Text content is their value (entries and editable combo boxes). */
const textValueRoles = new Set([11, 40, 61, 76, 77, 79]);
/** Roles whose attributes carry facts CUP keeps: heading level, placeholder, landmark (xml-roles), tree level. */
const attributeRoles = new Set([32, 40, 61, 79, 83, 85, 87, 91, 110]);
const maxTextLength = 4096;

type Body = unknown[];

class WalkAborted extends Error {}

/**
 * Reads an accessible subtree with many calls in flight at once: per-message cost on both ends dominates
 * a walk, so requests are pipelined instead of awaited one by one, and each object is only asked for
 * what its interfaces say it has. Every call is bounded; the first call an application fails to answer
 * ends the walk, so a hung application costs one timeout, not one per object.
 */
export function readTree(bus: DBusConnection, start: ObjectRef, options: ReadTreeOptions): Promise<ReadTreeResult> {
  const started = Date.now();
  const deadline = started + options.budgetMs;
  const concurrency = options.concurrency ?? 192;
  let inFlight = 0;
  let calls = 0;
  let pendingNodes = 0;
  let nodeCount = 0;
  let truncated = false;
  let failure: string | undefined;
  let finished = false;
  const waiting: (() => void)[] = [];
  let finish: (result: ReadTreeResult) => void = () => {};
  const done = new Promise<ReadTreeResult>((resolve) => {
    finish = resolve;
  });

  const complete = () => {
    if (finished) return;
    finished = true;
    finish({ root, nodeCount, truncated, failure, calls, elapsedMs: Date.now() - started });
  };

  const abort = (reason: string | undefined) => {
    if (reason !== undefined) failure ??= reason;
    else truncated = true;
    complete();
  };

  async function call(ref: ObjectRef, iface: string, member: string, signature?: string, body?: Body): Promise<Body | undefined> {
    if (finished) throw new WalkAborted();
    if (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    if (finished) throw new WalkAborted();
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      abort(undefined);
      throw new WalkAborted();
    }
    const timeoutMs = Math.min(options.callTimeoutMs, remaining);
    inFlight++;
    calls++;
    try {
      const reply = await bus.call({ destination: ref.bus, path: ref.path, interface: iface, member, signature, body, timeoutMs });
      return reply.body;
    } catch (error) {
      if (error instanceof DBusTimeoutError) {
        if (timeoutMs < options.callTimeoutMs) abort(undefined);
        else abort(`the application (${ref.bus}) did not answer ${member} within ${options.callTimeoutMs} ms; it may be hung or stopped`);
        throw new WalkAborted();
      }
      // The object went away or lacks what it advertised: leave the field out and keep walking.
      if (error instanceof DBusError) return undefined;
      throw error;
    } finally {
      inFlight--;
      waiting.shift()?.();
    }
  }

  function newNode(ref: ObjectRef): AtspiRawNode {
    nodeCount++;
    return { bus: ref.bus, path: ref.path, role: 0, name: '', description: '', states: [0, 0], interfaces: [], childCount: 0, children: [] };
  }

  async function readBasics(node: AtspiRawNode, depth: number): Promise<ObjectRef[]> {
    const [properties, role, state, interfaces, children] = await Promise.all([
      call(node, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [atspiInterface('Accessible')]),
      call(node, atspiInterface('Accessible'), 'GetRole'),
      call(node, atspiInterface('Accessible'), 'GetState'),
      call(node, atspiInterface('Accessible'), 'GetInterfaces'),
      depth < options.maxDepth ? call(node, atspiInterface('Accessible'), 'GetChildren') : undefined,
    ]);
    const props = properties?.[0] instanceof Map ? (properties[0] as Map<string, { value: unknown }>) : undefined;
    node.name = String(props?.get('Name')?.value ?? '');
    node.description = String(props?.get('Description')?.value ?? '');
    node.childCount = Number(props?.get('ChildCount')?.value ?? 0);
    node.role = Number(role?.[0] ?? 0);
    node.states = (state?.[0] as number[] | undefined) ?? [0, 0];
    node.interfaces = ((interfaces?.[0] as string[] | undefined) ?? []).map((name) => name.replace('org.a11y.atspi.', ''));
    const refs = ((children?.[0] as [string, string][] | undefined) ?? []).map(([childBus, childPath]) => ({ bus: childBus, path: childPath }));
    if (depth >= options.maxDepth && node.childCount > 0) truncated = true;
    return refs.filter((ref) => ref.path !== '/org/a11y/atspi/null');
  }

  async function readDetails(node: AtspiRawNode): Promise<void> {
    const has = (name: string) => node.interfaces.includes(name);
    const showing = ((node.states[0] ?? 0) & (1 << STATE_SHOWING)) !== 0;
    const work: Promise<void>[] = [];
    if (has('Component') && !showing && options.trustShowing) node.positionUnknown = true;
    if (has('Component') && (showing || !options.trustShowing)) {
      work.push(
        call(node, atspiInterface('Component'), 'GetExtents', 'u', [0]).then((body) => {
          const [x, y, w, h] = (body?.[0] as number[] | undefined) ?? [];
          if (x !== undefined) node.extents = { x, y: y!, w: w!, h: h! };
        }),
      );
    }
    if (has('Action')) {
      work.push(
        call(node, atspiInterface('Action'), 'GetActions').then((body) => {
          const actions = (body?.[0] as [string, string, string][] | undefined) ?? [];
          if (actions.length > 0) node.actions = actions.map(([name]) => name);
        }),
      );
    }
    if (has('Value')) {
      work.push(
        call(node, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [atspiInterface('Value')]).then((body) => {
          const values = body?.[0] instanceof Map ? (body[0] as Map<string, { value: unknown }>) : undefined;
          const current = Number(values?.get('CurrentValue')?.value);
          if (values && Number.isFinite(current)) {
            node.value = {
              current,
              min: Number(values.get('MinimumValue')?.value ?? 0),
              max: Number(values.get('MaximumValue')?.value ?? 0),
            };
          }
        }),
      );
    }
    if (has('Text') && textValueRoles.has(node.role)) {
      work.push(
        call(node, atspiInterface('Text'), 'GetText', 'ii', [0, maxTextLength]).then((body) => {
          if (body) node.text = String(body[0] ?? '');
        }),
      );
    }
    if (node.role === comboBoxRole && has('Selection') && !has('Text')) {
      work.push(
        call(node, atspiInterface('Selection'), 'GetSelectedChild', 'i', [0]).then(async (body) => {
          const [bus, path] = (body?.[0] as [string, string] | undefined) ?? [];
          if (!bus || !path || path === '/org/a11y/atspi/null') return;
          const name = await call({ bus, path }, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface('Accessible'), 'Name']);
          const variant = name?.[0] as { value: unknown } | undefined;
          if (variant) node.selectedName = String(variant.value);
        }),
      );
    }
    if (attributeRoles.has(node.role)) {
      work.push(
        call(node, atspiInterface('Accessible'), 'GetAttributes').then((body) => {
          const attributes = body?.[0] instanceof Map ? (body[0] as Map<string, string>) : undefined;
          if (attributes && attributes.size > 0) node.attributes = Object.fromEntries(attributes);
        }),
      );
    }
    await Promise.all(work);
  }

  function visit(node: AtspiRawNode, depth: number): void {
    pendingNodes++;
    (async () => {
      const childRefs = await readBasics(node, depth);
      for (const ref of childRefs) {
        if (nodeCount >= options.maxNodes) {
          truncated = true;
          break;
        }
        const child = newNode(ref);
        node.children.push(child);
        visit(child, depth + 1);
      }
      await readDetails(node);
    })()
      .catch((error: unknown) => {
        if (!(error instanceof WalkAborted)) abort(error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        pendingNodes--;
        if (pendingNodes === 0) complete();
      });
  }

  const root = newNode(start);
  visit(root, 0);
  return done;
}
