// Selector problems as tool errors: the message points at the offending position with a caret.
import { ToolError } from '../../errors.js';
import { parseSelector, SelectorSyntaxError, type Selector } from './parse.js';

export function parseSelectorOrThrow(source: string): Selector {
  try {
    return parseSelector(source);
  } catch (error) {
    if (!(error instanceof SelectorSyntaxError)) throw error;
    const caret = `${' '.repeat(Math.min(error.position, source.length))}^`;
    throw new ToolError(`invalid selector: ${error.problem} at position ${error.position}:\n  ${source}\n  ${caret}`, 'invalid_selector', {
      position: error.position,
      problem: error.problem,
    });
  }
}
