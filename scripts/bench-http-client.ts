// One MCP client of the HTTP benchmark in a process of its own, as an agent is: it connects to the server named
// on its command line (the URL, the token file), then for each line "<tool> <json arguments>" on stdin calls the
// tool and prints the call's milliseconds, or "error <text>". Apart, the clients do not queue behind one another's
// parsing of their answers (a screenshot is ~100 KB of JSON), which four clients in one process did.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, tokenFile] = process.argv.slice(2);
if (!url || !tokenFile) throw new Error('usage: bench-http-client <url> <token file>');
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${readFileSync(tokenFile, 'utf8').trim()}` } } });
const client = new Client({ name: 'cup-driver-bench', version: '1.0.0' });
await client.connect(transport);
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const space = line.indexOf(' ');
  const [tool, args] = [line.slice(0, space), JSON.parse(line.slice(space + 1)) as Record<string, unknown>];
  const started = performance.now();
  try {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 30_000 });
    const elapsed = performance.now() - started;
    process.stdout.write(result.isError ? `error ${JSON.stringify(result.content).slice(0, 300)}\n` : `${elapsed}\n`);
  } catch (error) {
    process.stdout.write(`error ${(error as Error).message}\n`);
  }
}
await client.close();
