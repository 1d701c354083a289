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

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolves a program by absolute path or on PATH, or throws MissingPackageError. */
export function requireProgram(program: string, debianPackage: string): string {
  if (program.includes('/')) {
    if (isExecutable(program)) return program;
    throw new MissingPackageError(program, debianPackage);
  }
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  throw new MissingPackageError(program, debianPackage);
}
