import { execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { X11Connection } from '../../src/platform/linux/x11/index.js';
import type { ToolContext } from '../../src/tools/context.js';
import { runTool } from '../../src/tools/run.js';
import type { TestDesktop } from './desktop.js';
import { FixtureDesktop } from './fixture-desktop.js';
import { PyatspiOracle } from './oracle.js';
import { accessibleWindowState, type Element } from './tools.js';
import { XReaders } from './x-readers.js';

/**
 * The action matrix: each action x addressing x delivery mode x toolkit, run against real apps, each
 * judged by an independent oracle (pyatspi reading the app, xclip reading the clipboard, the X server's pixels
 * of an app without accessibility). Each row names the effect its action should have (the text typed, the row
 * now selected, the value set) and the oracle checks for exactly that: a row either works (the tool says
 * confirmed and the oracle saw the expected effect) or is refused (nothing sent, an escalation given, the oracle
 * saw nothing change). Any other change is a disagreement. The script prints it as a table; the test asserts
 * every row.
 */

export type Expectation = 'works' | 'refused';
/** What the oracle saw: the row's expected effect, some other change, or nothing at all. */
export type OracleVerdict = 'expected' | 'other change' | 'unchanged';

export interface MatrixRow {
  toolkit: string;
  action: string;
  addressing: 'element' | 'pixels' | 'focus';
  delivery: 'background' | 'foreground';
  expect: Expectation;
  /** The effect the action should have, as the oracle checks it. */
  expectedEffect: string;
  /** Filled in by the run. */
  path?: string;
  effect?: string;
  escalation?: string;
  oracle?: OracleVerdict;
  oracleNote?: string;
  error?: string;
}

export function rowAgrees(row: MatrixRow): boolean {
  if (row.error) return false;
  if (row.effect === 'confirmed' && row.oracle !== 'expected') return false;
  if (row.expect === 'works') return row.effect === 'confirmed' && row.oracle === 'expected';
  return row.path === 'none' && row.escalation !== undefined && row.oracle === 'unchanged';
}

interface Case {
  action: string;
  addressing: MatrixRow['addressing'];
  delivery: MatrixRow['delivery'];
  expect: Expectation;
  /** The tool and its arguments, given the window and its elements. */
  tool: string;
  args(app: App): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** What the oracle reads, before and after; anything changed when before !== after. */
  oracle(app: App): Promise<string>;
  /** The effect the action should have: whether the reading after it is that effect on the reading before. */
  expected: Effect;
  prepare?(app: App): Promise<void>;
  /** Puts the app back (e.g. closes a menu the row opened) so the next row starts from the same screen. */
  cleanup?(app: App): Promise<void>;
}

interface App {
  toolkit: string;
  /** Whether the app has an accessibility tree (xcalc has none). */
  accessible: boolean;
  window: ClientWindow;
  context: ToolContext;
  oracle: PyatspiOracle;
  readers: XReaders;
  elements: Element[];
  element(role: string, name: string | RegExp): Element;
  /** Window-local screenshot pixels of an element's centre (screenshots are taken at scale 1 here). */
  centre(element: Element): { x: number; y: number };
}

async function refresh(app: App): Promise<void> {
  const result = await runTool('get_window_state', { pid: app.window.pid, window_id: app.window.id, include_screenshot: false, detail: 'full' }, app.context);
  if (!result.ok) throw new Error(result.summary);
  app.elements = (result.structured as { elements: Element[] }).elements;
}

interface Effect {
  /** Short, for the table. */
  describe: string;
  holds(before: string, after: string): boolean | Promise<boolean>;
}

const status = (field: string) => async (app: App) => (await app.oracle.status(app.window.pid, app.window.title))[field] ?? '';

/** The reading after is exactly this. */
const becomes = (value: string, describe = `reads ${JSON.stringify(value)}`): Effect => ({ describe, holds: (_before, after) => after === value });
const incremented: Effect = { describe: 'counter +1', holds: (before, after) => Number(after) === Number(before) + 1 };
const flipped: Effect = { describe: 'checked flips', holds: (before, after) => after === (before === 'true' ? 'false' : 'true') };
/** The typed text lands at the caret, which is at the field's end. */
const appended = (text: string): Effect => ({ describe: `text + ${JSON.stringify(text)}`, holds: (before, after) => after === before + text });

/** The pad reports "<button>x<presses>@<x>,<y>" in its own pixels; the action aimed at (30, 15) of it. */
const padHit = (button: number, presses: number): Effect => ({
  describe: `pad ${button}x${presses} at (30,15)`,
  holds: (_before, after) => {
    const match = /^(\d+)x(\d+)@(-?\d+),(-?\d+)$/.exec(after);
    return !!match && Number(match[1]) === button && Number(match[2]) === presses && Math.abs(Number(match[3]) - 30) <= 2 && Math.abs(Number(match[4]) - 15) <= 2;
  },
});
/** A number read back within `tolerance` of `target` (a dragged knob lands near, not exactly on, a value). */
const near = (target: number, tolerance: number): Effect => ({ describe: `value ${target} ± ${tolerance}`, holds: (_before, after) => Math.abs(Number(after) - target) <= tolerance });

function gtkCases(toolkit: 'gtk3' | 'gtk4'): Case[] {
  const increment = (app: App) => ({ window_id: app.window.id, element_index: app.element('button', 'Increment').index });
  const pad = (app: App) => {
    const box = app.elements.find((element) => element.name === 'Click pad')!;
    return { window_id: app.window.id, x: box.bounds!.x - app.window.bounds.x + 30, y: box.bounds!.y - app.window.bounds.y + 15 };
  };
  const entry = (app: App) => ({ window_id: app.window.id, element_index: app.element('textbox', 'Name field').index });
  const slider = (app: App) => ({ window_id: app.window.id, element_index: app.element('slider', 'Volume').index });
  const checkbox = (app: App) => ({ window_id: app.window.id, element_index: app.element('checkbox', 'Enable feature').index });
  // The field's own text and the slider's own value, as pyatspi reads them from the widgets.
  const fieldText = async (app: App) => (await app.oracle.find(app.window.pid, app.window.title, 'text', 'Name field')).text ?? '';
  const sliderValue = async (app: App) => String((await app.oracle.find(app.window.pid, app.window.title, 'slider', 'Volume')).value);
  // The rows with STATE_SELECTED in the list, by their labels.
  const selectedRows = async (app: App) => JSON.stringify(await app.oracle.selected(app.window.pid, app.window.title, 'Items'));
  const onlySelected = (name: string): Effect => ({ describe: `only ${name} selected`, holds: (_before, after) => after === JSON.stringify([name]) });
  // Field text and clipboard together: a cut empties the one and fills the other.
  const textAndClipboard = async (app: App) => JSON.stringify({ text: await fieldText(app), clipboard: await app.readers.clipboard() });
  const cut: Effect = {
    describe: 'field empty, text on clipboard',
    holds: (before, after) => {
      const [was, now] = [JSON.parse(before) as { text: string }, JSON.parse(after) as { text: string; clipboard: string }];
      return now.text === '' && was.text !== '' && now.clipboard === was.text;
    },
  };
  const listPosition = async (app: App) => String(await app.oracle.scrollOffset(app.window.pid, app.window.title, 'Row 1'));
  const scrolled = (direction: 'down' | 'up'): Effect => ({
    describe: `list scrolled ${direction}`,
    holds: (before, after) => (direction === 'down' ? Number(after) > Number(before) : Number(after) < Number(before)),
  });
  // GTK3 list box rows are options (ARIA listbox), GTK4's list items.
  const listRow = (app: App, name: string) => ({ window_id: app.window.id, element_index: app.element(toolkit === 'gtk3' ? 'option' : 'listitem', name).index });
  const listElement = (app: App) => ({ window_id: app.window.id, element_index: app.element('list', 'Items').index });
  return [
    { action: 'click', addressing: 'element', delivery: 'background', expect: 'works', tool: 'click', args: increment, oracle: status('counter'), expected: incremented },
    { action: 'click', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...increment(app), delivery_mode: 'foreground' }), oracle: status('counter'), expected: incremented },
    { action: 'click', addressing: 'pixels', delivery: 'background', expect: 'works', tool: 'click', args: (app) => ({ window_id: app.window.id, ...app.centre(app.element('button', 'Increment')) }), oracle: status('counter'), expected: incremented },
    { action: 'click', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...pad(app), delivery_mode: 'foreground' }), oracle: status('pad'), expected: padHit(1, 1) },
    {
      action: 'click (check box)',
      addressing: 'element',
      delivery: 'background',
      // GTK4 check buttons offer no accessibility action at all; GTK3's have "click".
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'click',
      args: checkbox,
      oracle: status('checked'),
      expected: flipped,
    },
    { action: 'click (check box)', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...checkbox(app), delivery_mode: 'foreground' }), oracle: status('checked'), expected: flipped },
    // Space presses a focused check box; in the background that is its click action, which GTK4 lacks.
    {
      action: 'press_key space (check box)',
      addressing: 'element',
      delivery: 'background',
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'press_key',
      args: (app) => ({ ...checkbox(app), key: 'space' }),
      oracle: status('checked'),
      expected: flipped,
    },
    // A list row has no click action; a click selects it, through the list's Selection interface.
    { action: 'click (list row)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'click', args: (app) => listRow(app, 'Row 3'), oracle: selectedRows, expected: onlySelected('Row 3') },
    { action: 'click (list row)', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...listRow(app, 'Row 5'), delivery_mode: 'foreground' }), oracle: selectedRows, expected: onlySelected('Row 5') },
    { action: 'double_click', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'double_click', args: (app) => ({ ...pad(app), delivery_mode: 'foreground' }), oracle: status('pad'), expected: padHit(1, 2) },
    // After the double click, so a single click that did arrive would change what the pad reports.
    { action: 'click (pad)', addressing: 'pixels', delivery: 'background', expect: 'refused', tool: 'click', args: pad, oracle: status('pad'), expected: padHit(1, 1) },
    {
      action: 'double_click',
      addressing: 'element',
      delivery: 'background',
      expect: 'refused',
      tool: 'double_click',
      args: increment,
      oracle: status('counter'),
      expected: { describe: 'counter +2', holds: (before, after) => Number(after) === Number(before) + 2 },
    },
    { action: 'right_click', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'right_click', args: (app) => ({ ...pad(app), delivery_mode: 'foreground' }), oracle: status('pad'), expected: padHit(3, 1) },
    // A button takes no secondary click: nothing may change at all.
    { action: 'right_click', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'right_click', args: increment, oracle: status('counter'), expected: { describe: 'none (a button has no secondary click)', holds: () => false } },
    { action: 'type_text', addressing: 'element', delivery: 'background', expect: 'works', tool: 'type_text', args: (app) => ({ ...entry(app), text: 'bg ✓' }), oracle: fieldText, expected: appended('bg ✓') },
    { action: 'type_text', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'type_text', args: (app) => ({ ...entry(app), text: ' fg ✓', delivery_mode: 'foreground' }), oracle: fieldText, expected: appended(' fg ✓') },
    { action: 'press_key F5', addressing: 'focus', delivery: 'background', expect: 'refused', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: 'F5' }), oracle: status('last_key'), expected: becomes('F5', 'last_key=F5') },
    { action: 'press_key F5', addressing: 'focus', delivery: 'foreground', expect: 'works', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: 'F5', delivery_mode: 'foreground' }), oracle: status('last_key'), expected: becomes('F5', 'last_key=F5') },
    {
      action: 'hotkey ctrl+a, ctrl+x',
      addressing: 'element',
      delivery: 'background',
      expect: 'works',
      tool: 'hotkey',
      prepare: async (app) => {
        await runTool('hotkey', { ...entry(app), keys: ['ctrl', 'a'] }, app.context);
      },
      args: (app) => ({ ...entry(app), keys: ['ctrl', 'x'] }),
      oracle: textAndClipboard,
      expected: cut,
    },
    // Undo after the cut would bring the text back into the emptied field.
    { action: 'hotkey ctrl+z', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'hotkey', args: (app) => ({ ...entry(app), keys: ['ctrl', 'z'] }), oracle: fieldText, expected: { describe: 'cut text back', holds: (before, after) => before === '' && after !== '' } },
    { action: 'set_value (slider)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'set_value', args: (app) => ({ ...slider(app), value: '70' }), oracle: sliderValue, expected: becomes('70', 'value 70') },
    { action: 'set_value (entry)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'set_value', args: (app) => ({ ...entry(app), value: 'set héllo' }), oracle: fieldText, expected: becomes('set héllo') },
    {
      action: 'set_value (combo box)',
      addressing: 'element',
      delivery: 'background',
      // A GTK4 drop-down has no options in its tree until it is opened.
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'set_value',
      args: (app) => ({ window_id: app.window.id, element_index: app.element('combobox', 'Color').index, value: 'Blue' }),
      // The status label's color is the combo box's active text: what it shows.
      oracle: status('color'),
      expected: becomes('Blue', 'shows Blue'),
    },
    { action: 'scroll down', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'scroll', args: (app) => ({ ...listElement(app), direction: 'down', by: 'line', amount: 3, delivery_mode: 'foreground' }), oracle: listPosition, expected: scrolled('down') },
    {
      action: 'scroll up',
      addressing: 'element',
      delivery: 'background',
      // GTK3's scroll bars have a Value; GTK 4.8's bars give theirs to the range each holds (GtkRange).
      expect: 'works',
      tool: 'scroll',
      args: (app) => ({ ...listElement(app), direction: 'up', by: 'page', amount: 1 }),
      oracle: listPosition,
      expected: scrolled('up'),
    },
    {
      action: 'drag (slider knob)',
      addressing: 'pixels',
      delivery: 'foreground',
      expect: 'works',
      tool: 'drag',
      args: (app) => {
        const box = app.element('slider', 'Volume').bounds!;
        const y = box.y - app.window.bounds.y + box.h / 2;
        const left = box.x - app.window.bounds.x;
        // From the knob (value 70 after the set_value row) to near the left end.
        return { window_id: app.window.id, from_x: left + box.w * 0.7, from_y: y, to_x: left + box.w * 0.2, to_y: y, delivery_mode: 'foreground' };
      },
      oracle: sliderValue,
      // The knob goes 50% of the slider's width to the left: from 70 to about 20 (the trough is a little
      // narrower than the widget, so a little further).
      expected: near(18, 6),
    },
    {
      action: 'drag',
      addressing: 'pixels',
      delivery: 'background',
      expect: 'refused',
      tool: 'drag',
      args: (app) => {
        const box = app.element('slider', 'Volume').bounds!;
        const y = box.y - app.window.bounds.y + box.h / 2;
        return { window_id: app.window.id, from_x: box.x - app.window.bounds.x + 10, from_y: y, to_x: box.x - app.window.bounds.x + box.w - 10, to_y: y };
      },
      oracle: sliderValue,
      expected: near(98, 4),
    },
  ];
}

function qtCases(): Case[] {
  // The input line: the one editable text field (the history above it is read-only).
  const expression = (app: App) => ({ window_id: app.window.id, element_index: app.elements.find((e) => e.role === 'textbox' && e.states.includes('editable'))!.index });
  // The input line's text and the read-only history's, as pyatspi reads them.
  const calculator = async (app: App) => {
    const input = (await app.oracle.findWithState(app.window.pid, app.window.title, 'text', 'editable')).text ?? '';
    const history = (await app.oracle.texts(app.window.pid, app.window.title)).filter((text) => text !== input).join(' | ');
    return JSON.stringify({ input, history });
  };
  const read = (reading: string) => JSON.parse(reading) as { input: string; history: string };
  const typed = (text: string): Effect => ({
    describe: `input + ${JSON.stringify(text)}`,
    holds: (before, after) => read(after).input === read(before).input + text && read(after).history === read(before).history,
  });
  const input = (text: string): Effect => ({ describe: `input reads ${JSON.stringify(text)}`, holds: (_before, after) => read(after).input === text });
  const evaluated = (result: string): Effect => ({
    describe: `evaluated: input empty, history gains ${result}`,
    holds: (before, after) => read(after).input === '' && read(after).history.includes(result) && !read(before).history.includes(result),
  });
  // Qt gives the menu bar entry no state for an open menu; the menu's first item shows while it is open.
  const sessionMenuShown = async (app: App) => {
    const item = await app.oracle.find(app.window.pid, app.window.title, 'menu item', 'Load...');
    return String(item.states?.includes('showing'));
  };
  const closeMenu = async (app: App) => {
    await runTool('press_key', { window_id: app.window.id, key: 'Escape', delivery_mode: 'foreground' }, app.context);
  };
  return [
    { action: 'type_text', addressing: 'element', delivery: 'background', expect: 'works', tool: 'type_text', args: (app) => ({ ...expression(app), text: '6*7' }), oracle: calculator, expected: typed('6*7') },
    { action: 'press_key Return', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'press_key', args: (app) => ({ ...expression(app), key: 'Return', delivery_mode: 'foreground' }), oracle: calculator, expected: evaluated('42') },
    { action: 'type_text', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'type_text', args: (app) => ({ ...expression(app), text: '2+3', delivery_mode: 'foreground' }), oracle: calculator, expected: typed('2+3') },
    { action: 'set_value (entry)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'set_value', args: (app) => ({ ...expression(app), value: '10/4' }), oracle: calculator, expected: input('10/4') },
    { action: 'press_key Return', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'press_key', args: (app) => ({ ...expression(app), key: 'Return' }), oracle: calculator, expected: evaluated('2.5') },
    {
      action: 'click (menu)',
      addressing: 'element',
      delivery: 'background',
      // Qt menu-bar entries only offer ShowMenu, which opens the menu as a click on them does.
      expect: 'works',
      tool: 'click',
      args: (app) => ({ window_id: app.window.id, element_index: app.element('menuitem', 'Session').index }),
      oracle: sessionMenuShown,
      expected: becomes('true', 'Session menu open'),
      cleanup: closeMenu,
    },
    {
      action: 'click (menu)',
      addressing: 'element',
      delivery: 'foreground',
      expect: 'works',
      tool: 'click',
      args: (app) => ({ window_id: app.window.id, element_index: app.element('menuitem', 'Session').index, delivery_mode: 'foreground' }),
      oracle: sessionMenuShown,
      expected: becomes('true', 'Session menu open'),
      cleanup: closeMenu,
    },
  ];
}

/**
 * A second xcalc, placed where nothing covers it, that is sent the digits each row should have entered by
 * another path (xdotool's key events): its display is the known rendering the tested xcalc's must equal.
 */
class XcalcReference {
  private launched?: Promise<{ process: ChildProcess; window: ClientWindow }>;

  constructor(
    private readonly desktop: TestDesktop,
    private readonly x: X11Connection,
  ) {}

  /** Sends the digits to the reference and answers its display's rendering afterwards. */
  async type(digits: string): Promise<string> {
    const { window } = await this.start();
    await new Promise<void>((resolve, reject) => {
      execFile('xdotool', ['key', '--window', String(window.id), ...digits], { env: this.desktop.env(), timeout: 5000 }, (error) => (error ? reject(error) : resolve()));
    });
    // xdotool returns once the events are sent; give xcalc a moment to draw them.
    await sleep(300);
    return xcalcDisplay(this.x, window);
  }

  stop(): void {
    void this.launched?.then(({ process }) => process.kill('SIGKILL'));
  }

  private start() {
    this.launched ??= this.desktop.launch('xcalc', ['-title', 'Reference calculator'], 'Reference calculator').then(async (launched) => {
      // The right edge of the screen, clear of the tested xcalc, so its pixels are its own.
      await this.x.configureWindow(launched.window.id, { x: this.x.screen.width - launched.window.bounds.width - 10, y: 40 });
      await sleep(300);
      return launched;
    });
    return this.launched;
  }
}

/** The pixels of xcalc's display (the top 60 rows of its window), as a hash. */
async function xcalcDisplay(x: X11Connection, window: ClientWindow): Promise<string> {
  const image = await x.getImage(window.id, 0, 0, window.bounds.width, 60);
  return createHash('sha256').update(image.data).digest('hex');
}

/** xcalc (Xaw): no accessibility at all; its display's pixels, read from the X server, are the oracle. */
function xawCases(x: X11Connection, reference: XcalcReference): Case[] {
  const display = (app: App) => xcalcDisplay(x, app.window);
  // Each row enters digits after the previous rows' ones: the display should equal the reference's after the
  // same digits (typed into it once, when the row is first judged).
  let entered = '';
  const shows = (digits: string): Effect => {
    entered += digits;
    let rendering: Promise<string> | undefined;
    return { describe: `display shows ${entered}`, holds: async (_before, after) => after === (await (rendering ??= reference.type(digits))) };
  };
  // Window-local pixels of the digit keys (xcalc's layout is fixed).
  const seven = { x: 68, y: 305 };
  const eight = { x: 115, y: 305 };
  return [
    { action: 'click (key 7)', addressing: 'pixels', delivery: 'background', expect: 'works', tool: 'click', args: (app) => ({ window_id: app.window.id, ...seven }), oracle: display, expected: shows('7') },
    { action: 'click (key 8)', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ window_id: app.window.id, ...eight, delivery_mode: 'foreground' }), oracle: display, expected: shows('8') },
    { action: 'double_click (key 7)', addressing: 'pixels', delivery: 'background', expect: 'works', tool: 'double_click', args: (app) => ({ window_id: app.window.id, ...seven }), oracle: display, expected: shows('77') },
    { action: 'type_text', addressing: 'focus', delivery: 'background', expect: 'works', tool: 'type_text', args: (app) => ({ window_id: app.window.id, text: '12' }), oracle: display, expected: shows('12') },
    { action: 'press_key 5', addressing: 'focus', delivery: 'background', expect: 'works', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: '5' }), oracle: display, expected: shows('5') },
    { action: 'press_key 4', addressing: 'focus', delivery: 'foreground', expect: 'works', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: '4', delivery_mode: 'foreground' }), oracle: display, expected: shows('4') },
  ];
}

async function runCase(app: App, item: Case): Promise<MatrixRow> {
  const row: MatrixRow = { toolkit: app.toolkit, action: item.action, addressing: item.addressing, delivery: item.delivery, expect: item.expect, expectedEffect: item.expected.describe };
  try {
    if (app.accessible) await refresh(app);
    await item.prepare?.(app);
    const before = await item.oracle(app);
    const result = await runTool(item.tool, await item.args(app), app.context);
    if (!result.ok) throw new Error(result.summary);
    const outcome = result.structured as { path: string; effect: string; escalation?: { recommended: string; reason: string } };
    row.path = outcome.path;
    row.effect = outcome.effect;
    row.escalation = outcome.escalation ? `${outcome.escalation.recommended}` : undefined;
    // Give the app a moment past the tool's own read-back before the independent look: until the expected effect
    // shows (bounded), and as long for a refused row, so a late effect of a "refused" action is seen too.
    // Every effect in the matrix changes what the oracle reads, so a reading that did not change is never the effect.
    const judge = async (after: string) => after !== before && (await item.expected.holds(before, after));
    let after = await item.oracle(app);
    let expected = await judge(after);
    for (let i = 0; i < 10 && !expected; i++) {
      await sleep(100);
      after = await item.oracle(app);
      expected = await judge(after);
    }
    row.oracle = expected ? 'expected' : after !== before ? 'other change' : 'unchanged';
    row.oracleNote = after !== before ? `${before.slice(0, 60)} → ${after.slice(0, 60)}` : `unchanged (${before.slice(0, 60)})`;
  } catch (error) {
    row.error = error instanceof Error ? error.message : String(error);
  }
  await item.cleanup?.(app).catch(() => undefined);
  return row;
}

async function openApp(context: ToolContext, oracle: PyatspiOracle, readers: XReaders, toolkit: string, launched: { window: ClientWindow }, accessible: boolean): Promise<App> {
  const app: App = {
    toolkit,
    accessible,
    window: launched.window,
    context,
    oracle,
    readers,
    elements: [],
    element(role, name) {
      const found = this.elements.find((element) => element.role === role && (typeof name === 'string' ? element.name === name : name.test(element.name)));
      if (!found) throw new Error(`${toolkit}: no ${role} ${String(name)}`);
      return found;
    },
    centre(element) {
      return { x: element.bounds!.x - this.window.bounds.x + element.bounds!.w / 2, y: element.bounds!.y - this.window.bounds.y + element.bounds!.h / 2 };
    },
  };
  if (accessible) await accessibleWindowState(context, app.window, { include_screenshot: false }, 20_000);
  return app;
}

/** Runs the whole matrix on a fresh embedded desktop; the desktop is stopped afterwards. */
export async function runActionMatrix(log: (message: string) => void = () => {}): Promise<MatrixRow[]> {
  const fixtures = await FixtureDesktop.start();
  const { desktop, context } = fixtures;
  const oracle = new PyatspiOracle(desktop.env());
  const readers = new XReaders(desktop.env());
  const reference = new XcalcReference(desktop, fixtures.x);
  const rows: MatrixRow[] = [];
  try {
    const suites: [string, () => ReturnType<TestDesktop['launch']>, Case[], boolean][] = [
      ['GTK3', () => desktop.launchFixture('gtk3'), gtkCases('gtk3'), true],
      ['GTK4', () => desktop.launchFixture('gtk4'), gtkCases('gtk4'), true],
      ['Qt5 (SpeedCrunch)', () => desktop.launch('speedcrunch', [], 'SpeedCrunch'), qtCases(), true],
      ['Xaw (xcalc), no accessibility', () => desktop.launch('xcalc', [], 'Calculator'), xawCases(fixtures.x, reference), false],
    ];
    for (const [toolkit, launch, cases, accessible] of suites) {
      const launched = await launch();
      const app = await openApp(context, oracle, readers, toolkit, launched, accessible);
      for (const item of cases) {
        const row = await runCase(app, item);
        log(`${toolkit} ${row.action} ${row.addressing} ${row.delivery}: ${row.effect ?? row.error} (${row.oracleNote ?? ''})`);
        rows.push(row);
      }
      launched.process.kill('SIGKILL');
    }
  } finally {
    reference.stop();
    oracle.close();
    await fixtures.stop();
  }
  return rows;
}

export function matrixTable(rows: MatrixRow[]): string {
  const lines = [
    '| toolkit | action | addressing | delivery | expected effect | rung | effect | escalation | oracle | agrees |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const oracle = row.error ? `error: ${row.error.slice(0, 60)}` : (row.oracle ?? '-');
    lines.push(
      `| ${row.toolkit} | ${row.action} | ${row.addressing} | ${row.delivery} | ${row.expectedEffect} | ${row.path ?? '-'} | ${row.effect ?? '-'} | ${row.escalation ?? '-'} | ${oracle} | ${rowAgrees(row) ? 'yes' : 'NO'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
