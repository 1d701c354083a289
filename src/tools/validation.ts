import { z } from 'zod';
import { closestName } from '../cup/closest-name.js';

const typeNames: Record<string, string> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  int: 'an integer',
};

function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 37)}...` : text}`;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** zod reports integers as "number"; the JSON Schema of the field knows better. */
function expectedType(issue: z.core.$ZodIssueInvalidType, fieldTypes: Map<string, string>): string {
  const declared = issue.path.length === 1 ? fieldTypes.get(String(issue.path[0])) : undefined;
  const expected = declared === 'integer' && issue.expected === 'number' ? 'int' : issue.expected;
  return typeNames[expected] ?? expected;
}

/** The schema a value inside the arguments is checked against, through optional, default and nullable wrappers. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  const unwrap = (type: z.ZodType): z.ZodType => (type instanceof z.ZodOptional || type instanceof z.ZodNullable || type instanceof z.ZodDefault ? unwrap(type.unwrap() as z.ZodType) : type);
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    const type: z.ZodType = unwrap(current);
    if (type instanceof z.ZodObject && typeof key === 'string') current = type.shape[key] as z.ZodType | undefined;
    else if (type instanceof z.ZodArray && typeof key === 'number') current = type.element as z.ZodType;
    else return undefined;
    if (!current) return undefined;
  }
  return unwrap(current);
}

/** A place inside the arguments as a caller writes it: steps[0].arguments. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`)).join('');
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown, schema: z.ZodObject, fieldTypes: Map<string, string>): string {
  const field = issue.path.length > 0 ? fieldPath(issue.path) : '(arguments)';
  // An unknown key inside a nested object (a plan's step) is judged against that object's fields, not the tool's:
  // run_actions answered "args" in a step with its own fields (pid, window_id, steps, ...) as the valid ones.
  const nested = issue.path.length > 0 ? schemaAt(schema, issue.path) : schema;
  const fieldNames = nested instanceof z.ZodObject ? Object.keys(nested.shape) : [];
  const received = describeReceived(valueAt(input, issue.path));
  switch (issue.code) {
    case 'invalid_type': {
      if (valueAt(input, issue.path) === undefined) return `${field}: required, expected ${expectedType(issue, fieldTypes)}`;
      return `${field}: expected ${expectedType(issue, fieldTypes)}, got ${received}`;
    }
    case 'invalid_value':
      return `${field}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${received}`;
    case 'unrecognized_keys': {
      // Each guess says which unknown field it is for: with several, a bare list left the agent to pair them up.
      const guesses = issue.keys.flatMap((key) => {
        const guess = closestName(key, fieldNames);
        return guess === undefined ? [] : [issue.keys.length > 1 ? `"${guess}" for "${key}"` : `"${guess}"`];
      });
      const hint = guesses.length > 0 ? `did you mean ${guesses.join(', ')}? ` : '';
      const where = issue.path.length > 0 ? ` in ${field}` : '';
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${where} (${hint}valid fields: ${fieldNames.join(', ') || 'none'})`;
    }
    case 'too_small':
    case 'too_big':
      return `${field}: ${issue.message.replace(/^Too (small|big): /, '')}, got ${received}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

/** One line naming every bad field and what would have been accepted. */
export function formatArgumentErrors(toolName: string, error: z.ZodError, input: unknown, schema: z.ZodObject): string {
  const properties = (z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const fieldTypes = new Map(Object.entries(properties).map(([name, property]) => [name, property.type ?? '']));
  const parts = error.issues.map((issue) => describeIssue(issue, input, schema, fieldTypes));
  return `invalid arguments for ${toolName}: ${parts.join('; ')}`;
}
