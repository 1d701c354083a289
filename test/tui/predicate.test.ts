import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolError } from '../../src/errors.js';
import { evaluatePredicate, predicateSchema, type Predicate } from '../../src/tui/predicate.js';
import type { UINode } from '../../src/tui/ui-node.js';

const gauge: UINode = { id: 'g', role: 'progressbar', name: 'Copy', value: '42%', selected: true };
const textOf = () => 'Copying files 42%';

function holds(predicate: Predicate): boolean {
  return evaluatePredicate(gauge, predicateSchema.parse(predicate), textOf);
}

test('field comparisons', () => {
  assert.equal(holds({ field: 'value', op: 'eq', rhs: '42%' }), true);
  assert.equal(holds({ field: 'value', op: 'neq', rhs: '42%' }), false);
  assert.equal(holds({ field: 'name', op: 'contains', rhs: 'op' }), true);
  assert.equal(holds({ field: 'name', op: 'icontains', rhs: 'COPY' }), true);
  assert.equal(holds({ field: 'name', op: 'startsWith', rhs: 'Co' }), true);
  assert.equal(holds({ field: 'text', op: 'endsWith', rhs: '42%' }), true);
  assert.equal(holds({ field: 'text', op: 'matches', rhs: '^Copying \\w+ \\d+%$' }), true);
  assert.equal(holds({ field: 'value', op: 'gt', rhs: 40 }), true);
  assert.equal(holds({ field: 'value', op: 'lte', rhs: '41' }), false);
  assert.equal(holds({ field: 'value', op: 'exists' }), true);
  assert.equal(holds({ field: 'id', op: 'eq', rhs: 'g' }), true);
  assert.equal(holds({ field: 'selected', op: 'eq', rhs: true }), true);
  assert.equal(holds({ field: 'checked', op: 'eq', rhs: false }), true);
});

test('neq is the negation of eq, also where a boolean field meets a string', () => {
  for (const rhs of [true, false, 'true', 'false', '42%', 42]) {
    for (const field of ['selected', 'checked', 'value'] as const) {
      assert.equal(holds({ field, op: 'neq', rhs }), !holds({ field, op: 'eq', rhs }), `${field} vs ${JSON.stringify(rhs)}`);
    }
  }
  assert.equal(holds({ field: 'checked', op: 'neq', rhs: 'false' }), true, 'the string "false" is not the boolean false');
});

test('flags and all/any/not', () => {
  assert.equal(holds({ flag: 'selected' }), true);
  assert.equal(holds({ flag: 'focus' }), false);
  assert.equal(holds({ flag: 'focus', value: false }), true);
  assert.equal(holds({ all: [{ flag: 'selected' }, { field: 'value', op: 'gte', rhs: 42 }] }), true);
  assert.equal(holds({ all: [{ flag: 'selected' }, { field: 'value', op: 'gt', rhs: 42 }] }), false);
  assert.equal(holds({ any: [{ flag: 'disabled' }, { field: 'role', op: 'eq', rhs: 'progressbar' }] }), true);
  assert.equal(holds({ not: { flag: 'disabled' } }), true);
});

test('malformed predicates are rejected by the schema or named at evaluation', () => {
  assert.equal(predicateSchema.safeParse({ field: 'colour', op: 'eq', rhs: 'x' }).success, false);
  assert.equal(predicateSchema.safeParse({ field: 'name', op: 'like', rhs: 'x' }).success, false);
  assert.equal(predicateSchema.safeParse({ all: [] }).success, false);
  assert.equal(predicateSchema.safeParse({ field: 'name', op: 'eq', rhs: 'x', extra: 1 }).success, false);
  assert.throws(() => holds({ field: 'value', op: 'gt', rhs: 'lots' }), (error: unknown) => error instanceof ToolError && error.code === 'invalid_predicate');
  assert.throws(() => holds({ field: 'name', op: 'eq' }), /needs an rhs/);
  assert.throws(() => holds({ field: 'name', op: 'matches', rhs: '(' }), /missing "\)"/);
});
