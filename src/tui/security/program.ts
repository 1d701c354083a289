// Which executable a tui_start command names, and whether the policy allows it and its arguments.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { ToolError } from '../../errors.js';
import type { TerminalPolicy } from './policy.js';

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function searchDirectories(pathVariable: string | undefined): string[] {
  return (pathVariable ?? '').split(delimiter).filter((directory) => isAbsolute(directory));
}

function realDirectory(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The absolute path of an allowed program. A bare name is looked up on the driver's own PATH (never the
 * caller's env), and an absolute path must name an allowed program inside one of those same directories,
 * so a copy or link called "bash" in some other directory is refused.
 */
export function resolveProgram(command: string, policy: TerminalPolicy, pathVariable = process.env.PATH): string {
  const directories = searchDirectories(pathVariable);
  const allowed = [...policy.programs].sort().join(', ');
  if (isAbsolute(command)) {
    const name = basename(command);
    if (!policy.programs.has(name) && !policy.programs.has(command)) {
      throw new ToolError(`command ${JSON.stringify(command)} is not an allowed program (allowed: ${allowed}; policy: ${policy.source})`, 'command_rejected', { bad: command });
    }
    const directory = realDirectory(dirname(command));
    const trusted = policy.programs.has(command) || directories.some((entry) => realDirectory(entry) === directory);
    if (!trusted) {
      throw new ToolError(
        `command ${JSON.stringify(command)} is outside the program search path (${directories.join(':')}); pass the bare name ${JSON.stringify(name)} instead`,
        'command_rejected',
        { bad: command },
      );
    }
    if (!isExecutableFile(command)) throw new ToolError(`command ${JSON.stringify(command)} is not an executable file`, 'spawn_failed', { bad: command });
    return command;
  }
  if (command.includes('/')) {
    throw new ToolError(`command ${JSON.stringify(command)} is a relative path; give a program name such as "bash" or an absolute path`, 'command_rejected', { bad: command });
  }
  if (!policy.programs.has(command)) {
    throw new ToolError(`command ${JSON.stringify(command)} is not an allowed program (allowed: ${allowed}; policy: ${policy.source})`, 'command_rejected', { bad: command });
  }
  for (const directory of directories) {
    const candidate = join(directory, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new ToolError(`program ${JSON.stringify(command)} is allowed but not installed (searched ${directories.join(':')})`, 'spawn_failed', { bad: command });
}

/**
 * Every argument must match the policy's general pattern and the program's own pattern, if it has one;
 * `program` is the file name of the resolved executable, which is what programArguments is keyed by.
 */
export function checkArguments(program: string, args: readonly string[], policy: TerminalPolicy): void {
  const specific = policy.programArguments.get(program);
  args.forEach((arg, index) => {
    const shown = JSON.stringify(arg.length > 80 ? `${arg.slice(0, 77)}...` : arg);
    if (!policy.argumentPattern.test(arg)) {
      throw new ToolError(
        `argument ${index} ${shown} is refused: it must match ${policy.argumentPattern.source} (printable text, at most 4096 characters, unless the policy says otherwise)`,
        'argv_rejected',
        { bad: arg, index },
      );
    }
    if (specific && !specific.test(arg)) {
      throw new ToolError(`argument ${index} ${shown} is refused for ${program}: it must match ${specific.source}`, 'argv_rejected', { bad: arg, index });
    }
  });
}
