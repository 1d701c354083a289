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

/**
 * The action matrix: each action x addressing x delivery mode x toolkit, run against real apps, each
 * judged by an independent oracle (pyatspi reading the app). A row either works (the tool says
 * confirmed and the oracle saw the change) or is refused (nothing sent, an escalation given, the oracle
 * saw nothing). The script prints it as a table; the test asserts every row.
 */

export type Expectation = 'works' | 'refused';

export interface MatrixRow {
  toolkit: string;
  action: string;
  addressing: 'element' | 'pixels' | 'focus';
  delivery: 'background' | 'foreground';
  expect: Expectation;
  /** Filled in by the run. */
  path?: string;
  effect?: string;
  escalation?: string;
  oracleChanged?: boolean;
  oracleNote?: string;
  error?: string;
}

export function rowAgrees(row: MatrixRow): boolean {
  if (row.error) return false;
  if (row.effect === 'confirmed' && !row.oracleChanged) return false;
  if (row.expect === 'works') return row.effect === 'confirmed' && row.oracleChanged === true;
  return row.path === 'none' && row.escalation !== undefined && row.oracleChanged === false;
}

interface Case {
  action: string;
  addressing: MatrixRow['addressing'];
  delivery: MatrixRow['delivery'];
  expect: Expectation;
  /** The tool and its arguments, given the window and its elements. */
  tool: string;
  args(app: App): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** What the oracle reads, before and after; the row's change is before !== after. */
  oracle(app: App): Promise<string>;
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

const status = (field: string) => async (app: App) => (await app.oracle.status(app.window.pid, app.window.title))[field] ?? '';

function gtkCases(toolkit: 'gtk3' | 'gtk4'): Case[] {
  const increment = (app: App) => ({ window_id: app.window.id, element_index: app.element('button', 'Increment').index });
  const pad = (app: App) => {
    const box = app.elements.find((element) => element.name === 'Click pad')!;
    return { window_id: app.window.id, x: box.bounds!.x - app.window.bounds.x + 30, y: box.bounds!.y - app.window.bounds.y + 15 };
  };
  const entry = (app: App) => ({ window_id: app.window.id, element_index: app.element('textbox', 'Name field').index });
  const slider = (app: App) => ({ window_id: app.window.id, element_index: app.element('slider', 'Volume').index });
  const checkbox = (app: App) => ({ window_id: app.window.id, element_index: app.element('checkbox', 'Enable feature').index });
  // Which rows are where: the first row's position (GTK4 moves it) or the scroll bars' positions (GTK3).
  const listPosition = async (app: App) => {
    const row = await app.oracle.find(app.window.pid, app.window.title, 'label', 'Row 1');
    const bars = await app.oracle.values(app.window.pid, app.window.title, 'scroll bar');
    return `${JSON.stringify(row.extents ?? null)} ${JSON.stringify(bars)}`;
  };
  // GTK3 list box rows are options (ARIA listbox), GTK4's list items.
  const listRow = (app: App, name: string) => ({ window_id: app.window.id, element_index: app.element(toolkit === 'gtk3' ? 'option' : 'listitem', name).index });
  const listElement = (app: App) => ({ window_id: app.window.id, element_index: app.element('list', 'Items').index });
  return [
    { action: 'click', addressing: 'element', delivery: 'background', expect: 'works', tool: 'click', args: increment, oracle: status('counter') },
    { action: 'click', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...increment(app), delivery_mode: 'foreground' }), oracle: status('counter') },
    { action: 'click', addressing: 'pixels', delivery: 'background', expect: 'works', tool: 'click', args: (app) => ({ window_id: app.window.id, ...app.centre(app.element('button', 'Increment')) }), oracle: status('counter') },
    { action: 'click', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...pad(app), delivery_mode: 'foreground' }), oracle: status('pad') },
    {
      action: 'click (check box)',
      addressing: 'element',
      delivery: 'background',
      // GTK4 check buttons offer no accessibility action at all; GTK3's have "click".
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'click',
      args: checkbox,
      oracle: status('checked'),
    },
    { action: 'click (check box)', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...checkbox(app), delivery_mode: 'foreground' }), oracle: status('checked') },
    // Space presses a focused check box; in the background that is its click action, which GTK4 lacks.
    {
      action: 'press_key space (check box)',
      addressing: 'element',
      delivery: 'background',
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'press_key',
      args: (app) => ({ ...checkbox(app), key: 'space' }),
      oracle: status('checked'),
    },
    // A list row has no click action; a click selects it, through the list's Selection interface.
    { action: 'click (list row)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'click', args: (app) => listRow(app, 'Row 3'), oracle: status('selected') },
    { action: 'click (list row)', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ ...listRow(app, 'Row 5'), delivery_mode: 'foreground' }), oracle: status('selected') },
    { action: 'click (pad)', addressing: 'pixels', delivery: 'background', expect: 'refused', tool: 'click', args: pad, oracle: status('pad') },
    { action: 'double_click', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'double_click', args: (app) => ({ ...pad(app), delivery_mode: 'foreground' }), oracle: status('pad') },
    { action: 'double_click', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'double_click', args: increment, oracle: status('counter') },
    { action: 'right_click', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'right_click', args: (app) => ({ ...pad(app), delivery_mode: 'foreground' }), oracle: status('pad') },
    { action: 'right_click', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'right_click', args: increment, oracle: status('counter') },
    { action: 'type_text', addressing: 'element', delivery: 'background', expect: 'works', tool: 'type_text', args: (app) => ({ ...entry(app), text: 'bg ✓' }), oracle: status('text') },
    { action: 'type_text', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'type_text', args: (app) => ({ ...entry(app), text: ' fg ✓', delivery_mode: 'foreground' }), oracle: status('text') },
    { action: 'press_key F5', addressing: 'focus', delivery: 'background', expect: 'refused', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: 'F5' }), oracle: status('last_key') },
    { action: 'press_key F5', addressing: 'focus', delivery: 'foreground', expect: 'works', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: 'F5', delivery_mode: 'foreground' }), oracle: status('last_key') },
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
      oracle: status('text'),
    },
    { action: 'hotkey ctrl+z', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'hotkey', args: (app) => ({ ...entry(app), keys: ['ctrl', 'z'] }), oracle: status('text') },
    { action: 'set_value (slider)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'set_value', args: (app) => ({ ...slider(app), value: '70' }), oracle: status('slider') },
    { action: 'set_value (entry)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'set_value', args: (app) => ({ ...entry(app), value: 'set héllo' }), oracle: status('text') },
    {
      action: 'set_value (combo box)',
      addressing: 'element',
      delivery: 'background',
      // A GTK4 drop-down has no options in its tree until it is opened.
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'set_value',
      args: (app) => ({ window_id: app.window.id, element_index: app.element('combobox', 'Color').index, value: 'Blue' }),
      oracle: status('color'),
    },
    { action: 'scroll down', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'scroll', args: (app) => ({ ...listElement(app), direction: 'down', by: 'line', amount: 3, delivery_mode: 'foreground' }), oracle: listPosition },
    {
      action: 'scroll up',
      addressing: 'element',
      delivery: 'background',
      // GTK4's scroll bars expose no Value, so only real wheel input scrolls a GTK4 list.
      expect: toolkit === 'gtk3' ? 'works' : 'refused',
      tool: 'scroll',
      args: (app) => ({ ...listElement(app), direction: 'up', by: 'page', amount: 1 }),
      oracle: listPosition,
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
      oracle: status('slider'),
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
      oracle: status('slider'),
    },
  ];
}

function qtCases(): Case[] {
  // The input line: the one editable text field (the history above it is read-only).
  const expression = (app: App) => ({ window_id: app.window.id, element_index: app.elements.find((e) => e.role === 'textbox' && e.states.includes('editable'))!.index });
  const expressionText = async (app: App) => {
    const texts = await app.oracle.texts(app.window.pid, app.window.title);
    return texts.join(' | ');
  };
  // Qt gives the menu bar entry no state for an open menu; the menu's first item shows while it is open.
  const sessionMenuShown = async (app: App) => {
    const item = await app.oracle.find(app.window.pid, app.window.title, 'menu item', 'Load...');
    return String(item.states?.includes('showing'));
  };
  const closeMenu = async (app: App) => {
    await runTool('press_key', { window_id: app.window.id, key: 'Escape', delivery_mode: 'foreground' }, app.context);
  };
  return [
    { action: 'type_text', addressing: 'element', delivery: 'background', expect: 'works', tool: 'type_text', args: (app) => ({ ...expression(app), text: '6*7' }), oracle: expressionText },
    { action: 'press_key Return', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'press_key', args: (app) => ({ ...expression(app), key: 'Return', delivery_mode: 'foreground' }), oracle: expressionText },
    { action: 'type_text', addressing: 'element', delivery: 'foreground', expect: 'works', tool: 'type_text', args: (app) => ({ ...expression(app), text: '2+3', delivery_mode: 'foreground' }), oracle: expressionText },
    { action: 'set_value (entry)', addressing: 'element', delivery: 'background', expect: 'works', tool: 'set_value', args: (app) => ({ ...expression(app), value: '10/4' }), oracle: expressionText },
    { action: 'press_key Return', addressing: 'element', delivery: 'background', expect: 'refused', tool: 'press_key', args: (app) => ({ ...expression(app), key: 'Return' }), oracle: expressionText },
    {
      action: 'click (menu)',
      addressing: 'element',
      delivery: 'background',
      // Qt menu-bar entries only offer ShowMenu, which opens the menu as a click on them does.
      expect: 'works',
      tool: 'click',
      args: (app) => ({ window_id: app.window.id, element_index: app.element('menuitem', 'Session').index }),
      oracle: sessionMenuShown,
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
      cleanup: closeMenu,
    },
  ];
}

/** xcalc (Xaw): no accessibility at all; its display's pixels, read from the X server, are the oracle. */
function xawCases(x: X11Connection): Case[] {
  const display = async (app: App) => {
    const image = await x.getImage(app.window.id, 0, 0, app.window.bounds.width, 60);
    return createHash('sha256').update(image.data).digest('hex');
  };
  // Window-local pixels of the digit keys (xcalc's layout is fixed).
  const seven = { x: 68, y: 305 };
  const eight = { x: 115, y: 305 };
  return [
    { action: 'click (key 7)', addressing: 'pixels', delivery: 'background', expect: 'works', tool: 'click', args: (app) => ({ window_id: app.window.id, ...seven }), oracle: display },
    { action: 'click (key 8)', addressing: 'pixels', delivery: 'foreground', expect: 'works', tool: 'click', args: (app) => ({ window_id: app.window.id, ...eight, delivery_mode: 'foreground' }), oracle: display },
    { action: 'double_click (key 7)', addressing: 'pixels', delivery: 'background', expect: 'works', tool: 'double_click', args: (app) => ({ window_id: app.window.id, ...seven }), oracle: display },
    { action: 'type_text', addressing: 'focus', delivery: 'background', expect: 'works', tool: 'type_text', args: (app) => ({ window_id: app.window.id, text: '12' }), oracle: display },
    { action: 'press_key 5', addressing: 'focus', delivery: 'background', expect: 'works', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: '5' }), oracle: display },
    { action: 'press_key 4', addressing: 'focus', delivery: 'foreground', expect: 'works', tool: 'press_key', args: (app) => ({ window_id: app.window.id, key: '4', delivery_mode: 'foreground' }), oracle: display },
  ];
}

async function runCase(app: App, item: Case): Promise<MatrixRow> {
  const row: MatrixRow = { toolkit: app.toolkit, action: item.action, addressing: item.addressing, delivery: item.delivery, expect: item.expect };
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
    // Give the app a moment past the tool's own read-back before the independent look.
    let after = await item.oracle(app);
    for (let i = 0; i < 10 && after === before && item.expect === 'works'; i++) {
      await sleep(100);
      after = await item.oracle(app);
    }
    row.oracleChanged = after !== before;
    row.oracleNote = row.oracleChanged ? `${before.slice(0, 40)} → ${after.slice(0, 40)}` : `unchanged (${before.slice(0, 40)})`;
  } catch (error) {
    row.error = error instanceof Error ? error.message : String(error);
  }
  await item.cleanup?.(app).catch(() => undefined);
  return row;
}

async function openApp(context: ToolContext, oracle: PyatspiOracle, toolkit: string, launched: { window: ClientWindow }, accessible: boolean): Promise<App> {
  const app: App = {
    toolkit,
    accessible,
    window: launched.window,
    context,
    oracle,
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
  const rows: MatrixRow[] = [];
  try {
    const suites: [string, () => ReturnType<TestDesktop['launch']>, Case[], boolean][] = [
      ['GTK3', () => desktop.launchFixture('gtk3'), gtkCases('gtk3'), true],
      ['GTK4', () => desktop.launchFixture('gtk4'), gtkCases('gtk4'), true],
      ['Qt5 (SpeedCrunch)', () => desktop.launch('speedcrunch', [], 'SpeedCrunch'), qtCases(), true],
      ['Xaw (xcalc), no accessibility', () => desktop.launch('xcalc', [], 'Calculator'), xawCases(fixtures.x), false],
    ];
    for (const [toolkit, launch, cases, accessible] of suites) {
      const launched = await launch();
      const app = await openApp(context, oracle, toolkit, launched, accessible);
      for (const item of cases) {
        const row = await runCase(app, item);
        log(`${toolkit} ${row.action} ${row.addressing} ${row.delivery}: ${row.effect ?? row.error} (${row.oracleNote ?? ''})`);
        rows.push(row);
      }
      launched.process.kill('SIGKILL');
    }
  } finally {
    oracle.close();
    await fixtures.stop();
  }
  return rows;
}

export function matrixTable(rows: MatrixRow[]): string {
  const lines = [
    '| toolkit | action | addressing | delivery | rung | effect | escalation | oracle | agrees |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const oracle = row.error ? `error: ${row.error.slice(0, 60)}` : row.oracleChanged ? 'changed' : 'unchanged';
    lines.push(
      `| ${row.toolkit} | ${row.action} | ${row.addressing} | ${row.delivery} | ${row.path ?? '-'} | ${row.effect ?? '-'} | ${row.escalation ?? '-'} | ${oracle} | ${rowAgrees(row) ? 'yes' : 'NO'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
