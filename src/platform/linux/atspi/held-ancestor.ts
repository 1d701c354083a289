// Where an object no reading holds belongs: the first of its ancestors that one does. A live mirror places so an
// object its events name (a row added under a mirrored list), and an action's watch the objects it heard change.
import { DBusError, DBusTimeoutError } from '../dbus/index.js';
import type { AtspiClient } from './client.js';
import { atspiInterface, NULL_PATH, ROOT_PATH, type ObjectRef } from './object-ref.js';

/** Parents asked while placing an object; deeper than any real window. */
const maxSteps = 64;

/**
 * What `held` gives for the nearest ancestor of `start` (itself left out) it knows, following each object's Parent;
 * undefined when the parents leave `start`'s application (its root, or another bus) with none known, or when `start`
 * is gone already (it was never held, and what held it is named by the events of its container, whose child count
 * changed). Throws when a parent cannot be asked, or the parents go deeper than any real window.
 */
export async function heldAncestor<T>(client: AtspiClient, start: ObjectRef, held: (path: string) => T | undefined, timeoutMs: number): Promise<T | undefined> {
  let current = start.path;
  for (let step = 0; step < maxSteps; step++) {
    let parent: [string, string] | undefined;
    try {
      const body = await client.callObject({ bus: start.bus, path: current }, {
        interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [atspiInterface('Accessible'), 'Parent'], timeoutMs,
      });
      parent = (body[0] as { value: [string, string] } | undefined)?.value;
    } catch (error) {
      if (error instanceof DBusError && !(error instanceof DBusTimeoutError) && step === 0) return undefined;
      throw error;
    }
    if (!parent || parent[1] === NULL_PATH || parent[1] === ROOT_PATH || parent[0] !== start.bus) return undefined;
    const owner = held(parent[1]);
    if (owner !== undefined) return owner;
    current = parent[1];
  }
  throw new Error(`the parents of ${start.path} go deeper than ${maxSteps}`);
}
