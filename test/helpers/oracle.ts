import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { repositoryRoot } from './desktop.js';

export interface OracleNode {
  found: boolean;
  role?: string;
  name?: string;
  description?: string;
  states?: string[];
  text?: string;
  /** The caret's offset in the text, with text. */
  caret?: number;
  /** The text's length as the toolkit counts it (Text.CharacterCount), with text: NULs end the text read, not this. */
  characters?: number;
  value?: number;
  /** The names its Action interface gives, when it has one (perhaps none). */
  actions?: string[];
  extents?: [number, number, number, number];
}

/** An object with its AT-SPI attributes, as pyatspi reads them. */
export interface OracleAttributes {
  role: string;
  name: string;
  description: string;
  attributes: Record<string, string>;
  extents: [number, number, number, number];
  /** Its AT-SPI states in pyatspi's spelling ("showing", "visible"). */
  states: string[];
}

/** One child or cell as pyatspi reads it; extents are screen coordinates. */
export interface OracleChild {
  role: string;
  name: string;
  states: string[];
  extents: [number, number, number, number];
  text: string | null;
}

/** One entry of a menu bar as pyatspi reads it: its items are its children, `descendants` everything under it. */
export interface OracleMenuEntry {
  name: string;
  states: string[];
  items: { name: string; role: string; states: string[] }[];
  descendants: number;
  /** The height of the menu bar holding the entry: a bar of none draws none of its menus. */
  barHeight: number;
}

/**
 * Debian's pyatspi as an independent witness: a long-running python3 process that answers questions
 * about an app's accessibility tree, so tests never judge the driver by the driver's own reading.
 */
export class PyatspiOracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly replies: ((line: string) => void)[] = [];

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn('/usr/bin/python3', [`${repositoryRoot}/test/fixtures/oracle/pyatspi_oracle.py`], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.replies.shift()?.(line));
  }

  private ask<T>(request: Record<string, unknown>, timeoutMs = 15_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`pyatspi oracle did not answer ${JSON.stringify(request)} within ${timeoutMs} ms`)), timeoutMs);
      this.replies.push((line) => {
        clearTimeout(timer);
        const reply = JSON.parse(line) as T & { error?: string };
        if (reply.error) reject(new Error(`pyatspi oracle: ${reply.error}`));
        else resolve(reply);
      });
      this.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** The fixture's status label: "counter=.. text=.. checked=.. slider=.. ... pad=.. generation=..". */
  async status(pid: number, title: string): Promise<Record<string, string>> {
    const status = await this.statusText(pid, title);
    const fields: Record<string, string> = {};
    const names = [...status.matchAll(/(\w+)=/g)];
    names.forEach((match, i) => {
      const end = i + 1 < names.length ? names[i + 1]!.index! - 1 : status.length;
      fields[match[1]!] = status.slice(match.index! + match[0].length, end);
    });
    return fields;
  }

  /** The fixture's status label as it reads. */
  async statusText(pid: number, title: string): Promise<string> {
    return (await this.ask<{ status: string }>({ op: 'status', pid, title })).status;
  }

  find(pid: number, title: string, role: string, name: string): Promise<OracleNode> {
    return this.ask<OracleNode>({ op: 'find', pid, title, role, name });
  }

  /** The first object of this role that has the state (e.g. the one editable text field), whatever its name. */
  findWithState(pid: number, title: string, role: string, state: string): Promise<OracleNode> {
    return this.ask<OracleNode>({ op: 'find', pid, title, role, state });
  }

  /** What is selected inside the object named `name` (STATE_SELECTED), each by its own or its label's name. */
  async selected(pid: number, title: string, name: string): Promise<string[]> {
    return (await this.ask<{ selected: string[] }>({ op: 'selected', pid, title, name })).selected;
  }

  /** Every object of these pyatspi roles, with its AT-SPI attributes (heading level, xml-roles) and screen extents. */
  async attributes(pid: number, title: string, roles: readonly string[]): Promise<OracleAttributes[]> {
    return (await this.ask<{ nodes: OracleAttributes[] }>({ op: 'attributes', pid, title, roles })).nodes;
  }

  /** Every object of these pyatspi roles, with its first action's key binding as the toolkit reports it. */
  async keyBindings(pid: number, title: string, roles: readonly string[]): Promise<{ role: string; name: string; binding: string }[]> {
    return (await this.ask<{ nodes: { role: string; name: string; binding: string }[] }>({ op: 'key_bindings', pid, title, roles })).nodes;
  }

  /** Every menu bar's entries, each with its states, its items and how many objects it holds in all. */
  async menuBars(pid: number, title: string): Promise<OracleMenuEntry[][]> {
    return (await this.ask<{ bars: OracleMenuEntry[][] }>({ op: 'menu_bars', pid, title }, 60_000)).bars;
  }

  /** The names of the object the window's hit test finds at a point and of the objects holding it, innermost first. */
  async hit(pid: number, title: string, x: number, y: number): Promise<string[]> {
    return (await this.ask<{ names: string[] }>({ op: 'hit', pid, title, x, y })).names;
  }

  async texts(pid: number, title: string): Promise<string[]> {
    return (await this.ask<{ texts: string[] }>({ op: 'texts', pid, title })).texts;
  }

  /** Every object with a labelled-by relation: its own role and name, and its labels' names. */
  async labelled(pid: number, title: string): Promise<{ role: string; name: string; labels: string[] }[]> {
    return (await this.ask<{ labelled: { role: string; name: string; labels: string[] }[] }>({ op: 'labels', pid, title })).labelled;
  }

  async values(pid: number, title: string, role: string): Promise<number[]> {
    return (await this.ask<{ values: number[] }>({ op: 'values', pid, title, role })).values;
  }

  /**
   * How far a window's list is scrolled down, larger further down: its scroll bars' value where they expose one
   * (GTK3), else how far the list's first row (labelled `firstRow`) has moved up (GTK4's scroll bars have no Value).
   */
  async scrollOffset(pid: number, title: string, firstRow: string): Promise<number> {
    const bars = await this.values(pid, title, 'scroll bar');
    if (bars.length > 0) return Math.max(...bars);
    const row = await this.find(pid, title, 'label', firstRow);
    if (!row.extents) throw new Error(`pyatspi gives no extents for the row "${firstRow}", so it cannot tell the scroll position`);
    return -row.extents[1];
  }

  /** Moves the window's vertical scroll bar to a fraction of its range, through its Value interface. */
  async scroll(pid: number, title: string, fraction: number): Promise<number> {
    return (await this.ask<{ value: number }>({ op: 'scroll', pid, title, fraction })).value;
  }

  /** The children of the parent of the first object of this role and name (the object among them): role, name and whether showing. */
  async siblings(pid: number, title: string, role: string, name: string): Promise<{ role: string; name: string; showing: boolean }[]> {
    return (await this.ask<{ siblings: { role: string; name: string; showing: boolean }[] }>({ op: 'siblings', pid, title, role, name })).siblings;
  }

  /** Children of a container by index (never all of them), with the names of their own children as content and each one's object path. */
  children(pid: number, title: string, role: string, name: string, indices: number[]) {
    return this.ask<{ child_count: number; children: (OracleChild & { index: number; content: string; path: string })[] }>(
      { op: 'children', pid, title, role, name, indices },
      60_000,
    );
  }

  /** A block of a table's cells (rows and columns inclusive), with the table's size. */
  cells(pid: number, title: string, role: string, name: string, rows: [number, number], columns: [number, number]) {
    return this.ask<{ rows: number; columns: number; cells: (OracleChild & { row: number; column: number })[] }>(
      { op: 'cells', pid, title, role, name, rows, columns },
      60_000,
    );
  }

  /** The children of the first object of a role (an icon view's items): each one's text, whether it is selected, and its extents. */
  async items(pid: number, title: string, role: string): Promise<{ index: number; text: string | null; selected: boolean; extents: [number, number, number, number] }[]> {
    return (await this.ask<{ items: { index: number; text: string | null; selected: boolean; extents: [number, number, number, number] }[] }>({ op: 'items', pid, title, role })).items;
  }

  /** The names of the menu items under an object: a combo box's choices, which GTK3 keeps in its popup menu. */
  async menuItems(pid: number, title: string, role: string, name: string): Promise<string[]> {
    return (await this.ask<{ names: string[] }>({ op: 'menu_items', pid, title, role, name })).names;
  }

  /** Does the first action of an object (another client changing the app behind the driver's back). */
  async act(pid: number, title: string, role: string, name: string): Promise<void> {
    await this.ask<{ done: boolean }>({ op: 'act', pid, title, role, name });
  }

  /** Replaces an editable object's text through EditableText. */
  async setText(pid: number, title: string, role: string, name: string, text: string): Promise<void> {
    await this.ask<{ done: boolean }>({ op: 'set_text', pid, title, role, name, text });
  }

  /** The ranges of text selected in an object, [start, end] each. */
  async selection(pid: number, title: string, role: string, name: string): Promise<number[][]> {
    return (await this.ask<{ selection: number[][] }>({ op: 'selection', pid, title, role, name })).selection;
  }

  /** Selects a range of an object's text through its Text interface; the selection as read back ([] for none). */
  async selectText(pid: number, title: string, role: string, name: string, start: number, end: number): Promise<number[]> {
    return (await this.ask<{ selection: number[] }>({ op: 'select_text', pid, title, role, name, start, end })).selection;
  }

  /** The text attributes ("weight": "700") of the run the character at an offset of an object's text lies in, the text's defaults included. */
  async attributeRun(pid: number, title: string, role: string, name: string, offset: number): Promise<{ attributes: Record<string, string>; start: number; end: number }> {
    return this.ask<{ attributes: Record<string, string>; start: number; end: number }>({ op: 'attribute_run', pid, title, role, name, offset });
  }

  /** The screen box [x, y, w, h] of the character at an offset of an object's text. */
  async characterExtents(pid: number, title: string, role: string, name: string, offset: number): Promise<[number, number, number, number]> {
    return (await this.ask<{ extents: [number, number, number, number] }>({ op: 'character_extents', pid, title, role, name, offset })).extents;
  }

  /** Every top-level object of the pid's application: its windows and the popups it shows (a context menu), with the menu items in each. */
  async topLevels(pid: number): Promise<{ role: string; name: string; showing: boolean; items: string[] }[]> {
    return (await this.ask<{ top_levels: { role: string; name: string; showing: boolean; items: string[] }[] }>({ op: 'top_levels', pid })).top_levels;
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
