import assert from 'node:assert/strict';
import { test } from 'node:test';
import { typedTextChanges } from '../../src/cup/typed-text-changes.js';

test('text gained as typed is no change, wherever it went in and whatever newline it was typed with', () => {
  assert.equal(typedTextChanges('abc', '', 'abc'), undefined);
  assert.equal(typedTextChanges('if x:\r\n  y', 'head\ntail', 'head\nif x:\n  ytail'), undefined);
  assert.equal(typedTextChanges('b', 'ab', 'abb'), undefined, 'the same character on both sides of the caret');
});

test("an editor's auto-indent is told by the lines it indented otherwise than typed", () => {
  // Geany 1.38 on a Python file: the spaces typed went on top of the indentation it adds after each Return.
  const typed = 'def f(x):\n    if x:\n        return 1\n    return 2\n';
  const after = 'def f(x):\n    if x:\n            return 1\n                return 2\n                ';
  const told = typedTextChanges(typed, '', after);
  assert.ok(told);
  assert.equal(told.gained, after);
  assert.deepEqual(told.notes, ['the editor indented lines 3, 4 and 5 otherwise than typed (an editor that indents a new line after each Return adds its indentation to the spaces typed)']);
  // A tab where spaces were typed is indentation too, and lines count from the field's first line.
  const tab = typedTextChanges('{\n    x;\n}', 'int main()\n', 'int main()\n{\n\tx;\n}');
  assert.ok(tab);
  assert.match(tab.notes[0]!, /^the editor indented line 3 /);
});

test('a Return a completion list took is told with what came in its place', () => {
  // Geany: "compute" opened its word list, and the Return inserted its first choice instead of a line break.
  const told = typedTextChanges('x = compute\ny = 2', 'def compute_total():\n', 'def compute_total():\nx = computeRollovery = 2');
  assert.ok(told);
  assert.equal(told.gained, 'x = computeRollovery = 2');
  assert.deepEqual(told.notes, ['a Return typed on line 2 made no line break: "Rollover" came in its place (a completion list open there took the Return and inserted its choice)']);
});

test('brackets and quotes an editor closed are told as added, other differences as they are', () => {
  const closed = typedTextChanges('print("hi"\n', '', 'print("hi")\n');
  assert.ok(closed);
  assert.deepEqual(closed.notes, ['the editor added ")" (line 1), not typed (an editor that closes brackets and quotes adds them)']);
  assert.deepEqual(typedTextChanges('a cat\nsat', '', 'a cat\nsot')?.notes, ['"a" typed came out as "o" (line 2)']);
  const lost = typedTextChanges('abcdef', 'x', 'xabc');
  assert.ok(lost);
  assert.deepEqual(lost.notes, ['"def" typed is not there (line 1)']);
});

test('a field that gained nothing, or too much to align, is told whole', () => {
  assert.deepEqual(typedTextChanges('abc', 'same', 'same')?.notes, ['its text has nothing more where the keys went']);
  const huge = 'y'.repeat(3000);
  const told = typedTextChanges(huge, '', `x${huge}`);
  assert.equal(told?.gained, `x${huge}`);
  assert.deepEqual(told?.notes, ['they are too long to tell their differences one by one']);
});
