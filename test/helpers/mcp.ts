import type { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath } from './desktop.js';

/** The transport takes only set variables; ProcessEnv may hold undefined ones. */
export function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * The official MCP client connected over stdio to `cup-driver <args>`, as an agent's client connects.
 * stderr() is what the server wrote to its stderr when that is piped, else empty.
 */
export async function connectMcp(
  env: NodeJS.ProcessEnv,
  args: string[] = ['mcp'],
  stderr: 'pipe' | 'inherit' | 'ignore' = 'ignore',
  cwd?: string,
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, ...args], env: stringEnv(env), stderr, ...(cwd ? { cwd } : {}) });
  let written = '';
  (transport.stderr as PassThrough | null)?.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  const client = new Client({ name: 'cup-driver-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => written };
}
