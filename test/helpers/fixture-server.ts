// The fixture pages of test/fixtures/web over HTTP on loopback, for what a file: page cannot show: a page holding a
// frame of another origin (two servers are two origins), or one that comes late. Only fixture pages by their plain
// names are served.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface FixtureServer {
  /** "http://127.0.0.1:PORT", without a trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export async function serveFixtures(directory: string): Promise<FixtureServer> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://loopback');
    const name = url.pathname.slice(1);
    if (!/^[\w-]+\.html$/.test(name)) return void response.writeHead(404).end();
    // ?delay_ms=N (at most 3 s): the page comes that much later, as from a slow server.
    const delayMs = Math.min(3000, Math.max(0, Number(url.searchParams.get('delay_ms')) || 0));
    sleep(delayMs).then(() => readFile(join(directory, name))).then(
      (body) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
