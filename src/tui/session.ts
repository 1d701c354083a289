// One terminal program with everything the tools read from it: the emulator's screen, the structure
// built from it (or the program's own frames), the event ring and change notifications for waits.
import { ToolError } from '../errors.js';
import { TerminalEmulator, type OutputMark } from './emulator.js';
import { EventRing } from './events.js';
import type { CellGrid } from './grid.js';
import { parseProgramMessage, type ProgramFrame } from './liveframe.js';
import { PtyProcess, type ExitStatus } from './pty-process.js';
import { COMMANDS_FD, FRAMES_FD, MAX_LINE_BYTES, SideChannel } from './side-channel.js';
import { buildStructure } from './structure/index.js';
import { LIVEFRAME_PROTOCOL, type LiveFrame } from './ui-node.js';

export interface LaunchSpec {
  /** The command as the caller wrote it. */
  command: string;
  /** Its resolved absolute path. */
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

/** The screen and its structure at one seq. */
export interface ScreenState {
  seq: number;
  grid: CellGrid;
  /** Built from this seq's grid and program frame on first read. */
  readonly frame: LiveFrame;
  title: string;
  alternateScreen: boolean;
}

const SCROLLBACK_LINES = 5000;

/** Variables every program gets from the driver (they override the caller's). */
export function driverVariables(): Record<string, string> {
  return {
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    CUP_LIVEFRAME_FD: String(FRAMES_FD),
    CUP_LIVEFRAME_IN_FD: String(COMMANDS_FD),
    CUP_LIVEFRAME_PROTOCOL: LIVEFRAME_PROTOCOL,
  };
}

/**
 * The heuristics cost more than reading the cells, and many readers (waits for text, idleness or exit,
 * tui_render_text, tui_screenshot) never look at the structure, so it is built on first read of `frame`.
 * A class rather than an object literal with a getter: that made every snapshot measurably slower.
 */
class ScreenAtSeq implements ScreenState {
  private built?: LiveFrame;

  constructor(
    readonly seq: number,
    readonly grid: CellGrid,
    readonly title: string,
    readonly alternateScreen: boolean,
    /** The program's own frame at this seq, which wins over the heuristics. */
    private readonly programFrame: ProgramFrame | undefined,
    private readonly rootName: string,
  ) {}

  get frame(): LiveFrame {
    if (!this.built) {
      const { seq, programFrame } = this;
      if (programFrame) {
        this.built = { protocol: LIVEFRAME_PROTOCOL, seq, source: 'program', focus: programFrame.focus, nodes: programFrame.nodes };
      } else {
        const built = buildStructure(this.grid, { title: this.rootName });
        this.built = { protocol: LIVEFRAME_PROTOCOL, seq, source: 'screen', focus: built.focus, nodes: built.nodes };
      }
    }
    return this.built;
  }
}

export class TerminalSession {
  readonly events = new EventRing();
  private readonly emulator: TerminalEmulator;
  private readonly channel: SideChannel;
  private readonly process: PtyProcess;
  private readonly listeners = new Set<() => void>();
  private seqCounter = 0;
  private cached?: ScreenState;
  private programFrame?: ProgramFrame;
  private stopping?: Promise<number[]>;
  private disposed = false;
  /** performance.now() of the last output from the program. */
  lastOutputAt = performance.now();
  /** Where the cursor stood when input was last sent (rowsSinceInput). */
  private inputMark?: OutputMark;

  constructor(
    readonly name: string,
    readonly spec: LaunchSpec,
  ) {
    this.emulator = new TerminalEmulator(spec.cols, spec.rows, SCROLLBACK_LINES, {
      reply: (data) => this.process?.write(data),
      parsed: () => this.changed(),
      bell: () => this.events.push('bell', {}),
      title: (title) => this.events.push('title', { title }),
    });
    try {
      this.channel = new SideChannel({
        line: (text) => this.receiveProgramLine(text),
        oversize: (bytes) => this.events.push('protocol_error', { error: `a side-channel line of ${bytes} bytes exceeds the ${MAX_LINE_BYTES}-byte limit and was dropped` }),
      });
    } catch (error) {
      this.emulator.dispose();
      throw new ToolError(`could not create the LiveFrame side channel: ${(error as Error).message}`, 'spawn_failed', { message: (error as Error).message });
    }
    try {
      this.process = new PtyProcess(
        { ...spec, framesPath: this.channel.framesPath, commandsPath: this.channel.commandsPath },
        {
          output: (text) => {
            if (this.disposed) return;
            this.lastOutputAt = performance.now();
            this.events.push('output', { text });
            this.emulator.write(text);
          },
          exit: (status) => {
            this.events.push('exit', { ...status });
            this.changed();
          },
        },
      );
    } catch (error) {
      this.channel.close();
      this.emulator.dispose();
      // terminal_unavailable (node-pty missing) keeps its own code: the fix is an install, not the command.
      if (error instanceof ToolError) throw error;
      throw new ToolError(`could not start ${spec.command}: ${(error as Error).message}`, 'spawn_failed', { message: (error as Error).message });
    }
  }

  get pid(): number {
    return this.process.pid;
  }

  get exitStatus(): ExitStatus | undefined {
    return this.process.status;
  }

  get seq(): number {
    return this.seqCounter;
  }

  get cols(): number {
    return this.emulator.cols;
  }

  get rows(): number {
    return this.emulator.rows;
  }

  get applicationCursorKeys(): boolean {
    return this.emulator.applicationCursorKeys;
  }

  get mouse(): { reporting: boolean; sgr: boolean } {
    return { reporting: this.emulator.modes.mouseReporting, sgr: this.emulator.modes.sgrMouse };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.seqCounter++;
    for (const listener of [...this.listeners]) listener();
  }

  private receiveProgramLine(text: string): void {
    const message = parseProgramMessage(text);
    switch (message.type) {
      case 'error':
        this.events.push('protocol_error', { error: message.error });
        return;
      case 'event':
        this.events.push('program', { name: message.name, data: message.data });
        return;
      case 'clear':
        this.programFrame = undefined;
        this.events.push('frame', { cleared: true });
        this.changed();
        return;
      case 'frame':
        this.programFrame = message.frame;
        this.events.push('frame', { nodes: message.nodeCount, focus: message.frame.focus });
        this.changed();
    }
  }

  /** Everything the program has written so far, parsed. */
  async settled(): Promise<void> {
    await this.emulator.flushed();
  }

  /** The state once everything the program has written so far is parsed. */
  async settledState(): Promise<ScreenState> {
    await this.settled();
    return this.state();
  }

  /** The current screen and structure, read again only when something changed since the last call. */
  state(): ScreenState {
    // After stop the emulator is gone; the last screen stays readable for late readers.
    if (this.cached && (this.cached.seq === this.seqCounter || this.disposed)) return this.cached;
    return this.readState();
  }

  /** Reads the screen again even if nothing changed, for benchmarks of what a snapshot costs (the structure is built when `frame` is first read). */
  rebuildState(): ScreenState {
    return this.disposed ? this.state() : this.readState();
  }

  private readState(): ScreenState {
    const { title } = this.emulator;
    this.cached = new ScreenAtSeq(this.seqCounter, this.emulator.readGrid(), title, this.emulator.alternateScreen, this.programFrame, title || this.spec.command);
    return this.cached;
  }

  scrollback(count: number): string[] {
    return this.emulator.scrollback(count);
  }

  /** Sends bytes to the program as if typed on its terminal. */
  write(data: string): void {
    if (this.process.status) {
      throw new ToolError(`the program in session "${this.name}" has exited (code ${this.process.status.code}); start it again with tui_start`, 'exited', { ...this.process.status });
    }
    this.inputMark?.dispose();
    this.inputMark = this.emulator.markCursor();
    this.process.write(data);
  }

  /**
   * The rows the program printed on after the last input sent to it, from where the cursor stood then to the end of
   * the screen, blanks kept (see TerminalEmulator.rowsAfter); the whole screen before any input.
   */
  rowsSinceInput(): string[] {
    return this.emulator.rowsAfter(this.inputMark);
  }

  /** Asks a program that speaks the LiveFrame protocol to focus a node. */
  sendCommand(command: Record<string, unknown>): boolean {
    return this.channel.send(command);
  }

  resize(cols: number, rows: number): void {
    this.emulator.resize(cols, rows);
    this.process.resize(cols, rows);
    this.events.push('resize', { cols, rows });
    this.changed();
  }

  /**
   * Ends the program's whole session, reaps it and frees the emulator; safe to call more than once.
   * Resolves to the pids that outlived even SIGKILL (normally none).
   */
  stop(): Promise<number[]> {
    this.stopping ??= (async () => {
      try {
        return (await this.process.stop()).survivors;
      } finally {
        // Keep the final screen for readers that arrive after the emulator is gone.
        this.readState();
        this.channel.close();
        this.emulator.dispose();
        this.disposed = true;
        this.listeners.clear();
      }
    })();
    return this.stopping;
  }

  killNow(): void {
    this.process.killNow();
  }
}
