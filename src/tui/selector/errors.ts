// Selector problems as tool errors: the message points at the offending position with a caret.
import { ToolError } from '../../errors.js';
import { parseSelector, SelectorSyntaxError, TERMINAL_VOCABULARY, type Selector, type SelectorVocabulary } from './parse.js';

export function parseSelectorOrThrow(source: string): Selector;
export function parseSelectorOrThrow<F extends string, G extends string>(source: string, vocabulary: SelectorVocabulary<F, G>): Selector<F, G>;
export function parseSelectorOrThrow(source: string, vocabulary: SelectorVocabulary<string, string> = TERMINAL_VOCABULARY): Selector<string, string> {
  try {
    return parseSelector(source, vocabulary);
  } catch (error) {
    if (!(error instanceof SelectorSyntaxError)) throw error;
    const caret = `${' '.repeat(Math.min(error.position, source.length))}^`;
    throw new ToolError(`invalid selector: ${error.problem} at position ${error.position}:\n  ${source}\n  ${caret}`, 'invalid_selector', {
      position: error.position,
      problem: error.problem,
    });
  }
}
