// Where a box on the screen lies in a window's screenshot, the pixels x, y clicks are given in.
import type { CupRect } from '../../cup/types.js';
import { fitWithin } from '../../image/encode.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';

export function roundRect(rect: CupRect): CupRect {
  return { x: Math.round(rect.x), y: Math.round(rect.y), w: Math.round(rect.w), h: Math.round(rect.h) };
}

/** Screen pixels → the window's screenshot pixels: the latest screenshot's scale, else the one a screenshot would get now. */
export function toScreenshot(context: ToolContext, window: DesktopWindow, rect: CupRect): CupRect {
  const scale =
    context.state.images.screenshot(window.id)?.scale ??
    fitWithin(window.bounds.width, window.bounds.height, context.state.config.get().max_image_dimension).scale;
  return roundRect({ x: (rect.x - window.bounds.x) / scale, y: (rect.y - window.bounds.y) / scale, w: rect.w / scale, h: rect.h / scale });
}
