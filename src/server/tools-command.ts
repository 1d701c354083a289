import { tools } from '../tools/registry.js';
import { parseArgs } from './cli-args.js';
import { toolHelp, toolNamed } from './tool-help.js';
import { inputJsonSchema } from './tool-schemas.js';

/** `cup-driver tools [--json] [TOOL...]`: the registry's tools and their argument schemas; named ones in full. */
export function toolsCommand(argv: readonly string[]): number {
  const args = parseArgs(argv, { boolean: ['json'] });
  const named = args.positional.map(toolNamed);
  if (named.length > 0 && !args.flags.has('json')) {
    process.stdout.write(named.map(toolHelp).join('\n'));
    return 0;
  }
  if (args.flags.has('json')) {
    const list = (named.length > 0 ? named : tools).map((tool) => ({ name: tool.name, title: tool.title, capability: tool.capability, annotations: tool.annotations, description: tool.description, inputSchema: inputJsonSchema(tool) }));
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
