import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textChange } from '../../src/cup/text-change.js';

const long = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron';

test('a text scrolled up is told from where the old and the new part', () => {
  const screen = `${long}\none\ntwo\n$ `;
  assert.equal(textChange(screen, 'one\ntwo\n$ ls\nfile\n'), '"...one\\ntwo\\n$ " → "one\\ntwo\\n$ ls\\nfile\\n" (scrolled up 1 line)');
});

test('a text emptied, or left with blank lines, did not scroll', () => {
  // gedit's document emptied by set_value "": its last line (after the last newline) is as empty as the new text.
  const document = `${long}\nsecond\n`;
  assert.equal(textChange(document, ''), `${JSON.stringify(long.slice(0, 77) + '...')} → ""`);
  assert.doesNotMatch(textChange(`${document}\n\n`, '\n'), /scrolled/);
});

test('quotes inside a text are escaped, so the quotes around it still say where it ends', () => {
  assert.equal(textChange('Say hello', 'Say "hi"'), '"Say hello" → "Say \\"hi\\""');
});
