// A regular-expression engine whose running time is linear in the input: patterns compile to an NFA that
// is simulated breadth-first (Thompson / Pike), so no pattern from a caller can make the driver hang the
// way backtracking engines do on "(a+)+$". It supports the common subset: literals, ".", classes,
// \d \w \s (and negations), \b \B, ^ $, groups, "|", and * + ? {n,m} (lazy forms accepted). (?i) at the
// start makes it case-insensitive. Backreferences and lookaround are refused: they cannot run in linear time.

export const MAX_PATTERN_LENGTH = 256;
const MAX_PROGRAM_SIZE = 20_000;
const MAX_COUNTED_REPEAT = 100;
/** Longer subjects are cut: screen text is far shorter, and this bounds the worst case further. */
const MAX_SUBJECT_LENGTH = 100_000;
/**
 * Linear time is still program size x subject length: "(a{1,100}){1,100}$" is 20,000 steps a character, minutes on a
 * 100,000-character value. One compiled regex may take this many steps (instructions visited) over all the texts it
 * is tried on (a call's worth: every node of a tree), about a second, and then fails instead of holding the call.
 */
export const MAX_REGEX_STEPS = 5_000_000;

/** The regex ran out of its step budget (MAX_REGEX_STEPS) on the texts it was tried on. */
export class RegexBudgetError extends Error {
  constructor(readonly source: string) {
    super(`the regex ${JSON.stringify(source)} needs more than ${MAX_REGEX_STEPS} steps on these texts; simplify it (nested counted repeats such as (a{1,100}){1,100} cost their product per character)`);
    this.name = 'RegexBudgetError';
  }
}

export class RegexSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'RegexSyntaxError';
  }
}

type CharTest = (code: number) => boolean;
type Assertion = 'start' | 'end' | 'word' | 'notword';

type Node =
  | { kind: 'char'; test: CharTest }
  | { kind: 'assert'; what: Assertion }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x1680 || c === 0x202f || c === 0x205f;
const not = (test: CharTest): CharTest => (c) => !test(c);

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 };
const CLASS_ESCAPES: Record<string, CharTest> = { d: isDigit, D: not(isDigit), w: isWord, W: not(isWord), s: isSpace, S: not(isSpace) };

class Parser {
  private pos = 0;
  constructor(
    private readonly source: string,
    private readonly foldCase: boolean,
  ) {}

  private fail(message: string, at = this.pos): never {
    throw new RegexSyntaxError(`${message} at offset ${at} of the regex`, at);
  }

  private peek(): string | undefined {
    return this.source[this.pos];
  }

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.source.length) this.fail(`unexpected "${this.peek()}"`);
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified());
    return { kind: 'seq', items };
  }

  private quantified(): Node {
    const start = this.pos;
    let node = this.atom();
    for (;;) {
      const char = this.peek();
      let min: number;
      let max: number;
      if (char === '*') [min, max] = [0, Infinity];
      else if (char === '+') [min, max] = [1, Infinity];
      else if (char === '?') [min, max] = [0, 1];
      else if (char === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.pos))) {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos))!;
        min = Number(match[1]);
        max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
        if (max < min) this.fail('repeat count {n,m} with m < n');
        if (min > MAX_COUNTED_REPEAT || (max !== Infinity && max > MAX_COUNTED_REPEAT)) this.fail(`repeat counts above ${MAX_COUNTED_REPEAT} are not allowed`);
        this.pos += match[0].length - 1;
      } else return node;
      if (node.kind === 'assert') this.fail('nothing to repeat', start);
      this.pos++;
      if (this.peek() === '?') this.pos++;
      node = { kind: 'repeat', node, min, max };
    }
  }

  private atom(): Node {
    const char = this.peek()!;
    const at = this.pos;
    this.pos++;
    switch (char) {
      case '.':
        return { kind: 'char', test: (c) => c !== 10 && c !== 13 };
      case '^':
        return { kind: 'assert', what: 'start' };
      case '$':
        return { kind: 'assert', what: 'end' };
      case '(': {
        if (this.peek() === '?') {
          if (this.source[this.pos + 1] !== ':') this.fail('lookaround, named groups and inline flags other than a leading (?i) are not supported', at);
          this.pos += 2;
        }
        const inner = this.alternation();
        if (this.peek() !== ')') this.fail('missing ")"', at);
        this.pos++;
        return inner;
      }
      case ')':
        return this.fail('unmatched ")"', at);
      case '[':
        return this.characterClass(at);
      case '*':
      case '+':
      case '?':
        return this.fail(`nothing to repeat before "${char}"`, at);
      case '{':
        return this.literal(123);
      case '\\':
        return this.escape(at);
      default:
        return this.literal(char.codePointAt(0)!, char);
    }
  }

  private literal(code: number, char?: string): Node {
    if (char && char.length === 1 && /[\ud800-\udbff]/.test(char)) {
      // A surrogate pair arrives as two UTF-16 units; take the whole code point.
      const full = String.fromCodePoint(this.source.codePointAt(this.pos - 1)!);
      this.pos += full.length - 1;
      code = full.codePointAt(0)!;
    }
    if (!this.foldCase) return { kind: 'char', test: (c) => c === code };
    const lower = foldCode(code);
    return { kind: 'char', test: (c) => c === code || foldCode(c) === lower };
  }

  private escape(at: number): Node {
    const char = this.peek();
    if (char === undefined) this.fail('trailing backslash', at);
    this.pos++;
    if (/[1-9]/.test(char)) this.fail('backreferences are not supported', at);
    if (char === 'b') return { kind: 'assert', what: 'word' };
    if (char === 'B') return { kind: 'assert', what: 'notword' };
    if (Object.hasOwn(CLASS_ESCAPES, char)) return { kind: 'char', test: CLASS_ESCAPES[char]! };
    if (Object.hasOwn(SIMPLE_ESCAPES, char)) return this.literal(SIMPLE_ESCAPES[char]!);
    if (/[a-zA-Z]/.test(char)) this.fail(`unsupported escape \\${char}`, at);
    return this.literal(char.codePointAt(0)!);
  }

  private classMember(): { test?: CharTest; code?: number } {
    const char = this.peek();
    if (char === undefined) this.fail('missing "]"');
    this.pos++;
    if (char !== '\\') {
      const code = this.source.codePointAt(this.pos - 1)!;
      if (code > 0xffff) this.pos++;
      return { code };
    }
    const escaped = this.peek();
    if (escaped === undefined) this.fail('trailing backslash');
    this.pos++;
    if (Object.hasOwn(CLASS_ESCAPES, escaped)) return { test: CLASS_ESCAPES[escaped] };
    if (Object.hasOwn(SIMPLE_ESCAPES, escaped)) return { code: SIMPLE_ESCAPES[escaped] };
    if (escaped === 'b') return { code: 8 };
    if (/[a-zA-Z0-9]/.test(escaped)) this.fail(`unsupported escape \\${escaped} in a class`);
    return { code: escaped.codePointAt(0)! };
  }

  private characterClass(at: number): Node {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const tests: CharTest[] = [];
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.peek() === undefined) this.fail('missing "]"', at);
      first = false;
      const member = this.classMember();
      if (member.test) {
        tests.push(member.test);
        continue;
      }
      let low = member.code!;
      let high = low;
      if (this.peek() === '-' && this.source[this.pos + 1] !== ']' && this.source[this.pos + 1] !== undefined) {
        this.pos++;
        const end = this.classMember();
        if (end.test) this.fail('a class escape cannot end a range');
        high = end.code!;
        if (high < low) this.fail('range out of order in character class');
      }
      const [a, b] = [low, high];
      // Folding both ends and the character covers "[A-Z]" against "m" and "[a-z]" against "M".
      tests.push(this.foldCase ? (c) => (c >= a && c <= b) || (foldCode(c) >= foldCode(a) && foldCode(c) <= foldCode(b)) : (c) => c >= a && c <= b);
    }
    this.pos++;
    const any: CharTest = (c) => tests.some((test) => test(c));
    return { kind: 'char', test: negated ? not(any) : any };
  }
}

function foldCode(code: number): number {
  return String.fromCodePoint(code).toLowerCase().codePointAt(0)!;
}

// Program instructions.
type Instruction =
  | { op: 'char'; test: CharTest }
  | { op: 'assert'; what: Assertion }
  | { op: 'split'; a: number; b: number }
  | { op: 'jmp'; to: number }
  | { op: 'match' };

function compile(node: Node, program: Instruction[]): void {
  if (program.length > MAX_PROGRAM_SIZE) throw new RegexSyntaxError(`the regex expands to more than ${MAX_PROGRAM_SIZE} steps; simplify it`, 0);
  switch (node.kind) {
    case 'char':
      program.push({ op: 'char', test: node.test });
      return;
    case 'assert':
      program.push({ op: 'assert', what: node.what });
      return;
    case 'seq':
      for (const item of node.items) compile(item, program);
      return;
    case 'alt': {
      const jumps: { op: 'jmp'; to: number }[] = [];
      node.options.forEach((option, index) => {
        if (index < node.options.length - 1) {
          const split: Instruction = { op: 'split', a: program.length + 1, b: 0 };
          program.push(split);
          compile(option, program);
          const jump = { op: 'jmp' as const, to: 0 };
          jumps.push(jump);
          program.push(jump);
          split.b = program.length;
        } else {
          compile(option, program);
        }
      });
      for (const jump of jumps) jump.to = program.length;
      return;
    }
    case 'repeat': {
      for (let i = 0; i < node.min; i++) compile(node.node, program);
      if (node.max === Infinity) {
        const split: Instruction = { op: 'split', a: program.length + 1, b: 0 };
        const loop = program.length;
        program.push(split);
        compile(node.node, program);
        program.push({ op: 'jmp', to: loop });
        split.b = program.length;
        return;
      }
      const splits: { op: 'split'; a: number; b: number }[] = [];
      for (let i = node.min; i < node.max; i++) {
        const split = { op: 'split' as const, a: program.length + 1, b: 0 };
        splits.push(split);
        program.push(split);
        compile(node.node, program);
      }
      for (const split of splits) split.b = program.length;
    }
  }
}

export interface SafeRegex {
  source: string;
  test(subject: string): boolean;
}

/** Compiles a pattern, or throws RegexSyntaxError naming the offset of the problem. */
export function compileSafeRegex(pattern: string): SafeRegex {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new RegexSyntaxError(`the regex is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`, MAX_PATTERN_LENGTH);
  const foldCase = pattern.startsWith('(?i)');
  const body = foldCase ? pattern.slice(4) : pattern;
  let ast: Node;
  try {
    ast = new Parser(body, foldCase).parse();
  } catch (error) {
    if (error instanceof RegexSyntaxError && foldCase) throw new RegexSyntaxError(error.message.replace(/offset (\d+)/, (_, n: string) => `offset ${Number(n) + 4}`), error.position + 4);
    throw error;
  }
  const program: Instruction[] = [];
  compile(ast, program);
  program.push({ op: 'match' });
  const budget = { steps: MAX_REGEX_STEPS };
  return {
    source: pattern,
    test: (subject) => {
      const result = run(program, subject, budget);
      if (result === undefined) throw new RegexBudgetError(pattern);
      return result;
    },
  };
}

/** Whether the program matches somewhere in subject; undefined when the budget ran out first. */
function run(program: readonly Instruction[], subject: string, budget: { steps: number }): boolean | undefined {
  const codes: number[] = [];
  for (const char of subject.length > MAX_SUBJECT_LENGTH ? subject.slice(0, MAX_SUBJECT_LENGTH) : subject) codes.push(char.codePointAt(0)!);
  const size = program.length;
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  let currentCount = 0;
  let nextCount = 0;
  // Generation marks per instruction make "already on this list" an O(1) check.
  const seen = new Int32Array(size).fill(-1);
  let generation = 0;
  const stack: number[] = [];

  const add = (list: Int32Array, count: number, start: number, position: number): number | true => {
    stack.push(start);
    while (stack.length) {
      const pc = stack.pop()!;
      budget.steps--;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      const instruction = program[pc]!;
      switch (instruction.op) {
        case 'match':
          stack.length = 0;
          return true;
        case 'jmp':
          stack.push(instruction.to);
          break;
        case 'split':
          stack.push(instruction.b, instruction.a);
          break;
        case 'assert':
          if (holds(instruction.what, codes, position)) stack.push(pc + 1);
          break;
        case 'char':
          list[count++] = pc;
      }
    }
    return count;
  };

  for (let position = 0; position <= codes.length; position++) {
    // Every instruction add() visits and every thread stepped costs one step of the budget.
    budget.steps -= currentCount;
    if (budget.steps < 0) return undefined;
    // Unanchored search: a new thread starts at every position (lowest priority).
    const added = add(current, currentCount, 0, position);
    if (added === true) return true;
    currentCount = added;
    if (position === codes.length) break;
    generation++;
    nextCount = 0;
    const code = codes[position]!;
    for (let i = 0; i < currentCount; i++) {
      const pc = current[i]!;
      const instruction = program[pc] as { op: 'char'; test: CharTest };
      if (instruction.test(code)) {
        const result = add(next, nextCount, pc + 1, position + 1);
        if (result === true) return true;
        nextCount = result;
      }
    }
    [current, next] = [next, current];
    currentCount = nextCount;
  }
  return false;
}

function holds(what: Assertion, codes: readonly number[], position: number): boolean {
  switch (what) {
    case 'start':
      return position === 0;
    case 'end':
      return position === codes.length;
    default: {
      const before = position > 0 && isWord(codes[position - 1]!);
      const after = position < codes.length && isWord(codes[position]!);
      return what === 'word' ? before !== after : before === after;
    }
  }
}
