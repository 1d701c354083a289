// A Chromium-based browser or Electron app whose accessibility was never switched on.
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import type { ToolkitInfo } from './toolkit.js';

/**
 * Why a Blink window's tree is its window alone, or undefined when it holds more: Chromium 140 started without
 * --force-renderer-accessibility (from a shell, a menu, another program) registers on the bus and answers for its
 * window with one child that is no object (a null reference): nothing of its toolbar or page, however long it runs and
 * however often it is read. The reading had said only that the tree has no actionable elements and that the app may not support accessibility.
 */
export function blinkSwitchedOff(toolkit: ToolkitInfo | undefined, root: AtspiRawNode | undefined, pid: number): string | undefined {
  if (toolkit?.name.toLowerCase() !== 'chromium' || !root || root.children.length > 0) return undefined;
  return (
    `the application (pid ${pid}) is Chromium-based (a browser or an Electron app) and was started without its accessibility ` +
    'switched on, so it shows this window with nothing in it: start it through launch_app (with electron_debugging_port for ' +
    'page actions), which passes --force-renderer-accessibility, or start it with that switch; meanwhile act on the screenshot: ' +
    'click with x, y in window pixels, type_text and press_key with no element'
  );
}
