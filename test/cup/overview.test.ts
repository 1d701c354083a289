import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toOverview } from '../../src/cup/overview.js';
import type { CupWindowInfo } from '../../src/cup/types.js';
import { envelope } from './build.js';

function overview(windows: CupWindowInfo[] | undefined): string {
  return toOverview(envelope([], { scope: 'overview', windows, screen: { w: 1920, h: 1080 } }));
}

test('overview has the CUP line, the window count, a blank line, one line per window, and a final newline', () => {
  const text = overview([
    { title: 'Editor', pid: 42, foreground: true, bounds: { x: 0, y: 30, w: 1280, h: 720 }, url: 'https://example.com/' },
    { title: 'Terminal', pid: 7 },
  ]);
  assert.equal(
    text,
    '# CUP 0.1.0 | linux | 1920x1080\n' +
      '# overview | 2 windows\n' +
      '\n' +
      '* [fg] Editor (pid:42) @0,30 1280x720 url:https://example.com/\n' +
      '  Terminal (pid:7)\n',
  );
});

test('pid, bounds and url appear only when known', () => {
  const text = overview([{ title: 'Bare', pid: null, bounds: null }, { title: 'Only bounds', bounds: { x: 1, y: 2, w: 3, h: 4 } }, { title: 'Empty url', url: '' }]);
  assert.deepEqual(text.split('\n').slice(3), ['  Bare', '  Only bounds @1,2 3x4', '  Empty url', '']);
});

test('pid 0 is known and shown', () => {
  assert.equal(overview([{ title: 'init', pid: 0 }]).split('\n')[3], '  init (pid:0)');
});

test('url keeps its first 80 code points plus "..." when longer', () => {
  const long = `https://x.test/${'a'.repeat(64)}😀😀`; // 81 code points
  assert.equal(overview([{ title: 'W', url: long }]).split('\n')[3], `  W url:https://x.test/${'a'.repeat(64)}😀...`);
  const exact = `https://x.test/${'a'.repeat(65)}`;
  assert.equal(overview([{ title: 'W', url: exact }]).split('\n')[3], `  W url:${exact}`);
});

test('no windows gives a zero count and no window lines', () => {
  assert.equal(overview(undefined), '# CUP 0.1.0 | linux | 1920x1080\n# overview | 0 windows\n\n');
});

test('the count word stays "windows" for one window', () => {
  assert.equal(overview([{ title: 'Solo' }]).split('\n')[1], '# overview | 1 windows');
});
