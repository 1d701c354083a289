import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateEnvelope } from '../../src/cup/validate.js';
import { exampleEnvelope } from './build.js';

// `any` on purpose: each test reaches into the parsed JSON to break it in a way the types forbid.
type Json = any;

/** The example as plain JSON, edited by `change`. */
function broken(change: (value: Json) => void): unknown {
  const value: Json = exampleEnvelope();
  change(value);
  return value;
}

test('accepts example.json', () => {
  assert.deepEqual(validateEnvelope(exampleEnvelope()), { valid: true, errors: [] });
});

test('rejects an unknown role, naming the path and the value', () => {
  const result = validateEnvelope(broken((value) => { value.tree[0].role = 'buton'; }));
  assert.equal(result.valid, false);
  assert.deepEqual(result.errors, ['/tree/0/role: must be equal to one of the allowed values (got "buton")']);
});

test('rejects an extra property, naming it', () => {
  const result = validateEnvelope(broken((value) => { value.tree[1].children[0].colour = 'red'; }));
  assert.deepEqual(result.errors, ['/tree/1/children/0: must NOT have additional properties (got "colour")']);
});

test('rejects an id that does not match e<digits>', () => {
  const result = validateEnvelope(broken((value) => { value.tree[0].id = 'n0'; }));
  assert.deepEqual(result.errors, ['/tree/0/id: must match pattern "^e\\d+$" (got "n0")']);
});

test('rejects a negative width', () => {
  const result = validateEnvelope(broken((value) => { value.tree[0].bounds.w = -1; }));
  assert.deepEqual(result.errors, ['/tree/0/bounds/w: must be >= 0 (got -1)']);
});

test('rejects a missing required field, at the root and in a node', () => {
  assert.deepEqual(validateEnvelope(broken((value) => { delete value.tree; })).errors, ["/: must have required property 'tree'"]);
  assert.deepEqual(validateEnvelope(broken((value) => { delete value.tree[0].name; })).errors, ["/tree/0: must have required property 'name'"]);
});

test('reports every problem at once', () => {
  const result = validateEnvelope(broken((value) => { value.tree[0].role = 'buton'; value.screen.w = 1.5; }));
  assert.equal(result.errors.length, 2);
  assert.ok(result.errors.includes('/screen/w: must be integer (got 1.5)'));
});

test('rejects values that are not objects', () => {
  assert.deepEqual(validateEnvelope(null), { valid: false, errors: ['/: must be object (got null)'] });
});
