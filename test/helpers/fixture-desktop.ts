// The embedded desktop with the GTK fixtures. The fixture's status label is the oracle for what the app received,
// read by Debian's pyatspi (never by the driver's own tree reading, which is what the tests judge).
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { X11Connection } from '../../src/platform/linux/x11/index.js';
import type { ToolContext } from '../../src/tools/context.js';
import { activateWindow, click } from '../../src/platform/linux/input/index.js';
import { KeyboardMap } from '../../src/platform/linux/input/keyboard-map.js';
import { TestDesktop } from './desktop.js';
import { PyatspiOracle } from './oracle.js';
import { XReaders } from './x-readers.js';
import { accessibleWindowState, testContext, type Element } from './tools.js';

export interface FixtureStatus {
  counter: number;
  text: string;
  checked: boolean;
  slider: number;
  selected: string;
  color: string;
  lastKey: string;
  pad: string;
  generation: number;
}

const statusPattern = /^counter=(\d+) text=(.*) checked=(\w+) slider=(\d+) selected=(.*) color=(.*) last_key=(.*) pad=(.*) generation=(\d+)$/s;

export class FixtureDesktop {
  private pyatspi?: PyatspiOracle;

  private constructor(
    readonly desktop: TestDesktop,
    readonly context: ToolContext,
    readonly x: X11Connection,
  ) {}

  static async start(): Promise<FixtureDesktop> {
    const desktop = await TestDesktop.start();
    return new FixtureDesktop(desktop, testContext(), await desktop.x11());
  }

  /** Launches a fixture and waits until its accessibility tree is readable. */
  async launch(toolkit: 'gtk3' | 'gtk4' | 'qt5', options: { title?: string; size?: string; rows?: number; extraArgs?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ClientWindow> {
    const { window } = await this.desktop.launchFixture(toolkit, options);
    await this.elements(window);
    return window;
  }

  /** Independent readers of the X server (xprop, xwininfo, xdotool, xclip) on this desktop. */
  get readers(): XReaders {
    return new XReaders(this.desktop.env());
  }

  /** The independent pyatspi reader on this desktop, started on first use and stopped with the desktop. */
  get oracle(): PyatspiOracle {
    this.pyatspi ??= new PyatspiOracle(this.desktop.env());
    return this.pyatspi;
  }

  async stop(): Promise<void> {
    this.pyatspi?.close();
    this.context?.desktop.close();
    await this.desktop?.stop();
  }

  async elements(window: ClientWindow): Promise<Element[]> {
    return (await accessibleWindowState(this.context, window, { include_screenshot: false })).state.elements;
  }

  async element(window: ClientWindow, name: string): Promise<Element> {
    const elements = await this.elements(window);
    const found = elements.find((element) => element.name === name);
    assert.ok(found, `no element "${name}" among: ${elements.map((element) => element.name).join(', ')}`);
    return found;
  }

  /** The fixture's status label as pyatspi reads it. */
  async status(window: ClientWindow): Promise<FixtureStatus> {
    const label = await this.oracle.statusText(window.pid, window.title);
    const match = statusPattern.exec(label);
    assert.ok(match, `status label reads "${label}"`);
    return {
      counter: Number(match[1]), text: match[2]!, checked: match[3] === 'true', slider: Number(match[4]), selected: match[5]!,
      color: match[6]!, lastKey: match[7]!, pad: match[8]!, generation: Number(match[9]),
    };
  }

  /** Polls the status label until `accept` holds (bounded); returns the last status read either way. */
  async waitForStatus(window: ClientWindow, accept: (status: FixtureStatus) => boolean, timeoutMs = 3000): Promise<FixtureStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.status(window);
      if (accept(status) || Date.now() > deadline) return status;
      await sleep(50);
    }
  }

  /** Activates the window and gives `name` the focus with a real click on its centre. */
  async focus(window: ClientWindow, name: string): Promise<Element> {
    assert.equal(await activateWindow(this.x, window.id), true, `window ${window.title} became active`);
    const element = await this.element(window, name);
    await click(this.x, centre(element));
    return element;
  }
}

export function centre(element: Element): { x: number; y: number } {
  assert.ok(element.bounds, `element "${element.name}" has bounds`);
  return { x: Math.round(element.bounds.x + element.bounds.w / 2), y: Math.round(element.bounds.y + element.bounds.h / 2) };
}

/** The whole keyboard and modifier mapping, to prove an action left them as they were. */
export async function keyboardSnapshot(x: X11Connection): Promise<unknown> {
  const { mapping, modifiers } = await KeyboardMap.load(x);
  return { keyboard: mapping, modifiers };
}

export interface KeyboardFixtures {
  fixtures: FixtureDesktop;
  gtk3: ClientWindow;
  gtk4: ClientWindow;
  /** The keyboard and modifier map before the first test. */
  keyboardBefore: unknown;
}

/**
 * Registers the hooks of a keyboard test file: both fixtures started before, stopped after, and after each
 * test proof that no key is left down and the keyboard map is as it was. Returns the fixtures once started.
 */
export function useKeyboardFixtures(): () => KeyboardFixtures {
  let started: KeyboardFixtures | undefined;
  before(async () => {
    const fixtures = await FixtureDesktop.start();
    const gtk3 = await fixtures.launch('gtk3');
    const gtk4 = await fixtures.launch('gtk4');
    started = { fixtures, gtk3, gtk4, keyboardBefore: await keyboardSnapshot(fixtures.x) };
  });
  after(async () => {
    await started?.fixtures.stop();
  });
  afterEach(async () => {
    assert.deepEqual(await started!.fixtures.x.queryKeymap(), [], 'no key is left down');
    assert.deepEqual(await keyboardSnapshot(started!.fixtures.x), started!.keyboardBefore, 'the keyboard map is as it was');
  });
  return () => started!;
}

/** A plan's stage: the GTK3 fixture with its entry and Increment button, and a GTK4 fixture as another app's window. */
export interface PlanFixtures {
  fixtures: FixtureDesktop;
  gtk3: ClientWindow;
  other: ClientWindow;
  field: Element;
  increment: Element;
}

export async function startPlanFixtures(): Promise<PlanFixtures> {
  const fixtures = await FixtureDesktop.start();
  const gtk3 = await fixtures.launch('gtk3');
  const other = await fixtures.launch('gtk4');
  const elements = await fixtures.elements(gtk3);
  const field = elements.find((element) => element.name === 'Paste target')!;
  const increment = elements.find((element) => element.name === 'Increment')!;
  assert.ok(field && increment, 'the fixture shows its entry and its button');
  return { fixtures, gtk3, other, field, increment };
}
