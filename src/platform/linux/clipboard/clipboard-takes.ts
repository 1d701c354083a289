// Each take of the X CLIPBOARD (SetSelectionOwner, even by its owner again), heard through XFIXES for every action
// under way at once. The selection is made once per connection and kept: XFIXES keeps one event mask per client,
// window and selection, so one watcher deselecting when its action ended left another, overlapping it in another
// session, deaf to the rest of its action; and selecting and deselecting around each action cost two requests of it.
import type { ClipboardTakes } from '../../desktop-services.js';
import type { X11Connection } from '../x11/index.js';

type Listener = (owner: number) => void;

export class ClipboardTakeWatch {
  private readonly listeners = new Set<Listener>();
  /** The connection the clipboard is heard on, and its CLIPBOARD atom once the selection is made. */
  private hearing?: { x: X11Connection; clipboard: Promise<number> };

  constructor(private readonly connection: () => Promise<X11Connection>) {}

  async watch(): Promise<ClipboardTakes> {
    const x = await this.connection();
    const owners = new Set<number>();
    const listener: Listener = (owner) => owners.add(owner);
    this.listeners.add(listener);
    let clipboard: number;
    try {
      clipboard = await this.hear(x);
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return {
      takers: async () => {
        // A round trip first: the server sends events before the replies that follow them, so every take it made
        // until now has been heard by the time the owner's answer comes.
        await x.getSelectionOwner(clipboard);
        const pids = await Promise.all([...owners].map((owner) => x.xres.clientPid(owner).catch(() => undefined)));
        return [...new Set(pids.filter((pid): pid is number => pid !== undefined && pid > 0))];
      },
      close: async () => void this.listeners.delete(listener),
    };
  }

  /** The CLIPBOARD atom, once its takes are heard on `x` (selected on the first ask of a connection). */
  private hear(x: X11Connection): Promise<number> {
    if (this.hearing?.x !== x) {
      const clipboard = (async () => {
        const atom = await x.internAtom('CLIPBOARD');
        await x.xfixes.watchSelection(x.screen.root, atom, (change) => {
          if (change.subtype !== 0 || change.owner === 0) return;
          for (const listener of this.listeners) listener(change.owner);
        });
        return atom;
      })();
      this.hearing = { x, clipboard };
      clipboard.catch(() => {
        if (this.hearing?.clipboard === clipboard) this.hearing = undefined;
      });
    }
    return this.hearing!.clipboard;
  }
}
