// Each take of the X CLIPBOARD (SetSelectionOwner, even by its owner again), heard through XFIXES for every action
// under way at once: XFIXES keeps one event mask per client, window and selection, so one watcher deselecting when
// its action ended would leave another, overlapping it in another session, deaf to the rest of its action.
import type { ClipboardTakes } from '../../desktop-services.js';
import type { X11Connection } from '../x11/index.js';

type Listener = (owner: number) => void;

export class ClipboardTakeWatch {
  private readonly listeners = new Set<Listener>();
  /** The selection heard on a connection, while any listener is. */
  private hearing?: { x: X11Connection; stop: Promise<() => Promise<void>> };
  /** The last deselection under way: a new start waits for it, so that its deselection does not come after. */
  private stopping: Promise<void> = Promise.resolve();

  constructor(private readonly connection: () => Promise<X11Connection>) {}

  async watch(): Promise<ClipboardTakes> {
    const x = await this.connection();
    const clipboard = await x.internAtom('CLIPBOARD');
    const owners = new Set<number>();
    const listener: Listener = (owner) => owners.add(owner);
    this.listeners.add(listener);
    try {
      await this.hear(x, clipboard);
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    let closed = false;
    return {
      takers: async () => {
        // A round trip first: the server sends events before the replies that follow them, so every take it made
        // until now has been heard by the time the owner's answer comes.
        await x.getSelectionOwner(clipboard);
        const pids = await Promise.all([...owners].map((owner) => x.xres.clientPid(owner).catch(() => undefined)));
        return [...new Set(pids.filter((pid): pid is number => pid !== undefined && pid > 0))];
      },
      // Once, however many ask (an action's result and its cleanup alike); the last listener deselects.
      close: async () => {
        if (closed) return;
        closed = true;
        this.listeners.delete(listener);
        const hearing = this.hearing;
        if (this.listeners.size > 0 || !hearing) return;
        this.hearing = undefined;
        this.stopping = hearing.stop.then((stop) => stop()).catch(() => undefined);
        await this.stopping;
      },
    };
  }

  private async hear(x: X11Connection, clipboard: number): Promise<void> {
    if (this.hearing?.x !== x) {
      await this.stopping;
      if (this.hearing?.x !== x) {
        const stop = x.xfixes.watchSelection(x.screen.root, clipboard, (change) => {
          if (change.subtype !== 0 || change.owner === 0) return;
          for (const listener of this.listeners) listener(change.owner);
        });
        this.hearing = { x, stop };
        stop.catch(() => {
          if (this.hearing?.stop === stop) this.hearing = undefined;
        });
      }
    }
    await this.hearing!.stop;
  }
}
