// The working directory of a terminal program, resolved through every symlink before it is compared, so
// a link inside an allowed root that points elsewhere cannot smuggle the program out.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ToolError } from '../../errors.js';
import type { TerminalPolicy } from './policy.js';

function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export function resolveWorkingDirectory(cwd: string | undefined, policy: TerminalPolicy, base = process.cwd()): string {
  if (cwd === undefined) return policy.cwdRoots[0]!;
  const requested = resolve(base, cwd);
  let real: string;
  try {
    real = realpathSync(requested);
  } catch {
    throw new ToolError(`cwd ${JSON.stringify(cwd)} does not exist`, 'cwd_rejected', { reason: 'missing', cwd });
  }
  if (!statSync(real).isDirectory()) throw new ToolError(`cwd ${JSON.stringify(cwd)} is not a directory`, 'cwd_rejected', { reason: 'not_a_directory', cwd });
  if (!policy.cwdRoots.some((root) => isWithin(real, root))) {
    const via = real === requested ? '' : ` (it resolves to ${real})`;
    throw new ToolError(
      `cwd ${JSON.stringify(cwd)}${via} is outside the allowed roots: ${policy.cwdRoots.join(', ')}`,
      'cwd_rejected',
      { reason: 'outside_roots', cwd, resolved: real },
    );
  }
  return real;
}
