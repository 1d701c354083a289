import { ToolError } from '../errors.js';
import {
  desktopEnvironment,
  desktopNamedBy,
  listDesktops,
  parseSize,
  startDesktop,
  stopAllDesktops,
  stopDesktop,
  type DesktopState,
  type DesktopStatus,
} from '../platform/linux/desktop/virtual-desktop.js';
import { flagValue, parseArgs, unknownWord, UsageError } from './cli-args.js';
import { daemonsServing, stopDaemon } from './daemon/display-daemons.js';

const desktopUsage = 'desktop start [--display :N] [--size WxH] | desktop stop [--display :N | --all] | desktop status [--json]';

const desktopHelp = `usage:
  cup-driver desktop start [--display :N] [--size WxH]
      starts Xvfb, a session bus, openbox and accessibility; prints export lines for DISPLAY and the bus
  cup-driver desktop stop                 stops the desktop DISPLAY names, when cup-driver started it
  cup-driver desktop stop --display :N    stops that desktop of cup-driver's
  cup-driver desktop stop --all           stops every desktop cup-driver started for this user
  cup-driver desktop status [--json]      the desktops cup-driver started, running or dead
Displays started by anything else are never stopped. The daemons serving a desktop are stopped before it.
`;

function describeDesktops(desktops: readonly DesktopStatus[]): string {
  if (desktops.length === 0) return 'cup-driver has no virtual desktop running';
  return `cup-driver's desktops: ${desktops.map((desktop) => `${desktop.display} (${desktop.alive ? 'running' : 'dead'})`).join(', ')}`;
}

/**
 * Stops the daemons serving a desktop of ours before the desktop goes: one left running would go on reporting
 * the display, and its next call would start the desktop again (it restarts a desktop of ours whose X server died).
 */
async function stopDaemonsOf(display: string): Promise<void> {
  for (const daemon of await daemonsServing(display)) {
    await stopDaemon(daemon);
    process.stderr.write(`cup-driver: stopped the daemon (pid ${daemon.pid}) serving ${display} on ${daemon.socket}\n`);
  }
}

/**
 * Which desktops `desktop stop` stops: the named one, all of ours with --all, else the one DISPLAY names when
 * we started it. Anything else is refused rather than guessed: a bare `stop` once stopped every desktop the
 * user ever started, those other shells and programs were using included.
 */
async function stopChosenDesktops(display: string | undefined, all: boolean): Promise<DesktopState[]> {
  if (all && display !== undefined) throw new UsageError('pass either --display :N or --all, not both');
  const desktops = listDesktops();
  if (all) {
    for (const desktop of desktops) await stopDaemonsOf(desktop.display);
    return stopAllDesktops();
  }
  const chosen = display ?? desktopNamedBy(process.env.DISPLAY, desktops)?.display;
  if (chosen !== undefined) {
    // A display that is not ours is refused by stopDesktop; its daemons are none of this command's business.
    if (desktops.some((desktop) => desktop.display === chosen)) await stopDaemonsOf(chosen);
    return [await stopDesktop(chosen)];
  }
  if (desktops.length === 0) return [];
  const why = process.env.DISPLAY ? `DISPLAY=${process.env.DISPLAY} is not a desktop cup-driver started` : 'DISPLAY is not set';
  throw new ToolError(`${why}, so nothing was stopped; ${describeDesktops(desktops)}; pass --display :N for one or --all for every one of them`, 'desktop_not_chosen', {
    desktops: desktops.map((desktop) => ({ display: desktop.display, alive: desktop.alive })),
  });
}

/** `cup-driver desktop start|stop|status`: the embedded virtual desktop. Returns the exit status. */
export async function desktopCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ['display', 'size'], boolean: ['json', 'all', 'help'] });
  const [action, ...extra] = args.positional;
  if (args.flags.has('help') || action === 'help') {
    process.stdout.write(desktopHelp);
    return 0;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const display = flagValue(args, 'display');
  if (display !== undefined && !/^:\d+$/.test(display)) throw new UsageError(`--display must look like :99, got "${display}"`);
  switch (action) {
    case 'start': {
      let size: { width: number; height: number } | undefined;
      try {
        size = parseSize(flagValue(args, 'size') ?? '1280x800');
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const state = await startDesktop({ display, ...size });
      for (const [name, value] of Object.entries(desktopEnvironment(state))) process.stdout.write(`export ${name}='${value}'\n`);
      process.stderr.write(`cup-driver: virtual desktop ${state.display} (${state.width}x${state.height}) is running; logs in ${state.logDir}\n`);
      return 0;
    }
    case 'stop': {
      const stopped = await stopChosenDesktops(display, args.flags.has('all'));
      process.stderr.write(
        stopped.length === 0 ? 'cup-driver: no virtual desktop started by cup-driver; nothing stopped\n' : `cup-driver: stopped ${stopped.map((d) => d.display).join(', ')}\n`,
      );
      return 0;
    }
    case 'status': {
      const desktops = listDesktops().filter((desktop) => display === undefined || desktop.display === display);
      if (args.flags.has('json')) {
        process.stdout.write(`${JSON.stringify(desktops, null, 2)}\n`);
      } else if (desktops.length === 0) {
        process.stdout.write('no virtual desktop started by cup-driver\n');
      } else {
        for (const desktop of desktops) {
          process.stdout.write(
            `${desktop.display} ${desktop.width}x${desktop.height} ${desktop.alive ? 'running' : 'dead'} since ${desktop.startedAt} ` +
              `DBUS_SESSION_BUS_ADDRESS=${desktop.sessionBusAddress}\n`,
          );
        }
      }
      return 0;
    }
    default:
      throw unknownWord('desktop command', action, ['start', 'stop', 'status'], desktopUsage);
  }
}
