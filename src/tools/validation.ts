import { z } from 'zod';
import { closestName } from './closest-name.js';

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

function describeIssue(issue: z.core.$ZodIssue, input: unknown, fieldNames: string[], fieldTypes: Map<string, string>): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
  const received = describeReceived(valueAt(input, issue.path));
  switch (issue.code) {
    case 'invalid_type': {
      if (valueAt(input, issue.path) === undefined) return `${field}: required, expected ${expectedType(issue, fieldTypes)}`;
      return `${field}: expected ${expectedType(issue, fieldTypes)}, got ${received}`;
    }
    case 'invalid_value':
      return `${field}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${received}`;
    case 'unrecognized_keys': {
      const guesses = issue.keys.map((key) => closestName(key, fieldNames)).filter((guess): guess is string => guess !== undefined);
      const hint = guesses.length > 0 ? `did you mean ${guesses.map((guess) => `"${guess}"`).join(', ')}? ` : '';
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (${hint}valid fields: ${fieldNames.join(', ') || 'none'})`;
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
  const fieldNames = Object.keys(schema.shape);
  const properties = (z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const fieldTypes = new Map(Object.entries(properties).map(([name, property]) => [name, property.type ?? '']));
  const parts = error.issues.map((issue) => describeIssue(issue, input, fieldNames, fieldTypes));
  return `invalid arguments for ${toolName}: ${parts.join('; ')}`;
}
