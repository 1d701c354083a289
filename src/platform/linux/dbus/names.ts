// Checked before sending because the bus answers a malformed name by dropping the whole connection.

const OBJECT_PATH = /^\/(?:[A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*)?$/;
const INTERFACE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const MEMBER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const UNIQUE_BUS_NAME = /^:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;
const WELL_KNOWN_BUS_NAME = /^[A-Za-z_-][A-Za-z0-9_-]*(?:\.[A-Za-z_-][A-Za-z0-9_-]*)+$/;
const MAX_NAME_LENGTH = 255;

export function isObjectPath(value: string): boolean {
  return OBJECT_PATH.test(value);
}

export function assertObjectPath(value: unknown): asserts value is string {
  if (typeof value !== 'string' || !OBJECT_PATH.test(value)) {
    throw new TypeError(`invalid D-Bus object path ${JSON.stringify(value)}: expected "/" or "/" followed by "/"-separated [A-Za-z0-9_] elements`);
  }
}

export function assertInterfaceName(value: unknown, what = 'interface name'): asserts value is string {
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH || !INTERFACE.test(value)) {
    throw new TypeError(`invalid D-Bus ${what} ${JSON.stringify(value)}: expected two or more "."-separated elements of [A-Za-z0-9_] not starting with a digit`);
  }
}

export function assertMemberName(value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH || !MEMBER.test(value)) {
    throw new TypeError(`invalid D-Bus member name ${JSON.stringify(value)}: expected [A-Za-z0-9_] not starting with a digit`);
  }
}

export function assertBusName(value: unknown): asserts value is string {
  if (
    typeof value !== 'string' ||
    value.length > MAX_NAME_LENGTH ||
    !(value.startsWith(':') ? UNIQUE_BUS_NAME.test(value) : WELL_KNOWN_BUS_NAME.test(value))
  ) {
    throw new TypeError(`invalid D-Bus bus name ${JSON.stringify(value)}: expected a unique name like ":1.42" or a well-known name like "org.a11y.Bus"`);
  }
}
