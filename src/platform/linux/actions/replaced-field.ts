// A field that the app destroyed and made anew while it was acted on: a page that renders again on every key (React's
// controlled inputs remade, a framework's keyed list re-rendered) replaces the focused <input> with a new one of the
// same role and name and focuses that. Blink's destroyed object answers "" for its text, so a read-back that kept
// reading it saw the field emptied and called the typing "no effect seen" while the page held the text.
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { readName, readRole } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { liveStates } from './live-states.js';
import { DBusError, DBusTimeoutError } from '../dbus/index.js';

/** An object's role and name, which its replacement must have. */
export interface FieldIdentity {
  role: number;
  name: string;
}

export async function fieldIdentity(client: AtspiClient, ref: ObjectRef): Promise<FieldIdentity> {
  const [role, name] = await Promise.all([readRole(client, ref), readName(client, ref)]);
  return { role, name };
}

/**
 * The object that replaced `gone`, once `gone` no longer exists (defunct, or the app answers that it has no such
 * object): the application's focused object (as its last focus event named it), when it is another object with the
 * same role and name. Undefined while `gone` still exists, or when nothing took its place.
 */
export async function replacementOf(desktop: LinuxDesktop, gone: ObjectRef, identity: FieldIdentity): Promise<ObjectRef | undefined> {
  // The focus is known without a round trip: a field that still has it (an empty field typed into, read before the
  // first key) is not asked whether it is gone.
  const client = await desktop.atspi();
  const path = client.events.focusedIn(gone.bus);
  if (!path || path === gone.path) return undefined;
  const states = await liveStates(desktop, gone).catch((error: unknown) => {
    if (error instanceof DBusError && !(error instanceof DBusTimeoutError)) return undefined;
    throw error;
  });
  if (states && !states.has('STATE_DEFUNCT')) return undefined;
  const candidate = { bus: gone.bus, path };
  const found = await fieldIdentity(client, candidate).catch(() => undefined);
  return found && found.role === identity.role && found.name === identity.name ? candidate : undefined;
}
