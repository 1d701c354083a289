import type { DBusConnection, DBusReply } from './connection.js';
import { Variant } from './variant.js';

const PROPERTIES = 'org.freedesktop.DBus.Properties';

function unwrap(value: unknown): unknown {
  return value instanceof Variant ? value.value : value;
}

function expectSignature(reply: DBusReply, expected: string, what: string): void {
  if (reply.signature !== expected) {
    throw new Error(`${what} answered with signature "${reply.signature}", expected "${expected}"`);
  }
}

/** Reads one property and returns its value without the variant wrapper. */
export async function getProperty(
  conn: DBusConnection,
  destination: string,
  path: string,
  iface: string,
  name: string,
  timeoutMs?: number,
): Promise<unknown> {
  const reply = await conn.call({ destination, path, interface: PROPERTIES, member: 'Get', signature: 'ss', body: [iface, name], timeoutMs });
  expectSignature(reply, 'v', `${destination} ${path} Properties.Get(${iface}, ${name})`);
  return unwrap(reply.body[0]);
}

/** Reads every property of an interface; values come without their variant wrappers. */
export async function getAllProperties(
  conn: DBusConnection,
  destination: string,
  path: string,
  iface: string,
  timeoutMs?: number,
): Promise<Map<string, unknown>> {
  const reply = await conn.call({ destination, path, interface: PROPERTIES, member: 'GetAll', signature: 's', body: [iface], timeoutMs });
  expectSignature(reply, 'a{sv}', `${destination} ${path} Properties.GetAll(${iface})`);
  const result = new Map<string, unknown>();
  for (const [key, value] of reply.body[0] as Map<string, Variant>) result.set(key, unwrap(value));
  return result;
}

export async function setProperty(
  conn: DBusConnection,
  destination: string,
  path: string,
  iface: string,
  name: string,
  variant: Variant,
  timeoutMs?: number,
): Promise<void> {
  await conn.call({ destination, path, interface: PROPERTIES, member: 'Set', signature: 'ssv', body: [iface, name, variant], timeoutMs });
}

/** The session bus address from the environment; throws naming the variable when it is unset. */
export function sessionBusAddress(env: NodeJS.ProcessEnv = process.env): string {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (address === undefined || address.trim() === '') {
    throw new Error('DBUS_SESSION_BUS_ADDRESS is not set, so the D-Bus session bus cannot be found (is a desktop session running?)');
  }
  return address;
}
