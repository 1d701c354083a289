// DISPLAY names: [protocol/]host:N[.S], host/unix:N[.S], :N[.S], unix:N[.S] and an absolute socket path.
import { isIP } from 'node:net';

export type DisplayTransport =
  | { kind: 'unix'; paths: string[] }
  | { kind: 'tcp'; host: string; port: number };

export interface DisplayTarget {
  /** The DISPLAY string as given. */
  name: string;
  displayNumber: number;
  screen: number;
  /** The host named in DISPLAY ('' when none): what Xauthority entries are matched against for TCP. */
  host: string;
  transport: DisplayTransport;
}

const unixProtocols = new Set(['unix', 'local']);
const tcpProtocols = new Set(['tcp', 'inet', 'inet6']);
const hostnamePattern = /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

/** Socket paths for a local display: the filesystem socket, then (Linux) the abstract one. */
export function localSocketPaths(displayNumber: number): string[] {
  const path = `/tmp/.X11-unix/X${displayNumber}`;
  // The filesystem socket is permission-checked, so it goes first; the abstract name still reaches a server
  // whose /tmp is not shared with us (containers, private tmp). Node builds on libuv older than 1.48 (Node 20
  // included) pad abstract names to the full sun_path, so there the fallback is tried but cannot connect.
  return process.platform === 'linux' ? [path, `\0${path}`] : [path];
}

/** Human-readable form of a socket path (abstract sockets start with NUL, shown as '@'). */
export function describeSocketPath(path: string): string {
  return path.startsWith('\0') ? `@${path.slice(1)}` : path;
}

export function parseDisplay(value: string | undefined): DisplayTarget {
  if (value === undefined || value.trim() === '') {
    throw new Error('DISPLAY is not set: set the DISPLAY environment variable (e.g. DISPLAY=:0) or pass a display name');
  }
  const name = value.trim();
  const malformed = (why: string): Error => new Error(`malformed DISPLAY=${JSON.stringify(value)}: ${why}`);

  const colon = name.lastIndexOf(':');
  if (colon < 0) throw malformed('expected [host]:display[.screen]');
  const numbers = /^(\d{1,5})(?:\.(\d{1,3}))?$/.exec(name.slice(colon + 1));
  if (!numbers) throw malformed('the part after the last ":" must be display[.screen], both decimal numbers');
  const displayNumber = Number(numbers[1]);
  const screen = numbers[2] === undefined ? 0 : Number(numbers[2]);
  if (displayNumber > 65535) throw malformed(`display number ${displayNumber} is out of range`);
  const head = name.slice(0, colon);

  if (head.startsWith('/')) {
    // A socket path (as XQuartz's launchd sets), where the whole "path:N" names the socket file.
    return { name, displayNumber, screen, host: '', transport: { kind: 'unix', paths: [`${head}:${displayNumber}`] } };
  }

  let protocol = '';
  let host = head;
  const slash = head.indexOf('/');
  if (slash >= 0) {
    const before = head.slice(0, slash);
    const after = head.slice(slash + 1);
    if (unixProtocols.has(before.toLowerCase()) || tcpProtocols.has(before.toLowerCase())) {
      protocol = before.toLowerCase();
      host = after;
    } else if (after.toLowerCase() === 'unix') {
      protocol = 'unix';
      host = before;
    } else {
      throw malformed(`unknown transport in "${head}" (expected protocol/host or host/unix)`);
    }
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith(':') && isIP(host) === 0) throw malformed('DECnet display names (host::N) are not supported');
  if (host !== '' && host !== 'unix' && isIP(host) === 0 && !hostnamePattern.test(host)) {
    throw malformed(`"${host}" is not a valid host name`);
  }

  if (protocol === '' && (host === '' || host === 'unix')) protocol = 'unix';
  if (protocol === '' || tcpProtocols.has(protocol)) {
    const port = 6000 + displayNumber;
    if (port > 65535) throw malformed(`display number ${displayNumber} gives TCP port ${port}, beyond 65535`);
    return { name, displayNumber, screen, host: host || 'localhost', transport: { kind: 'tcp', host: host || 'localhost', port } };
  }
  return {
    name,
    displayNumber,
    screen,
    host: host === 'unix' ? '' : host,
    transport: { kind: 'unix', paths: localSocketPaths(displayNumber) },
  };
}
