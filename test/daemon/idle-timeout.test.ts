import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseIdleTimeout } from '../../src/server/daemon/serve-command.js';

describe('the idle timeout', () => {
  test('seconds, fractions allowed, 0 = never; default 300 s', () => {
    assert.equal(parseIdleTimeout(undefined, 'x'), 300_000);
    assert.equal(parseIdleTimeout('', 'x'), 300_000);
    assert.equal(parseIdleTimeout('60', 'x'), 60_000);
    assert.equal(parseIdleTimeout('1.5', 'x'), 1500);
    assert.equal(parseIdleTimeout('0', 'x'), 0);
  });

  test('anything else is a usage error naming the source and what works', () => {
    for (const bad of ['-1', 'abc', '5m', '1e3', 'Infinity', '2000001']) {
      assert.throws(() => parseIdleTimeout(bad, '--idle-timeout'), new RegExp(`invalid idle timeout "${bad}" \\(from --idle-timeout\\): expected seconds up to 2000000, e.g. 300`));
    }
  });
});
