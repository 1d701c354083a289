// The root window's property changes: where the window manager publishes which window is active
// (_NET_ACTIVE_WINDOW) and which windows exist (_NET_CLIENT_LIST). Selected once per connection; nothing else
// of ours selects events on the root, so this mask replaces none.
import { EventMask, type X11Connection } from '../x11/index.js';
import { PerConnection } from './per-connection.js';

const selections = new PerConnection(async (x) => {
  await x.changeWindowAttributes(x.screen.root, { eventMask: EventMask.PropertyChange });
});

/**
 * Calls `listener` whenever one of the named root properties changes; every change caused by a request sent
 * after this resolves is heard. Returns the function that stops it.
 */
export async function onRootPropertyChange(x: X11Connection, names: readonly string[], listener: () => void): Promise<() => void> {
  const [atoms] = await Promise.all([x.atoms(names), selections.of(x)]);
  const watched = new Set(Object.values(atoms));
  return x.onEvent((event) => {
    if (event.name === 'PropertyNotify' && event.window === x.screen.root && watched.has(event.atom)) listener();
  });
}
