import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolError } from '../../src/errors.js';
import { parseSelectorOrThrow } from '../../src/tui/selector/errors.js';
import { matchSelector } from '../../src/tui/selector/match.js';
import type { UINode } from '../../src/tui/ui-node.js';

const tree: UINode[] = [
  {
    id: 'screen', role: 'screen', name: 'dialog', children: [
      {
        id: 'dlg', role: 'dialog', name: 'Council vote', children: [
          { id: 'q', role: 'text', name: 'Approve the budget?' },
          {
            id: 'list', role: 'list', name: '', children: [
              { id: 'i0', role: 'listitem', name: 'apple', selected: true },
              { id: 'i1', role: 'listitem', name: 'banana' },
              { id: 'i2', role: 'listitem', name: 'Cherry pie' },
            ],
          },
          { id: 'yes', role: 'button', name: 'Yes', focused: true, text: '< Yes >' },
          { id: 'no', role: 'button', name: 'No', disabled: true },
        ],
      },
      { id: 'field', role: 'textbox', name: '$', value: 'ls -la' },
      { id: 'other', role: 'button', name: 'Help' },
    ],
  },
];

function ids(selector: string): string[] {
  return matchSelector(tree, parseSelectorOrThrow(selector), { textOf: (node) => node.text ?? node.name }).map((node) => node.id);
}

/** The ids of the nodes of a flat list a selector matches, each node's text its name. */
function idsIn(named: readonly UINode[], selector: string): string[] {
  return matchSelector(named, parseSelectorOrThrow(selector), { textOf: (node) => node.name }).map((node) => node.id);
}

test('fields with =, ~=, *= and ^=', () => {
  assert.deepEqual(ids('role=button'), ['yes', 'no', 'other']);
  assert.deepEqual(ids('name="Cherry pie"'), ['i2']);
  assert.deepEqual(ids("name='Cherry pie'"), ['i2']);
  assert.deepEqual(ids('name~=COUNCIL'), ['dlg']);
  assert.deepEqual(ids('name*="^Co.*e$"'), ['dlg']);
  assert.deepEqual(ids('name^=ban'), ['i1']);
  assert.deepEqual(ids('id=field'), ['field']);
  assert.deepEqual(ids('value~=-LA'), ['field']);
  assert.deepEqual(ids('text~="< yes"'), ['yes']);
  assert.deepEqual(ids('name=cherry'), [], 'exact match is case-sensitive');
});

test('flags, AND within a segment, [index=N] and the >> combinator', () => {
  assert.deepEqual(ids('focus'), ['yes']);
  assert.deepEqual(ids('focused'), ['yes']);
  assert.deepEqual(ids('selected'), ['i0']);
  assert.deepEqual(ids('role=button disabled'), ['no']);
  assert.deepEqual(ids('role=listitem [index=1]'), ['i1']);
  assert.deepEqual(ids('role=listitem[index=-1]'), ['i2']);
  assert.deepEqual(ids('role=listitem [index=7]'), []);
  assert.deepEqual(ids('role=dialog >> role=button'), ['yes', 'no']);
  assert.deepEqual(ids('role=dialog >> role=list >> name~=an'), ['i1']);
  assert.deepEqual(ids('role=textbox >> role=button'), []);
});

test('!flag holds where the flag does not: the enabled buttons, the items not selected', () => {
  assert.deepEqual(ids('role=button !disabled'), ['yes', 'other']);
  assert.deepEqual(ids('role=listitem !selected'), ['i1', 'i2']);
  assert.deepEqual(ids('role=dialog >> role=button !focused !disabled'), []);
  assert.deepEqual(ids('!disabled role=button [index=-1]'), ['other']);
});

test('a selector that does not parse completely is an error naming the position, never a wider match', () => {
  const cases: [string, number, RegExp][] = [
    ['role=button name', 16, /operator/],
    ['role=button junk=1', 12, /unknown field "junk" \(fields/],
    ['role=button disabld', 12, /unknown flag "disabld" \(did you mean disabled\?\) \(flags: /],
    ['role=button nam=Save', 12, /unknown field "nam" \(did you mean name\?\) \(fields: /],
    ['role=button shiny', 12, /unknown flag "shiny" \([^)]*\)(?!; a value)/],
    ['name~=Cancel order 2', 13, /unknown flag "order".*a value with spaces needs quotes, as in name~="Cancel order 2"/],
    ['role=button name~=Save as >> role=label', 23, /as in role=button name~="Save as"/],
    ['role=button >>', 14, /followed by another segment/],
    ['name="unterminated', 5, /unterminated/],
    ['role=button [index=x]', 12, /\[index=N\]/],
    ['name*="(a"', 6, /bad regex/],
    ['name*="(?=x)"', 6, /lookaround/],
    ['', 0, /empty selector/],
    ['role=button"x"', 11, /space between terms/],
    ['role=button !shiny', 12, /unknown flag "shiny" after "!"/],
    ['role=button !name=OK', 12, /negates flags only \(e\.g\. !disabled\), not the field "name"/],
    ['role=button !', 12, /expected a flag after "!"/],
  ];
  for (const [selector, position, problem] of cases) {
    assert.throws(
      () => parseSelectorOrThrow(selector),
      (error: unknown) =>
        error instanceof ToolError && error.code === 'invalid_selector' && error.details.position === position && problem.test(error.message) && error.message.includes('^'),
      `${JSON.stringify(selector)} should fail at ${position}`,
    );
  }
});

test('selectors are capped in length', () => {
  assert.throws(() => parseSelectorOrThrow(`name=${'x'.repeat(600)}`), /longer than 500/);
});

test('an accented name matches in either spelling (composed or decomposed), for every operator', () => {
  const decomposed = 'O\u0308ffnen'; // as file names made on macOS are
  const composed = '\u00d6ffnen'; // as agents and keyboards write it
  const named: UINode[] = [
    { id: 'nfd', role: 'button', name: decomposed },
    { id: 'nfc', role: 'button', name: `Datei ${composed}` },
  ];
  const match = (selector: string) => idsIn(named, selector);
  assert.deepEqual(match(`name="${composed}"`), ['nfd']);
  assert.deepEqual(match(`name="Datei ${decomposed}"`), ['nfc']);
  assert.deepEqual(match(`name^=${composed.slice(0, 2)}`), ['nfd']);
  assert.deepEqual(match(`name~=${decomposed.toUpperCase()}`), ['nfd', 'nfc']);
  assert.deepEqual(match(`name*="^${composed}$"`), ['nfd']);
});

test('typographic punctuation matches as typed (dashes, curly quotes, non-breaking spaces, the ellipsis), for every operator', () => {
  // LibreOffice's Save dialog offers "Word 2007–365 (.docx)" (an en dash) and asks "Use Word 2007–365 Format!"; an agent
  // types "-": name^="Use Word 2007-365" matched nothing, and nearest_names offered the same-looking name back.
  const named: UINode[] = [
    { id: 'dash', role: 'button', name: 'Use Word 2007\u2013365 Format!' },
    { id: 'quote', role: 'checkbox', name: 'Don\u2019t split table over \u201cpages\u201d' },
    { id: 'dots', role: 'menuitem', name: 'Save\u00a0As\u2026' },
  ];
  const match = (selector: string) => idsIn(named, selector);
  assert.deepEqual(match('name="Use Word 2007-365 Format!"'), ['dash']);
  assert.deepEqual(match('name^="Use Word 2007-"'), ['dash']);
  assert.deepEqual(match('name*="2007-365"'), ['dash']);
  assert.deepEqual(match(`name="Don't split table over \\"pages\\""`), ['quote']);
  assert.deepEqual(match('name~="save as..."'), ['dots']);
  // Either spelling in the selector: the app's own characters match too.
  assert.deepEqual(match('name="Use Word 2007\u2013365 Format!"'), ['dash']);
  assert.deepEqual(match('name="Save As..."'), ['dots']);
});

test('a time as a file chooser shows it (a left-to-right mark, the ratio sign for a colon) matches as typed', () => {
  const named: UINode[] = [
    { id: 'time', role: 'cell', name: '\u200e07\u223602' },
    { id: 'rtl', role: 'cell', name: '\u2067\u05e9\u05dc\u05d5\u05dd\u2069 report.txt' },
  ];
  const match = (selector: string) => idsIn(named, selector);
  assert.deepEqual(match('name="07:02"'), ['time']);
  assert.deepEqual(match('name^="07:"'), ['time']);
  assert.deepEqual(match('name="\u05e9\u05dc\u05d5\u05dd report.txt"'), ['rtl']);
});

test('a quoted regex keeps its backslash escapes: \\d is a digit, \\. a dot, \\" a quote', () => {
  // watch's `date` line: name*="UTC \d{4}$" read as "UTC d{4}$" once the quotes' escapes were undone, and matched
  // nothing, silently; the same regex unquoted matched. Outside a regex a backslash still escapes what follows it.
  const lines = ['Mon Nov 30 17:58:10 UTC 2026', 'Python 3.11.7', 'UTC dddd', 'say "hi"'].map((name, index): UINode => ({ id: `l${index}`, role: 'text', name }));
  const cases: [string, string[]][] = [
    ['name*="UTC \\d{4}$"', ['l0']],
    ["name*='\\d\\d:\\d\\d:\\d\\d'", ['l0']],
    ['name*="3\\.11\\.\\d"', ['l1']],
    ['name*="\\"hi\\"$"', ['l3']],
    ['name="say \\"hi\\""', ['l3']],
  ];
  for (const [selector, expected] of cases) assert.deepEqual(idsIn(lines, selector), expected, selector);
});
