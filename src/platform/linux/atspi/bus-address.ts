import { DBusConnection } from '../dbus/index.js';
import type { X11Connection } from '../x11/index.js';

/** Asks the session bus for the accessibility bus; this also starts at-spi-bus-launcher when it is not running. */
export async function askSessionBusForAccessibilityBus(session: DBusConnection): Promise<string> {
  const reply = await session.call({
    destination: 'org.a11y.Bus',
    path: '/org/a11y/bus',
    interface: 'org.a11y.Bus',
    member: 'GetAddress',
    timeoutMs: 10_000,
  });
  return String(reply.body[0]);
}

/**
 * The AT-SPI registry lives on a separate accessibility bus, not on the session bus. Its address comes
 * from AT_SPI_BUS_ADDRESS, else from org.a11y.Bus.GetAddress on the session bus, else from the
 * AT_SPI_BUS property that at-spi-bus-launcher puts on the X root window.
 */
export async function accessibilityBusAddress(x: X11Connection, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.AT_SPI_BUS_ADDRESS) return env.AT_SPI_BUS_ADDRESS;
  const problems: string[] = [];
  if (env.DBUS_SESSION_BUS_ADDRESS) {
    try {
      const session = await DBusConnection.connect(env.DBUS_SESSION_BUS_ADDRESS, { timeoutMs: 5000 });
      try {
        return await askSessionBusForAccessibilityBus(session);
      } finally {
        session.close();
      }
    } catch (error) {
      problems.push(`session bus: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    problems.push('DBUS_SESSION_BUS_ADDRESS is not set');
  }
  const fromRoot = await x.getString(x.screen.root, 'AT_SPI_BUS');
  if (fromRoot) return fromRoot;
  problems.push('the X root window has no AT_SPI_BUS property');
  throw new Error(
    `cannot find the AT-SPI accessibility bus (${problems.join('; ')}); start the desktop with ` +
      '`cup-driver desktop start`, or make sure at-spi2-core is installed and the session bus is running',
  );
}
