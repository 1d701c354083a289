// The fixture pages of test/fixtures/web over HTTP on loopback, for what a file: page cannot show: a page holding a
// frame of another origin (two servers are two origins). Only fixture pages by their plain names are served.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface FixtureServer {
  /** "http://127.0.0.1:PORT", without a trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export async function serveFixtures(directory: string): Promise<FixtureServer> {
  const server = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://loopback').pathname.slice(1);
    if (!/^[\w-]+\.html$/.test(name)) return void response.writeHead(404).end();
    readFile(join(directory, name)).then(
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
