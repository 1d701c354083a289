// What tui_start may launch. Read from a file when the session manager is created; no tool can change it.
import { readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { z } from 'zod';
import { ToolError } from '../../errors.js';

// A program is in when everything it can start stays in the terminal's session (so tui_stop ends it) and it
// acts with the caller's own rights on the caller's files. Shell escapes (`!` in less, vim, mc, ranger,
// tig, w3m; `b` in ncdu) are allowed for that reason: the shells themselves are in the list, so an escape
// reaches nothing a shell does not. docs/terminal-driver.md has the table of what each can start.
export const DEFAULT_PROGRAMS = [
  'sh', 'bash', 'dash', 'zsh', 'fish', 'python3', 'node', 'vim', 'vi', 'nvim', 'nano', 'less', 'more',
  'top', 'htop', 'mc', 'dialog', 'whiptail', 'man', 'watch', 'ncdu', 'tig', 'ranger', 'w3m',
] as const;
// Not tmux or screen: their servers leave the terminal's session, so tui_stop could not end them; nor
// calcurse, whose notification daemon (daemon.enable, a setting the program itself can change) forks out
// of the session when it quits. Not aptitude, nmtui or alsamixer: they change the whole machine (its
// packages, its network connections, a sound card every user shares), which the policy file must ask for.

/** Printable text only and of sane length: control characters in an argument are never needed and can smuggle terminal escapes. */
const DEFAULT_ARGUMENT_PATTERN = '^[^\\u0000-\\u001f\\u007f]{0,4096}$';

export interface TerminalPolicy {
  programs: ReadonlySet<string>;
  argumentPattern: RegExp;
  /** Extra pattern every argument of one program must match, keyed by program name. */
  programArguments: ReadonlyMap<string, RegExp>;
  /** Real paths under which a working directory may lie. */
  cwdRoots: readonly string[];
  /** Where the policy came from, for error messages. */
  source: string;
}

const policyFile = z.strictObject({
  programs: z.array(z.string().min(1)).optional(),
  extraPrograms: z.array(z.string().min(1)).optional(),
  argumentPattern: z.string().optional(),
  programArguments: z.record(z.string(), z.string()).optional(),
  cwdRoots: z.array(z.string().min(1)).optional(),
  extraCwdRoots: z.array(z.string().min(1)).optional(),
});
export type PolicyFile = z.infer<typeof policyFile>;

function compile(pattern: string, where: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch (error) {
    throw new ToolError(`${where}: invalid regular expression ${JSON.stringify(pattern)} (${(error as Error).message})`, 'policy_invalid');
  }
}

function realRoot(path: string, where: string): string {
  try {
    return realpathSync(path);
  } catch {
    throw new ToolError(`${where}: the cwd root ${JSON.stringify(path)} does not exist`, 'policy_invalid');
  }
}

/** The policy from parsed file contents (or none), with the driver's start directory and the temp dir as default roots. */
export function buildPolicy(file: PolicyFile | undefined, startDirectory: string, source: string): TerminalPolicy {
  const programs = new Set<string>(file?.programs ?? DEFAULT_PROGRAMS);
  for (const extra of file?.extraPrograms ?? []) programs.add(extra);
  const roots = [...(file?.cwdRoots ?? [startDirectory, tmpdir()]), ...(file?.extraCwdRoots ?? [])];
  return {
    programs,
    argumentPattern: compile(file?.argumentPattern ?? DEFAULT_ARGUMENT_PATTERN, `${source} argumentPattern`),
    programArguments: new Map(
      Object.entries(file?.programArguments ?? {}).map(([program, pattern]) => [program, compile(pattern, `${source} programArguments.${program}`)]),
    ),
    cwdRoots: [...new Set(roots.map((root) => realRoot(root, source)))],
    source,
  };
}

/**
 * Loads the policy file when it exists. A file that exists but is broken refuses every start (fail closed)
 * with a message naming the file and the problem, instead of silently falling back to the defaults.
 */
export interface LoadedPolicyFile {
  file: PolicyFile | undefined;
  source: string;
}

/** Reads and checks the policy file (read once per driver process: the policy cannot change at run time). */
export function loadPolicyFile(path: string): LoadedPolicyFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file: undefined, source: 'the default terminal policy' };
    throw new ToolError(`cannot read the terminal policy ${path}: ${(error as Error).message}`, 'policy_invalid');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ToolError(`the terminal policy ${path} is not valid JSON (${(error as Error).message})`, 'policy_invalid');
  }
  const parsed = policyFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`).join('; ');
    throw new ToolError(
      `the terminal policy ${path} is invalid: ${problems}; valid keys: programs, extraPrograms, argumentPattern, programArguments, cwdRoots, extraCwdRoots`,
      'policy_invalid',
    );
  }
  return { file: parsed.data, source: path };
}
