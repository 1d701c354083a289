import { existsSync } from 'node:fs';
import { rendererEnvironment } from './gl-rendering.js';

/**
 * What a Debian X session with accessibility installed exports to every app (/etc/X11/Xsession.d/90atk-adaptor
 * and 90qt-a11y): GTK 2 apps load their accessibility modules only when GTK_MODULES names them, and Qt builds
 * its tree only when asked to. GTK 3 and 4 ignore the GTK 2 module names, so they are safe for every app.
 */
export function accessibleSessionEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const modules = (base.GTK_MODULES ?? '').split(':').filter(Boolean);
  for (const module of ['gail', 'atk-bridge']) if (!modules.includes(module)) modules.push(module);
  return { GTK_MODULES: modules.join(':'), QT_ACCESSIBILITY: '1', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' };
}

/** Debian's Java ATK bridge (libatk-wrapper-java): the jar that holds it. */
export const javaAtkBridge = '/usr/share/java/java-atk-wrapper.jar';

/**
 * For the apps the driver launches, besides the session's: Java loads an assistive technology only when told to,
 * and Debian leaves its ATK bridge off (the line in accessibility.properties is commented out, LP #935296), so a
 * Swing app started plainly is not on the accessibility bus at all. JAVA_TOOL_OPTIONS is read by every JVM,
 * whatever script starts it; it is left alone when it already names an assistive technology. On a display without
 * direct rendering, GTK 4 is given its software renderer (rendererEnvironment).
 */
export function launchedAppEnvironment(base: NodeJS.ProcessEnv, directRendering: boolean): Record<string, string> {
  const session = { ...accessibleSessionEnvironment(base), ...rendererEnvironment(base, directRendering) };
  const options = base.JAVA_TOOL_OPTIONS ?? '';
  if (!existsSync(javaAtkBridge) || options.includes('assistive_technologies')) return session;
  const bridge = `-Xbootclasspath/a:${javaAtkBridge} -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper`;
  return { ...session, JAVA_TOOL_OPTIONS: `${options} ${bridge}`.trim() };
}
