// Owning an X selection (ICCCM 2.2, 2.5-2.7): answering other clients' ConvertSelection requests with our data,
// large values in INCR chunks, until another client takes the selection or we let it go.
import { Atom, encodeSelectionNotify, EventMask, type X11Connection, type X11EventOf } from '../x11/index.js';
import { nextPropertyNotify } from '../input/helper-window.js';
import { selectWindowProperties } from '../input/window-properties.js';

/** One form the data is offered in: the target name (UTF8_STRING, image/png...), the property type written, the bytes. */
export interface SelectionForm {
  target: string;
  type: string;
  data: Buffer;
}

/** Transfers larger than this go in INCR chunks, as ICCCM asks, so no single property write is huge. */
const maxChunkBytes = 256 * 1024;
/** How long a requestor may take to delete one INCR chunk before the transfer is abandoned. */
const incrStepTimeoutMs = 5000;

/**
 * The selection held by a window of our own on `x`. `lost` resolves when another client took it (SelectionClear),
 * the connection closed, or release() was called; requests are answered until then.
 */
export class SelectionOwner {
  readonly lost: Promise<string>;
  private markLost!: (why: string) => void;
  private active = true;
  private readonly detach: (() => void)[] = [];

  private constructor(
    private readonly x: X11Connection,
    readonly window: number,
    private readonly selection: number,
    readonly time: number,
    private readonly forms: ReadonlyMap<number, SelectionForm & { typeAtom: number }>,
    private readonly atoms: Record<string, number>,
  ) {
    this.lost = new Promise((resolve) => (this.markLost = resolve));
  }

  /** Takes `selectionName` (e.g. CLIPBOARD) with the data in `forms`; rejects when the server gives it to someone else. */
  static async take(x: X11Connection, selectionName: string, forms: readonly SelectionForm[]): Promise<SelectionOwner> {
    const names = ['TARGETS', 'TIMESTAMP', 'MULTIPLE', 'INCR', 'ATOM', '_CUP_DRIVER_SELECTION_TIME', selectionName, ...forms.flatMap((form) => [form.target, form.type])];
    const atoms = await x.atoms([...new Set(names)]);
    const window = await x.createWindow({ parent: x.screen.root, x: -10, y: -10, width: 1, height: 1, eventMask: EventMask.PropertyChange });
    try {
      // The ownership needs a real server time (ICCCM: never CurrentTime): a zero-length append on our window reports it.
      const stamp = atoms._CUP_DRIVER_SELECTION_TIME!;
      const time = await nextPropertyNotify(x, window, stamp, () => x.changeProperty(window, stamp, Atom.INTEGER, 8, Buffer.alloc(0), 'append'), x.timeoutMs, 'the server time');
      const byTarget = new Map(forms.map((form) => [atoms[form.target]!, { ...form, typeAtom: atoms[form.type]! }]));
      const owner = new SelectionOwner(x, window, atoms[selectionName]!, time, byTarget, atoms);
      owner.listen();
      await x.setSelectionOwner(window, owner.selection, time);
      const now = await x.getSelectionOwner(owner.selection);
      if (now !== window) {
        owner.release('refused');
        throw new Error(`the X server did not give the ${selectionName} selection to the driver (owner is 0x${now.toString(16)})`);
      }
      return owner;
    } catch (error) {
      await x.destroyWindow(window).catch(() => undefined);
      throw error;
    }
  }

  get owning(): boolean {
    return this.active;
  }

  /** The forms offered, as given to take(). */
  offered(): SelectionForm[] {
    return [...this.forms.values()].map(({ target, type, data }) => ({ target, type, data }));
  }

  /** Stops answering and destroys the window (the server then clears the selection if it was still ours). */
  release(why = 'released'): void {
    if (!this.active) return;
    this.active = false;
    for (const off of this.detach.splice(0)) off();
    void this.x.destroyWindow(this.window).catch(() => undefined);
    this.markLost(why);
  }

  private listen(): void {
    this.detach.push(
      this.x.onEvent((event) => {
        if (event.name === 'SelectionClear' && event.owner === this.window && event.selection === this.selection) this.release('another client took the selection');
        else if (event.name === 'SelectionRequest' && event.owner === this.window && event.selection === this.selection) void this.answer(event).catch(() => undefined);
      }),
      this.x.onClose(() => this.release('the X connection closed')),
    );
  }

  private async answer(request: X11EventOf<'SelectionRequest'>): Promise<void> {
    // Obsolete clients send no property: the target names it (ICCCM 2.2).
    const property = request.property || request.target;
    const notify = (stored: boolean) =>
      this.x.sendEvent(request.requestor, false, 0, encodeSelectionNotify(request.time, request.requestor, request.selection, request.target, stored ? property : 0));
    const atoms = this.atoms;
    if (!this.active) return notify(false);
    if (request.target === atoms.TARGETS) {
      await this.x.changeProperty(request.requestor, property, atoms.ATOM!, 32, [atoms.TARGETS!, atoms.TIMESTAMP!, ...this.forms.keys()]);
      return notify(true);
    }
    if (request.target === atoms.TIMESTAMP) {
      await this.x.changeProperty(request.requestor, property, Atom.INTEGER, 32, [this.time]);
      return notify(true);
    }
    const form = this.forms.get(request.target);
    // MULTIPLE and anything not offered are refused; the requestor then tries another target.
    if (!form) return notify(false);
    const chunk = Math.min(maxChunkBytes, this.x.maxRequestBytes - 64);
    if (form.data.length <= chunk) {
      await this.x.changeProperty(request.requestor, property, form.typeAtom, 8, form.data);
      return notify(true);
    }
    await this.sendIncrementally(request.requestor, property, form, chunk, notify);
  }

  /** ICCCM 2.7.2: announce the size under type INCR, then one chunk per deletion of the property, ending with an empty one. */
  private async sendIncrementally(requestor: number, property: number, form: SelectionForm & { typeAtom: number }, chunk: number, notify: (stored: boolean) => Promise<void>): Promise<void> {
    // We hear the requestor deleting the property only with PropertyChange selected on its window (our own mask, not its).
    const release = await selectWindowProperties(this.x, requestor);
    const deleted = () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          off();
          reject(new Error('the requestor stopped reading'));
        }, incrStepTimeoutMs);
        const off = this.x.onEvent((event) => {
          if (event.name === 'PropertyNotify' && event.window === requestor && event.atom === property && event.state === 'Deleted') {
            clearTimeout(timer);
            off();
            resolve();
          }
        });
      });
    let next = deleted();
    await this.x.changeProperty(requestor, property, this.atoms.INCR!, 32, [form.data.length]);
    await notify(true);
    try {
      for (let offset = 0; ; offset += chunk) {
        await next;
        next = deleted();
        const part = form.data.subarray(offset, offset + chunk);
        await this.x.changeProperty(requestor, property, form.typeAtom, 8, part);
        if (part.length === 0) break;
      }
      next.catch(() => undefined);
    } finally {
      await release();
    }
  }
}
