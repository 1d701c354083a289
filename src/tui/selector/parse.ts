// The selector grammar: segments joined by ">>" (each later segment searches inside the matches of the
// one before), each segment a space-separated AND of terms:
//   role=button   name~="ok"   name*="^Co.*l$"   name^=Can   id=list-7-29   value=Ada   text~=error
//   focus (or focused)   selected   disabled   checked   [index=N]
// "=" exact, "~=" case-insensitive substring, "*=" regex (linear-time engine), "^=" prefix.
// Anything that does not parse is an error naming its position; nothing is silently skipped.
// The fields and flags are a vocabulary: the terminal's by default; the desktop tools pass CUP's.
import { compileSafeRegex, RegexSyntaxError, type SafeRegex } from './safe-regex.js';
import { closestName } from '../../cup/closest-name.js';
import { typedSpelling } from '../../cup/text.js';

export const MAX_SELECTOR_LENGTH = 500;

export const SELECTOR_FIELDS = ['role', 'name', 'id', 'value', 'text'] as const;
export type SelectorField = (typeof SELECTOR_FIELDS)[number];
export const SELECTOR_FLAGS = ['focus', 'focused', 'selected', 'disabled', 'checked'] as const;
export type SelectorFlag = 'focused' | 'selected' | 'disabled' | 'checked';

/** The node field a flag word tests: "focus" is another spelling of "focused". */
export function flagField(word: (typeof SELECTOR_FLAGS)[number]): SelectorFlag {
  return word === 'focus' ? 'focused' : word;
}

/** The words a selector may use: its fields, and each flag word with the flag it tests (aliases share one). */
export interface SelectorVocabulary<F extends string, G extends string> {
  fields: readonly F[];
  flags: ReadonlyMap<string, G>;
}

export const TERMINAL_VOCABULARY: SelectorVocabulary<SelectorField, SelectorFlag> = {
  fields: SELECTOR_FIELDS,
  flags: new Map(SELECTOR_FLAGS.map((word) => [word, flagField(word)])),
};

export type Term<F extends string = SelectorField, G extends string = SelectorFlag> =
  | { kind: 'field'; field: F; op: '=' | '~=' | '^='; value: string }
  | { kind: 'regex'; field: F; regex: SafeRegex }
  /** `not`: the flag written `!flag`, which holds where the flag does not. */
  | { kind: 'flag'; flag: G; not?: true }
  | { kind: 'index'; index: number };

export interface Segment<F extends string = SelectorField, G extends string = SelectorFlag> {
  terms: Term<F, G>[];
}

export interface Selector<F extends string = SelectorField, G extends string = SelectorFlag> {
  source: string;
  segments: Segment<F, G>[];
}

export class SelectorSyntaxError extends Error {
  constructor(
    readonly problem: string,
    readonly source: string,
    readonly position: number,
  ) {
    super(`${problem} at position ${position} of selector ${JSON.stringify(source)}`);
    this.name = 'SelectorSyntaxError';
  }
}

class SelectorParser<F extends string, G extends string> {
  private pos = 0;
  private readonly flagWords: string;
  private readonly fieldWords: string;
  constructor(
    private readonly source: string,
    private readonly vocabulary: SelectorVocabulary<F, G>,
  ) {
    this.flagWords = [...vocabulary.flags.keys()].join(', ');
    this.fieldWords = vocabulary.fields.join(', ');
  }

  /** Where the last term's value lay in the source, when it is unquoted free text (see quotingAdvice). */
  private unquoted?: { start: number; end: number };

  private fail(problem: string, at = this.pos): never {
    throw new SelectorSyntaxError(problem, this.source, at);
  }

  private skipSpace(): boolean {
    const start = this.pos;
    while (this.pos < this.source.length && /\s/.test(this.source[this.pos]!)) this.pos++;
    return this.pos > start;
  }

  parse(): Selector<F, G> {
    if (this.source.length > MAX_SELECTOR_LENGTH) this.fail(`selector longer than ${MAX_SELECTOR_LENGTH} characters`, MAX_SELECTOR_LENGTH);
    this.skipSpace();
    if (this.pos >= this.source.length) this.fail('empty selector; write e.g. role=button name~="ok"');
    const segments = [this.segment()];
    while (this.pos < this.source.length) {
      if (!this.source.startsWith('>>', this.pos)) this.fail(`expected ">>" or the end, found ${JSON.stringify(this.source.slice(this.pos, this.pos + 10))}`);
      this.pos += 2;
      this.skipSpace();
      if (this.pos >= this.source.length) this.fail('">>" must be followed by another segment');
      segments.push(this.segment());
    }
    return { source: this.source, segments };
  }

  private segment(): Segment<F, G> {
    const terms: Term<F, G>[] = [];
    for (;;) {
      terms.push(this.term());
      const spaced = this.skipSpace();
      if (this.pos >= this.source.length || this.source.startsWith('>>', this.pos)) break;
      // "[index=N]" may follow a term directly; anything else needs a space in between.
      if (!spaced && this.source[this.pos] !== '[') this.fail(`expected a space between terms, found ${JSON.stringify(this.source[this.pos])}`);
    }
    return { terms };
  }

  /**
   * What a bracketed term other than [index=N] is written as here, for one written as CSS or Playwright write it:
   * `[focused]` and `[name="Save"]` are the bare words `focused` and `name="Save"`.
   */
  private bracketAdvice(): string {
    const inside = /^\[\s*(!?)\s*([A-Za-z]+)\s*(=|~=|\*=|\^=)?/.exec(this.source.slice(this.pos));
    if (!inside) return '';
    const [, not, word, op] = inside as unknown as [string, string, string, string | undefined];
    const fields: readonly string[] = this.vocabulary.fields;
    if (!op && this.vocabulary.flags.has(word)) return `; a flag is a bare word: write ${not}${word}, not [${not}${word}]`;
    if (op && fields.includes(word)) return `; a field is written without brackets: ${word}${op}"..."`;
    return '';
  }

  /** `!flag`: a node without the flag (`role=button !disabled`). Only flags are negated: a field's test has a value. */
  private negatedFlag(): Term<F, G> {
    const start = this.pos;
    this.pos++;
    const word = /^[A-Za-z]+/.exec(this.source.slice(this.pos))?.[0];
    if (!word) this.fail(`expected a flag after "!" (${this.flagWords})`, start);
    this.pos += word.length;
    const flag = this.vocabulary.flags.get(word);
    if (flag === undefined) {
      const fields: readonly string[] = this.vocabulary.fields;
      if (fields.includes(word)) this.fail(`"!" negates flags only (e.g. !disabled), not the field "${word}"`, start);
      this.fail(`unknown flag "${word}" after "!" (flags: ${this.flagWords})`, start);
    }
    return { kind: 'flag', flag, not: true };
  }

  private term(): Term<F, G> {
    const start = this.pos;
    if (this.source[this.pos] === '[') {
      const match = /^\[\s*index\s*=\s*(-?\d{1,6})\s*\]/.exec(this.source.slice(this.pos));
      if (!match) this.fail(`expected [index=N] with an integer N${this.bracketAdvice()}`, start);
      this.pos += match[0].length;
      return { kind: 'index', index: Number(match[1]) };
    }
    if (this.source[this.pos] === '!') return this.negatedFlag();
    const word = /^[A-Za-z]+/.exec(this.source.slice(this.pos))?.[0];
    if (!word) this.fail(`expected a term such as role=button, a flag (${this.flagWords}), !flag or [index=N], found ${JSON.stringify(this.source[this.pos])}`);
    this.pos += word.length;
    const opMatch = /^(=|~=|\*=|\^=)/.exec(this.source.slice(this.pos));
    const fields: readonly string[] = this.vocabulary.fields;
    if (!opMatch) {
      const flag = this.vocabulary.flags.get(word);
      if (flag !== undefined) return { kind: 'flag', flag };
      if (fields.includes(word)) this.fail(`expected an operator (=, ~=, *= or ^=) after "${word}"`);
      const near = closestName(word, [...this.vocabulary.flags.keys()]);
      this.fail(`unknown flag "${word}"${near ? ` (did you mean ${near}?)` : ''} (flags: ${this.flagWords}; fields: ${this.fieldWords})${this.quotingAdvice(start)}`, start);
    }
    // A misspelt field ("nam=Save") or flag ("disabld") is answered with the one it most likely meant, as roles are.
    const guess = fields.includes(word) ? undefined : closestName(word, fields);
    if (!fields.includes(word)) this.fail(`unknown field "${word}"${guess ? ` (did you mean ${guess}?)` : ''} (fields: ${this.fieldWords})`, start);
    const field = word as F;
    const op = opMatch[1] as '=' | '~=' | '*=' | '^=';
    this.pos += op.length;
    const valueStart = this.pos;
    const written = this.value();
    // In its typed spelling, as match.ts spells what it compares with (an en dash and "-" match, as do "Ö" and O + U+0308).
    const value = typedSpelling(written.value);
    // A role or an id is one word; a name, a value or a text often is several (see quotingAdvice).
    const quoted = this.source[valueStart] === '"' || this.source[valueStart] === "'";
    this.unquoted = !quoted && field !== 'role' && field !== 'id' ? { start: valueStart, end: this.pos } : undefined;
    if (op !== '*=') return { kind: 'field', field, op, value };
    try {
      // A regex keeps its backslashes as written, quoted or not: `name*="UTC \d{4}$"` must mean a digit, where
      // unquoting made it "UTC d{4}$" and matched nothing, silently. An escaped quote stays `\"`, a literal quote.
      return { kind: 'regex', field, regex: compileSafeRegex(typedSpelling(written.raw)) };
    } catch (error) {
      if (error instanceof RegexSyntaxError) this.fail(`bad regex for ${field}*=: ${error.message}`, valueStart);
      throw error;
    }
  }

  /** A value: `value` with a quoted one's backslash escapes undone, `raw` as written between its quotes. */
  private value(): { value: string; raw: string } {
    const quote = this.source[this.pos];
    if (quote === '"' || quote === "'") {
      const start = this.pos;
      this.pos++;
      let value = '';
      while (this.pos < this.source.length && this.source[this.pos] !== quote) {
        if (this.source[this.pos] === '\\' && this.pos + 1 < this.source.length) this.pos++;
        value += this.source[this.pos];
        this.pos++;
      }
      if (this.pos >= this.source.length) this.fail(`unterminated ${quote}-quoted value`, start);
      this.pos++;
      return { value, raw: this.source.slice(start + 1, this.pos - 1) };
    }
    const match = /^[^\s[\]"']+/.exec(this.source.slice(this.pos));
    if (!match) this.fail('expected a value (a word or a quoted string)');
    this.pos += match[0].length;
    return { value: match[0], raw: match[0] };
  }

  /**
   * For a word that is no flag right after an unquoted value: the value was likely meant to go on (a name with
   * spaces), and the advice shows it quoted, up to the next term or the end.
   */
  private quotingAdvice(wordStart: number): string {
    const last = this.unquoted;
    if (!last || this.source.slice(last.end, wordStart).trim() !== '') return '';
    const rest = /^[^=~*^>[]*?(?=\s+[A-Za-z]+(?:=|~=|\*=|\^=)|\s*>>|\s*\[|$)/.exec(this.source.slice(last.start))?.[0] ?? '';
    return `; a value with spaces needs quotes, as in ${this.source.slice(0, last.start)}"${rest.trim()}"`;
  }
}

export function parseSelector(source: string): Selector;
export function parseSelector<F extends string, G extends string>(source: string, vocabulary: SelectorVocabulary<F, G>): Selector<F, G>;
export function parseSelector(source: string, vocabulary: SelectorVocabulary<string, string> = TERMINAL_VOCABULARY): Selector<string, string> {
  return new SelectorParser(source, vocabulary).parse();
}
