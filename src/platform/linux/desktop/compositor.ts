#!/usr/bin/env node
// The embedded desktop's minimal compositor: it asks the X server to render every top-level window into
// its own off-screen buffer (Composite, automatic redirection), so a window that another covers, or that
// reaches past the screen edge, can still be captured whole. The X server keeps drawing the screen itself;
// the redirection lasts as long as this connection, so the process stays until the X server goes away.
import { X11Connection } from '../x11/index.js';

async function main(): Promise<void> {
  const display = process.argv[2];
  if (!display) throw new Error('usage: compositor.js :N');
  const x = await X11Connection.connect({ display, timeoutMs: 5000 });
  await x.checked(async () => {
    await x.composite.redirectSubwindows(x.screen.root, 'automatic');
  });
  x.onClose(() => process.exit(0));
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`compositor: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
