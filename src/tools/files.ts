import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { ToolError } from '../errors.js';
import { OUR_PNG_CHUNK } from '../image/encode.js';

/** Resolves a caller-given path: "~" is the home directory, relative paths are taken from the caller's directory. */
export function resolveUserPath(path: string, callerDirectory: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(callerDirectory, path);
}

/**
 * Creates a folder and its missing parents, one mkdir each from the top. Not mkdirSync's `recursive`: where the file
 * system answers ENOENT under a parent that exists (procfs: /proc/1/x), Node retries that mkdir for ever, and being
 * synchronous it froze the whole process, every HTTP client and daemon session with it. Here such a folder fails at once.
 */
export function makeFolder(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let folder = resolve(dir); !existsSync(folder); folder = dirname(folder)) {
    missing.push(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, mode === undefined ? {} : { mode });
    } catch (error) {
      // Made meanwhile (another call), or a dangling link: either way the next mkdir, or the caller's use, tells.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!statSync(dir).isDirectory()) throw new Error(`${resolve(dir)} is not a folder`);
}

/**
 * What may stand at the destination already:
 * - "ours": nothing, or a regular file the driver wrote (a PNG carrying OUR_PNG_CHUNK); anything else is refused with
 *   destination_exists, so a caller's own file is never replaced unless asked;
 * - "any": any regular file, or a symbolic link, which is replaced itself (never its target): the caller asked to
 *   overwrite, or the path is the driver's own (its config file, its diff files).
 * A directory, a device, a FIFO or a socket is refused either way.
 */
export type Replace = 'ours' | 'any';

export interface WriteOptions {
  mode?: number;
  replace?: Replace;
  /** The argument the path came from, named in every refusal (e.g. "screenshot_out_file"). */
  field?: string;
}

function startsWithOurMark(path: string): boolean {
  let fd: number | undefined;
  try {
    // O_NONBLOCK and O_NOFOLLOW: the file was seen as regular a moment ago, but nothing may turn this read into a wait or a detour.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(128);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).includes(OUR_PNG_CHUNK);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why the destination may not be written, or undefined. */
function destinationProblem(path: string, replace: Replace): { message: string; code: 'invalid_arguments' | 'destination_exists' } | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // ENOTDIR, ENAMETOOLONG, ELOOP, EACCES: the path itself cannot name a file.
    return { message: `${path} cannot be written: ${(error as Error).message}`, code: 'invalid_arguments' };
  }
  if (stat.isDirectory()) return { message: `${path} is a directory; give a file name`, code: 'invalid_arguments' };
  if (stat.isSymbolicLink()) {
    return replace === 'any' ? undefined : { message: `${path} is a symbolic link; the driver does not write through it (pass overwrite: true to replace the link itself)`, code: 'destination_exists' };
  }
  if (!stat.isFile()) return { message: `${path} is not a regular file (a device, FIFO or socket); the driver writes only regular files`, code: 'invalid_arguments' };
  if (replace === 'any' || startsWithOurMark(path)) return undefined;
  return { message: `${path} already exists and is not a file cup-driver wrote; pass overwrite: true to replace it, or choose another name`, code: 'destination_exists' };
}

/**
 * Writes a file whole or not at all, in the destination's own directory: a temporary file created new (O_EXCL, so
 * a link planted at its name is never followed), written, synced, then renamed over the destination. rename
 * replaces a link at the destination itself, never the file it points to, and a crash midway leaves at most the
 * temporary file, never a half-written destination. Failures are ToolErrors naming `field` and the path.
 */
export function writeFileAtomically(path: string, data: string | Buffer, options: WriteOptions = {}): void {
  const field = options.field ? `${options.field}: ` : '';
  const problem = destinationProblem(path, options.replace ?? 'ours');
  if (problem) throw new ToolError(`${field}${problem.message}`, problem.code, { path });
  const temporary = join(dirname(path), `.${basename(path).slice(0, 100)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    makeFolder(dirname(path));
    fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, options.mode ?? 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    if (error instanceof ToolError) throw error;
    throw new ToolError(`${field}${path} cannot be written: ${(error as Error).message}`, 'invalid_arguments', { path });
  }
}

/**
 * Reads a file a caller pointed at, refusing what is not a regular file of at most maxBytes: opening a FIFO would
 * wait for a writer for ever (O_NONBLOCK opens it at once, and fstat then tells), and a device would never end.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > maxBytes) throw new Error(`${stat.size} bytes; the limit is ${maxBytes}`);
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const count = readSync(fd, data, read, stat.size - read, read);
      if (count === 0) break;
      read += count;
    }
    return data.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * A directory under the temp directory that only this user can use (mode 0700, owned by us, not a link), for files
 * the driver names itself (whole diffs, the CLI's images): in a shared /tmp another user could otherwise create the
 * directory first and choose where the files go.
 */
export function privateTempDirectory(...parts: string[]): string {
  const uid = process.getuid?.() ?? 0;
  const root = join(tmpdir(), `cup-driver-${uid}`);
  makeFolder(root, 0o700);
  const stat = lstatSync(root);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw new ToolError(`${root} is not a private directory of this user (a link, another owner, or open to others); remove it`, 'internal_error');
  }
  const dir = join(root, ...parts);
  makeFolder(dir, 0o700);
  return dir;
}
