import type { X11Connection } from '../x11/client.js';

/**
 * Whether the X server lets GL clients render directly (DRI3 or DRI2). Without either (Xvfb, Xvnc, Xephyr, a
 * forwarded display) every GL client draws with Mesa's software rasteriser, on its own CPU time.
 */
export async function offersDirectRendering(x: X11Connection): Promise<boolean> {
  for (const name of ['DRI3', 'DRI2']) if ((await x.queryExtension(name)).present) return true;
  return false;
}

/**
 * GTK 4 draws with GL by default. Drawn in software, a window full of widgets and a running animation (a spinner, a
 * pulsing progress bar) takes one frame after another on the app's main loop: the app answered the accessibility
 * bus seconds late, and registered on it only after minutes or never (gtk4-widget-factory on Xvfb: reads of 3.5-10 s,
 * clicks of 12-19 s, no tree at all under load). GTK's cairo renderer draws the same pixels in a fraction of the
 * time, so an app started where GL is only software is told to use it, unless its renderer was chosen already.
 */
export function rendererEnvironment(base: NodeJS.ProcessEnv, directRendering: boolean): Record<string, string> {
  return directRendering || base.GSK_RENDERER ? {} : { GSK_RENDERER: 'cairo' };
}
