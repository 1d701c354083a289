// How launch_app starts a browser so an agent can work in it: its web content in the accessibility tree, a
// debugging port when asked for, no first-run dialogs or background traffic (a closed network waits on
// those), its own fresh profile that the driver owns and removes when the browser is gone, and Chromium's
// sandbox off only where it cannot run (as root).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isAlive } from '../desktop/processes.js';
import { stateDirectory } from '../desktop/state-dir.js';
import { isFirefoxProgram } from './endpoint.js';

export type BrowserFamily = 'chromium' | 'firefox';

/** What launch_app adds to a browser's start, and what the result reports of it. */
export interface BrowserLaunch {
  family: BrowserFamily | 'electron';
  args: string[];
  env: Record<string, string>;
  /** The fresh profile (user-data-dir) the driver made, removed when the browser exits. */
  profile?: string;
  /** --no-sandbox was added: Chromium refuses to run as root with its sandbox. */
  sandboxDisabled: boolean;
}

const chromiumPrograms = /^(chromium(-browser)?|chrome|google-chrome(-stable|-beta|-unstable)?|brave(-browser)?|msedge|microsoft-edge(-stable|-beta)?|vivaldi(-stable)?|opera)$/;

/** The browser family a program belongs to, by its name (the Exec program of its entry, or the program on PATH). */
export function browserFamily(program: string): BrowserFamily | undefined {
  if (isFirefoxProgram(program)) return 'firefox';
  return chromiumPrograms.test(basename(program)) ? 'chromium' : undefined;
}

/** Chromium's switches for a closed network: no first-run UI, no update, sync, safe-browsing or QUIC traffic. */
const CHROMIUM_QUIET = ['--no-first-run', '--no-default-browser-check', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

/** Firefox's preferences for the same: no first-run pages, telemetry, update checks or captive-portal probes. */
const FIREFOX_PREFS: Record<string, boolean | string | number> = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.auto': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.update.enabled': false,
  'extensions.update.enabled': false,
  // Never switch accessibility off, whatever the platform says: the tree is how the driver sees the page.
  'accessibility.force_disabled': -1,
};

const PROFILE_OWNER = 'cup-driver-owner';

function profilesDirectory(): string {
  const directory = join(stateDirectory(), 'browser-profiles');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  return directory;
}

/** Removes the driver's profiles whose browser is gone (a driver that exited before its browser could not). */
function sweepProfiles(directory: string): void {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    let owner = 0;
    try {
      owner = Number(readFileSync(join(path, PROFILE_OWNER), 'utf8'));
    } catch {
      // No owner yet: a launch in progress (or one whose browser never started): left alone.
    }
    if (owner > 0 && !isAlive(owner)) rmSync(path, { recursive: true, force: true });
  }
}

/** A new profile's path; it is made only when the browser starts (prepareProfile), so a plan not carried out leaves nothing. */
function freshProfile(family: BrowserFamily): string {
  return join(profilesDirectory(), `${family}-${Date.now().toString(36)}${randomBytes(4).toString('hex')}`);
}

function hasOption(args: readonly string[], ...names: string[]): boolean {
  return args.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
}

/**
 * The arguments and environment a browser (or an Electron app asked for a debugging port) starts with.
 * The caller's own options win: a --user-data-dir or --profile given keeps that profile.
 */
export function browserLaunch(program: string, callerArgs: readonly string[], debuggingPort: number | undefined): BrowserLaunch | undefined {
  const family = browserFamily(program) ?? (debuggingPort !== undefined ? 'electron' : undefined);
  if (!family) return undefined;
  const port = debuggingPort !== undefined ? [`--remote-debugging-port=${debuggingPort}`] : [];
  const root = process.getuid?.() === 0;
  if (family === 'firefox') {
    const ownProfile = !hasOption(callerArgs, '--profile', '-profile', '-P', '--P');
    const profile = ownProfile ? freshProfile('firefox') : undefined;
    return {
      family,
      args: [...(profile ? ['--profile', profile, '--no-remote', '--new-instance'] : []), ...port],
      env: { GNOME_ACCESSIBILITY: '1' },
      ...(profile ? { profile } : {}),
      sandboxDisabled: false,
    };
  }
  const sandbox = root && !hasOption(callerArgs, '--no-sandbox') ? ['--no-sandbox'] : [];
  if (family === 'electron') return { family, args: [...port, '--force-renderer-accessibility', ...sandbox], env: {}, sandboxDisabled: sandbox.length > 0 };
  const profile = hasOption(callerArgs, '--user-data-dir') ? undefined : freshProfile('chromium');
  // A fresh profile keeps its secrets in itself: with GNOME's keyring on the machine, Chromium asked it for a new
  // keyring as it started, and the keyring's password prompt stood over the page, which did not load meanwhile.
  const store = profile && !hasOption(callerArgs, '--password-store') ? ['--password-store=basic'] : [];
  return {
    family,
    args: [...(profile ? [`--user-data-dir=${profile}`] : []), ...store, ...CHROMIUM_QUIET, '--force-renderer-accessibility', ...sandbox, ...port],
    env: {},
    ...(profile ? { profile } : {}),
    sandboxDisabled: sandbox.length > 0,
  };
}

/** Makes the launch's fresh profile (Firefox's with its preferences), first removing profiles whose browser is gone. */
export function prepareProfile(launch: BrowserLaunch): void {
  if (!launch.profile) return;
  sweepProfiles(profilesDirectory());
  mkdirSync(launch.profile, { mode: 0o700 });
  if (launch.family === 'firefox') {
    writeFileSync(join(launch.profile, 'user.js'), Object.entries(FIREFOX_PREFS).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`).join(''));
  }
}

/** Marks the profile as the browser's (pid), and removes it once that process has exited. */
export function ownProfile(profile: string, pid: number, exited: Promise<unknown>): void {
  writeFileSync(join(profile, PROFILE_OWNER), String(pid));
  // The browser's helpers may still be writing as the main process goes: removal retries, and a profile left
  // behind anyway is swept at the next launch.
  void exited.then(() => {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch {
      // Swept later.
    }
  });
}
