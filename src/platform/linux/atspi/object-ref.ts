/** An accessible object on the accessibility bus: the owning application's bus name and the object path. */
export interface ObjectRef {
  bus: string;
  path: string;
}

export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
export const REGISTRY_BUS = 'org.a11y.atspi.Registry';

export function atspiInterface(name: string): string {
  return `org.a11y.atspi.${name}`;
}
