// The clipboard keeper: a small detached process that holds the CLIPBOARD for a driver process that exited (a
// one-shot CLI call, a daemon that stopped), so what the agent copied can still be pasted. It reads the forms
// from stdin, takes the selection, says "ready", and exits as soon as another client takes the clipboard, the
// X server goes away, or its time (clipboard_keep_s) runs out: it never outlives its purpose.
import { X11Connection } from '../x11/index.js';
import { SelectionOwner } from './selection-owner.js';

interface KeeperRequest {
  display: string;
  keepMs: number;
  forms: { target: string; type: string; data: string }[];
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function keep(): Promise<void> {
  const request = JSON.parse(await readStdin()) as KeeperRequest;
  const x = await X11Connection.connect({ display: request.display, timeoutMs: 3000 });
  const owner = await SelectionOwner.take(
    x,
    'CLIPBOARD',
    request.forms.map((form) => ({ target: form.target, type: form.type, data: Buffer.from(form.data, 'base64') })),
  );
  process.stdout.write(`ready ${process.pid}\n`);
  const timer = setTimeout(() => owner.release('kept for its whole time'), request.keepMs);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => owner.release(`received ${signal}`));
  await owner.lost;
  clearTimeout(timer);
  await x.sync().catch(() => undefined);
  x.close();
}

keep().then(
  () => process.exit(0),
  (error: unknown) => {
    // The parent reads this line when the keeper fails before it is ready.
    process.stdout.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
