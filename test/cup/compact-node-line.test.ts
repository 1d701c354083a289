import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CupAction, CupAttributes, CupNode, CupState } from '../../src/cup/types.js';
import { compactBody, node } from './build.js';

function line(subject: CupNode): string {
  const [first] = compactBody([subject]);
  assert.ok(first !== undefined);
  return first;
}

const box = { x: 1, y: 2, w: 30, h: 40 };

test('the id field is the node own id in brackets, gaps and all', () => {
  const tree = [node(3, 'list', 'L', { children: [node(7, 'generic', '', { children: [node(12, 'listitem', 'x')] })] })];
  assert.deepEqual(compactBody(tree), ['[e3] lst "L"', '  [e12] li "x"']);
});

test('roles are written as their codes', () => {
  assert.equal(line(node(0, 'navigation', 'Nav')), '[e0] nav "Nav"');
  assert.equal(line(node(0, 'menuitemcheckbox', 'M')), '[e0] mic "M"');
});

test('an unknown role is written unchanged', () => {
  assert.equal(line(node(0, 'spinner', 'Loading')), '[e0] spinner "Loading"');
});

test('the name field is omitted when the name is empty', () => {
  assert.equal(line(node(0, 'list', '')), '[e0] lst');
});

test('names longer than 80 code points are cut to 80 and get "..."', () => {
  assert.equal(line(node(0, 'button', 'x'.repeat(81))), `[e0] btn "${'x'.repeat(80)}..."`);
  assert.equal(line(node(0, 'button', 'x'.repeat(80))), `[e0] btn "${'x'.repeat(80)}"`);
});

test('names escape backslash and double quote', () => {
  assert.equal(line(node(0, 'link', 'C:\\dir "x"')), '[e0] lnk "C:\\\\dir \\"x\\""');
});

test('names are cut before they are escaped', () => {
  // Quotes at code points 80 and 81: the cut keeps one, escaping then doubles its width.
  const name = `${'a'.repeat(79)}""tail`;
  assert.equal(line(node(0, 'button', name)), `[e0] btn "${'a'.repeat(79)}\\"..."`);
});

test('line breaks in names become spaces, other control characters are shown escaped, tabs stay', () => {
  assert.equal(line(node(0, 'text', 'a\nb\r\nc\td\re')), '[e0] txt "a b c\td e"');
  assert.equal(line(node(0, 'text', 'Safe\u001b[31mRed\u0007\u2028x\u0085')), '[e0] txt "Safe\\x1b[31mRed\\x07\\u2028x\\x85"');
});

test('name cutting counts code points: emoji around positions 79 to 81 stay whole', () => {
  assert.equal(line(node(0, 'button', `${'a'.repeat(78)}😀😀😀b`)), `[e0] btn "${'a'.repeat(78)}😀😀..."`);
  assert.equal(line(node(0, 'button', `${'a'.repeat(79)}😀`)), `[e0] btn "${'a'.repeat(79)}😀"`);
  assert.equal(line(node(0, 'button', `${'a'.repeat(79)}😀b`)), `[e0] btn "${'a'.repeat(79)}😀..."`);
});

test('bounds are shown when the node has bounds and an action other than focus', () => {
  assert.equal(line(node(0, 'button', 'B', { bounds: box, actions: ['click'] })), '[e0] btn "B" 1,2 30x40 [clk]');
});

test('bounds are omitted with no actions, with focus only, or without bounds', () => {
  assert.equal(line(node(0, 'button', 'B', { bounds: box })), '[e0] btn "B"');
  assert.equal(line(node(0, 'button', 'B', { bounds: box, actions: ['focus'] })), '[e0] btn "B"');
  assert.equal(line(node(0, 'button', 'B', { actions: ['click'] })), '[e0] btn "B" [clk]');
});

test('states are coded, in the node own order', () => {
  assert.equal(line(node(0, 'option', 'O', { states: ['selected', 'focused', 'disabled'] })), '[e0] opt "O" {sel,foc,dis}');
});

test('states field is omitted when the list is empty', () => {
  assert.equal(line(node(0, 'option', 'O', { states: [] })), '[e0] opt "O"');
});

test('actions are coded with focus removed, and omitted when only focus remains', () => {
  assert.equal(line(node(0, 'slider', 'S', { actions: ['focus', 'increment', 'decrement'] })), '[e0] sld "S" [inc,dec]');
  assert.equal(line(node(0, 'slider', 'S', { actions: ['focus'] })), '[e0] sld "S"');
});

test('unknown states and actions are written unchanged', () => {
  const subject = node(0, 'button', 'B', {
    states: ['glowing'] as string[] as CupState[],
    actions: ['drag', 'click'] as string[] as CupAction[],
  });
  assert.equal(line(subject), '[e0] btn "B" {glowing} [drag,clk]');
});

test('val= is printed for textbox, searchbox, combobox, spinbutton, slider and progress bar', () => {
  const codes = { textbox: 'tbx', searchbox: 'sbx', combobox: 'cmb', spinbutton: 'spn', slider: 'sld', progressbar: 'pbar' };
  for (const [role, code] of Object.entries(codes)) {
    assert.equal(line(node(0, role, '', { value: '42' })), `[e0] ${code} val="42"`);
  }
});

test('val= is not printed for other roles', () => {
  for (const role of ['listitem', 'heading']) {
    assert.ok(!line(node(0, role, 'n', { value: '42' })).includes('val='), role);
  }
  // A button holding a number in a range shows its range, as COMPACT.md's example's "Speaker: 45%" does.
  assert.ok(!line(node(0, 'button', 'n', { value: '42', attributes: { valueMin: 0, valueMax: 100 } })).includes('val='));
});

test('a button that shows a setting, named by its row\'s label, shows it as its value', () => {
  // Poedit's font buttons, named "Sans Regular" by GTK and renamed by their rows' check boxes.
  assert.equal(line(node(0, 'button', 'Use custom UI font:', { value: 'Sans Regular' })), '[e0] btn "Use custom UI font:" val="Sans Regular"');
});

test('a text or live region named apart from its words shows them, unless they repeat the name', () => {
  assert.equal(line(node(0, 'text', 'Log', { value: 'ready' })), '[e0] txt "Log" val="ready"');
  assert.equal(line(node(0, 'status', 'Saved', { value: 'Saved' })), '[e0] sts "Saved"');
});

test('val= is omitted for an empty value', () => {
  assert.equal(line(node(0, 'textbox', 'T', { value: '' })), '[e0] tbx "T"');
});

test('values escape only double quotes: backslashes stay; newlines become spaces', () => {
  assert.equal(line(node(0, 'textbox', '', { value: 'C:\\tmp "q"\nnext' })), '[e0] tbx val="C:\\tmp \\"q\\" next"');
});

test('values longer than 120 code points are cut to 120 and get "..."', () => {
  assert.equal(line(node(0, 'textbox', '', { value: `${'v'.repeat(119)}😀😀` })), `[e0] tbx val="${'v'.repeat(119)}😀..."`);
  assert.equal(line(node(0, 'textbox', '', { value: 'v'.repeat(120) })), `[e0] tbx val="${'v'.repeat(120)}"`);
});

function attrs(attributes: CupAttributes): string {
  return line(node(0, 'group', 'G', { attributes }));
}

test('level is written L<level>', () => {
  assert.equal(attrs({ level: 3 }), '[e0] grp "G" (L3)');
});

test('placeholder keeps its first 30 code points without an ellipsis, quotes escaped, newlines as spaces', () => {
  assert.equal(attrs({ placeholder: 'Search' }), '[e0] grp "G" (ph="Search")');
  assert.equal(attrs({ placeholder: `${'p'.repeat(29)}😀😀` }), `[e0] grp "G" (ph="${'p'.repeat(29)}😀")`);
  assert.equal(attrs({ placeholder: 'say "hi"\nnow \\ ok' }), '[e0] grp "G" (ph="say \\"hi\\" now \\ ok")');
});

test('an empty placeholder is omitted', () => {
  assert.equal(attrs({ placeholder: '' }), '[e0] grp "G"');
});

test('orientation is written as its first letter', () => {
  assert.equal(attrs({ orientation: 'horizontal' }), '[e0] grp "G" (h)');
  assert.equal(attrs({ orientation: 'vertical' }), '[e0] grp "G" (v)');
});

test('range=min..max prints integers without a decimal point and keeps fractions', () => {
  assert.equal(attrs({ valueMin: 0, valueMax: 100 }), '[e0] grp "G" (range=0..100)');
  assert.equal(attrs({ valueMin: -0.5, valueMax: 2.25 }), '[e0] grp "G" (range=-0.5..2.25)');
});

test('range leaves a missing side empty', () => {
  assert.equal(attrs({ valueMax: 10 }), '[e0] grp "G" (range=..10)');
  assert.equal(attrs({ valueMin: 1 }), '[e0] grp "G" (range=1..)');
});

test('attributes appear in the order level, placeholder, orientation, range', () => {
  const attributes: CupAttributes = { valueMax: 9, orientation: 'vertical', placeholder: 'p', level: 2, valueMin: 1 };
  assert.equal(attrs(attributes), '[e0] grp "G" (L2 ph="p" v range=1..9)');
});

test('other attributes print nothing, and no empty parentheses', () => {
  assert.equal(attrs({ valueNow: 5, url: 'https://x', rowIndex: 1 }), '[e0] grp "G"');
});

test('all fields appear in order: id, role, name, bounds, states, actions, value, attributes', () => {
  const subject = node(5, 'combobox', 'City', {
    bounds: box,
    states: ['expanded', 'required'],
    actions: ['focus', 'expand', 'type'],
    value: 'Oslo',
    attributes: { placeholder: 'Pick', valueMin: 1 },
  });
  assert.equal(line(subject), '[e5] cmb "City" 1,2 30x40 {exp,req} [exp,typ] val="Oslo" (ph="Pick" range=1..)');
});

test('a cell shows its value when it is not its name (a spreadsheet cell named by its address)', () => {
  assert.deepEqual(compactBody([node(1, 'cell', 'B2', { value: '42', actions: ['click'], bounds: { x: 1, y: 2, w: 3, h: 4 } })]), ['[e1] cel "B2" 1,2 3x4 [clk] val="42"']);
  assert.deepEqual(compactBody([node(1, 'cell', 'Milk', { value: 'Milk' })]), ['[e1] cel "Milk"']);
});

test('an invalid field says why, as the page tied its message to it, on one line with its quotes escaped', () => {
  const attributes: CupAttributes = { invalid: true, errorMessage: 'Use "OLD" codes\nbefore May' };
  assert.equal(line(node(0, 'textbox', 'Promo', { attributes })), '[e0] tbx "Promo" (invalid err="Use \\"OLD\\" codes before May")');
});
