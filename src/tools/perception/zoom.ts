import { z } from 'zod';
import { encodeJpegCrop } from '../../image/encode.js';
import { boundsResult, pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { resolveWindow } from './window-records.js';

const maxZoomWidth = 500;
const paddingFraction = 0.2;

export const zoom = defineTool({
  name: 'zoom',
  capability: 'perception',
  title: 'Zoom into a window region',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'A close-up JPEG of a window region (x1,y1)-(x2,y2) given in screenshot pixels (as returned by get_window_state), ' +
    'with 20% padding on each side, at most 500 px wide. With pid set, the action tools accept from_zoom=true to take ' +
    'coordinates in this image.',
  input: z.strictObject({
    window_id: windowIdArgument,
    x1: z.number().describe('Left edge in screenshot pixels.'),
    y1: z.number().describe('Top edge in screenshot pixels.'),
    x2: z.number().describe('Right edge in screenshot pixels.'),
    y2: z.number().describe('Bottom edge in screenshot pixels.'),
    pid: pidArgument.optional().describe('Owner pid; needed for from_zoom coordinates in later actions.'),
  }),
  output: z.object({
    window_id: z.number(),
    pid: z.number(),
    region: boundsResult,
    width: z.number(),
    height: z.number(),
  }),
  async handle(args, context) {
    const window = await resolveWindow(context, args.window_id, args.pid);
    const topLeft = context.state.images.screenshotToWindow(window.id, Math.min(args.x1, args.x2), Math.min(args.y1, args.y2));
    const bottomRight = context.state.images.screenshotToWindow(window.id, Math.max(args.x1, args.x2), Math.max(args.y1, args.y2));
    const width = bottomRight.x - topLeft.x;
    const height = bottomRight.y - topLeft.y;
    if (width < 1 || height < 1) {
      throw new ToolError(`the zoom region (${args.x1},${args.y1})-(${args.x2},${args.y2}) is empty; give x2 > x1 and y2 > y1`, 'empty_region');
    }
    const pixels = await context.desktop.captureWindow(window);
    const left = Math.max(0, Math.floor(topLeft.x - width * paddingFraction));
    const top = Math.max(0, Math.floor(topLeft.y - height * paddingFraction));
    const right = Math.min(pixels.width, Math.ceil(bottomRight.x + width * paddingFraction));
    const bottom = Math.min(pixels.height, Math.ceil(bottomRight.y + height * paddingFraction));
    if (right <= left || bottom <= top) {
      throw new ToolError(
        `the zoom region lies outside the window (${pixels.width}x${pixels.height} pixels); take coordinates from the latest get_window_state screenshot`,
        'outside_window',
      );
    }
    const region = { x: left, y: top, w: right - left, h: bottom - top };
    const encoded = await encodeJpegCrop(pixels, region, maxZoomWidth);
    const pid = args.pid ?? window.pid;
    context.state.images.rememberZoom(pid, { windowId: window.id, region, imageWidth: encoded.width, imageHeight: encoded.height });
    return {
      summary: `✅ zoom of window ${window.id} region ${region.x},${region.y} ${region.w}x${region.h} → ${encoded.width}x${encoded.height} JPEG`,
      images: [{ data: encoded.data, mimeType: 'image/jpeg', label: 'zoom' }],
      structured: { window_id: window.id, pid, region, width: encoded.width, height: encoded.height },
    };
  },
});
