import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ACTION_CODES, ROLE_CODES, STATE_CODES, actionCode, roleCode, stateCode } from '../../src/cup/codes.js';
import { CUP_ACTIONS, CUP_ROLES, CUP_STATES } from '../../src/cup/types.js';

const schema = JSON.parse(readFileSync(new URL('../../../schema/cup.schema.json', import.meta.url), 'utf8')) as {
  $defs: { role: { enum: string[] }; state: { enum: string[] }; action: { enum: string[] } };
};

test('the role, state and action lists are exactly the schema enums', () => {
  assert.deepEqual([...CUP_ROLES], schema.$defs.role.enum);
  assert.deepEqual([...CUP_STATES], schema.$defs.state.enum);
  assert.deepEqual([...CUP_ACTIONS], schema.$defs.action.enum);
});

test('every role, state and action has a code, and codes are unique within each table', () => {
  for (const table of [ROLE_CODES, STATE_CODES, ACTION_CODES]) {
    const codes = Object.values(table);
    assert.equal(new Set(codes).size, codes.length);
  }
  assert.deepEqual(Object.keys(ROLE_CODES), [...CUP_ROLES]);
  assert.deepEqual(Object.keys(STATE_CODES), [...CUP_STATES]);
  assert.deepEqual(Object.keys(ACTION_CODES), [...CUP_ACTIONS]);
});

test('codes follow COMPACT.md, including the ones that are not prefixes', () => {
  assert.equal(roleCode('contentinfo'), 'ci');
  assert.equal(roleCode('tablist'), 'tabs');
  assert.equal(roleCode('menubar'), 'mnub');
  assert.equal(stateCode('multiselectable'), 'msel');
  assert.equal(stateCode('readonly'), 'ro');
  assert.equal(actionCode('rightclick'), 'rclk');
  assert.equal(actionCode('setvalue'), 'sv');
});

test('unknown values, including Object.prototype names, come back unchanged', () => {
  assert.equal(roleCode('constructor'), 'constructor');
  assert.equal(stateCode('toString'), 'toString');
  assert.equal(actionCode('drag'), 'drag');
});
