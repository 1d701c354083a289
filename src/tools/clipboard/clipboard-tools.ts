import sharp from 'sharp';
import { z } from 'zod';
import { ToolError } from '../../errors.js';
import type { ToolContext } from '../context.js';
import { defineTool } from '../tool.js';

/** The largest text clipboard_write takes: far beyond any paste, small enough to hold in memory twice. */
const maxTextChars = 8_000_000;

async function offered(context: ToolContext): Promise<string[] | undefined> {
  return context.desktop.clipboardTargets();
}

function emptyError(targets: string[] | undefined, wanted: string): ToolError {
  return new ToolError(
    targets === undefined
      ? 'the clipboard is empty: no application owns it (copy something first, or clipboard_write)'
      : `the clipboard's owner offers no ${wanted}; it offers: ${targets.filter((target) => !['TARGETS', 'TIMESTAMP', 'MULTIPLE', 'SAVE_TARGETS'].includes(target)).join(', ') || 'nothing'}`,
    'clipboard_empty',
    { targets: targets ?? [] },
  );
}

export const clipboardRead = defineTool({
  name: 'clipboard_read',
  capability: 'input',
  title: 'Read the clipboard',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Read the clipboard (the X CLIPBOARD selection, what Ctrl+C copies and Ctrl+V pastes; not the PRIMARY mouse selection). format "text" ' +
    '(default) returns the text exactly (UTF-8); "image/png" returns the copied image as a PNG image. The result lists every form the owning ' +
    'app offers (targets). On macOS this is the general pasteboard; on X11 the clipboard lives in the app that copied, so it is empty once that app exits.',
  input: z.strictObject({
    format: z.enum(['text', 'image/png']).optional().describe('What to read: "text" (default) or "image/png".'),
  }),
  output: z.object({
    format: z.string(),
    text: z.string().optional(),
    chars: z.number().optional(),
    width: z.number().optional(),
    height: z.number().optional(),
    bytes: z.number(),
    target: z.string(),
    targets: z.array(z.string()),
  }),
  async handle(args, context) {
    const format = args.format ?? 'text';
    const targets = await offered(context);
    if (targets === undefined) throw emptyError(undefined, format);
    if (format === 'text') {
      const read = await context.desktop.readClipboardText();
      if (!read) throw emptyError(targets, 'text');
      const chars = [...read.text].length;
      return {
        summary: `✅ clipboard text, ${chars} characters (as ${read.target})`,
        body: read.text,
        structured: { format, text: read.text, chars, bytes: Buffer.byteLength(read.text), target: read.target, targets },
      };
    }
    const png = await context.desktop.readClipboardBytes('image/png');
    if (!png || png.length === 0) throw emptyError(targets, 'image/png');
    let size: { width?: number; height?: number };
    try {
      size = await sharp(png).metadata();
    } catch (error) {
      throw new ToolError(`the clipboard's image/png is not a readable PNG (${png.length} bytes): ${(error as Error).message}`, 'clipboard_empty', { targets });
    }
    return {
      summary: `✅ clipboard image, ${size.width}x${size.height} PNG (${png.length} bytes)`,
      images: [{ data: png, mimeType: 'image/png', label: 'clipboard' }],
      structured: { format, width: size.width ?? 0, height: size.height ?? 0, bytes: png.length, target: 'image/png', targets },
    };
  },
});

export const clipboardWrite = defineTool({
  name: 'clipboard_write',
  capability: 'input',
  title: 'Write the clipboard',
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  description:
    'Put text on the clipboard (the X CLIPBOARD selection), exactly as given (any Unicode), so any app can paste it with Ctrl+V. On X11 the ' +
    'clipboard is owned by a process, not stored by the system as on macOS: the driver owns it (the daemon, or the MCP server) for as long ' +
    'as it runs, and when it exits a small keeper process holds it until another app copies something or clipboard_keep_s (set_config, ' +
    'default 1800 s) runs out. The text replaces what was on the clipboard.',
  input: z.strictObject({
    text: z.string().max(maxTextChars).describe('The text to put on the clipboard.'),
  }),
  output: z.object({ chars: z.number(), bytes: z.number(), targets: z.array(z.string()), keep_after_exit_s: z.number() }),
  async handle(args, context) {
    const keep = context.state.config.get().clipboard_keep_s;
    const { targets } = await context.desktop.writeClipboardText(args.text, keep * 1000);
    const chars = [...args.text].length;
    return {
      summary: `✅ ${chars} characters on the clipboard (owned by the driver; kept ${keep} s after it exits unless something else is copied)`,
      structured: { chars, bytes: Buffer.byteLength(args.text), targets, keep_after_exit_s: keep },
    };
  },
});
