import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MAX_CHARS, toCompact } from '../../src/cup/compact.js';
import type { CupNode } from '../../src/cup/types.js';
import { envelope, node } from './build.js';

function list(count: number, name: (index: number) => string = (index) => `item ${index}`): CupNode[] {
  return [node(0, 'list', 'L', { children: Array.from({ length: count }, (_, index) => node(index + 1, 'listitem', name(index))) })];
}

const codePoints = (text: string) => [...text].length;

function split(text: string): { kept: string; footer: string[] } {
  const lines = text.slice(0, -1).split('\n');
  const firstFooter = lines.findIndex((line, index) => index > 0 && line.startsWith('# output truncated'));
  return { kept: `${lines.slice(0, firstFooter).join('\n')}\n`, footer: lines.slice(firstFooter) };
}

test('over the cap, the text is cut at the last newline before the cap', () => {
  const full = toCompact(envelope(list(50)), { maxChars: 0 });
  const capped = toCompact(envelope(list(50)), { maxChars: 300 });
  const { kept } = split(capped);
  assert.ok(full.startsWith(kept));
  assert.ok(codePoints(kept) <= 300);
  const nextLine = full.slice(kept.length).split('\n')[0] ?? '';
  assert.ok(codePoints(kept) + codePoints(nextLine) + 1 > 300, 'the next whole line would not have fit');
});

test('a line whose newline is exactly the last character under the cap is kept', () => {
  const full = toCompact(envelope(list(50)), { maxChars: 0 });
  const cut = full.indexOf('\n', 200) + 1;
  const { kept } = split(toCompact(envelope(list(50)), { maxChars: cut }));
  assert.equal(kept, full.slice(0, cut));
});

test('the footer is a few # lines saying the output was truncated and how to narrow it', () => {
  const capped = toCompact(envelope(list(50)), { maxChars: 300 });
  const { footer } = split(capped);
  assert.ok(footer.length >= 1 && footer.length <= 3);
  assert.ok(footer.every((line) => line.startsWith('# ')));
  assert.match(footer.join(' '), /truncated/);
  assert.match(footer.join(' '), /query/);
  assert.ok(capped.endsWith('\n'));
});

test('the footer reports how many nodes made it in', () => {
  const capped = toCompact(envelope(list(50)), { maxChars: 300 });
  const shown = capped.split('\n').filter((line) => line.trimStart().startsWith('[')).length;
  assert.match(capped, new RegExp(`: ${shown} of 51 nodes shown`));
});

test('text at exactly the cap is untouched; one code point more is cut', () => {
  const full = toCompact(envelope(list(5)), { maxChars: 0 });
  assert.equal(toCompact(envelope(list(5)), { maxChars: codePoints(full) }), full);
  assert.notEqual(toCompact(envelope(list(5)), { maxChars: codePoints(full) - 1 }), full);
});

test('the cap counts code points, not UTF-16 units', () => {
  const tree = list(5, () => '😀'.repeat(20));
  const full = toCompact(envelope(tree), { maxChars: 0 });
  assert.ok(full.length > codePoints(full));
  assert.equal(toCompact(envelope(tree), { maxChars: codePoints(full) }), full);
});

test('maxChars 0 turns the cap off', () => {
  const text = toCompact(envelope(list(3000)), { maxChars: 0 });
  assert.ok(codePoints(text) > DEFAULT_MAX_CHARS);
  assert.ok(!text.includes('truncated'));
});

test('the default cap is 40,000 characters', () => {
  assert.equal(DEFAULT_MAX_CHARS, 40_000);
  const capped = toCompact(envelope(list(3000)));
  const { kept } = split(capped);
  assert.ok(codePoints(kept) <= 40_000 && codePoints(kept) > 39_900);
  assert.equal(split(capped).kept, split(toCompact(envelope(list(3000)), { maxChars: 40_000 })).kept);
});
