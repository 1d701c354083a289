// The X CLIPBOARD as the driver uses it: text written is owned by this process (answered from memory for as
// long as it runs) and handed to a small detached keeper process when it exits, so a paste after a one-shot
// CLI call still works; reads convert whatever another client owns.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { X11Connection } from '../x11/index.js';
import { SelectionOwner, type SelectionForm } from './selection-owner.js';
import { readSelection } from './selection-reader.js';

const selection = 'CLIPBOARD';
/** Text targets in the order a read tries them: UTF-8 first, Latin-1 STRING as the old fallback. */
const textTargets = ['UTF8_STRING', 'text/plain;charset=utf-8', 'STRING'] as const;
/** How long a keeper may take to start and take the clipboard over before the handover is given up. */
const keeperStartMs = 3000;

export const keeperPath = fileURLToPath(new URL('./keeper.js', import.meta.url));

/** The forms a text is offered in: UTF-8 under its usual names, and STRING only when Latin-1 holds it exactly. */
export function textForms(text: string): SelectionForm[] {
  const utf8 = Buffer.from(text, 'utf8');
  const forms: SelectionForm[] = [
    { target: 'UTF8_STRING', type: 'UTF8_STRING', data: utf8 },
    { target: 'text/plain;charset=utf-8', type: 'text/plain;charset=utf-8', data: utf8 },
    { target: 'TEXT', type: 'UTF8_STRING', data: utf8 },
  ];
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u00ff]*$/.test(text)) forms.push({ target: 'STRING', type: 'STRING', data: Buffer.from(text, 'latin1') });
  return forms;
}

export interface ClipboardTextRead {
  text: string;
  target: string;
  owner: number;
}

export class Clipboard {
  private owner?: SelectionOwner;
  private keepMs = 0;

  constructor(private readonly connection: () => Promise<X11Connection>) {}

  /** Puts text on the CLIPBOARD, owned by this process; keepMs is how long a keeper holds it after this process exits. */
  async writeText(text: string, keepMs: number): Promise<{ window: number; targets: string[] }> {
    const x = await this.connection();
    const owner = await SelectionOwner.take(x, selection, textForms(text));
    // Taking it over made the server send the previous owner (ours or not) a SelectionClear; ours stops answering.
    this.owner?.release('replaced');
    this.owner = owner;
    this.keepMs = keepMs;
    return { window: owner.window, targets: ['TARGETS', 'TIMESTAMP', ...owner.offered().map((form) => form.target)] };
  }

  /** Whether this process owns the clipboard now. */
  get owning(): boolean {
    return this.owner?.owning ?? false;
  }

  /** The targets the current owner offers; undefined when nobody owns the clipboard. */
  async targets(timeoutMs: number): Promise<string[] | undefined> {
    const x = await this.connection();
    const read = await readSelection(x, selection, 'TARGETS', timeoutMs);
    if (!read) return (await x.getSelectionOwner(await x.internAtom(selection))) === 0 ? undefined : [];
    const atoms: number[] = [];
    for (let offset = 0; offset + 4 <= read.data.length; offset += 4) atoms.push(read.data.readUInt32LE(offset));
    return Promise.all(atoms.filter((atom) => atom !== 0).map((atom) => x.getAtomName(atom)));
  }

  /**
   * The clipboard's text, or undefined when nobody owns it or the owner offers no text form. Only targets the
   * owner lists are asked for, and only a text-typed answer counts: some owners (xclip -t image/png) answer
   * any target with their one form.
   */
  async readText(timeoutMs: number): Promise<ClipboardTextRead | undefined> {
    const x = await this.connection();
    const listed = await this.targets(timeoutMs);
    for (const target of textTargets) {
      if (listed && listed.length > 0 && !listed.includes(target)) continue;
      const read = await readSelection(x, selection, target, timeoutMs);
      if (!read || !(textTargets as readonly string[]).includes(read.type)) continue;
      return { text: read.data.toString(read.type === 'STRING' ? 'latin1' : 'utf8'), target, owner: read.owner };
    }
    return undefined;
  }

  /** The clipboard's content as `mimeType` (e.g. image/png); undefined when not offered. */
  async readBytes(mimeType: string, timeoutMs: number): Promise<Buffer | undefined> {
    return (await readSelection(await this.connection(), selection, mimeType, timeoutMs))?.data;
  }

  /**
   * This process is going away: if it still owns the clipboard, a detached keeper process takes it over (it
   * exits when another client takes the clipboard, or after keepMs). Resolves once the keeper owns it.
   */
  async handOver(): Promise<'none' | 'handed_over'> {
    const owner = this.owner;
    if (!owner?.owning || this.keepMs <= 0) return 'none';
    const x = await this.connection();
    const request = { display: x.display, keepMs: this.keepMs, forms: owner.offered().map((form) => ({ ...form, data: form.data.toString('base64') })) };
    const child = spawn(process.execPath, [keeperPath, '--cup-driver-clipboard-keeper'], {
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, DISPLAY: x.display },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the clipboard keeper did not take the clipboard within ${keeperStartMs} ms`)), keeperStartMs);
        let said = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('\n')) {
            clearTimeout(timer);
            if (said.startsWith('ready')) resolve();
            else reject(new Error(`the clipboard keeper failed: ${said.trim()}`));
          }
        });
        child.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the clipboard keeper exited (${code}) before taking the clipboard`));
        });
        child.stdin!.end(JSON.stringify(request));
      });
    } catch (error) {
      if (child.exitCode === null && child.pid !== undefined) child.kill('SIGKILL');
      throw error;
    } finally {
      child.stdout!.destroy();
      child.removeAllListeners();
      child.unref();
    }
    owner.release('handed over to the keeper');
    return 'handed_over';
  }

  close(): void {
    this.owner?.release('closed');
  }
}
