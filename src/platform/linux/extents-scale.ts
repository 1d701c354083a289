/** A scale below this is a frame made larger by decorations or rounding, not a scaled toolkit. */
const minimumScale = 1.2;
/** No toolkit scales past this; a larger ratio is a frame that says nothing (a stale or 1x1 box). */
const maximumScale = 4;

/**
 * How many screen pixels one unit of a window's accessible coordinates is. A toolkit scaled on its own reports its
 * boxes in its logical pixels while the X server draws it in device pixels: under GDK_SCALE=2 GTK3, and under
 * QT_SCALE_FACTOR=2 Qt 5, said a button lay at 8,168 100x34 that the screen shows at 16,336 200x68, and a real click
 * at that box's middle toggled the check box above it. Neither says its scale on the bus; its top-level frame, in the
 * same units, against the X window tells it. The frame may also hold the window manager's decoration (GTK3's) or a
 * client-side shadow, which make it a few pixels larger, never a multiple: only a clear ratio, the same both ways, is
 * a scale (rounded to a twentieth, as the frame's rounding and decoration blur it). `agreement` is how far apart the
 * two ratios may be, as a part of the scale: a frame without decoration gives the same ratio both ways.
 */
export function extentsScale(window: { width: number; height: number }, frame: { w: number; h: number } | undefined, agreement = 0.15): number {
  if (!frame || frame.w <= 0 || frame.h <= 0) return 1;
  const wide = window.width / frame.w;
  const tall = window.height / frame.h;
  if (wide < minimumScale || wide > maximumScale || Math.abs(wide - tall) > agreement * wide) return 1;
  return Math.round(wide * 20) / 20;
}
