/** An accessible object on the accessibility bus: the owning application's bus name and the object path. */
export interface ObjectRef {
  bus: string;
  path: string;
}

export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
export const REGISTRY_BUS = 'org.a11y.atspi.Registry';
/** The path AT-SPI sends where there is no object (no parent, no child at a point, no selection). */
export const NULL_PATH = '/org/a11y/atspi/null';

export function atspiInterface(name: string): string {
  return `org.a11y.atspi.${name}`;
}

/** An interface's short name ("Text") from its D-Bus name ("org.a11y.atspi.Text"). */
export function shortInterfaceName(name: string): string {
  return name.replace('org.a11y.atspi.', '');
}

/** Object references as AT-SPI sends them, (bus, path) pairs, without the null object. */
export function objectRefs(pairs: readonly [string, string][]): ObjectRef[] {
  return pairs.filter(([, path]) => path !== NULL_PATH).map(([bus, path]) => ({ bus, path }));
}
