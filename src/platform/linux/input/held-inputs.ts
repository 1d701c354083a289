// Keys and buttons pressed through XTEST, remembered until released, so that an error half-way through an action
// never leaves a key or button held down on the user's desktop.
import type { X11Connection } from '../x11/index.js';

export class HeldInputs {
  private readonly keys: number[] = [];
  private readonly buttons: number[] = [];

  constructor(readonly x: X11Connection) {}

  /**
   * Sends a key press, which settles once written. The key counts as held from the call on, so that a caller may
   * send several before awaiting any (they join one write) and releaseAll still releases it should the write fail
   * (a release of a key that is up does nothing).
   */
  pressKey(keycode: number): Promise<void> {
    const written = this.x.xtest.fakeInput('KeyPress', keycode);
    this.keys.push(keycode);
    return written;
  }

  releaseKey(keycode: number): Promise<void> {
    const written = this.x.xtest.fakeInput('KeyRelease', keycode);
    removeLast(this.keys, keycode);
    return written;
  }

  /** `delayMs`: how long the X server waits before it takes the press (XTEST's own delay; see pointer.ts's click). */
  async pressButton(button: number, delayMs = 0): Promise<void> {
    await this.x.xtest.fakeInput('ButtonPress', button, { delayMs });
    this.buttons.push(button);
  }

  async releaseButton(button: number, delayMs = 0): Promise<void> {
    await this.x.xtest.fakeInput('ButtonRelease', button, { delayMs });
    removeLast(this.buttons, button);
  }

  /** Whether `keycode` is held by this action (a combination that already holds Shift needs no extra Shift). */
  holdsKey(keycode: number): boolean {
    return this.keys.includes(keycode);
  }

  /** The keycodes held by this action, in the order they were pressed. */
  heldKeys(): readonly number[] {
    return [...this.keys];
  }

  /** Releases whatever is still held, most recent first; best effort, since it runs while another error unwinds. */
  async releaseAll(): Promise<void> {
    while (this.buttons.length > 0) await this.x.xtest.fakeInput('ButtonRelease', this.buttons.pop()!).catch(() => undefined);
    while (this.keys.length > 0) await this.x.xtest.fakeInput('KeyRelease', this.keys.pop()!).catch(() => undefined);
  }
}

function removeLast(list: number[], value: number): void {
  const index = list.lastIndexOf(value);
  if (index >= 0) list.splice(index, 1);
}
