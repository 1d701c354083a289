import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before } from 'node:test';
import type { LinuxToolContext } from '../../src/server/session.js';
import { TestDesktop } from './desktop.js';
import { PyatspiOracle } from './oracle.js';
import { testContext } from './tools.js';

/** A suite's own desktop, the tools' context on it and pyatspi as the judge, there from its before hook to its after. */
export interface DesktopRig {
  desktop: TestDesktop;
  context: LinuxToolContext;
  oracle: PyatspiOracle;
}

/** Starts the rig before the suite's tests and stops it after them; a suite's after hooks registered earlier run first. */
export function desktopRig(): DesktopRig {
  const rig = {} as DesktopRig;
  before(async () => {
    rig.desktop = await TestDesktop.start();
    rig.context = testContext();
    rig.oracle = new PyatspiOracle(rig.desktop.env());
  });
  after(async () => {
    rig.oracle?.close();
    rig.context?.desktop.close();
    await rig.desktop?.stop();
  });
  return rig;
}

const execFileAsync = promisify(execFile);

/** Runs an X client (xdotool, xprop) on the rig's desktop, as an oracle: what it printed, or '' when it failed. */
export function xClient(rig: DesktopRig): (command: string, args: string[]) => Promise<string> {
  return (command, args) => execFileAsync(command, args, { env: rig.desktop.env(), timeout: 10_000 }).then(({ stdout }) => stdout, () => '');
}
