// One program on a real pseudo-terminal (node-pty), with its output decoded as a UTF-8 stream.
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import type * as NodePty from '@lydell/node-pty';
import { ToolError } from '../errors.js';
import { endSession, killSessionNow } from './process-session.js';
import { PROLOGUE } from './side-channel.js';

const require = createRequire(import.meta.url);
let nodePty: typeof NodePty | undefined;

/**
 * node-pty (the @lydell build: upstream node-pty with prebuilt binaries as optional dependencies, so no
 * install script has to compile it) is loaded on the first terminal start, not at import: a machine where
 * its native part is missing or will not load still runs the CLI and every desktop tool, and tui_start
 * says what to do instead of the process failing at start. A failed load is not remembered, so a repair
 * takes effect without a restart.
 */
function loadNodePty(): typeof NodePty {
  if (nodePty) return nodePty;
  try {
    nodePty = require('@lydell/node-pty') as typeof NodePty;
    return nodePty;
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    const platform = `${process.platform}-${process.arch}`;
    throw new ToolError(
      `the terminal driver is unavailable: node-pty could not be loaded (${reason}). Its native part for ${platform} ` +
        `comes in the optional dependency @lydell/node-pty-${platform}: reinstall cup-driver (npm install -g cup-driver) ` +
        `without --omit=optional or --no-optional. Prebuilt binaries exist for linux, darwin and win32 on x64 and arm64 only`,
      'terminal_unavailable',
      { reason, platform },
    );
  }
}

export interface PtySpawnOptions {
  /** Absolute path of the program (already checked against the policy). */
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** The FIFOs of the side channel, opened as fds 3 and 4 before the program starts. */
  framesPath: string;
  commandsPath: string;
}

export interface ExitStatus {
  code: number;
  signal?: number;
}

export interface PtyHandlers {
  output(text: string): void;
  exit(status: ExitStatus): void;
}

export class PtyProcess {
  readonly pid: number;
  private readonly pty: NodePty.IPty;
  // Stream mode keeps a multi-byte character that a read splits in two until its last byte arrives.
  private readonly decoder = new TextDecoder('utf-8');
  private exitStatus?: ExitStatus;
  private readonly exited: Promise<ExitStatus>;

  constructor(options: PtySpawnOptions, handlers: PtyHandlers) {
    this.pty = loadNodePty().spawn('/bin/sh', ['-c', PROLOGUE, 'cup-driver', options.framesPath, options.commandsPath, options.file, ...options.args], {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
      // null hands over raw bytes, so decoding (and split characters) is under this class's control.
      encoding: null,
    });
    this.pid = this.pty.pid;
    this.exited = new Promise((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        const tail = this.decoder.decode();
        if (tail) handlers.output(tail);
        this.exitStatus = signal ? { code: exitCode, signal } : { code: exitCode };
        handlers.exit(this.exitStatus);
        resolve(this.exitStatus);
      });
    });
    this.pty.onData((data) => {
      // With encoding null node-pty delivers Buffers although its typings say string.
      const text = this.decoder.decode(data as unknown as Buffer, { stream: true });
      if (text) handlers.output(text);
    });
  }

  get status(): ExitStatus | undefined {
    return this.exitStatus;
  }

  write(data: string): void {
    if (!this.exitStatus) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.exitStatus) this.pty.resize(cols, rows);
  }

  /** Ends the whole session of the program and waits until the program itself has been reaped. */
  async stop(): Promise<{ survivors: number[]; status?: ExitStatus }> {
    const survivors = await endSession(this.pid);
    const status = await Promise.race([this.exited, delay(3000, undefined, { ref: false })]);
    return { survivors, status };
  }

  /** For process exit: no awaiting possible, so only signals. */
  killNow(): void {
    killSessionNow(this.pid);
  }
}
