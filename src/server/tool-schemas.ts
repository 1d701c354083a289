import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';
import type { AnyTool } from '../tools/registry.js';

type JsonObject = Record<string, unknown>;

function withoutDialect(schema: JsonObject): JsonObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** The JSON Schema of a tool's arguments as a caller writes them (defaults make fields optional). */
export function inputJsonSchema(tool: AnyTool): JsonObject {
  return withoutDialect(z.toJSONSchema(tool.input, { io: 'input' }) as JsonObject);
}

/** What a failed call's structured fields hold, the same for every tool. */
const failureJsonSchema: JsonObject = {
  type: 'object',
  properties: {
    error: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable error code; the README lists them.' },
    message: { type: 'string', description: 'What went wrong and what would work.' },
  },
  required: ['error', 'message'],
};

/**
 * The JSON Schema of a tool's structured result: its success fields, or the failure shape. MCP clients
 * validate structuredContent against it on errors too, so the failure branch must be part of it.
 */
export function outputJsonSchema(tool: AnyTool): JsonObject {
  const { $defs, ...success } = withoutDialect(z.toJSONSchema(tool.output, { io: 'output' }) as JsonObject);
  // Any successful call may carry warnings (arguments accepted for compatibility but not acted on).
  success.properties = { ...(success.properties as JsonObject), warnings: { type: 'array', items: { type: 'string' } } };
  return { type: 'object', ...($defs ? { $defs } : {}), anyOf: [success, failureJsonSchema] };
}
