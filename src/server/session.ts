import { homedir } from 'node:os';
import { join } from 'node:path';
import { LinuxDesktop } from '../platform/linux/linux-desktop.js';
import type { ToolContext } from '../tools/context.js';
import { ConfigStore } from '../tools/state/config-store.js';
import { SessionState } from '../tools/state/session-state.js';

/** Where a one-shot CLI call persists configuration so the next call sees it. */
export function persistedConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'cup-driver', 'config.json');
}

export function logToStderr(message: string): void {
  process.stderr.write(`cup-driver: ${message}\n`);
}

/** A tool context for one caller. `persistConfig` makes set_config write the global default (the CLI path). */
export function createContext(options: { session: string; persistConfig: boolean }): ToolContext {
  const configPath = persistedConfigPath();
  const config = new ConfigStore({ readFrom: configPath, writeTo: options.persistConfig ? configPath : undefined });
  return {
    session: options.session,
    desktop: new LinuxDesktop({ autoStartDesktop: true, log: logToStderr }),
    state: new SessionState(config),
    log: logToStderr,
  };
}
