import { closestName } from '../cup/closest-name.js';

/** Bad command-line usage: the CLI prints the message and exits with status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
  /** Every value of a flag that may be given more than once (known.repeated), in order. */
  lists: Map<string, string[]>;
}

/**
 * Splits argv into positionals and --flags. Only flags listed in `valued` take a value (as the next word
 * or after "="); an unknown flag is a usage error so typos do not silently change behaviour.
 */
export function parseArgs(argv: readonly string[], known: { valued?: string[]; boolean?: string[]; repeated?: string[] }): ParsedArgs {
  const repeated = new Set(known.repeated ?? []);
  const valued = new Set([...(known.valued ?? []), ...repeated]);
  const booleans = new Set(known.boolean ?? []);
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--') || word === '--') {
      positional.push(word);
      continue;
    }
    const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (valued.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
      if (repeated.has(name)) lists.set(name, [...(lists.get(name) ?? []), value]);
    } else if (booleans.has(name)) {
      flags.set(name, true);
    } else {
      const all = [...valued, ...booleans].map((flag) => `--${flag}`);
      const guess = closestName(`--${name}`, all);
      throw new UsageError(`unknown option --${name}${guess ? ` (did you mean ${guess}?)` : ''}${all.length ? `; valid options: ${all.join(', ')}` : ''}`);
    }
  }
  return { positional, flags, lists };
}

/**
 * A word where a command or action was expected that is none of them, answered with the nearest known one: "calll"
 * and "daemon statu" were told only to read the help.
 */
export function unknownWord(what: string, word: string | undefined, known: readonly string[], use: string): UsageError {
  if (word === undefined) return new UsageError(`${what} missing; use: ${use}`);
  const guess = closestName(word, known);
  return new UsageError(`unknown ${what} "${word}"; ${guess ? `did you mean "${guess}"? ` : ''}use: ${use}`);
}

/** `--help` or `-h` anywhere among a command's words: every command answers it with its usage, exit 0. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((word) => word === '--help' || word === '-h');
}

export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
