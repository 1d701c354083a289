import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toMarkdown } from '../../src/cup/markdown.js';
import { validateEnvelope } from '../../src/cup/validate.js';
import type { CupNode, CupRect } from '../../src/cup/types.js';
import { compactBody, envelope, node } from './build.js';

const DASH = '\u2014';
const rect = (x: number, y: number, w: number, h: number): CupRect => ({ x, y, w, h });

/** A list whose platform read only its visible part, with that many children left unread per direction. */
function huge(unread: Record<string, number>, children: CupNode[], extra: Partial<CupNode> = {}): CupNode {
  return node(0, 'list', 'Items', {
    bounds: rect(100, 100, 200, 200),
    actions: ['scroll'],
    children,
    platform: { linux: { atspiRole: 'ROLE_LIST_BOX', unreadChildren: { up: 0, down: 0, left: 0, right: 0, ...unread } } },
    ...extra,
  });
}

const row = (id: number, y: number) => node(id, 'option', `Row ${id}`, { bounds: rect(100, y, 200, 20), actions: ['click'] });

test('unread children of a huge container are hinted like clipped ones, after its children', () => {
  assert.deepEqual(compactBody([huge({ up: 500, down: 99_000 }, [row(1, 100), row(2, 120)])]), [
    '[e0] lst "Items" 100,100 200x200 [scr]',
    '  [e1] opt "Row 1" 100,100 200x20 [clk]',
    '  [e2] opt "Row 2" 100,120 200x20 [clk]',
    `  # 99500 more items ${DASH} scroll up/down to see`,
  ]);
});

test('unread and clipped children add up in one hint, per direction', () => {
  const body = compactBody([huge({ down: 10, right: 4 }, [row(1, 100), row(2, 400)])]);
  assert.equal(body.at(-1), `  # 15 more items ${DASH} scroll down/right to see`);
});

test('detail full clips nothing but still says what was never read', () => {
  const body = compactBody([huge({ down: 7 }, [row(1, 100), row(2, 400)])], { detail: 'full' });
  assert.deepEqual(body.slice(-2), ['  [e2] opt "Row 2" 100,400 200x20 [clk]', `  # 7 more items ${DASH} scroll down to see`]);
});

test('a hoisted container keeps the hint for its unread children in its place', () => {
  const group = huge({ down: 3 }, [row(1, 100)], { role: 'generic', name: '' });
  assert.deepEqual(compactBody([node(9, 'window', 'W', { children: [group] })]), [
    '[e9] win "W"',
    '  [e1] opt "Row 1" 100,100 200x20 [clk]',
    `  # 3 more items ${DASH} scroll down to see`,
  ]);
});

test('no unread children, no hint; the Markdown rendering shows the same hint', () => {
  assert.deepEqual(compactBody([huge({}, [row(1, 100)])]).length, 2);
  const markdown = toMarkdown(envelope([huge({ down: 2 }, [row(1, 100)])]));
  assert.match(markdown, new RegExp(`^  - \\*2 more items ${DASH} scroll down to see\\*$`, 'm'));
});

test('the counts ride in the platform fields, which the schema leaves open: the envelope stays valid', () => {
  assert.deepEqual(validateEnvelope(envelope([huge({ down: 2 }, [row(1, 100)])])), { valid: true, errors: [] });
});

/** A view whose toolkit draws its rows and exposes none (GTK 4.8's tree view), holding only its column headers. */
function unexposed(extra: Partial<CupNode> = {}): CupNode {
  const header = node(1, 'button', 'Name', { bounds: rect(100, 100, 200, 20), actions: ['click'] });
  return node(0, 'generic', '', { bounds: rect(100, 100, 200, 200), children: [header], platform: { linux: { atspiRole: 'ROLE_FILLER', itemsNotExposed: true } }, ...extra });
}

test('a view whose items the toolkit does not expose says so after what it does expose, kept or hoisted, in every rendering', () => {
  const hint = `items drawn here are not exposed by the toolkit ${DASH} read them on the screenshot`;
  assert.deepEqual(compactBody([node(9, 'window', 'W', { children: [unexposed()] })]), ['[e9] win "W"', '  [e1] btn "Name" 100,100 200x20 [clk]', `  # ${hint}`]);
  assert.deepEqual(compactBody([unexposed({ name: 'Files', role: 'tree' })]).at(-1), `  # ${hint}`);
  assert.deepEqual(compactBody([unexposed()], { detail: 'full' }).at(-1), `  # ${hint}`);
  assert.match(toMarkdown(envelope([unexposed({ name: 'Files', role: 'tree' })])), new RegExp(`^  - \\*${hint}\\*$`, 'm'));
  assert.deepEqual(validateEnvelope(envelope([unexposed()])), { valid: true, errors: [] });
});

test('a hidden container\'s unread children are hidden with it, not rows to scroll to: the hint says to show it', () => {
  // Pluma's closed side pane: its file browser's thousands of rows were told to be scrolled down to.
  const hidden = huge({ down: 4234 }, [], { bounds: undefined, states: ['hidden', 'offscreen'] });
  const body = compactBody([node(9, 'window', 'W', { children: [hidden] })], { detail: 'full' });
  assert.equal(body.at(-1), `    # 4234 more items, hidden with this ${DASH} show it (the pane, tab or expander holding it) to see`);
});

test('so are those of a container not shown with no place at all (a notebook page behind the shown one); one scrolled out of view keeps its place and its hint', () => {
  // Caja's folder tree, on its side pane's page behind the Places page: offscreen, and placed nowhere.
  const behind = huge({ down: 4130 }, [], { bounds: undefined, states: ['offscreen'] });
  assert.match(compactBody([node(9, 'window', 'W', { children: [behind] })], { detail: 'full' }).at(-1)!, /4130 more items, hidden with this/);
  const below = huge({ down: 50 }, [], { bounds: rect(100, 2000, 200, 200), states: ['offscreen'] });
  assert.equal(compactBody([node(9, 'window', 'W', { children: [below] })], { detail: 'full' }).at(-1), `    # 50 more items ${DASH} scroll down to see`);
});
