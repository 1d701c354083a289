import { z } from 'zod';
import { encodePng } from '../../image/encode.js';
import { renderScreen } from '../../tui/render-png.js';
import { resolveUserPath, writeFileAtomically } from '../files.js';
import { defineTool, type ToolImage } from '../tool.js';
import { sessionArgument } from './schemas.js';

export const tuiScreenshot = defineTool({
  name: 'tui_screenshot',
  capability: 'terminal',
  readOnly: true,
  description:
    'The terminal screen as a PNG with its colours, attributes and cursor, for people and vision models. Each cell is cellWidth x cellHeight ' +
    'pixels (times scale when the image was downscaled to max_image_dimension), so pixel (px, py) is column px / (cellWidth / scale).',
  input: z.strictObject({
    outFile: z.string().min(1).optional().describe('Write the PNG to this path (~ expanded) instead of embedding it.'),
    session: sessionArgument,
  }),
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
  async handle(args, context) {
    const session = context.terminals.require(args.session);
    const state = await session.settledState();
    const pixels = await renderScreen(state.grid);
    const encoded = await encodePng(pixels, context.state.config.get().max_image_dimension);
    const image: ToolImage = { data: encoded.data, mimeType: 'image/png', label: 'terminal' };
    let path: string | undefined;
    if (args.outFile) {
      path = resolveUserPath(args.outFile, context.cwd);
      writeFileAtomically(path, encoded.data);
      image.writtenTo = path;
    }
    return {
      summary: `✅ screenshot of session "${args.session}" (${state.grid.cols}x${state.grid.rows} cells): ${encoded.width}x${encoded.height} px${path ? ` written to ${path}` : ''}`,
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
