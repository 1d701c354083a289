import { z } from 'zod';
import { defineTool } from '../tool.js';

const configResult = z.object({ max_image_dimension: z.number() });

export const getConfig = defineTool({
  name: 'get_config',
  capability: 'config',
  title: 'Read configuration',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'Return the current configuration of this session (max_image_dimension: longest screenshot side in pixels, 0 = no limit).',
  input: z.strictObject({}),
  output: configResult,
  async handle(_args, context) {
    const config = context.state.config.get();
    return { summary: `✅ max_image_dimension=${config.max_image_dimension}`, structured: config };
  },
});

export const setConfig = defineTool({
  name: 'set_config',
  capability: 'config',
  title: 'Change configuration',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Change the configuration. max_image_dimension: screenshots are downscaled so their longest side is at most this ' +
    'many pixels (default 1568, 0 = no limit); pixel coordinates taken from a downscaled screenshot still map back to the window.',
  input: z.strictObject({
    max_image_dimension: z.number().int().min(0).max(65_535).optional().describe('Longest screenshot side in pixels; 0 = no limit.'),
  }),
  output: configResult,
  async handle(args, context) {
    const update = args.max_image_dimension !== undefined ? { max_image_dimension: args.max_image_dimension } : {};
    const config = context.state.config.set(update);
    return { summary: `✅ max_image_dimension=${config.max_image_dimension}`, structured: config };
  },
});
