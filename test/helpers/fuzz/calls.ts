// Generates tool calls from the tools' JSON Schemas (what tools/list publishes): valid-shaped calls aimed at
// the fuzzer's own fixture, and calls with one field broken (boundary value, hostile value, wrong type, an
// extra or a missing field). Every value that could reach outside the fuzzer's sandbox is drawn from the
// world it is given (pids, windows, paths), so a run never touches anything it did not start.
import {
  BOUNDARY_NUMBERS,
  deepArray,
  deepObject,
  HOSTILE_SELECTORS,
  HUGE_STRINGS,
  KEY_NAMES,
  NASTY_STRINGS,
  nastyString,
  Random,
  selector,
} from './values.js';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
};

export interface ToolSchema {
  name: string;
  inputSchema: JsonSchema;
}

/** What the fuzzer may name: everything here is its own or refused by design (protected pids). */
export interface FuzzWorld {
  /** pids any tool may be given: the fixture's, pids no process has, and protected ones (1, the driver, its parent). */
  pids: number[];
  /** What kill_app may be given: the same without the fixture unless killing it is allowed. */
  killPids: number[];
  windowIds: number[];
  /** Element tokens of the fixture window's latest snapshot. */
  tokens: string[];
  /** Paths for the file arguments: relative to the sandboxed working directory, with `..`, planted symlinks and devices. */
  paths: string[];
  /** Menu paths the fixture has, and ones it does not. */
  menuPaths: string[][];
  /** Session names the calls may use (every tool's pattern accepts them). */
  sessions: string[];
  /** Valid durations (timeouts, delays) are drawn up to this, so a valid wait cannot outlast the run's budget. */
  maxDurationMs: number;
}

export type MutationKind = 'valid' | 'boundary' | 'hostile' | 'wrong_type' | 'extra_field' | 'missing_field';

export interface FuzzCall {
  tool: string;
  args: Record<string, unknown>;
  kind: MutationKind;
  /** The field the mutation changed (dotted for nested ones), when it changed one. */
  field?: string;
}

/** A launch_app name no desktop entry, program or path can match: nothing is ever started by the fuzzer. */
export const NO_APP_PREFIX = 'cup-fuzz-no-such-app-';

/** The tool picks a terminal program from the fuzzer's own policy; these are the allowed and refused ones it tries. */
const TERMINAL_COMMANDS = ['cat', 'cat', 'dialog', 'bash', 'sh', 'rm', '/bin/cat', '../../bin/sh', 'no-such-program', '', 'cat\u0000', 'c'.repeat(5000)];

const DURATION_FIELD = /(timeout|_ms$|Ms$|delay|duration|ttl|^ms$|idle|stable|dwell|glide|_s$)/i;
const PIXEL_FIELD = /^(x|y|x1|y1|x2|y2|from_x|from_y|to_x|to_y)$/;
const PATH_FIELD = /^(screenshot_out_file|outFile|output_dir|dir|cwd|cursor_icon)$/;

const WEIGHTS: [MutationKind, number][] = [
  ['valid', 0.36],
  ['hostile', 0.2],
  ['boundary', 0.14],
  ['wrong_type', 0.14],
  ['extra_field', 0.08],
  ['missing_field', 0.08],
];

export class CallGenerator {
  private readonly byName: Map<string, ToolSchema>;
  constructor(
    private readonly tools: readonly ToolSchema[],
    private readonly world: FuzzWorld,
    private readonly random: Random,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** The next call: a tool chosen uniformly, then a mutation kind by weight. */
  next(): FuzzCall {
    const tool = this.random.pick(this.tools);
    return this.callOf(tool, this.kind());
  }

  callOf(tool: ToolSchema, kind: MutationKind): FuzzCall {
    const schema = tool.inputSchema;
    const args = this.validArgs(tool.name, schema);
    const fields = Object.keys(schema.properties ?? {});
    if (kind === 'valid' || fields.length === 0) return { tool: tool.name, args, kind: kind === 'valid' || kind === 'extra_field' ? kind : 'valid', ...(kind === 'extra_field' ? this.addExtra(args) : {}) };
    if (kind === 'extra_field') return { tool: tool.name, args, kind, ...this.addExtra(args) };
    if (kind === 'missing_field') {
      const required = schema.required ?? [];
      if (required.length === 0) return { tool: tool.name, args, kind: 'extra_field', ...this.addExtra(args) };
      const field = this.random.pick(required);
      delete args[field];
      return { tool: tool.name, args, kind, field };
    }
    const field = this.random.pick(fields);
    const property = resolve(schema, schema.properties![field]!);
    args[field] = kind === 'wrong_type' ? this.wrongType(property) : kind === 'boundary' ? this.boundary(property) : this.hostile(tool.name, field, property);
    return { tool: tool.name, args, kind, field };
  }

  private kind(): MutationKind {
    let roll = this.random.next();
    for (const [kind, weight] of WEIGHTS) {
      if (roll < weight) return kind;
      roll -= weight;
    }
    return 'valid';
  }

  /** Required fields always, optional ones now and then, each with a valid-shaped value. */
  validArgs(toolName: string, schema: JsonSchema): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    const required = new Set(schema.required ?? []);
    for (const [field, raw] of Object.entries(schema.properties ?? {})) {
      if (!required.has(field) && !this.random.chance(field === 'session' ? 0.15 : 0.4)) continue;
      args[field] = this.validValue(toolName, field, resolve(schema, raw), schema);
    }
    return args;
  }

  private validValue(toolName: string, field: string, schema: JsonSchema, root: JsonSchema): unknown {
    const r = this.random;
    const w = this.world;
    if (schema.enum) return r.pick(schema.enum);
    // Fields whose values could reach outside the sandbox come from the world, whatever their schema allows.
    if (field === 'pid') return r.pick(toolName === 'kill_app' ? w.killPids : w.pids);
    if (field === 'window_id') return r.pick(w.windowIds);
    if (field === 'element_token') return r.pick(w.tokens.length > 0 ? w.tokens : ['s1:1']);
    if (field === 'session' && toolName !== 'start_session' && toolName !== 'end_session' && r.chance(0.7)) return undefined;
    if (field === 'session') return r.pick(w.sessions);
    if (field === 'name' && toolName === 'launch_app') return `${NO_APP_PREFIX}${r.pick(['x', ...NASTY_STRINGS.filter((text) => text.length < 100)])}`;
    if (field === 'confirm') return false;
    if (field === 'command') return r.pick(TERMINAL_COMMANDS.slice(0, 3));
    if (PATH_FIELD.test(field)) return r.pick(w.paths);
    if (field === 'path' && toolName === 'invoke_menu') return r.pick(w.menuPaths);
    if (field === 'selector' && toolName !== 'page') return selector(r);
    if (field === 'key') return r.pick(KEY_NAMES);
    if (field === 'keys' || field === 'modifier' || field === 'modifiers') return Array.from({ length: r.int(0, 3) }, () => r.pick(KEY_NAMES));
    if (field === 'steps') return Array.from({ length: r.int(1, 4) }, () => this.step());
    if (field === 'predicate') return r.pick(PREDICATES);
    if (field === 'env') return r.pick([{}, { A: 'b' }, { LD_PRELOAD: '/tmp/x.so', NODE_OPTIONS: '--inspect' }, { PATH: '/nonexistent' }, { 'bad name': 'x', '': 'y' }]);
    if (field === 'args' && toolName === 'tui_start') return r.pick([[], ['/proc/self/status'], ['--help'], ['-'], ['no-such-file'], ['\u001b[2J'], ['x'.repeat(5000)]]);
    if (field === 'url') return r.pick(['about:blank', 'https://example.invalid/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<b>x</b>', '']);
    if (field === 'javascript') return r.pick(['1+1', 'document.title', 'while(true){}', 'throw new Error("x")', '']);
    const type = typeOf(schema);
    if (type === 'integer' || type === 'number') return this.validNumber(field, schema, type === 'integer');
    if (type === 'boolean') return r.chance(0.5);
    if (type === 'string') return this.validString(schema);
    if (type === 'array') {
      const items = schema.items ? resolve(root, schema.items) : {};
      const count = Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, r.int(0, 3)));
      return Array.from({ length: count }, () => this.validValue(toolName, `${field}[]`, items, root));
    }
    if (type === 'object') return this.validArgs(toolName, { ...schema, ...(schema.$defs ? {} : { $defs: root.$defs }) });
    if (schema.anyOf) return this.validValue(toolName, field, resolve(root, r.pick(schema.anyOf)), root);
    return r.pick(['x', 1, true]);
  }

  private validNumber(field: string, schema: JsonSchema, integer: boolean): number {
    const r = this.random;
    const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.001) : -10);
    let high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.001) : 1000);
    if (DURATION_FIELD.test(field)) high = Math.min(high, field.endsWith('_s') ? Math.max(1, this.world.maxDurationMs / 1000) : this.world.maxDurationMs);
    if (PIXEL_FIELD.test(field)) high = Math.min(high, 500);
    high = Math.min(high, Math.max(low, 1000));
    const value = low + r.next() * (high - low);
    return integer ? Math.max(Math.ceil(low), Math.min(Math.floor(high), Math.round(value))) : value;
  }

  private validString(schema: JsonSchema): string {
    const r = this.random;
    const words = ['a', 'Increment', 'hello world', 'Row 3', 'x', '42', 'Name field', 'é🙂'];
    let text = r.chance(0.8) ? r.pick(words) : nastyString(r);
    if (schema.minLength !== undefined && text.length < schema.minLength) text = text.padEnd(schema.minLength, 'a');
    if (schema.maxLength !== undefined && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(text)) text = 'abc';
    return text;
  }

  private step(): Record<string, unknown> {
    const r = this.random;
    const tool = r.pick(['click', 'type_text', 'press_key', 'hotkey', 'set_value', 'scroll', 'move_cursor', 'wait_for', 'find_elements', 'wait', 'drag', 'kill_app', 'no_such_tool']);
    if (tool === 'wait') return { tool, arguments: { ms: r.pick([0, 10, 100, -1, 25_001, 'x']) } };
    const schema = this.byName.get(tool)?.inputSchema;
    if (!schema) return { tool, arguments: { a: 1 } };
    const args = this.validArgs(tool, schema);
    if (r.chance(0.3)) {
      const fields = Object.keys(schema.properties ?? {});
      const field = r.pick(fields);
      args[field] = this.hostile(tool, field, resolve(schema, schema.properties![field]!));
    }
    return r.chance(0.1) ? { tool, arguments: args, extra: true } : { tool, arguments: args };
  }

  private addExtra(args: Record<string, unknown>): { field: string } {
    const key = this.random.pick(['__proto__', 'constructor', 'pidd', 'windowId', 'element', 'x'.repeat(1000), '\u0000', '🙂', 'session_id', 'toString']);
    if (Object.hasOwn(args, key)) return { field: key };
    // defineProperty, so "__proto__" is an own key that JSON.stringify writes, as a hostile client would send it.
    Object.defineProperty(args, key, { value: this.random.pick([1, 'x', { polluted: true }, null, deepObject]), enumerable: true, configurable: true, writable: true });
    return { field: key };
  }

  private wrongType(schema: JsonSchema): unknown {
    const type = typeOf(schema);
    const choices: unknown[] =
      type === 'string'
        ? [123, true, null, [], {}, ['a'], 1.5, deepArray, deepObject]
        : type === 'integer' || type === 'number'
          ? ['12', '0x10', 'NaN', true, null, [], {}, [1], deepObject]
          : type === 'boolean'
            ? ['true', 1, 0, null, [], 'yes']
            : type === 'array'
              ? ['a', 1, {}, null, { 0: 'a', length: 1 }, [deepArray]]
              : type === 'object'
                ? ['x', [], 1, null, true]
                : [Symbol.for('x').toString(), null];
    return this.random.pick(choices);
  }

  private boundary(schema: JsonSchema): unknown {
    const r = this.random;
    const type = typeOf(schema);
    if (type === 'integer' || type === 'number') {
      const edges = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum]
        .filter((value): value is number => value !== undefined)
        .flatMap((value) => [value - 1, value, value + 1]);
      return r.pick([...BOUNDARY_NUMBERS, ...edges]);
    }
    if (type === 'string') {
      const edges = [schema.minLength, schema.maxLength].filter((value): value is number => value !== undefined).flatMap((value) => [Math.max(0, value - 1), value, value + 1]);
      return r.chance(0.3) && edges.length > 0 ? 'b'.repeat(Math.min(r.pick(edges), 1 << 21)) : r.pick(['', ...HUGE_STRINGS, 'x'.repeat(100_001)]);
    }
    if (type === 'array') {
      const item = schema.items && typeOf(schema.items) === 'string' ? 'x' : 1;
      return r.pick([[], Array.from({ length: 10_000 }, () => item), Array.from({ length: (schema.maxItems ?? 50) + 1 }, () => item)]);
    }
    if (type === 'object') return r.pick([{}, Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`K${i}`, 'v']))]);
    return r.pick([true, false]);
  }

  private hostile(toolName: string, field: string, schema: JsonSchema): unknown {
    const r = this.random;
    const w = this.world;
    if (field === 'pid') return r.pick(toolName === 'kill_app' ? w.killPids : w.pids);
    if (field === 'window_id') return r.pick([1, 0x1fffffff, 2 ** 32 - 1, ...w.windowIds]);
    if (field === 'element_token') return r.pick(['s0:0', 'szzzzzzzzz:1', `${w.tokens[0] ?? 's1:1'}0`, 's1:99999999999999999999', 'S1:1', 's1:-1', ':', 's1:1\u0000', `s${'z'.repeat(5000)}:1`]);
    if (field === 'element_index') return r.pick([2 ** 31, 2 ** 53, 99_999]);
    if (field === 'name' && toolName === 'launch_app') return `${NO_APP_PREFIX}${r.pick(['/../../../../bin/sh', '$(id)', '\u0000', ...HUGE_STRINGS])}`;
    if (field === 'command') return r.pick(TERMINAL_COMMANDS);
    if (field === 'confirm') return false;
    if (PATH_FIELD.test(field)) return r.pick(w.paths);
    if (field === 'selector' && toolName !== 'page') return r.pick(HOSTILE_SELECTORS);
    if (field === 'path' && toolName === 'invoke_menu') return r.pick([[''], ['\u0000'], Array.from({ length: 12 }, () => 'File'), ['File', 'x'.repeat(100_000)]]);
    if (field === 'steps') return r.pick([Array.from({ length: 50 }, () => ({ tool: 'wait', arguments: { ms: 0 } })), [{ tool: 'run_actions', arguments: { steps: [{ tool: 'wait' }] } }], [{ tool: 'kill_app', arguments: { pid: 1 } }]]);
    if (field === 'env') return { LD_PRELOAD: '/tmp/evil.so', BASH_ENV: '/tmp/x', 'A\u0000B': 'c', ['x'.repeat(300)]: 'y' };
    if (field === 'key' || field === 'keys') return field === 'key' ? r.pick(KEY_NAMES) : Array.from({ length: r.int(0, 40) }, () => r.pick(KEY_NAMES));
    const type = typeOf(schema);
    if (type === 'string') return nastyString(r);
    if (type === 'integer' || type === 'number') return r.pick(BOUNDARY_NUMBERS);
    if (type === 'array') return Array.from({ length: r.int(0, 5) }, () => nastyString(r));
    return this.boundary(schema);
  }
}

/** Predicates for tui_expect: valid ones of each kind and malformed ones. */
const PREDICATES: readonly unknown[] = [
  { field: 'name', op: 'contains', rhs: 'a' },
  { field: 'text', op: 'matches', rhs: '(a+)+$' },
  { field: 'value', op: 'gt', rhs: 3 },
  { flag: 'focused', value: true },
  { all: [{ field: 'role', op: 'exists' }] },
  { not: { any: [] } },
  { field: 'name', op: 'matches', rhs: '(?<=x)y' },
  { field: 'nope', op: 'eq', rhs: 1 },
];

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/** Follows a local $ref into the root schema's $defs. */
export function resolve(root: JsonSchema, schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/$defs/', '');
  return root.$defs?.[name] ?? {};
}
