// The GTK3 fixture's control socket (--control): it changes itself on command, for tests that need a change made
// by the app itself at a moment of their choosing.
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';

/** The fixture's control socket: one JSON command a line, answered once the change is made and laid out. */
export class FixtureControl {
  private readonly replies: ((line: string) => void)[] = [];

  private constructor(private readonly socket: Socket) {
    createInterface({ input: socket }).on('line', (line) => this.replies.shift()?.(line));
  }

  static async open(path: string): Promise<FixtureControl> {
    const socket = connect(path);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new FixtureControl(socket);
  }

  send(command: Record<string, unknown>, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the fixture did not answer ${JSON.stringify(command)} within ${timeoutMs} ms`)), timeoutMs);
      this.replies.push((line) => {
        clearTimeout(timer);
        const reply = JSON.parse(line) as { error?: string };
        if (reply.error) reject(new Error(`fixture: ${reply.error}`));
        else resolve();
      });
      this.socket.write(`${JSON.stringify(command)}\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}
