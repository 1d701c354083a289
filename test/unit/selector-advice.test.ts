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

/** The refusal of `written` says `advice`, and the selector it advises (`fixed`) parses. */
function advises(written: string, advice: string, fixed: string): void {
  const message = refusal(written);
  assert.ok(message.includes(advice), `${written}: ${message}`);
  assert.doesNotThrow(() => parseDesktopSelector(fixed));
}

test('a flag in brackets is refused with the bare word it is written as, which parses', () => {
  advises('role=textbox [focused]', 'a flag is a bare word: write focused, not [focused]', 'role=textbox focused');
  advises('role=button [!disabled]', 'a flag is a bare word: write !disabled, not [!disabled]', 'role=button !disabled');
});

test('a field in brackets is refused with the field written without them', () => {
  advises('role=button [name="Save"]', 'a field is written without brackets: name="..."', 'role=button name="Save"');
});

test('a state written onto the role as a pseudo-class is refused with the two words it is written as', () => {
  advises('role=textbox:focused', 'a state is a word of its own, not part of the role: write role=textbox focused', 'role=textbox focused');
  advises('role=btn:disabled', 'a state is a word of its own, not part of the role: write role=btn disabled', 'role=btn disabled');
  // A role that is no role with no state after it keeps its answer: the closest role.
  assert.match(refusal('role=buton'), /did you mean button/);
});
