import { desktopEnvironment, listDesktops, parseSize, startDesktop, stopDesktop } from '../platform/linux/desktop/virtual-desktop.js';
import { flagValue, parseArgs, UsageError } from './cli-args.js';

/** `cup-driver desktop start|stop|status`: the embedded virtual desktop. Returns the exit status. */
export async function desktopCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ['display', 'size'], boolean: ['json'] });
  const [action, ...extra] = args.positional;
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
      const stopped = await stopDesktop(display);
      process.stderr.write(
        stopped.length === 0 ? 'cup-driver: no virtual desktop to stop\n' : `cup-driver: stopped ${stopped.map((d) => d.display).join(', ')}\n`,
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
      throw new UsageError(`unknown desktop command "${action ?? ''}"; use: desktop start [--display :N] [--size WxH] | desktop stop [--display :N] | desktop status`);
  }
}
