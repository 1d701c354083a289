// The terminal emulator state: @xterm/headless parses what the program writes, and this wrapper adds what
// a headless emulator leaves out (answers to colour queries, cursor visibility, mouse encoding) and reads
// the screen into a CellGrid.
import unicode11 from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import type { IBufferCell, IBufferLine, IMarker, Terminal as XtermTerminal } from '@xterm/headless';
import { Attr, DEFAULT_BACKGROUND, DEFAULT_COLOR, DEFAULT_FOREGROUND, RGB_FLAG, type CellGrid, type Rgb } from './grid.js';

// The package is CommonJS with exports Node cannot detect statically, so named imports fail at run time.
const { Terminal } = xtermHeadless;
const { Unicode11Addon } = unicode11;

/** A place in the program's output: the line a marker follows as the buffer scrolls, and the cursor's column there. */
export interface OutputMark {
  /** None when the mark was made on the alternate screen (xterm keeps no markers there). */
  marker?: IMarker;
  column: number;
  /** False until the output received before the mark is parsed (see markCursor): nothing was printed after it yet. */
  placed: boolean;
  /** Frees the marker, or keeps a mark not placed yet from taking one. */
  dispose(): void;
}

/** What the program turned on with DEC private modes that the headless API does not report. */
export interface TrackedModes {
  cursorVisible: boolean;
  /** Mouse reporting requested (1000, 1002 or 1003). */
  mouseReporting: boolean;
  /** SGR mouse encoding (1006). */
  sgrMouse: boolean;
}

export interface EmulatorEvents {
  /** Bytes the emulator answers to the program (cursor position reports, device attributes, ...). */
  reply(data: string): void;
  parsed(): void;
  bell(): void;
  title(title: string): void;
}

const MOUSE_MODES = new Set([1000, 1002, 1003]);
/** A colour as xterm answers colour queries: an X colour spec with 16 bits per channel. */
function colourSpec(rgb: Rgb): string {
  return `rgb:${rgb.map((channel) => (channel * 0x101).toString(16).padStart(4, '0')).join('/')}`;
}
const ESC = '\x1b';

export class TerminalEmulator {
  readonly terminal: XtermTerminal;
  readonly modes: TrackedModes = { cursorVisible: true, mouseReporting: false, sgrMouse: false };
  title = '';
  private readonly cell: IBufferCell;
  private pendingWrites = 0;
  private readonly flushWaiters: (() => void)[] = [];
  /** Writes handed to xterm and writes it has parsed, counted from the start: afterParse waits on the second. */
  private writesQueued = 0;
  private writesParsed = 0;
  private readonly afterParse: { upTo: number; run: () => void }[] = [];

  constructor(cols: number, rows: number, scrollback: number, events: EmulatorEvents) {
    this.terminal = new Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
    // xterm's own width table is Unicode 6, where emoji such as 😀 and ✅ take one cell; programs measure
    // them with wcwidth as two (glibc follows Unicode 11 and later), so every cell after one on the row
    // was off by one: vim's "😀 hello" read "😀  hello". The addon is xterm's own Unicode 11 table.
    this.terminal.loadAddon(new Unicode11Addon());
    this.terminal.unicode.activeVersion = '11';
    this.cell = this.terminal.buffer.active.getNullCell();
    this.terminal.onData((data) => events.reply(data));
    this.terminal.onWriteParsed(() => events.parsed());
    this.terminal.onBell(() => events.bell());
    this.terminal.onTitleChange((title) => {
      this.title = title;
      events.title(title);
    });
    const parser = this.terminal.parser;
    // Returning false lets xterm's own handler run as well: these only observe the mode changes.
    parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => this.trackModes(params, true));
    parser.registerCsiHandler({ prefix: '?', final: 'l' }, (params) => this.trackModes(params, false));
    parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
      this.modes.cursorVisible = true;
      return false;
    });
    parser.registerEscHandler({ final: 'c' }, () => {
      Object.assign(this.modes, { cursorVisible: true, mouseReporting: false, sgrMouse: false });
      return false;
    });
    // Programs such as vim and many prompts ask for the colours and wait for an answer; a headless
    // emulator has no renderer to answer, so the driver does.
    for (const [code, rgb] of [[10, DEFAULT_FOREGROUND], [11, DEFAULT_BACKGROUND], [12, DEFAULT_FOREGROUND]] as const) {
      parser.registerOscHandler(code, (data) => {
        if (data !== '?') return false;
        events.reply(`${ESC}]${code};${colourSpec(rgb)}${ESC}\\`);
        return true;
      });
    }
  }

  private trackModes(params: (number | number[])[], on: boolean): boolean {
    for (const param of params) {
      if (typeof param !== 'number') continue;
      if (param === 25) this.modes.cursorVisible = on;
      else if (MOUSE_MODES.has(param)) this.modes.mouseReporting = on;
      else if (param === 1006) this.modes.sgrMouse = on;
    }
    return false;
  }

  write(data: string): void {
    this.pendingWrites++;
    this.writesQueued++;
    this.terminal.write(data, () => {
      this.pendingWrites--;
      this.writesParsed++;
      // xterm parses writes in order, each callback right after its own write: the screen stands as it did after it.
      while (this.afterParse[0] && this.afterParse[0].upTo <= this.writesParsed) this.afterParse.shift()!.run();
      if (this.pendingWrites === 0) for (const resolve of this.flushWaiters.splice(0)) resolve();
    });
  }

  /**
   * Resolves once everything written so far has been parsed. Waits on the callbacks of real writes: an
   * empty write to flush would itself count as parsed output and make the screen look changed.
   */
  flushed(): Promise<void> {
    if (this.pendingWrites === 0) return Promise.resolve();
    return new Promise((resolve) => this.flushWaiters.push(resolve));
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  get applicationCursorKeys(): boolean {
    return this.terminal.modes.applicationCursorKeysMode;
  }

  get alternateScreen(): boolean {
    return this.terminal.buffer.active.type === 'alternate';
  }

  /** The visible screen of the active buffer. */
  readGrid(): CellGrid {
    const { cols, rows } = this.terminal;
    const buffer = this.terminal.buffer.active;
    const size = cols * rows;
    const grid: CellGrid = {
      cols,
      rows,
      chars: new Array<string>(size),
      widths: new Uint8Array(size),
      fg: new Int32Array(size),
      bg: new Int32Array(size),
      flags: new Uint8Array(size),
      links: new Int32Array(size),
      urls: new Map(),
      wrapped: new Uint8Array(rows),
      cursor: { x: Math.min(buffer.cursorX, cols - 1), y: buffer.cursorY, visible: this.modes.cursorVisible },
    };
    const cell = this.cell;
    for (let y = 0; y < rows; y++) {
      const line = buffer.getLine(buffer.baseY + y);
      if (line?.isWrapped) grid.wrapped[y] = 1;
      for (let x = 0; x < cols; x++) {
        const index = y * cols + x;
        if (!line || !line.getCell(x, cell)) {
          grid.chars[index] = ' ';
          grid.widths[index] = 1;
          grid.fg[index] = DEFAULT_COLOR;
          grid.bg[index] = DEFAULT_COLOR;
          continue;
        }
        const width = cell.getWidth();
        grid.widths[index] = width;
        grid.chars[index] = width === 0 ? '' : cell.getChars() || ' ';
        grid.fg[index] = cell.isFgDefault() ? DEFAULT_COLOR : cell.isFgRGB() ? RGB_FLAG | cell.getFgColor() : cell.getFgColor();
        grid.bg[index] = cell.isBgDefault() ? DEFAULT_COLOR : cell.isBgRGB() ? RGB_FLAG | cell.getBgColor() : cell.getBgColor();
        grid.flags[index] = cell.isAttributeDefault() ? 0 : cellFlags(cell);
        const link = linkOf(cell);
        if (link) {
          grid.links[index] = link;
          if (!grid.urls.has(link)) grid.urls.set(link, this.linkUrl(link) ?? '');
        }
      }
    }
    return grid;
  }

  /** The address an OSC 8 link number stands for (see linkOf). */
  private linkUrl(link: number): string | undefined {
    return (this.terminal as unknown as XtermInternals)._core?._oscLinkService?.getLinkData(link)?.uri;
  }

  /** Up to `count` lines of the normal buffer's history above the screen, oldest first, right-trimmed. */
  scrollback(count: number): string[] {
    const buffer = this.terminal.buffer.normal;
    const first = Math.max(0, buffer.baseY - count);
    const lines: string[] = [];
    for (let y = first; y < buffer.baseY; y++) lines.push(lineText(buffer.getLine(y)));
    return lines;
  }

  /**
   * Marks where the cursor stands in the normal buffer once the output received so far is parsed (its line moves with
   * scrolling; see rowsAfter), for what the program prints after this point. xterm parses on a timer, so input can be
   * sent while the program's last output (its prompt) still waits to be parsed: that output came before the input,
   * and a mark made at once would count it as printed after.
   */
  markCursor(): OutputMark {
    let disposed = false;
    const mark: OutputMark = {
      column: 0,
      placed: false,
      dispose: () => {
        disposed = true;
        mark.marker?.dispose();
      },
    };
    const place = () => {
      if (disposed) return;
      mark.marker = this.terminal.registerMarker(0);
      mark.column = this.terminal.buffer.normal.cursorX;
      mark.placed = true;
    };
    if (this.pendingWrites === 0) place();
    else this.afterParse.push({ upTo: this.writesQueued, run: place });
    return mark;
  }

  /**
   * The rows from a mark to the end of the screen, blanks kept: what the program printed since, the rest of the
   * mark's own row included. With the alternate screen up (a full-screen program), or a mark scrolled out of the
   * history, the whole screen; without a mark, the whole screen too. A mark not placed yet has nothing after it.
   */
  rowsAfter(mark?: OutputMark): string[] {
    if (mark && !mark.placed) return [];
    const buffer = this.terminal.buffer.active;
    const line = mark?.marker && !mark.marker.isDisposed ? mark.marker.line : -1;
    const from = buffer.type === 'normal' && line >= 0 ? line : buffer.baseY;
    const rows: string[] = [];
    for (let y = from; y < buffer.baseY + this.terminal.rows; y++) {
      const text = buffer.getLine(y)?.translateToString(false) ?? '';
      rows.push(y === line && from === line ? text.slice(mark?.column ?? 0) : text);
    }
    return rows;
  }

  dispose(): void {
    this.afterParse.length = 0;
    for (const resolve of this.flushWaiters.splice(0)) resolve();
    this.terminal.dispose();
  }
}

function lineText(line: IBufferLine | undefined): string {
  return line ? line.translateToString(true) : '';
}

/**
 * What @xterm/headless 6 keeps of OSC 8 hyperlinks behind its public API, which exposes neither: each cell's link
 * number (its extended attributes' urlId, valid only when the cell has extended attributes: the object is reused
 * from cell to cell) and the core's link service, which maps the number to the address. Another version without
 * them reads as cells without links.
 */
interface XtermInternals {
  _core?: { _oscLinkService?: { getLinkData(link: number): { uri: string } | undefined } };
}
interface CellInternals {
  hasExtendedAttrs?(): number;
  extended?: { urlId?: number };
}

/** The cell's OSC 8 link number, 0 for none. */
function linkOf(cell: IBufferCell): number {
  const internals = cell as unknown as CellInternals;
  return internals.hasExtendedAttrs?.() ? (internals.extended?.urlId ?? 0) : 0;
}

function cellFlags(cell: IBufferCell): number {
  let flags = 0;
  if (cell.isBold()) flags |= Attr.bold;
  if (cell.isDim()) flags |= Attr.dim;
  if (cell.isItalic()) flags |= Attr.italic;
  if (cell.isUnderline()) flags |= Attr.underline;
  if (cell.isInverse()) flags |= Attr.inverse;
  if (cell.isInvisible()) flags |= Attr.invisible;
  if (cell.isStrikethrough()) flags |= Attr.strikethrough;
  if (cell.isBlink()) flags |= Attr.blink;
  return flags;
}
