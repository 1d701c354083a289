// Finding a browser's debugging endpoint from its process: the --remote-debugging-port it was started with
// (in /proc/<pid>/cmdline), or the file the browser writes the port to when it picked one itself
// (port 0, or Chrome's "allow remote debugging" switch): DevToolsActivePort in a Chromium user-data-dir,
// WebDriverBiDiServer.json in a Firefox profile.
import { readFileSync, readlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { PageEndpoint } from '../../browser.js';
import { commandLine, statFields } from '../desktop/processes.js';

/** Chromium-family programs and where each keeps its profiles when no --user-data-dir is given. */
const defaultUserDataDirs: Record<string, string> = {
  chromium: 'chromium',
  'chromium-browser': 'chromium',
  chrome: 'google-chrome',
  'google-chrome': 'google-chrome',
  'google-chrome-stable': 'google-chrome',
  'google-chrome-beta': 'google-chrome-beta',
  brave: 'BraveSoftware/Brave-Browser',
  'brave-browser': 'BraveSoftware/Brave-Browser',
  msedge: 'microsoft-edge',
  'microsoft-edge': 'microsoft-edge',
};

/** Firefox and its builds: they speak WebDriver BiDi on the debugging port, not the DevTools protocol. */
/** The program a process runs, as its command line names it. */
export function processProgram(pid: number): string {
  return processArguments(pid)[0] ?? '';
}

export function isFirefoxProgram(program: string): boolean {
  return /^firefox(-esr|-bin)?$/.test(basename(program));
}

/** The value of a command-line option given as --name=value, --name value, or -name value; '' when given bare. */
function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    for (const prefix of [`--${name}`, `-${name}`]) {
      if (arg === prefix) {
        const next = args[i + 1];
        return next !== undefined && !next.startsWith('-') ? next : '';
      }
      if (arg.startsWith(`${prefix}=`)) return arg.slice(prefix.length + 1);
    }
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The port line of a Chromium user-data-dir's DevToolsActivePort (written once the port is open). */
export function devToolsActivePort(userDataDir: string): number | undefined {
  const port = Number((readText(join(userDataDir, 'DevToolsActivePort')) ?? '').split('\n')[0]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/** The port a Firefox profile's WebDriverBiDiServer.json names (written once the BiDi server listens). */
export function bidiServerPort(profile: string): number | undefined {
  try {
    const port = (JSON.parse(readText(join(profile, 'WebDriverBiDiServer.json')) ?? '') as { ws_port?: unknown }).ws_port;
    return typeof port === 'number' && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

/** A process's working directory, against which its relative paths are taken ('/' when unreadable). */
function processCwd(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '/';
  }
}

/**
 * A process's arguments. Chromium rewrites its command line to set its process title, after which
 * /proc/<pid>/cmdline is one string joined by spaces: split at the spaces then (a path with spaces in it
 * is lost, which the DevToolsActivePort fallback cannot undo either).
 */
function processArguments(pid: number): string[] {
  const args = commandLine(pid);
  return args.length === 1 && args[0]!.includes(' --') ? args[0]!.split(' ').filter(Boolean) : args;
}

/** The endpoint one process's own command line and profile say it has. */
function endpointOfProcess(pid: number): PageEndpoint | undefined {
  const args = processArguments(pid);
  const program = args[0];
  if (!program) return undefined;
  const asked = optionValue(args, 'remote-debugging-port');
  const cmdline = `/proc/${pid}/cmdline`;
  if (isFirefoxProgram(program)) {
    if (asked === undefined) return undefined;
    // Firefox takes the option bare (port 9222) or with a port; 0 lets it pick one, which it writes to the profile.
    const port = asked === '' ? 9222 : Number(asked);
    if (port > 0) return { protocol: 'webdriver-bidi', port, foundIn: `--remote-debugging-port in ${cmdline}` };
    const given = optionValue(args, 'profile');
    const profile = given ? resolve(processCwd(pid), given) : undefined;
    const written = profile ? bidiServerPort(profile) : undefined;
    return written ? { protocol: 'webdriver-bidi', port: written, foundIn: `WebDriverBiDiServer.json in ${profile}` } : undefined;
  }
  const port = asked ? Number(asked) : 0;
  if (port > 0) return { protocol: 'cdp', port, foundIn: `--remote-debugging-port in ${cmdline}` };
  const given = optionValue(args, 'user-data-dir');
  const fallback = defaultUserDataDirs[basename(program)];
  const userDataDir = given ? resolve(processCwd(pid), given) : fallback ? join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), fallback) : undefined;
  // Without the option the file is there only when the user allowed remote debugging in the browser itself.
  const written = userDataDir ? devToolsActivePort(userDataDir) : undefined;
  return written ? { protocol: 'cdp', port: written, foundIn: `DevToolsActivePort in ${userDataDir}` } : undefined;
}

/**
 * The debugging endpoint of the browser a process belongs to: the process itself, else the nearest ancestor
 * that has one (a window may belong to a helper the browser started).
 */
export function findDebuggingEndpoint(pid: number): PageEndpoint | undefined {
  let current: number | undefined = pid;
  for (let depth = 0; current && current > 1 && depth < 8; depth++) {
    const found = endpointOfProcess(current);
    if (found) return found;
    const fields = statFields(current);
    current = fields ? Number(fields[1]) : undefined;
  }
  return undefined;
}
