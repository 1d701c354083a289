import type { ElementHandle } from '../targets.js';
import type { ObjectRef } from './atspi/object-ref.js';

/** What an element handle holds on Linux: the AT-SPI object it was read from, and its role then. */
export interface AtspiElement extends ObjectRef {
  atspiRole: number;
}

// The handle is opaque to the tools by type only: the object inside is this backend's own, made here and
// read back only through atspiElement.
export function elementHandle(element: AtspiElement): ElementHandle {
  return { bus: element.bus, path: element.path, atspiRole: element.atspiRole } as unknown as ElementHandle;
}

export function atspiElement(handle: ElementHandle): AtspiElement {
  return handle as unknown as AtspiElement;
}

/** The identity string readings carry (WindowReading.identities): bus name and path name one object for as long as it lives. */
export function objectIdentity(object: ObjectRef): string {
  return `${object.bus}${object.path}`;
}

/** The object an identity (objectIdentity) names: a bus name never holds a slash, an object path starts with one. */
export function objectOfIdentity(identity: string): ObjectRef | undefined {
  const slash = identity.indexOf('/');
  return slash > 0 ? { bus: identity.slice(0, slash), path: identity.slice(slash) } : undefined;
}
