import { tools } from '../tools/registry.js';
import { parseArgs, UsageError } from './cli-args.js';
import { inputJsonSchema } from './tool-schemas.js';

/** `cup-driver tools [--json]`: the registry's tools and their argument schemas. */
export function toolsCommand(argv: readonly string[]): number {
  const args = parseArgs(argv, { boolean: ['json'] });
  if (args.positional.length > 0) throw new UsageError(`unexpected arguments: ${args.positional.join(' ')}`);
  if (args.flags.has('json')) {
    const list = tools.map((tool) => ({ name: tool.name, title: tool.title, capability: tool.capability, annotations: tool.annotations, description: tool.description, inputSchema: inputJsonSchema(tool) }));
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  for (const tool of tools) {
    const schema = inputJsonSchema(tool) as { properties?: Record<string, unknown>; required?: string[] };
    const required = new Set(schema.required ?? []);
    const fields = Object.keys(schema.properties ?? {}).map((field) => (required.has(field) ? field : `[${field}]`));
    const { readOnly, destructive } = tool.annotations;
    const kind = readOnly ? 'read-only' : destructive ? 'destructive' : 'acts';
    process.stdout.write(`${tool.name}(${fields.join(', ')})  [${tool.capability}, ${kind}] ${tool.title}\n  ${tool.description}\n`);
  }
  return 0;
}
