// Mouse buttons held across calls (mouse_button_down, mouse_drag, mouse_button_up), each by an owner (a session).
// A hold always ends: by its release, by the owner's release-all (session end, a cancelled drag, the process
// stopping), or by a timer, so a button never stays down on the user's desktop because an agent went away.
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../../../errors.js';
import type { MouseButton } from '../../desktop-services.js';
import type { X11Connection } from '../x11/index.js';
import type { Point } from './checks.js';
import { buttons, moveTo } from './pointer.js';

interface Hold {
  owner: string;
  button: MouseButton;
  timer: NodeJS.Timeout;
}

export class ButtonHolds {
  /** By button: one owner per button, since the X server has one state per button. */
  private readonly holds = new Map<MouseButton, Hold>();

  constructor(
    private readonly connection: () => Promise<X11Connection>,
    private readonly log: (message: string) => void,
  ) {}

  held(owner: string): MouseButton[] {
    return [...this.holds.values()].filter((hold) => hold.owner === owner).map((hold) => hold.button);
  }

  async press(owner: string, button: MouseButton, at: Point | undefined, maxHoldMs: number): Promise<Point> {
    const current = this.holds.get(button);
    if (current && current.owner !== owner) {
      throw new ToolError(`the ${button} mouse button is held by session "${current.owner}"; it must release it first (or end)`, 'button_busy');
    }
    const x = await this.connection();
    if (at) {
      await moveTo(x, at);
      // Toolkits pick the widget under the pointer from the motion; a press in the same instant can go to the old one.
      await sleep(15);
    }
    if (!current) await x.xtest.fakeInput('ButtonPress', buttons[button]);
    await x.sync();
    clearTimeout(current?.timer);
    const timer = setTimeout(() => {
      this.log(`released the ${button} mouse button of session "${owner}": held for ${maxHoldMs / 1000} s (held_button_max_s)`);
      void this.release(owner, button).catch(() => undefined);
    }, maxHoldMs);
    timer.unref();
    this.holds.set(button, { owner, button, timer });
    const state = await x.queryPointer(x.screen.root);
    return { x: state.rootX, y: state.rootY };
  }

  /**
   * Refuses a gesture that presses and releases a button of its own (a foreground click or drag) while a button is
   * down: its press would go into the held gesture, and its release let the held button go behind its session's
   * back (the session still said it held the button, and its next mouse_drag "moved with left held" with none
   * down). The X server's state is asked too, for a button that another driver process (a `call --no-daemon`) or a
   * person holds.
   */
  async requireNoneDown(gesture: string): Promise<void> {
    const hold = this.holds.values().next().value;
    if (hold) {
      throw new ToolError(
        `the ${hold.button} mouse button is held by session "${hold.owner}" (mouse_button_down), and a ${gesture} would press and release it inside that gesture; nothing was sent: ` +
          'release it with mouse_button_up in that session first (or continue the gesture with mouse_drag)',
        'button_busy',
      );
    }
    const x = await this.connection();
    const { mask } = await x.queryPointer(x.screen.root);
    const down = (Object.keys(buttons) as MouseButton[]).filter((button) => mask & (0x80 << buttons[button]));
    if (down.length > 0) {
      throw new ToolError(
        `the ${down.join(' and ')} mouse button is down on this display, held by no session of this driver (a person, another program or another driver process), ` +
          `and a ${gesture} would press and release it inside that gesture; nothing was sent: retry once it is released`,
        'button_busy',
      );
    }
  }

  /** Moves the pointer to `to` through `steps` points over durationMs; an abort releases the owner's buttons. */
  async move(owner: string, to: Point, options: { steps: number; durationMs: number; signal?: AbortSignal }): Promise<void> {
    if (this.held(owner).length === 0) {
      throw new ToolError(`session "${owner}" holds no mouse button; call mouse_button_down first (or use drag for press, move and release in one call)`, 'no_button_held');
    }
    const x = await this.connection();
    const state = await x.queryPointer(x.screen.root);
    const from = { x: state.rootX, y: state.rootY };
    try {
      for (let step = 1; step <= options.steps; step++) {
        if (options.signal?.aborted) throw new ToolError('mouse_drag was cancelled; the held buttons were released', 'cancelled');
        await moveTo(x, { x: Math.round(from.x + ((to.x - from.x) * step) / options.steps), y: Math.round(from.y + ((to.y - from.y) * step) / options.steps) });
        if (options.durationMs > 0) await sleep(options.durationMs / options.steps);
      }
      await x.sync();
    } catch (error) {
      // Half a gesture must not leave a button down: whatever stopped it (a cancel, an error) releases.
      await this.release(owner);
      throw error;
    }
  }

  /** Releases `button` (or every button) of the owner, after moving to `at` when given; returns what was released. */
  async release(owner: string, button?: MouseButton, at?: Point): Promise<MouseButton[]> {
    const mine = [...this.holds.values()].filter((hold) => hold.owner === owner && (button === undefined || hold.button === button));
    if (mine.length === 0) return [];
    const x = await this.connection();
    if (at) await moveTo(x, at);
    for (const hold of mine) {
      clearTimeout(hold.timer);
      this.holds.delete(hold.button);
      await x.xtest.fakeInput('ButtonRelease', buttons[hold.button]);
    }
    await x.sync();
    return mine.map((hold) => hold.button);
  }

  /** Every hold of every owner (the process is stopping). */
  async releaseAll(): Promise<void> {
    for (const owner of new Set([...this.holds.values()].map((hold) => hold.owner))) await this.release(owner).catch(() => undefined);
  }
}
