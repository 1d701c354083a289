import { z } from 'zod';
import { encodePng } from '../../image/encode.js';
import { renderScreen } from '../../tui/render-png.js';
import { resolveUserPath, writeFileAtomically } from '../files.js';
import { defineTerminalTool } from './define.js';
import { type ToolImage } from '../tool.js';


export const tuiScreenshot = defineTerminalTool({
  name: 'tui_screenshot',
  title: 'Terminal screenshot',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'The terminal screen as a PNG with its colours, attributes and cursor, for people and vision models. Each cell is cellWidth x cellHeight ' +
    'pixels (times scale when the image was downscaled to max_image_dimension), so pixel (px, py) is column px / (cellWidth / scale).',
  input: {
    outFile: z.string().min(1).optional().describe('Write the PNG to this path (~ expanded) instead of embedding it. An existing file is replaced only when cup-driver wrote it (else destination_exists; see overwrite); a link there is never followed.'),
    overwrite: z.boolean().optional().describe('Replace whatever regular file or link is at outFile (a link is replaced itself, not its target). Default false.'),
  },
  output: z.object({
    width: z.number(),
    height: z.number(),
    scale: z.number(),
    cols: z.number(),
    rows: z.number(),
    cellWidth: z.number(),
    cellHeight: z.number(),
    seq: z.number(),
    path: z.string().optional(),
  }),
  async handle(args, { name, session }, context) {
    const state = await session.settledState();
    const pixels = await renderScreen(state.grid);
    const encoded = await encodePng(pixels, context.state.config.get().max_image_dimension);
    const image: ToolImage = { data: encoded.data, mimeType: 'image/png', label: 'terminal' };
    let path: string | undefined;
    if (args.outFile) {
      path = resolveUserPath(args.outFile, context.cwd);
      writeFileAtomically(path, encoded.data, { field: 'outFile', replace: args.overwrite ? 'any' : 'ours' });
      image.writtenTo = path;
    }
    return {
      summary: `✅ screenshot of session "${name}" (${state.grid.cols}x${state.grid.rows} cells): ${encoded.width}x${encoded.height} px${path ? ` written to ${path}` : ''}`,
      images: [image],
      structured: {
        width: encoded.width,
        height: encoded.height,
        scale: encoded.scale,
        cols: state.grid.cols,
        rows: state.grid.rows,
        cellWidth: pixels.cellWidth,
        cellHeight: pixels.cellHeight,
        seq: state.seq,
        ...(path ? { path } : {}),
      },
    };
  },
});
