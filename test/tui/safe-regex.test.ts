import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileSafeRegex, MAX_PATTERN_LENGTH, MAX_REGEX_STEPS, RegexBudgetError, RegexSyntaxError } from '../../src/tui/selector/safe-regex.js';

test('the supported subset matches like JavaScript regexes do', () => {
  const cases: [string, string][] = [
    ['Co.*l$', 'Council'], ['^a(b|c)+d$', 'abcbd'], ['^a(b|c)+d$', 'abxd'], ['[A-Z]{2,3}\\d', 'xAB1'], ['[A-Z]{2,3}\\d', 'xA1'],
    ['\\bfox\\b', 'the fox.'], ['\\bfox\\b', 'foxes'], ['colou?r', 'color'], ['colou?r', 'colouur'], ['[^0-9]+$', 'abc'],
    ['[^0-9]+$', 'ab1'], ['a{3}', 'aa'], ['a{2,}b', 'aaab'], ['(?:ab)*c', 'ababc'], ['x*', ''], ['\\s+\\S', 'a  b'],
    ['[\\w.-]+@[\\w-]+\\.\\w+', 'mail me@example.org'], ['\\$ $', 'prompt$ '], ['^$', ''], ['a|b|c', 'zzc'], ['\\.\\*', 'a.*b'],
  ];
  for (const [pattern, subject] of cases) {
    assert.equal(compileSafeRegex(pattern).test(subject), new RegExp(pattern).test(subject), `/${pattern}/ on ${JSON.stringify(subject)}`);
  }
});

test('(?i) at the start makes matching case-insensitive', () => {
  assert.equal(compileSafeRegex('(?i)hello').test('say HeLLo'), true);
  assert.equal(compileSafeRegex('(?i)[a-c]+x').test('XBX'), true);
  assert.equal(compileSafeRegex('hello').test('HELLO'), false);
});

test('catastrophic patterns run in linear time', () => {
  const subject = `${'a'.repeat(20_000)}!`;
  for (const pattern of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '^(\\w*)*$', 'a*a*a*a*a*b']) {
    const started = performance.now();
    assert.equal(compileSafeRegex(pattern).test(subject), false, pattern);
    const elapsed = performance.now() - started;
    // A backtracking engine needs astronomically long on these; linear time is well under a second.
    assert.ok(elapsed < 2000, `${pattern} took ${elapsed.toFixed(0)} ms`);
  }
});

test('unsupported or broken patterns are errors naming the offset', () => {
  const cases: [string, RegExp][] = [
    ['(a', /missing "\)" at offset 0/], ['a)', /unexpected "\)" at offset 1/], ['*a', /nothing to repeat/], ['(?=a)', /lookaround/],
    ['(?<n>a)', /named groups/], ['\\1', /backreferences/], ['[a', /missing "\]"/], ['a{5,2}', /m < n/], ['a{1000}', /above 100/],
    ['\\p{L}', /unsupported escape \\p/], ['x'.repeat(MAX_PATTERN_LENGTH + 1), /limit is 256/],
  ];
  for (const [pattern, message] of cases) {
    assert.throws(() => compileSafeRegex(pattern), (error: unknown) => error instanceof RegexSyntaxError && message.test(error.message), pattern);
  }
});

test('a pattern whose program is large stops at its step budget instead of running for minutes on a long text', () => {
  const subject = 'a'.repeat(100_000);
  for (const pattern of ['(a{1,100}){1,100}$', '(.*){100}b', '(a|aa|aaa|aaaa){1,40}b']) {
    const regex = compileSafeRegex(pattern);
    const started = performance.now();
    assert.throws(() => regex.test(subject), (error: unknown) => error instanceof RegexBudgetError && error.message.includes(`${MAX_REGEX_STEPS}`), pattern);
    const elapsed = performance.now() - started;
    // Unbounded, the first takes minutes (20,000 steps a character); the budget is about a second on an idle machine.
    assert.ok(elapsed < 10_000, `${pattern} took ${elapsed.toFixed(0)} ms`);
  }
  // The budget spans every text one compiled regex is tried on, as a selector tries every node of a tree.
  const regex = compileSafeRegex('(a{1,100}){1,100}$');
  assert.throws(() => {
    for (let i = 0; i < 1000; i++) regex.test('a'.repeat(1000));
  }, RegexBudgetError);
  // A simple pattern on the same text stays well inside it.
  assert.equal(compileSafeRegex('(a+)+$').test(subject), true);
});
