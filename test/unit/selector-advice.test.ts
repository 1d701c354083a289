// Selectors written as CSS or Playwright write them ("role=textbox [focused]", "role=textbox:focused",
// "[name=Save]") were refused with no word of what is written here instead: "expected [index=N] with an integer N",
// and a list of the CUP roles for "textbox:focused". The refusal now says how to write it, and what it says parses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDesktopSelector } from '../../src/tools/perception/desktop-selector.js';

function refusal(source: string): string {
  try {
    parseDesktopSelector(source);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`"${source}" parsed`);
}

test('a flag in brackets is refused with the bare word it is written as, which parses', () => {
  for (const [written, advised] of [
    ['role=textbox [focused]', 'focused'],
    ['role=button [!disabled]', '!disabled'],
  ] as const) {
    const message = refusal(written);
    assert.match(message, new RegExp(`a flag is a bare word: write ${advised}, not \\[${advised}\\]`), message);
    assert.doesNotThrow(() => parseDesktopSelector(written.replace(`[${advised}]`, advised)));
  }
});

test('a field in brackets is refused with the field written without them', () => {
  const message = refusal('role=button [name="Save"]');
  assert.match(message, /a field is written without brackets: name="\.\.\."/, message);
  assert.doesNotThrow(() => parseDesktopSelector('role=button name="Save"'));
});

test('a state written onto the role as a pseudo-class is refused with the two words it is written as', () => {
  for (const [written, advised] of [
    ['role=textbox:focused', 'role=textbox focused'],
    ['role=btn:disabled', 'role=btn disabled'],
  ] as const) {
    const message = refusal(written);
    assert.match(message, new RegExp(`a state is a word of its own, not part of the role: write ${advised}`), message);
    assert.doesNotThrow(() => parseDesktopSelector(advised));
  }
  // A role that is no role with no state after it keeps its answer: the closest role.
  assert.match(refusal('role=buton'), /did you mean button/);
});
