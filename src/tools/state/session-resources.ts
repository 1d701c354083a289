/**
 * What a session owns beyond its own memory, to be undone when the session ends (end_session, or the idle
 * limit reclaiming it, or the process stopping): a held mouse button, its agent cursor, its terminal
 * programs, config overrides, a recording. A feature registers a disposer under a key when it starts to
 * own something, and releases the key when it ended the thing itself:
 *
 *   context.state.resources.hold('recording', `recording to ${dir}`, () => recorder.stop());
 *   ...
 *   context.state.resources.release('recording'); // stop_recording stopped it: nothing left to undo
 *
 * Holding a key again replaces its disposer and label (the latest owner state wins).
 */
export interface OwnedResource {
  key: string;
  /** What the session owns, as get_session and end_session show it (e.g. "left mouse button held"). */
  label: string;
  dispose(): Promise<void> | void;
}

/** How long one disposer may take before the session's end goes on without it (a hung ffmpeg, an X server gone). */
const disposeBoundMs = 10_000;

export class SessionResources {
  private readonly held = new Map<string, OwnedResource>();

  hold(key: string, label: string, dispose: () => Promise<void> | void): void {
    this.held.delete(key);
    this.held.set(key, { key, label, dispose });
  }

  /** Forgets a resource without disposing it (its feature already ended it); false when none was held under the key. */
  release(key: string): boolean {
    return this.held.delete(key);
  }

  has(key: string): boolean {
    return this.held.has(key);
  }

  /** What is held, oldest first. */
  list(): { key: string; label: string }[] {
    return [...this.held.values()].map(({ key, label }) => ({ key, label }));
  }

  /**
   * Disposes everything held, most recent first (a recording of a gesture stops before the button is
   * released), each bounded; a failing one is reported and the rest still run. Returns what was undone.
   */
  async disposeAll(log: (message: string) => void): Promise<{ label: string; error?: string }[]> {
    const resources = [...this.held.values()].reverse();
    this.held.clear();
    const done: { label: string; error?: string }[] = [];
    for (const resource of resources) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const bound = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not finish within ${disposeBoundMs / 1000} s`)), disposeBoundMs);
        });
        await Promise.race([Promise.resolve().then(() => resource.dispose()), bound]);
        done.push({ label: resource.label });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`ending "${resource.label}" failed: ${message}`);
        done.push({ label: resource.label, error: message });
      } finally {
        clearTimeout(timer);
      }
    }
    return done;
  }
}
