import type { X11Connection } from './x11/index.js';

/**
 * The desktop's scale factor. X11 has no per-output scale: desktops announce it through the Xft.dpi
 * resource (192 dpi = 2x), and GDK_SCALE when set forces GTK's.
 */
export async function screenScale(x: X11Connection, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const forced = Number(env.GDK_SCALE);
  if (Number.isFinite(forced) && forced >= 1) return forced;
  const resources = await x.getString(x.screen.root, 'RESOURCE_MANAGER');
  const match = resources ? /^Xft\.dpi:\s*([\d.]+)\s*$/m.exec(resources) : null;
  const dpi = match ? Number(match[1]) : 96;
  return Number.isFinite(dpi) && dpi > 0 ? Math.round((dpi / 96) * 100) / 100 : 1;
}
