import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessibleSessionEnvironment } from '../../src/platform/linux/desktop/accessible-session.js';
import type { ToolContext } from '../../src/tools/context.js';
import { homeEnvironment, TestDesktop } from './desktop.js';
import { testContext } from './tools.js';

/** A desktop of its own, a tool context on it, and a fresh home for the apps it starts: an ordinary user's first start. */
export interface UserDesktop {
  desktop: TestDesktop;
  context: ToolContext;
  home: string;
  /** The environment apps start with: that home and config, and a session with accessibility on. */
  env(): NodeJS.ProcessEnv;
}

export async function startUserDesktop(homePrefix: string): Promise<UserDesktop> {
  const desktop = await TestDesktop.start();
  const home = mkdtempSync(join(tmpdir(), homePrefix));
  return { desktop, context: testContext(), home, env: () => ({ ...homeEnvironment(home), ...accessibleSessionEnvironment({}) }) };
}

export async function stopUserDesktop(user: UserDesktop | undefined): Promise<void> {
  if (!user) return;
  user.context.desktop.close();
  await user.desktop.stop();
  rmSync(user.home, { recursive: true, force: true });
}
