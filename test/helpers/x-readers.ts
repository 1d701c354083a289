// Independent readers of the X server's state, for judging claims about focus, stacking, the pointer and the
// clipboard: Debian's own X clients (xprop and xwininfo from x11-utils, xdotool, xclip) asked through their command
// lines, so a test never judges the driver's input code by the driver's own X connection.
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { repositoryRoot } from './desktop.js';

function run(env: NodeJS.ProcessEnv, command: string, args: string[], timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message} ${stderr}`.trim()));
      else resolve(stdout);
    });
  });
}

function hexIds(text: string): number[] {
  return [...text.matchAll(/0x[0-9a-f]+/gi)].map((match) => Number.parseInt(match[0], 16));
}

export class XReaders {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The window manager's _NET_ACTIVE_WINDOW as xprop reads it (0 when none). */
  async activeWindow(): Promise<number> {
    return hexIds(await run(this.env, 'xprop', ['-root', '_NET_ACTIVE_WINDOW']))[0] ?? 0;
  }

  /** The window manager's _NET_CLIENT_LIST (the managed client windows) as xprop reads it. */
  async clientList(): Promise<number[]> {
    return hexIds(await run(this.env, 'xprop', ['-root', '_NET_CLIENT_LIST']));
  }

  /** Makes a window the active one as a person's click on it would, through xdotool (waiting until it is). */
  async activate(window: number): Promise<void> {
    await run(this.env, 'xdotool', ['windowactivate', '--sync', String(window)]);
  }

  /** The viewable windows of a process (its popups too, where the toolkit gives them its _NET_WM_PID), as `xdotool search --onlyvisible --pid` finds them. */
  async visibleWindowsOf(pid: number): Promise<number[]> {
    const found = await run(this.env, 'xdotool', ['search', '--onlyvisible', '--pid', String(pid)]).catch(() => '');
    return found.split('\n').filter(Boolean).map(Number);
  }

  /** The ids of the windows whose WM_NAME or _NET_WM_NAME contains `name`, as `xdotool search --name` finds them. */
  async windowsNamed(name: string): Promise<number[]> {
    const found = await run(this.env, 'xdotool', ['search', '--name', name]).catch(() => '');
    return found.split('\n').filter((line) => /^\d+$/.test(line.trim())).map(Number);
  }

  /** The X server's keyboard focus window (XGetInputFocus) as xdotool reads it. */
  async inputFocus(): Promise<number> {
    return Number.parseInt((await run(this.env, 'xdotool', ['getwindowfocus'])).trim(), 10);
  }

  /** The atoms of a window's _NET_WM_STATE by name (e.g. _NET_WM_STATE_HIDDEN), as xprop reads them. */
  async wmState(window: number): Promise<string[]> {
    const text = await run(this.env, 'xprop', ['-id', String(window), '_NET_WM_STATE']);
    return [...text.matchAll(/_NET_WM_STATE_\w+/g)].map((match) => match[0]);
  }

  /** xwininfo's Map State line: IsViewable, IsUnMapped or IsUnviewable. */
  async mapState(window: number): Promise<string> {
    return /Map State: (\w+)/.exec(await run(this.env, 'xwininfo', ['-id', String(window)]))?.[1] ?? 'unknown';
  }

  /**
   * The X server's real stacking order of top-level windows, front-most first, from `xwininfo -root -tree`
   * (which lists the root's children top first). A client window managed by the window manager sits inside
   * its frame, so each client is ranked by the root child that contains it; -1 when it is not on the tree.
   */
  async stackingRank(clients: number[]): Promise<Map<number, number>> {
    const lines = (await this.windowTree()).split('\n');
    const rootChildIndent = lines.map((line) => /^(\s*)0x[0-9a-f]+/i.exec(line)?.[1]?.length).find((indent) => indent !== undefined);
    const ranks = new Map<number, number>(clients.map((client) => [client, -1]));
    let rank = -1;
    for (const line of lines) {
      const match = /^(\s*)(0x[0-9a-f]+)/i.exec(line);
      if (!match) continue;
      if (match[1]!.length === rootChildIndent) rank++;
      const id = Number.parseInt(match[2]!, 16);
      if (ranks.get(id) === -1) ranks.set(id, rank);
    }
    return ranks;
  }

  /**
   * `xwininfo -root -tree`, asked again when a window went away while it walked the tree ("Can't query window
   * tree": a tooltip or a popup of another app closing at that moment); three tries, each bounded.
   */
  private async windowTree(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(this.env, 'xwininfo', ['-root', '-tree']);
      } catch (error) {
        if (attempt >= 3 || !/Can't query window tree/.test((error as Error).message)) throw error;
      }
    }
  }

  /** Which of these client windows the X server has in front of the others. */
  async frontMost(clients: number[]): Promise<number> {
    const ranks = await this.stackingRank(clients);
    const missing = clients.filter((client) => ranks.get(client) === -1);
    if (missing.length > 0) throw new Error(`xwininfo shows no window ${missing.map((id) => `0x${id.toString(16)}`).join(', ')}`);
    return clients.reduce((best, client) => (ranks.get(client)! < ranks.get(best)! ? client : best));
  }

  /** The real pointer's position on the screen, as xdotool reads it. */
  async pointer(): Promise<{ x: number; y: number }> {
    const text = await run(this.env, 'xdotool', ['getmouselocation', '--shell']);
    const x = /^X=(-?\d+)$/m.exec(text)?.[1];
    const y = /^Y=(-?\d+)$/m.exec(text)?.[1];
    if (x === undefined || y === undefined) throw new Error(`xdotool getmouselocation answered ${JSON.stringify(text)}`);
    return { x: Number(x), y: Number(y) };
  }

  /** The CLIPBOARD selection's text as xclip reads it from its owner; '' when nobody owns it or it holds no text. */
  async clipboard(): Promise<string> {
    try {
      return await run(this.env, 'xclip', ['-selection', 'clipboard', '-o']);
    } catch (error) {
      // xclip exits 1 with "target ... not available" when the clipboard is empty; other failures are real.
      if (error instanceof Error && /not available|no owner/i.test(error.message)) return '';
      throw error;
    }
  }

  /** The CLIPBOARD's bytes exactly, as xclip reads them in `target` (default: its text); undefined when xclip finds nothing. */
  clipboardBytes(target?: string): Promise<Buffer | undefined> {
    const args = ['-selection', 'clipboard', '-o', ...(target ? ['-t', target] : [])];
    return new Promise((resolve) => {
      execFile('xclip', args, { env: this.env, timeout: 10_000, encoding: 'buffer', maxBuffer: 64 << 20 }, (error, stdout) => resolve(error ? undefined : stdout));
    });
  }

  /**
   * xclip owning the CLIPBOARD with `data` as `target`; resolves once it does (read back through xclip). It serves
   * until another client takes the clipboard; stop() ends it.
   */
  async ownClipboard(data: Buffer, target = 'UTF8_STRING'): Promise<{ stop(): void }> {
    const child = spawn('xclip', ['-selection', 'clipboard', '-i', '-t', target], { env: this.env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end(data);
    const stop = () => void (child.exitCode === null && child.kill());
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if ((await this.clipboardBytes(target))?.equals(data)) return { stop };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    stop();
    throw new Error('xclip -i did not come to own the clipboard within 10 s');
  }

  /** The mouse buttons the X server has down, as GDK (XInput2) reads them. */
  async buttonsDown(): Promise<number[]> {
    const text = await run(this.env, '/usr/bin/python3', [`${repositoryRoot}/test/fixtures/oracle/pointer_buttons.py`], 15_000);
    return (JSON.parse(text) as { buttons: number[] }).buttons;
  }

  /** A window's client area (absolute position and size) as xwininfo reports it. */
  async geometry(window: number): Promise<{ x: number; y: number; width: number; height: number }> {
    const text = await run(this.env, 'xwininfo', ['-id', String(window)]);
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(text)?.[1]);
    return { x: field('Absolute upper-left X'), y: field('Absolute upper-left Y'), width: field('Width'), height: field('Height') };
  }

  /** The clipboard keepers (detached processes clipboard_write leaves when the driver exits) serving this display, by pid. */
  clipboardKeepers(): number[] {
    const display = this.env.DISPLAY;
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--cup-driver-clipboard-keeper')) return false;
          return readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DISPLAY=${display}`);
        } catch {
          return false;
        }
      })
      .map(Number);
  }
}
