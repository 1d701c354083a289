import { z } from 'zod';
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

export function outputJsonSchema(tool: AnyTool): JsonObject {
  return withoutDialect(z.toJSONSchema(tool.output, { io: 'output' }) as JsonObject);
}
