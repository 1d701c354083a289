// Predicate objects for tui_expect: a field compared with a right-hand side, a flag, or all/any/not of
// other predicates, evaluated against one node.
import { z } from 'zod';
import { ToolError } from '../errors.js';
import { flagField, SELECTOR_FLAGS } from './selector/parse.js';
import { compileSafeRegex, RegexBudgetError, RegexSyntaxError } from './selector/safe-regex.js';
import type { UINode } from './ui-node.js';

export const PREDICATE_FIELDS = ['role', 'name', 'id', 'value', 'text', 'focused', 'selected', 'disabled', 'checked'] as const;
const PREDICATE_OPS = ['eq', 'neq', 'contains', 'icontains', 'startsWith', 'endsWith', 'matches', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;

export type Predicate =
  | { field: (typeof PREDICATE_FIELDS)[number]; op: (typeof PREDICATE_OPS)[number]; rhs?: string | number | boolean }
  | { flag: (typeof SELECTOR_FLAGS)[number]; value?: boolean }
  | { all: Predicate[] }
  | { any: Predicate[] }
  | { not: Predicate };

export const predicateSchema: z.ZodType<Predicate> = z.union([
  z.strictObject({
    field: z.enum(PREDICATE_FIELDS).describe('What to compare.'),
    op: z.enum(PREDICATE_OPS).describe('eq/neq exact; contains/icontains substring; startsWith/endsWith; matches = regex (linear-time); gt/gte/lt/lte numeric (the leading number of the field, so "42%" is 42); exists = the field is set.'),
    rhs: z.union([z.string().max(1000), z.number(), z.boolean()]).optional().describe('Right-hand side; not needed for exists.'),
  }),
  z.strictObject({ flag: z.enum(SELECTOR_FLAGS), value: z.boolean().optional().describe('Expected state, default true.') }),
  z.strictObject({
    get all() {
      return z.array(predicateSchema).min(1).max(50);
    },
  }),
  z.strictObject({
    get any() {
      return z.array(predicateSchema).min(1).max(50);
    },
  }),
  z.strictObject({
    get not() {
      return predicateSchema;
    },
  }),
]) as z.ZodType<Predicate>;

const MAX_DEPTH = 16;

function fieldOf(node: UINode, field: (typeof PREDICATE_FIELDS)[number], textOf: (node: UINode) => string): string | boolean | undefined {
  switch (field) {
    case 'text':
      return textOf(node);
    case 'focused':
    case 'selected':
    case 'disabled':
    case 'checked':
      return node[field] ?? false;
    default:
      return node[field];
  }
}

function leadingNumber(value: string | number | boolean | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(-?\d+(?:\.\d+)?)/.exec(value);
  return match ? Number(match[1]) : undefined;
}

function bad(message: string): ToolError {
  return new ToolError(`invalid predicate: ${message}`, 'invalid_predicate');
}

/** Booleans equal only booleans ("false" is not false); other values compare as text ("42" equals 42). */
function equals(actual: string | boolean | undefined, rhs: string | number | boolean): boolean {
  return actual === rhs || (typeof actual !== 'boolean' && actual !== undefined && String(actual) === String(rhs));
}

export function evaluatePredicate(node: UINode, predicate: Predicate, textOf: (node: UINode) => string, depth = 0): boolean {
  if (depth > MAX_DEPTH) throw bad(`nested deeper than ${MAX_DEPTH} levels`);
  if ('all' in predicate) return predicate.all.every((inner) => evaluatePredicate(node, inner, textOf, depth + 1));
  if ('any' in predicate) return predicate.any.some((inner) => evaluatePredicate(node, inner, textOf, depth + 1));
  if ('not' in predicate) return !evaluatePredicate(node, predicate.not, textOf, depth + 1);
  if ('flag' in predicate) {
    return (node[flagField(predicate.flag)] ?? false) === (predicate.value ?? true);
  }
  const actual = fieldOf(node, predicate.field, textOf);
  const { op, rhs } = predicate;
  if (op === 'exists') return actual !== undefined && actual !== '';
  if (rhs === undefined) throw bad(`op "${op}" needs an rhs`);
  switch (op) {
    case 'eq':
      return equals(actual, rhs);
    case 'neq':
      return !equals(actual, rhs);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const left = leadingNumber(actual);
      const right = leadingNumber(rhs);
      if (right === undefined) throw bad(`op "${op}" needs a numeric rhs, got ${JSON.stringify(rhs)}`);
      if (left === undefined) return false;
      return op === 'gt' ? left > right : op === 'gte' ? left >= right : op === 'lt' ? left < right : left <= right;
    }
    default: {
      if (typeof rhs !== 'string') throw bad(`op "${op}" needs a string rhs, got ${JSON.stringify(rhs)}`);
      if (typeof actual !== 'string') return false;
      if (op === 'contains') return actual.includes(rhs);
      if (op === 'icontains') return actual.toLowerCase().includes(rhs.toLowerCase());
      if (op === 'startsWith') return actual.startsWith(rhs);
      if (op === 'endsWith') return actual.endsWith(rhs);
      try {
        return compileSafeRegex(rhs).test(actual);
      } catch (error) {
        if (error instanceof RegexSyntaxError || error instanceof RegexBudgetError) throw bad(`rhs of "matches": ${error.message}`);
        throw error;
      }
    }
  }
}
