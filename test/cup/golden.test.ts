import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCompact } from '../../src/cup/compact.js';
import { exampleEnvelope, fixture } from './build.js';

test('example.json in detail compact matches example.compact.txt byte for byte', () => {
  assert.equal(toCompact(exampleEnvelope(), { detail: 'compact' }), fixture('example.compact.txt'));
});

test('detail defaults to compact', () => {
  assert.equal(toCompact(exampleEnvelope()), fixture('example.compact.txt'));
});

test('example.json in detail full matches example.full.txt byte for byte', () => {
  assert.equal(toCompact(exampleEnvelope(), { detail: 'full' }), fixture('example.full.txt'));
});
