// The desktop's parts, checked one by one for check_permissions and health_report: the X server and XTEST (real
// input), the window manager, the accessibility bus and whether accessibility is switched on, the apps on it, and
// ffmpeg (video recording). Each check is bounded in time and reports its fix instead of throwing.
import { execFile } from 'node:child_process';
import { release as kernelRelease } from 'node:os';
import type { HealthCheck } from '../desktop-services.js';
import type { AtspiClient } from './atspi/client.js';
import { DBusConnection, getProperty } from './dbus/index.js';
import { findProgram } from './desktop/requirements.js';
import type { X11Connection } from './x11/index.js';

/** Bound on each check: a part that does not answer in this time is reported as not answering. */
const checkBoundMs = 3000;

async function bounded<T>(what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${checkBoundMs / 1000} s`)), checkBoundMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The window manager's name (EWMH _NET_SUPPORTING_WM_CHECK), undefined when none runs. */
async function windowManagerName(x: X11Connection): Promise<string | undefined> {
  const check = await x.getWindowList(x.screen.root, '_NET_SUPPORTING_WM_CHECK');
  if (!check?.[0]) return undefined;
  return (await x.getString(check[0], '_NET_WM_NAME')) ?? 'unnamed';
}

/** org.a11y.Status.IsEnabled on the session bus: toolkits only load their accessibility bridge when it is true. */
async function accessibilityEnabled(): Promise<boolean> {
  const address = process.env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) throw new Error('DBUS_SESSION_BUS_ADDRESS is not set');
  const session = await DBusConnection.connect(address, { timeoutMs: checkBoundMs });
  try {
    return Boolean(await getProperty(session, 'org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Status', 'IsEnabled', checkBoundMs));
  } finally {
    session.close();
  }
}

/** ffmpeg's version line, or undefined when it is not installed. */
function ffmpegVersion(): Promise<string | undefined> {
  const path = findProgram('ffmpeg');
  if (!path) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    execFile(path, ['-hide_banner', '-version'], { timeout: checkBoundMs, encoding: 'utf8' }, (error, stdout) => {
      if (error) reject(new Error(`${path} -version failed: ${error.message}`));
      else resolve(stdout.split('\n')[0]?.trim() ?? path);
    });
  });
}

export interface HealthParts {
  x11(): Promise<X11Connection>;
  atspi(): Promise<AtspiClient>;
}

export async function healthChecks(parts: HealthParts): Promise<HealthCheck[]> {
  const checks: HealthCheck[] = [];
  let x: X11Connection | undefined;
  try {
    x = await bounded('the X server', () => parts.x11());
    checks.push({ name: 'x_server', ok: true, detail: `${x.setup.vendor} ${x.setup.release} on ${x.display}, ${x.screen.width}x${x.screen.height}` });
  } catch (error) {
    checks.push({
      name: 'x_server',
      ok: false,
      detail: message(error),
      fix: 'start a desktop with `cup-driver desktop start` and export the DISPLAY it prints, or set DISPLAY (and XAUTHORITY) to a running X server',
    });
  }
  if (x) {
    const connection = x;
    const xtest = await bounded('XTEST', () => connection.queryExtension('XTEST')).catch(() => undefined);
    checks.push(
      xtest?.present
        ? { name: 'xtest', ok: true, detail: 'the XTEST extension is present (real keyboard and pointer input)' }
        : {
            name: 'xtest',
            ok: false,
            detail: 'the X server lacks the XTEST extension: foreground input (keys, pointer, drags) cannot be sent',
            fix: 'run an X server with XTEST (Xvfb and Xorg have it unless started with -extension XTEST; `cup-driver desktop start` does)',
          },
    );
    const manager = await bounded('the window manager', () => windowManagerName(connection)).catch(() => undefined);
    checks.push(
      manager
        ? { name: 'window_manager', ok: true, detail: `${manager} (EWMH)` }
        : {
            name: 'window_manager',
            ok: false,
            optional: true,
            detail: 'no EWMH window manager runs: windows cannot be activated or moved through one, and minimized states are unknown',
            fix: 'start one (e.g. `openbox &`); `cup-driver desktop start` starts openbox',
          },
    );
  }
  let client: AtspiClient | undefined;
  try {
    client = await bounded('the accessibility bus', () => parts.atspi());
    checks.push({ name: 'accessibility_bus', ok: true, detail: 'the AT-SPI registry answers on the accessibility bus' });
  } catch (error) {
    checks.push({
      name: 'accessibility_bus',
      ok: false,
      detail: message(error),
      fix: 'install at-spi2-core (`apt-get install at-spi2-core`) and run a session bus (DBUS_SESSION_BUS_ADDRESS); `cup-driver desktop start` does both',
    });
  }
  try {
    const enabled = await bounded('org.a11y.Status', () => accessibilityEnabled());
    checks.push(
      enabled
        ? { name: 'accessibility_enabled', ok: true, detail: 'org.a11y.Status.IsEnabled is true: toolkits load their accessibility bridge' }
        : {
            name: 'accessibility_enabled',
            ok: false,
            detail: 'org.a11y.Status.IsEnabled is false: apps started now expose no accessibility tree',
            fix: 'run `busctl --user set-property org.a11y.Bus /org/a11y/bus org.a11y.Status IsEnabled b true` (or `gsettings set org.gnome.desktop.interface toolkit-accessibility true`), then restart the apps',
          },
    );
  } catch (error) {
    checks.push({
      name: 'accessibility_enabled',
      ok: false,
      detail: `could not ask the session bus: ${message(error)}`,
      fix: 'run the driver inside a session with a session bus (DBUS_SESSION_BUS_ADDRESS set), e.g. the one `cup-driver desktop start` makes',
    });
  }
  if (client) {
    const atspi = client;
    try {
      const apps = await bounded('the AT-SPI registry', () => atspi.applications());
      const names = await Promise.all(apps.map((app) => atspi.toolkitOf(app.bus).then((toolkit) => `pid ${app.pid}${toolkit ? ` (${toolkit.name})` : ''}`).catch(() => `pid ${app.pid}`)));
      checks.push(
        apps.length > 0
          ? { name: 'apps_registered', ok: true, detail: `${apps.length} apps on the accessibility bus: ${names.join(', ')}` }
          : {
              name: 'apps_registered',
              ok: false,
              optional: true,
              detail: 'no application is registered on the accessibility bus (none runs, or none loaded its bridge)',
              fix: 'start apps after accessibility is enabled; Qt apps need QT_ACCESSIBILITY=1, Chromium and Electron --force-renderer-accessibility',
            },
      );
    } catch (error) {
      checks.push({ name: 'apps_registered', ok: false, optional: true, detail: message(error), fix: 'restart the accessibility bus (at-spi-bus-launcher) or the desktop' });
    }
  }
  try {
    const version = await ffmpegVersion();
    checks.push(
      version
        ? { name: 'ffmpeg', ok: true, detail: version }
        : {
            name: 'ffmpeg',
            ok: false,
            optional: true,
            detail: 'ffmpeg is not on PATH: start_recording cannot record video (record_video)',
            fix: 'call install_ffmpeg (it shows the command, and runs it with confirm: true), or `apt-get install -y ffmpeg`',
          },
    );
  } catch (error) {
    checks.push({ name: 'ffmpeg', ok: false, optional: true, detail: message(error), fix: 'reinstall ffmpeg: `apt-get install --reinstall -y ffmpeg`' });
  }
  return checks;
}

/** Versions and where things run, for health_report; parts that do not answer are reported as such. */
export async function healthFacts(parts: HealthParts & { connections(): Record<string, unknown> }): Promise<Record<string, unknown>> {
  const facts: Record<string, unknown> = { kernel: kernelRelease(), display: process.env.DISPLAY ?? null };
  try {
    const x = await bounded('the X server', () => parts.x11());
    facts.x_server = { vendor: x.setup.vendor, release: x.setup.release, display: x.display, screen: { width: x.screen.width, height: x.screen.height } };
    facts.window_manager = (await bounded('the window manager', () => windowManagerName(x)).catch(() => undefined)) ?? null;
  } catch (error) {
    facts.x_server = { error: message(error) };
  }
  facts.connections = parts.connections();
  return facts;
}
