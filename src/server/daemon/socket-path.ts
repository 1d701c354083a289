import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { stateDirectory } from '../../platform/linux/desktop/state-dir.js';

/** sockaddr_un holds 108 bytes including the terminating NUL. */
const maxSocketPathBytes = 107;

/**
 * The part of the socket name that tells daemons apart: one daemon per display, because its connections
 * and the apps it launches belong to one display. Without DISPLAY the daemon picks (or starts) the
 * embedded desktop itself, so it is keyed "auto".
 */
export function displayKey(display: string | undefined): string {
  const trimmed = display?.trim();
  if (!trimmed) return 'auto';
  return trimmed.replace(/^:/, '').replace(/[^A-Za-z0-9.-]/g, '_');
}

/** $CUP_DRIVER_SOCKET when set, else daemon-<display key>.sock in the user's state directory. */
export function daemonSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.CUP_DRIVER_SOCKET || join(stateDirectory(env), `daemon-${displayKey(env.DISPLAY)}.sock`);
  checkSocketPathLength(path);
  return path;
}

export function checkSocketPathLength(path: string): void {
  if (Buffer.byteLength(path) > maxSocketPathBytes) {
    throw new Error(
      `the daemon socket path ${path} is ${Buffer.byteLength(path)} bytes, over the ${maxSocketPathBytes}-byte limit of Unix sockets; ` +
        'pass a shorter --socket PATH (or CUP_DRIVER_SOCKET), or set XDG_RUNTIME_DIR to a short directory',
    );
  }
}

/** The daemon's log file (its stderr when started on demand), next to the desktop logs. */
export function daemonLogPath(socketPath: string): string {
  return join(dirname(socketPath), 'logs', `${basename(socketPath).replace(/\.sock$/, '')}.log`);
}

/** The start lock that lets exactly one of several racing daemons bind the socket. */
export function daemonLockName(socketPath: string): string {
  return `${basename(socketPath)}.lock`;
}

/**
 * Makes the socket's directory private (0700, ours) so only this user (and root) can reach the socket.
 * A directory owned by someone else is refused rather than used: they could swap the socket.
 */
export function securePrivateDirectory(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stat = lstatSync(directory);
  if (!stat.isDirectory()) throw new Error(`${directory} is not a directory; the daemon socket needs a private directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new Error(`${directory} belongs to uid ${stat.uid}, not to this user (uid ${uid}); refusing to put the daemon socket there`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(directory, 0o700);
}
