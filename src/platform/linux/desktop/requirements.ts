import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program the driver needs is not installed; names the Debian package and the command that installs it. */
export class MissingPackageError extends Error {
  constructor(
    readonly program: string,
    readonly debianPackage: string,
  ) {
    super(
      `${program} is not installed; it comes with the Debian package "${debianPackage}": ` +
        `run \`sudo apt-get install -y ${debianPackage}\` (or \`npm run setup\` as root)`,
    );
    this.name = 'MissingPackageError';
  }
}

/** Whether this process may use the path in the given way (constants.X_OK, W_OK, ...). */
export function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  return canAccess(path, constants.X_OK);
}

/** A program by absolute path or on PATH, resolved to its path; undefined when there is no such executable. */
export function findProgram(program: string): string | undefined {
  if (program.includes('/')) return isExecutable(program) ? program : undefined;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Resolves a program by absolute path or on PATH, or throws MissingPackageError. */
export function requireProgram(program: string, debianPackage: string): string {
  const found = findProgram(program);
  if (found === undefined) throw new MissingPackageError(program, debianPackage);
  return found;
}
