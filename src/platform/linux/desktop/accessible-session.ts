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
