import { closestName } from '../cup/closest-name.js';
import { findTool, toolNames, type AnyTool } from '../tools/registry.js';
import { UsageError } from './cli-args.js';
import { inputJsonSchema } from './tool-schemas.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Bounds beyond this are JavaScript's safe-integer limit, which says nothing to a reader. */
const meaningfulBound = 1e9;

function bounds(schema: JsonSchema): string {
  const low = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum;
  const high = schema.maximum !== undefined && schema.maximum < meaningfulBound ? schema.maximum : undefined;
  if (low !== undefined && high !== undefined) return ` ${low}..${high}`;
  if (low !== undefined) return ` >= ${low}`;
  return high !== undefined ? ` <= ${high}` : '';
}

/** What a JSON Schema takes, in a few words ("integer >= 0", "\"up\" | \"down\"", "array of string"). */
function typeText(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return [...new Set(branches.map(typeText))].join(' | ');
  if (schema.$ref) return 'object (see tools --json)';
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (type === 'array') {
    const count = schema.minItems !== undefined || schema.maxItems !== undefined ? `, ${schema.minItems ?? 0}..${schema.maxItems ?? ''} items` : '';
    return `array of ${schema.items ? typeText(schema.items) : 'any'}${count}`;
  }
  return type === 'integer' || type === 'number' ? `${type}${bounds(schema)}` : type;
}

/**
 * One tool as `cup-driver call <tool> --help` and `cup-driver tools <tool>` show it: its description, then every
 * argument with its type, whether it is required, its default and its own description, which before were only in
 * the whole registry's `tools --json` (the plain `tools` list names the fields, not what they take).
 */
export function toolHelp(tool: AnyTool): string {
  const schema = inputJsonSchema(tool) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const { readOnly, destructive } = tool.annotations;
  const kind = readOnly ? 'read-only' : destructive ? 'destructive' : 'acts';
  const lines = [`${tool.name}: ${tool.title}  [${tool.capability}, ${kind}]`, '', tool.description, ''];
  const fields = Object.entries(schema.properties ?? {});
  lines.push(fields.length === 0 ? 'arguments: none' : 'arguments (one JSON object):');
  // Required fields first, the rest in the schema's order.
  fields.sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
  for (const [name, field] of fields) {
    const marks = [typeText(field), required.has(name) ? 'required' : '', field.default !== undefined ? `default ${JSON.stringify(field.default)}` : ''];
    lines.push(`  ${name}: ${marks.filter(Boolean).join(', ')}`);
    if (field.description) lines.push(`      ${field.description}`);
  }
  const example = fields.filter(([name]) => required.has(name)).map(([name]) => `"${name}": ...`);
  lines.push('', `usage: cup-driver call ${tool.name} '{${example.join(', ')}}'`);
  return `${lines.join('\n')}\n`;
}

/** The registry's tool of that name, or a usage error naming the nearest one. */
export function toolNamed(name: string): AnyTool {
  const tool = findTool(name);
  if (tool) return tool;
  const guess = closestName(name, toolNames());
  throw new UsageError(`unknown tool "${name}"; ${guess ? `did you mean "${guess}"? ` : ''}cup-driver tools lists them all`);
}
